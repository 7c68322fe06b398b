// The session index built from the event log, for a data dir that lacks it
// (DerivedBuilds): the same follow the applier runs on a built index, from the
// start of the log, a slice per transaction. Until the build is done the
// applier's follow leaves the index alone, so the readiness check waits for
// the build alone.
import type { MerchantId } from "../core/types.js";
import type { DerivedBuild } from "./derived-builds.js";
import type { AppliedEventLog, SessionIndex } from "./session-index.js";

/** Events replayed per slice: about 9 ms of work on Diginetica's log, so events and catalogue writes wait no longer behind a build. */
const SLICE_EVENTS = 1_000;

export class SessionIndexBuild implements DerivedBuild {
  readonly name = "session_index";
  /** 2: the index keeps its own watermark. */
  readonly layout = 2;

  constructor(
    private readonly index: SessionIndex,
    private readonly log: AppliedEventLog,
  ) {}

  clear(merchant: MerchantId): void {
    this.index.clear(merchant);
  }

  /**
   * Layout 1 was written with the histories, in the transaction that moved the
   * applied watermark, so it holds exactly the applied events: that is its
   * watermark. (A rebuild would read a log already pruned to the event
   * retention, and lose older sessions the session retention keeps.)
   */
  upgrade(merchant: MerchantId, layout: number): boolean {
    if (layout !== 1) return false;
    this.index.markThrough(merchant, this.log.derivedSequence(merchant));
    return true;
  }

  /** The index's watermark is the cursor: a slice goes on from it. */
  buildSlice(merchant: MerchantId): number | null {
    return this.index.follow(merchant, this.log, SLICE_EVENTS) ? null : this.index.through(merchant);
  }
}
