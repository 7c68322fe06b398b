// Where the response cache keeps its bodies: copied, one after another, into
// large buffers ("slabs"), rather than each into an ArrayBuffer of its own. An
// ArrayBuffer per body cost a cached miss several microseconds (the backing
// store's allocation, its zeroing, its registration with the collector, and
// later its sweep), more than copying the bytes themselves: on recommended
// misses answered on the HTTP thread, the cached copy's own buffer was about a
// tenth of the thread's time.
//
// A slab no body is kept in any more is let go of. A few are kept spare and
// written again, since a new slab's memory is mapped page by page as it is
// first written (256 page faults a megabyte: about 4% of the HTTP thread's
// time on static misses). A spare slab is written again only from the event
// loop's next turn on: a body handed out stays as it is until then, and every
// reply is written within the turn it is read in (uWS copies what it writes;
// the server refuses uWS's JavaScript fallback, which does not).

/** Emptied slabs kept to be written again; any more are left to the collector. */
const SPARE_SLABS_AT_MOST = 2;

/** One buffer of bodies, written from the front. */
export class Slab {
  /** Bytes written. */
  used = 0;
  /** Bodies stored in it and not yet released. */
  kept = 0;

  constructor(readonly bytes: Uint8Array) {}

  /** Empty again, to be written from the front. */
  reset(): this {
    this.used = 0;
    this.kept = 0;
    return this;
  }
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
  private held = 0;
  private readonly slabBytes: number;
  private current: Slab | null = null;
  /** Emptied slabs that may be written again. */
  private readonly spare: Slab[] = [];
  /** Slabs emptied in this turn of the event loop: spare from the next turn on. */
  private emptied: Slab[] = [];
  private sparing: ReturnType<typeof setImmediate> | null = null;

  /** For a cache whose budget is `budgetBytes`. */
  constructor(budgetBytes: number) {
    this.slabBytes = Math.min(SLAB_BYTES_AT_MOST, Math.floor(budgetBytes / SLABS_PER_BUDGET_AT_LEAST));
  }

  /**
   * What every slab that still keeps a body takes, and the slab being written
   * (even empty): what the bodies really cost, the spare slabs aside.
   */
  get heldBytes(): number {
    return this.held;
  }

  /** Whether moving a body out of `slab` could let it go: not the slab being written, nor a body's own slab. */
  freedByMoving(slab: Slab): boolean {
    return slab !== this.current && slab.bytes.length === this.slabBytes;
  }

  /** A copy of `body` that stays as it is until released, and after it until the event loop's next turn. */
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
    if (--slab.kept === 0 && slab !== this.current) this.letGo(slab);
  }

  private slabWithRoom(size: number): Slab {
    const current = this.current;
    if (current !== null && current.used + size <= current.bytes.length) return current;
    // The slab being written is let go of now if every body in it was released meanwhile.
    if (current !== null && current.kept === 0) this.letGo(current);
    return (this.current = this.newSlab(this.slabBytes));
  }

  /** A spare slab when one of this size is, else a new one. */
  private newSlab(size: number): Slab {
    const slab = (size === this.slabBytes ? this.spare.pop()?.reset() : undefined) ?? new Slab(new Uint8Array(size));
    this.held += slabCost(slab);
    return slab;
  }

  /** The slab keeps no body: spare from the next turn on if it is of the usual size and too few are, else the collector's. */
  private letGo(slab: Slab): void {
    this.held -= slabCost(slab);
    if (slab.bytes.length !== this.slabBytes || this.spare.length + this.emptied.length >= SPARE_SLABS_AT_MOST) return;
    this.emptied.push(slab);
    this.sparing ??= setImmediate(() => {
      this.spare.push(...this.emptied);
      this.emptied = [];
      this.sparing = null;
    });
  }
}

function slabCost(slab: Slab): number {
  return slab.bytes.length + SLAB_OVERHEAD_BYTES;
}
