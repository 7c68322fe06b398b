// Keeps each shop's viewed-related tuned to its own sessions, from the HTTP
// process: every look, a merchant whose sessions have grown enough since its
// last tuning (tuneDue) is tuned on a thread of its own (tuneInThread), one
// merchant at a time. Event apply never waits for it: the thread reads the
// session index at its own snapshot and writes one record at its end.
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";
import { tunedByEarlierBuild } from "../stores/viewed-related-tuning.js";
import { ShopJob, type TunerLog } from "./shop-job.js";
import { tuneInThread } from "./tune-thread.js";
import { TuneCancelled } from "./tune-viewed-related.js";

/** Sessions a shop has had before its first tuning: about a hundred validation sessions. */
export const MIN_SESSIONS_TO_TUNE = 1_000;
/** A shop is tuned again once its sessions have grown this much since the last tuning… */
const GROWTH_TO_RETUNE = 1.5;
/** …or by this many (a shop at its session cap keeps numbering new sessions while old ones are pruned). */
const SESSIONS_TO_RETUNE = 250_000;
/** How often the tuner looks for a merchant that is due: a read per merchant. */
const LOOK_EVERY_MS = 60_000;
/** The seed of every background tuning: a shop's settings depend on its sessions alone. */
const TUNE_SEED = 1;

/**
 * Whether a shop whose index has numbered `numbered` sessions is due a
 * tuning, `last` at its last one (undefined: never tuned). A tuning an
 * earlier build wrote (`outdated`: no re-ranker, or one this build refuses)
 * is done again at once, not when sessions have grown.
 */
export function tuneDue(numbered: number, last: number | undefined, outdated = false): boolean {
  if (numbered < MIN_SESSIONS_TO_TUNE) return false;
  return last === undefined || outdated || numbered >= GROWTH_TO_RETUNE * last || numbered - last >= SESSIONS_TO_RETUNE;
}

export class ViewedRelatedTuner extends ShopJob {
  constructor(
    store: Store,
    private readonly dataDir: string,
    log: TunerLog,
    lookEveryMs = LOOK_EVERY_MS,
  ) {
    super(store, log, lookEveryMs, "viewed-related tuning");
  }

  protected due(merchant: MerchantId): boolean {
    const numbered = this.store.sessionIndex.head(merchant)?.next ?? 0;
    const tuning = this.store.viewedRelatedTuning.read(merchant);
    return tuneDue(numbered, tuning?.sessionsNumbered, tuning !== undefined && tunedByEarlierBuild(tuning));
  }

  protected async run(merchant: MerchantId): Promise<void> {
    const tuning = await tuneInThread(this.dataDir, merchant, TUNE_SEED, this.stopping.signal);
    if (tuning === null) return;
    this.log.info("viewed-related tuned on the shop's sessions", {
      merchant,
      sessions: tuning.trainSessions + tuning.validationSessions,
      served: tuning.validation.served,
      seconds: tuning.seconds,
    });
  }

  protected cancelled(error: unknown): boolean {
    return error instanceof TuneCancelled;
  }
}
