// The data versions a thread keys its cached answers by, read from LMDB at
// most once a millisecond rather than once per request. On the HTTP thread a
// version read cost a cache hit about 2 µs of its 14 µs (wrk at 10
// connections on the demo shop: its first read after a turn of network I/O
// finds nothing of LMDB in the CPU's caches), where the same read costs
// 0.26 µs in a tight loop.
//
// How fresh: lmdb-js itself renews a thread's read snapshot only at the first
// read after its reset timer (a timer tick, 1 ms or more) or after a commit
// of this thread, so another thread's write already reaches a reader up to a
// tick late; a remembered version adds at most MAX_AGE_MS to that. What this
// thread commits asynchronously, or sees by Store.refreshSnapshot (the event
// applier's progress), clears them at once: whoever sees a write of this
// thread acknowledged (an answered write, an applied stream sequence) meets
// its version, as with a direct read.
//
// Why an older version is safe as a cache key: an answer is always computed
// at a snapshot at least as new as the version it is stored under (a worker
// renews its snapshot per task, and this thread's only moves forward), so an
// entry never holds older data than its key says.
import { performance } from "node:perf_hooks";
import type { MerchantId } from "../core/types.js";
import type { DataDomain } from "./environment.js";

/** How long a version read is remembered. */
export const MAX_AGE_MS = 1;

/** What this reads of an environment (Environment is one): its versions, and word of this thread's commits. */
export interface VersionedEnvironment {
  version(merchant: MerchantId, domain: DataDomain): number;
  root: { on(event: "aftercommit", listener: () => void): void };
}

export class SnapshotVersions {
  private readonly known = new Map<MerchantId, Map<DataDomain, number>>();
  /** When the oldest remembered version was read (NaN: none is). */
  private readAt = Number.NaN;

  constructor(
    private readonly env: VersionedEnvironment,
    private readonly now: () => number = () => performance.now(),
  ) {
    // lmdb-js calls this after each commit of this thread's asynchronous transactions in the main environment
    // (where the versions are), as it renews the thread's snapshot.
    env.root.on("aftercommit", this.forget);
  }

  /** The merchant's version of `domain`, as read at most MAX_AGE_MS ago and since this thread's last commit. */
  of(merchant: MerchantId, domain: DataDomain): number {
    if (this.now() - this.readAt > MAX_AGE_MS) this.forget();
    let domains = this.known.get(merchant);
    if (domains === undefined) this.known.set(merchant, (domains = new Map()));
    let version = domains.get(domain);
    if (version === undefined) {
      domains.set(domain, (version = this.env.version(merchant, domain)));
      if (Number.isNaN(this.readAt)) this.readAt = this.now();
    }
    return version;
  }

  /** Reads every version afresh from the next read on. */
  readonly forget = (): void => {
    this.known.clear();
    this.readAt = Number.NaN;
  };
}
