// The prior: how generic a product is, the mean over its title's terms of
// ln(df)/ln(N). Among products matching a query equally well, shoppers mostly
// mean the plain product ("drill"), not an accessory with rare extra words.
//
// It moves with every document frequency, so no stored value can follow it
// exactly: one product more with "steel" changes the prior of every product
// whose title says "steel". What is stored instead is each product's sum of
// priorGrid(df), whole powers of two, which changes only when a term's df
// crosses one (a doubling or halving: a few updates per change, amortised),
// and bounds the prior to within ln 2 / ln N (doc-columns.ts keeps it per doc,
// with the bounds). The ranker ranks on those bounds and computes the exact
// prior, from the title's terms, only for the few products that can reach the
// page.

/** floor(log2(df)) for df ≥ 1. */
export function priorGrid(df: number): number {
  return 31 - Math.clz32(df);
}

/** The exact prior, as 32 bits, of a title with these terms (repeats counted) in a shop of `size` products. */
export function exactPrior(titleTerms: readonly string[], df: (term: string) => number, size: number): number {
  if (titleTerms.length === 0) return 0;
  const logN = Math.log(Math.max(2, size));
  let sum = 0;
  for (const term of titleTerms) sum += Math.log(Math.max(1, df(term))) / logN;
  return Math.fround(sum / titleTerms.length);
}
