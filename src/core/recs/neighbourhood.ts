// What session kNN finds in the index for a prefix before any setting but its
// sample size weighs it, and the reusable buffers it is gathered into: an
// endpoint query votes on it at once and lets it go, so it lives in buffers
// the next query overwrites; a tuning keeps a copy per validation case.
import { grownTo } from "../typed-arrays.js";

/**
 * The prefix items the index knows, the most similar of the sampled sessions
 * with their views, and where each is anchored to the prefix. Voting on it
 * (SessionKnn.vote) under a setting with the same sample size and no more
 * neighbours gives what SessionKnn.query gives. Items are numbered locally
 * (prefix items first); a neighbourhood is voted on with the source it was
 * found in.
 */
export interface Neighbourhood {
  /** The sample size it was found with, and the most neighbours it holds: what a setting voting on it must not exceed. */
  readonly sampleSize: number;
  readonly neighbours: number;
  /** The prefix's items the index knows, as local items, in view order (repeats kept). */
  readonly known: Int32Array;
  /** Product id by local item number. */
  readonly items: Float64Array;
  /** Per local item: steps back from the prefix's end to its last view there (1 = the latest; 0: not in the prefix). */
  readonly itemStep: Int32Array;
  /** Per local item: its idf in the index (see SessionKnnConfig.idfWeight), filled in when a vote first needs it (NaN: not yet). */
  readonly idfCache: Float64Array;
  /** The neighbours, most similar first: arrival number, similarity to the prefix. */
  readonly sessions: Int32Array;
  readonly similarity: Float64Array;
  /** Per neighbour: steps back to the latest prefix item it shares (0: it votes for nothing), and where that sits in its views. */
  readonly nearest: Int32Array;
  readonly anchor: Int32Array;
  /** Per neighbour: its views as local items, from viewStart[n] to viewStart[n + 1] in viewItems. */
  readonly viewStart: Int32Array;
  readonly viewItems: Int32Array;
}

/** A neighbourhood the caller keeps: every array its own. */
export function copyOf(hood: Neighbourhood): Neighbourhood {
  return {
    sampleSize: hood.sampleSize,
    neighbours: hood.neighbours,
    known: hood.known.slice(),
    items: hood.items.slice(),
    itemStep: hood.itemStep.slice(),
    idfCache: hood.idfCache.slice(),
    sessions: hood.sessions.slice(),
    similarity: hood.similarity.slice(),
    nearest: hood.nearest.slice(),
    anchor: hood.anchor.slice(),
    viewStart: hood.viewStart.slice(),
    viewItems: hood.viewItems.slice(),
  };
}

/** Per-neighbour and per-item arrays a neighbourhood is gathered into, doubled when one needs more. */
export class NeighbourhoodBuffers {
  sessions = new Int32Array(256);
  similarity = new Float64Array(256);
  nearest = new Int32Array(256);
  anchor = new Int32Array(256);
  viewStart = new Int32Array(257);
  viewItems = new Int32Array(2048);
  known = new Int32Array(64);
  items = new Float64Array(1024);
  itemStep = new Int32Array(1024);
  idfCache = new Float64Array(1024);

  /** Room for `count` neighbours (and their view starts), zeroed where they go. */
  forNeighbours(count: number): void {
    if (count + 1 > this.viewStart.length) {
      const size = 2 * (count + 1);
      this.sessions = grownTo(this.sessions, size);
      this.similarity = grownTo(this.similarity, size);
      this.nearest = grownTo(this.nearest, size);
      this.anchor = grownTo(this.anchor, size);
      this.viewStart = grownTo(this.viewStart, size);
    }
    this.nearest.fill(0, 0, count);
    this.anchor.fill(0, 0, count);
  }

  /** Room for `count` views of neighbours. */
  forViews(count: number): void {
    if (count > this.viewItems.length) this.viewItems = grownTo(this.viewItems, 2 * count);
  }

  /** Room for `count` local items and `known` prefix items. */
  forItems(count: number, known: number): void {
    if (count > this.items.length) {
      this.items = grownTo(this.items, 2 * count);
      this.itemStep = grownTo(this.itemStep, 2 * count);
      this.idfCache = grownTo(this.idfCache, 2 * count);
    }
    if (known > this.known.length) this.known = grownTo(this.known, 2 * known);
  }

  /** The gathered neighbourhood: views of these buffers, valid until they are written again. */
  view(sampleSize: number, neighbours: number, count: number, views: number, items: number, known: number): Neighbourhood {
    return {
      sampleSize,
      neighbours,
      known: this.known.subarray(0, known),
      items: this.items.subarray(0, items),
      itemStep: this.itemStep.subarray(0, items),
      idfCache: this.idfCache.subarray(0, items),
      sessions: this.sessions.subarray(0, count),
      similarity: this.similarity.subarray(0, count),
      nearest: this.nearest.subarray(0, count),
      anchor: this.anchor.subarray(0, count),
      viewStart: this.viewStart.subarray(0, count + 1),
      viewItems: this.viewItems.subarray(0, views),
    };
  }
}
