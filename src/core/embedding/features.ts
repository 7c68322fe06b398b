// Product text → hashed features: the input side of the embedding model.
// The scheme is part of the model (recorded in its manifest): whoever embeds
// with a model must hash exactly as it was trained.
import type { Product } from "../types.js";

/** How text becomes bucket ids; stored in every model's manifest. */
export interface HashingScheme {
  /** Number of hash buckets = rows of the embedding table (a power of two). */
  buckets: number;
  /** Field weights: a title word counts more than a description word. */
  weights: {
    titleWord: number;
    /** Shared by a word's character trigrams, so long words do not outweigh short ones. */
    titleTrigrams: number;
    typeWord: number;
    type: number;
    vendor: number;
    tag: number;
    descriptionWord: number;
    /** The product's own id feature: learned from behaviour only, starts at zero. */
    id: number;
  };
  /** Description words beyond this many are ignored (marketing copy repeats itself). */
  maxDescriptionWords: number;
}

export const DEFAULT_HASHING: Omit<HashingScheme, "buckets"> = {
  weights: { titleWord: 3, titleTrigrams: 1, typeWord: 1.5, type: 2, vendor: 0.5, tag: 1, descriptionWord: 0.3, id: 1 },
  maxDescriptionWords: 24,
};

/** A product's (or query's) features: parallel bucket ids and weights, no repeats. */
export interface Features {
  ids: Int32Array;
  weights: Float32Array;
}

/** Entries per slab of FeaturePacker: 4 MB of ids and 4 MB of weights. */
const SLAB_ENTRIES = 1 << 20;

/**
 * Many products' features copied into a few large buffers, each product's
 * arrays views of them. Held as a pair of small typed arrays per product, a
 * 1M-product build made 2M separate allocations; the allocator kept about
 * 1.1 GB of their freed fragments resident after the training thread ended.
 * Large buffers are given back whole, and cost no per-allocation overhead.
 */
export class FeaturePacker {
  private ids = new Int32Array(0);
  private weights = new Float32Array(0);
  private used = 0;

  pack(features: Features): Features {
    const length = features.ids.length;
    if (this.used + length > this.ids.length) {
      const size = Math.max(SLAB_ENTRIES, length);
      this.ids = new Int32Array(size);
      this.weights = new Float32Array(size);
      this.used = 0;
    }
    const ids = this.ids.subarray(this.used, this.used + length);
    const weights = this.weights.subarray(this.used, this.used + length);
    ids.set(features.ids);
    weights.set(features.weights);
    this.used += length;
    return { ids, weights };
  }
}

const STOP_WORDS = new Set("a an and are as at be by for from has in is it its of on or our the this to with you your".split(" "));

/**
 * 32-bit FNV-1a over UTF-16 code units. Namespaced tokens ("w:sofa", "c:sof")
 * keep a word and a trigram with the same letters apart.
 */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !STOP_WORDS.has(word));
}

function stripHtml(html: string): string {
  return html.replace(/<[^>]*>/g, " ").replace(/&[a-z]+;/g, " ");
}

/** Collects weighted tokens and hashes them; repeated tokens add up. */
class FeatureBag {
  private readonly weights = new Map<number, number>();

  constructor(private readonly buckets: number) {}

  add(token: string, weight: number): void {
    if (weight <= 0) return;
    const bucket = fnv1a(token) & (this.buckets - 1);
    this.weights.set(bucket, (this.weights.get(bucket) ?? 0) + weight);
  }

  addWords(text: string, weight: number, trigramWeight = 0): void {
    for (const word of words(text)) {
      this.add(`w:${word}`, weight);
      if (trigramWeight > 0) this.addTrigrams(word, trigramWeight);
    }
  }

  /** Character trigrams with word boundaries ("<so", "sof", "ofa", "fa>"): they carry typos and plurals. */
  private addTrigrams(word: string, weight: number): void {
    const padded = `<${word}>`;
    const count = padded.length - 2;
    for (let start = 0; start < count; start++) this.add(`c:${padded.slice(start, start + 3)}`, weight / count);
  }

  features(): Features {
    const entries = [...this.weights].sort((a, b) => a[0] - b[0]);
    return { ids: Int32Array.from(entries, ([id]) => id), weights: Float32Array.from(entries, ([, weight]) => weight) };
  }
}

/** The text of a product a shopper would call "what it is". */
export type ProductText = Pick<Product, "id" | "title" | "product_type" | "vendor" | "tags" | "body_html">;

export function productFeatures(product: ProductText, scheme: HashingScheme): Features {
  const { weights } = scheme;
  const bag = new FeatureBag(scheme.buckets);
  bag.addWords(product.title, weights.titleWord, weights.titleTrigrams);
  bag.addWords(product.product_type, weights.typeWord);
  if (product.product_type.trim() !== "") bag.add(`t:${product.product_type.trim().toLowerCase()}`, weights.type);
  if (product.vendor.trim() !== "") bag.add(`v:${product.vendor.trim().toLowerCase()}`, weights.vendor);
  for (const tag of product.tags.split(",")) {
    if (tag.trim() !== "") bag.add(`g:${tag.trim().toLowerCase()}`, weights.tag);
  }
  const description = words(stripHtml(product.body_html)).slice(0, scheme.maxDescriptionWords);
  for (const word of description) bag.add(`w:${word}`, weights.descriptionWord);
  bag.add(`id:${product.id}`, weights.id);
  return bag.features();
}

/** A search query embeds like a title: words and their trigrams. */
export function queryFeatures(query: string, scheme: HashingScheme): Features {
  const bag = new FeatureBag(scheme.buckets);
  bag.addWords(query, scheme.weights.titleWord, scheme.weights.titleTrigrams);
  return bag.features();
}

/** The bucket of a product's own id feature (zero in the text-only model). */
export function idBucket(productId: number, scheme: HashingScheme): number {
  return fnv1a(`id:${productId}`) & (scheme.buckets - 1);
}

/** Enough buckets that a catalogue's features rarely collide, within a memory cap. */
export function bucketsFor(distinctTokensEstimate: number): number {
  const wanted = Math.max(1 << 14, distinctTokensEstimate * 4);
  return Math.min(1 << 18, 2 ** Math.ceil(Math.log2(wanted)));
}
