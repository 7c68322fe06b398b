// Reads of the session index (src/stores/session-index.ts) for session kNN, in
// place at the thread's snapshot. A query reads about two hundred neighbours'
// views and the viewer counts of a few hundred products, each a random read
// of the map (about 1-3 µs on a large index): the ones already read are kept
// while the index stays as it is, in caches bounded per merchant. Any change to a
// merchant's index moves its head (views indexed, sessions numbered, sessions
// kept), and a moved head empties that merchant's caches, so answers are
// always those of the snapshot.
import {
  itemViewers,
  readRecent,
  readSessionViews,
  recentCount,
  sessionViewCount,
  type IndexHead,
} from "../core/recs/session-index-codec.js";
import { KeySlots } from "../core/recs/key-slots.js";
import type { SessionSource } from "../core/recs/session-knn.js";
import { SessionViewsCache } from "../core/recs/session-views-cache.js";
import { grownTo } from "../core/typed-arrays.js";
import type { MerchantId } from "../core/types.js";
import type { SessionTables } from "./session-index.js";

/** Viewer counts kept per merchant: about 1.8 MB at most. */
const COUNTS_KEPT = 50_000;
/**
 * Sessions' views kept per merchant, in each of two generations: at most
 * 100,000 sessions and 500,000 views, about 7 MB a generation, allocated as it
 * fills. On Diginetica's 60,858 test prefixes, 20,000 sessions a generation
 * left session kNN's p99 at about 1 ms, most of it the misses' LMDB reads.
 */
const SESSIONS_KEPT = 100_000;
const VIEWS_KEPT = 500_000;
/** Merchants whose reads are kept; a third takes the arrays of the one kept longest. */
const MERCHANTS_KEPT = 2;

/** What a thread has read of one merchant's index, at the head it read it at. */
interface Kept {
  head: IndexHead;
  /** Products whose viewer counts were read (product ids past 2³¹ make slow Map keys), and the counts by slot. */
  counted: KeySlots;
  counts: Uint32Array;
  /** Sessions' views by arrival number. */
  views: SessionViewsCache;
}

export class SessionIndexReader {
  /** An item's recent sessions, head then tail; valid until the next read. */
  private recent = new Int32Array(1024);
  private readonly kept = new Map<MerchantId, Kept>();

  constructor(private readonly tables: SessionTables) {}

  /**
   * The merchant's index, whose head (read at this snapshot) is `head`: for
   * the task that asked, within its snapshot. The caches it fills are the
   * merchant's, emptied when a later source finds the head moved, so a source
   * kept past its task could fill them with another snapshot's views.
   */
  source(merchant: MerchantId, head: IndexHead): SessionSource {
    const { sessions, itemTails, itemHeads } = this.tables;
    const { counted, counts, views } = this.keptFor(merchant, head);
    return {
      sessionCount: head.live,
      newestSession: head.next - 1,
      recentSessionsWith: (item) => {
        const tail = itemTails.getBinaryFast([merchant, item]);
        if (tail === undefined) return null;
        // Copied before the head is read: a read reuses the buffer the last one returned.
        const tailCount = recentCount(tail, "tail");
        this.ensureRecent(tailCount);
        readRecent(tail, "tail", this.recent, 0);
        const older = itemHeads.getBinaryFast([merchant, item]);
        if (older === undefined) return this.recent.subarray(0, tailCount);
        const headCount = recentCount(older, "head");
        this.ensureRecent(headCount + tailCount);
        this.recent.copyWithin(headCount, 0, tailCount);
        readRecent(older, "head", this.recent, 0);
        return this.recent.subarray(0, headCount + tailCount);
      },
      sessionCountWith: (item) => {
        if (counted.size === COUNTS_KEPT) counted.clear();
        const before = counted.size;
        const slot = counted.slotOf(item);
        if (slot < before) return counts[slot]!;
        const tail = itemTails.getBinaryFast([merchant, item]);
        return (counts[slot] = tail === undefined ? 0 : itemViewers(tail));
      },
      viewsOf: (session) => {
        const kept = views.get(session);
        if (kept !== undefined) return kept;
        const bytes = sessions.getBinaryFast([merchant, session]);
        if (bytes === undefined) return null;
        const read = views.keep(session, sessionViewCount(bytes));
        readSessionViews(bytes, read);
        return read;
      },
    };
  }

  private keptFor(merchant: MerchantId, head: IndexHead): Kept {
    let kept = this.kept.get(merchant);
    if (kept === undefined) {
      kept = this.kept.size < MERCHANTS_KEPT ? newKept(head) : this.takeLongestKept(head);
      this.kept.set(merchant, kept);
    } else if (!sameHead(kept.head, head)) {
      // Emptied, not replaced: the arrays are kept for the next reads (a live shop's head moves with every applied batch).
      emptyKept(kept, head);
    }
    return kept;
  }

  /** The arrays of the merchant kept longest (the first in the map), emptied for another. */
  private takeLongestKept(head: IndexHead): Kept {
    const [merchant, kept] = this.kept.entries().next().value!;
    this.kept.delete(merchant);
    emptyKept(kept, head);
    return kept;
  }

  private ensureRecent(count: number): void {
    if (count > this.recent.length) this.recent = grownTo(this.recent, 2 * count);
  }
}

function newKept(head: IndexHead): Kept {
  return { head, counted: new KeySlots(), counts: new Uint32Array(COUNTS_KEPT), views: new SessionViewsCache(SESSIONS_KEPT, VIEWS_KEPT) };
}

function emptyKept(kept: Kept, head: IndexHead): void {
  kept.head = head;
  kept.counted.clear();
  kept.views.clear();
}

function sameHead(a: IndexHead, b: IndexHead): boolean {
  return a.next === b.next && a.live === b.live && a.views === b.views;
}
