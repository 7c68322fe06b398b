// The shop-wide rankings as stored lists of product ids in rank order:
// trending, and top sellers over each kept window, for the whole shop and per
// collection. The ranking writer (src/stores/ranking-writer.ts, on the applier
// thread) replaces them; every worker reads them in place, without sorting or
// summing anything. A list is stored in chunks of raw float64 ids (product ids
// pass 2³¹, so not int32): a short first chunk, which is all that a list
// answer of a few dozen products reads, then larger ones for the readers that
// go deep (search popularity, or filters that skip most products).
import type { Database, RootDatabase } from "lmdb";
import type { MerchantId } from "../core/types.js";
import { merchantRange, type Key } from "./merchant-keys.js";

/** The top-sellers window every merchant keeps: the endpoint's default, the lists' fallback and search popularity's. */
export const DEFAULT_WINDOW_DAYS = 90;
/**
 * A thread asks again for a window it was asked for at most this often, so
 * that the writer keeps it while requests come (it drops a window nobody
 * asked for in a day).
 */
export const ASK_AGAIN_MS = 3_600_000;

export type RankedList = { kind: "trending" } | { kind: "top_sellers"; days: number; collectionId: number | null };

/** The shop's top sellers over the default window: what search popularity follows. */
export const DEFAULT_TOP_SELLERS: RankedList = { kind: "top_sellers", days: DEFAULT_WINDOW_DAYS, collectionId: null };

/** Told, in the transaction that replaces it, how the shop's default-window top sellers change (product ids in rank order). */
export type TopSellersChanged = (merchant: MerchantId, previous: Float64Array, next: Float64Array) => void;

/** What a merchant's stored lists were computed from. */
export interface RankingState {
  /** The day (dayNumber) every window ends with. */
  day: number;
  /** The sales and add-to-cart counts' merchant stamps (DailyCounts.versionOf), and the collections' version, read before the counts. */
  sales: number;
  adds: number;
  collections: number;
  /** When the refresh that wrote them started (epoch ms). */
  computedAt: number;
  /** The top-seller windows stored, in days, ascending; DEFAULT_WINDOW_DAYS among them. */
  windows: number[];
}

/** A list and its ids in rank order. */
export interface ListIds {
  list: RankedList;
  ids: Float64Array;
}

/** Ids of a list's first chunk: a list answer reads only this far unless filters skip most products. */
const HEAD_IDS = 64;
/** Ids of each later chunk (32 KB), so that reading a whole 1M-product ranking takes a few hundred reads. */
const CHUNK_IDS = 4_096;
const ID_BYTES = Float64Array.BYTES_PER_ELEMENT;

function listName(list: RankedList): string {
  if (list.kind === "trending") return "trending";
  return list.collectionId === null ? `top_sellers:${list.days}` : `top_sellers:${list.days}:${list.collectionId}`;
}

/** The ids of chunk `index`, as [start, end) in rank order. */
function chunkRange(index: number): [start: number, end: number] {
  return index === 0 ? [0, HEAD_IDS] : [HEAD_IDS + (index - 1) * CHUNK_IDS, HEAD_IDS + index * CHUNK_IDS];
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(a, b) === 0;
}

export class RankedLists {
  /** [merchant, list name, chunk index] → the chunk's ids as raw float64s. */
  private readonly chunks: Database<Uint8Array, Key>;
  private readonly states: Database<RankingState, MerchantId>;
  /** [merchant, days] → when a top_sellers request last asked for a window that is not the default (epoch ms). */
  private readonly requests: Database<number, Key>;
  /** When this thread last asked for each window, by merchant and days. */
  private readonly asked = new Map<string, number>();

  constructor(
    root: RootDatabase,
    private readonly topSellersChanged: TopSellersChanged,
  ) {
    const structured = { encoding: "msgpack", sharedStructuresKey: Symbol.for("structures") } as const;
    this.chunks = root.openDB<Uint8Array, Key>({ name: "ranked_list_chunks", encoding: "binary" });
    this.states = root.openDB<RankingState, MerchantId>({ name: "ranking_states", ...structured });
    this.requests = root.openDB<number, Key>({ name: "ranking_window_requests", ...structured });
  }

