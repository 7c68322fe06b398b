// The session index rebuilt from the event log, for a data dir that lacks it
// (DerivedBuilds): the views the histories have taken in, replayed through
// the same writer the applier uses, a slice of the log per transaction. Until
// the build is done the applier leaves the index alone (Store's
// writeDerived), and each slice reads up to the watermark as it then is, so
// the slice that reaches it hands over to the applier with nothing left out
// and nothing taken twice.
import type { BehaviourEvent, MerchantId } from "../core/types.js";
import type { DerivedBuild } from "./derived-builds.js";
import type { SessionIndex } from "./session-index.js";

/** Where a build reads: the event log, and how far the applier has applied it. */
export interface AppliedEventLog {
  eventsSince(merchant: MerchantId, after: number): Iterable<{ sequence: number; event: BehaviourEvent }>;
  derivedSequence(merchant: MerchantId): number;
}

/** Events replayed per slice: about 9 ms of work on Diginetica's log, so events and catalogue writes wait no longer behind a build. */
const SLICE_EVENTS = 1_000;

export class SessionIndexBuild implements DerivedBuild {
  readonly name = "session_index";
  readonly layout = 1;

  constructor(
    private readonly index: SessionIndex,
    private readonly log: AppliedEventLog,
  ) {}

  clear(merchant: MerchantId): void {
    this.index.clear(merchant);
  }

  /** The cursor is the last event sequence replayed. */
  buildSlice(merchant: MerchantId, cursor: number | null): number | null {
    const applied = this.log.derivedSequence(merchant);
    const events: BehaviourEvent[] = [];
    let through = cursor ?? 0;
    for (const { sequence, event } of this.log.eventsSince(merchant, through)) {
      if (sequence > applied || events.length === SLICE_EVENTS) break;
      events.push(event);
      through = sequence;
    }
    this.index.apply(merchant, events);
    return through >= applied ? null : through;
  }
}
