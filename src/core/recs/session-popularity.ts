// S-POP, the baseline every session recommender must beat: the session's own
// items first (the most viewed in it, then the most recent), then the shop's
// most popular items.

/**
 * The first `k` of: with `ownItems`, the prefix's items by how often it viewed
 * them (ties: the latest viewed first); then `popular` (best first), leaving
 * out the prefix's items.
 */
export function sessionPopularity(prefix: readonly number[], popular: readonly number[], k: number, ownItems: boolean): number[] {
  const ranked: number[] = [];
  const viewed = new Set(prefix);
  if (ownItems) {
    const count = new Map<number, number>();
    const last = new Map<number, number>();
    prefix.forEach((item, at) => {
      count.set(item, (count.get(item) ?? 0) + 1);
      last.set(item, at);
    });
    ranked.push(...[...count.keys()].sort((a, b) => count.get(b)! - count.get(a)! || last.get(b)! - last.get(a)!).slice(0, k));
  }
  for (const item of popular) {
    if (ranked.length >= k) break;
    if (!viewed.has(item)) ranked.push(item);
  }
  return ranked;
}