  /** The list's ids in rank order, read a chunk at a time as the caller goes on (none before the first refresh). */
  *read(merchant: MerchantId, list: RankedList): Generator<number> {
    const name = listName(list);
    for (let index = 0; ; index++) {
      const bytes = this.chunkInPlace(merchant, name, index);
      if (bytes === undefined) return;
      // Copied: the next read reuses the buffer, and the caller reads products between ids.
      const ids = new Float64Array(bytes.length / ID_BYTES);
      new Uint8Array(ids.buffer).set(bytes);
      for (let i = 0; i < ids.length; i++) yield ids[i]!;
    }
  }

  state(merchant: MerchantId): RankingState | undefined {
    return this.states.get(merchant);
  }

  /** Every window asked for, and when it was asked for last. */
  windowRequests(merchant: MerchantId): { days: number; at: number }[] {
    return [...this.requests.getRange(merchantRange(merchant))].map(({ key, value }) => ({ days: key[1] as number, at: value }));
  }

  /**
   * Asks the ranking writer to keep a top-sellers window (the HTTP thread, for
   * each top_sellers request): an asynchronous put, at most once per
   * ASK_AGAIN_MS for a window. The promise settles once it is committed, or
   * at once when nothing is written; it never rejects (a failed ask is made
   * again by the next request).
   */
  async askForWindow(merchant: MerchantId, days: number, now: number): Promise<void> {
    const key = `${merchant}\u0000${days}`;
    if (days === DEFAULT_WINDOW_DAYS || now - (this.asked.get(key) ?? Number.NEGATIVE_INFINITY) < ASK_AGAIN_MS) return;
    this.asked.set(key, now);
    await this.requests.put([merchant, days], now).catch(() => this.asked.delete(key));
  }

  /**
   * Replaces every list of the merchant, and its state, in the caller's
   * transaction. Chunks whose bytes did not change are not written again
   * (a new order moves few ranks). True when any list changed.
   */
  replaceAll(merchant: MerchantId, lists: readonly ListIds[], state: RankingState): boolean {
    const previous = Float64Array.from(this.read(merchant, DEFAULT_TOP_SELLERS));
    const wanted = new Map(lists.map(({ list, ids }) => [listName(list), ids]));
    const gone = [...this.chunks.getKeys(merchantRange(merchant))].filter((key) => {
      const [, name, index] = key as [MerchantId, string, number];
      const ids = wanted.get(name);
      return ids === undefined || chunkRange(index)[0] >= ids.length;
    });
    for (const key of gone) this.chunks.remove(key);
    let changed = gone.length > 0;
    for (const [name, ids] of wanted) {
      for (let index = 0; chunkRange(index)[0] < ids.length; index++) {
        const [start, end] = chunkRange(index);
        const bytes = new Uint8Array(ids.buffer, ids.byteOffset + start * ID_BYTES, (Math.min(end, ids.length) - start) * ID_BYTES);
        const stored = this.chunkInPlace(merchant, name, index);
        if (stored !== undefined && sameBytes(stored, bytes)) continue;
        this.chunks.put([merchant, name, index], bytes.slice());
        changed = true;
      }
    }
    this.states.put(merchant, state);
    this.topSellersChanged(merchant, previous, wanted.get(listName(DEFAULT_TOP_SELLERS)) ?? new Float64Array(0));
    return changed;
  }

  /**
   * A chunk's bytes, valid until the next read of this environment: lmdb's
   * shared read buffer, whose `length` lmdb sets to the value's own while the
   * array stays the buffer's size, hence the view.
   */
  private chunkInPlace(merchant: MerchantId, name: string, index: number): Uint8Array | undefined {
    const bytes = this.chunks.getBinaryFast([merchant, name, index]);
    return bytes?.subarray(0, bytes.length);
  }

  /** Forgets requests for windows, in the caller's transaction. */
  removeRequests(merchant: MerchantId, days: readonly number[]): void {
    for (const window of days) this.requests.remove([merchant, window]);
  }

  /** Removes every list and the state of a merchant (not its requests), in the caller's transaction. */
  clear(merchant: MerchantId): void {
    const previous = Float64Array.from(this.read(merchant, DEFAULT_TOP_SELLERS));
    for (const key of this.chunks.getKeys(merchantRange(merchant))) this.chunks.remove(key);
    this.states.remove(merchant);
    this.topSellersChanged(merchant, previous, new Float64Array(0));
  }
}
