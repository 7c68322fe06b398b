// Where the response cache keeps its bodies: copied, one after another, into
// large buffers ("slabs"), rather than each into an ArrayBuffer of its own. An
// ArrayBuffer per body cost a cached miss several microseconds (the backing
// store's allocation, its zeroing, its registration with the collector, and
// later its sweep), more than copying the bytes themselves: on recommended
// misses answered on the HTTP thread, the cached copy's own buffer was about a
// tenth of the thread's time. A slab is written once and never reused: a body
// handed out is a view of bytes that nothing overwrites, so it may be held as
// long as anyone likes (a reply waiting on a promise, a socket's backpressure).
// A slab no body is kept in any more is let go of, for the collector to free
// once the last view of it is gone.

/** One buffer of bodies, written from the front. */
export class Slab {
  /** Bytes written. */
  used = 0;
  /** Bodies stored in it and not yet released. */
  kept = 0;

  constructor(readonly bytes: Uint8Array) {}
}

/** A stored body: its bytes (a view of its slab), and the slab to release it from. */
export interface SlabBody {
  bytes: Uint8Array;
  slab: Slab;
}

/**
 * What a slab costs beyond its bytes: its ArrayBuffer on the heap and its
 * separately allocated backing store (measured with the response cache's entries).
 */
export const SLAB_OVERHEAD_BYTES = 300;
/** Slabs of this size at most; smaller for a small cache, so that one slab is a small part of its budget. */
const SLAB_BYTES_AT_MOST = 1024 * 1024;
/** A cache's budget in slabs, at the least: what one slab holds beyond its live bodies is then a bounded share of the budget. */
const SLABS_PER_BUDGET_AT_LEAST = 64;

export class BodySlabs {
  /** What every slab that still keeps a body takes, and the slab being written: what the bodies really cost. */
  heldBytes = 0;
  private readonly slabBytes: number;
  private current: Slab | null = null;

  /** For a cache whose budget is `budgetBytes`. */
  constructor(budgetBytes: number) {
    this.slabBytes = Math.min(SLAB_BYTES_AT_MOST, Math.floor(budgetBytes / SLABS_PER_BUDGET_AT_LEAST));
  }

  /** A copy of `body` that stays as it is until released, and after (for whoever still holds it). */
  store(body: Uint8Array): SlabBody {
    const size = body.length;
    // A body over half a slab would leave much of one unused: it gets a slab of exactly its size.
    const slab = size > this.slabBytes / 2 ? this.newSlab(size) : this.slabWithRoom(size);
    const start = slab.used;
    slab.bytes.set(body, start);
    slab.used += size;
    slab.kept++;
    return { bytes: slab.bytes.subarray(start, start + size), slab };
  }

  /** The body is no longer kept: its slab is let go of with its last body, unless it is still being written. */
  release(slab: Slab): void {
    if (--slab.kept === 0 && slab !== this.current) this.heldBytes -= slabCost(slab);
  }

  private slabWithRoom(size: number): Slab {
    const current = this.current;
    if (current !== null && current.used + size <= current.bytes.length) return current;
    // The slab being written is let go of now if every body in it was released meanwhile.
    if (current !== null && current.kept === 0) this.heldBytes -= slabCost(current);
    return (this.current = this.newSlab(this.slabBytes));
  }

  private newSlab(size: number): Slab {
    const slab = new Slab(new Uint8Array(size));
    this.heldBytes += slabCost(slab);
    return slab;
  }
}

function slabCost(slab: Slab): number {
  return slab.bytes.length + SLAB_OVERHEAD_BYTES;
}
