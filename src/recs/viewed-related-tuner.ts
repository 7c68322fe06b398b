// Keeps each shop's viewed-related tuned to its own sessions, from the HTTP
// process: every look, a merchant whose sessions have grown enough since its
// last tuning (tuneDue) is tuned on a thread of its own (tuneInThread), one
// merchant at a time. Event apply never waits for it: the thread reads the
// session index at its own snapshot and writes one record at its end.
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";
import { tuneInThread } from "./tune-thread.js";
import { TuneCancelled } from "./tune-viewed-related.js";

export interface TunerLog {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Sessions a shop has had before its first tuning: about a hundred validation sessions. */
export const MIN_SESSIONS_TO_TUNE = 1_000;
/** A shop is tuned again once its sessions have grown this much since the last tuning… */
const GROWTH_TO_RETUNE = 1.5;
/** …or by this many (a shop at its session cap keeps numbering new sessions while old ones are pruned). */
const SESSIONS_TO_RETUNE = 250_000;
/** How often the tuner looks for a merchant that is due: a read per merchant. */
const LOOK_EVERY_MS = 60_000;
/** A tuning that failed is tried again after this long (it would likely fail the same way at once). */
const RETRY_AFTER_MS = 3_600_000;
/** The seed of every background tuning: a shop's settings depend on its sessions alone. */
const TUNE_SEED = 1;

/** Whether a shop whose index has numbered `numbered` sessions is due a tuning, `last` at its last one (undefined: never tuned). */
export function tuneDue(numbered: number, last: number | undefined): boolean {
  if (numbered < MIN_SESSIONS_TO_TUNE) return false;
  return last === undefined || numbered >= GROWTH_TO_RETUNE * last || numbered - last >= SESSIONS_TO_RETUNE;
}

export class ViewedRelatedTuner {
  private readonly timer: NodeJS.Timeout;
  private running: Promise<void> | null = null;
  /** Merchants whose last tuning failed: when each may be tried again. */
  private readonly retryAt = new Map<MerchantId, number>();
  /** Aborted by close(): a tuning under way stops before its next setting. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly store: Store,
    private readonly dataDir: string,
    private readonly log: TunerLog,
    lookEveryMs = LOOK_EVERY_MS,
  ) {
    this.timer = setInterval(() => this.look(), lookEveryMs);
    this.timer.unref();
  }

  /** Starts tuning the first merchant that is due, unless a tuning is under way. */
  look(): void {
    if (this.running !== null || this.stopping.signal.aborted) return;
    const due = this.store.catalogue.listMerchants().find(({ id }) => this.isDue(id));
    if (due === undefined) return;
    this.running = this.tune(due.id).finally(() => (this.running = null));
  }

  /** Resolves once the tuning under way, if any, has ended (tests). */
  async idle(): Promise<void> {
    await this.running;
  }

  /** Stops looking and stops a tuning under way; resolves once its thread has exited. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.stopping.abort();
    await this.running;
  }

  private isDue(merchant: MerchantId): boolean {
    if ((this.retryAt.get(merchant) ?? 0) > Date.now()) return false;
    const numbered = this.store.sessionIndex.head(merchant)?.next ?? 0;
    return tuneDue(numbered, this.store.viewedRelatedTuning.read(merchant)?.sessionsNumbered);
  }

  private async tune(merchant: MerchantId): Promise<void> {
    try {
      const tuning = await tuneInThread(this.dataDir, merchant, TUNE_SEED, this.stopping.signal);
      this.retryAt.delete(merchant);
      if (tuning === null) return;
      this.log.info("viewed-related tuned on the shop's sessions", {
        merchant,
        sessions: tuning.trainSessions + tuning.validationSessions,
        served: tuning.validation.served,
        seconds: tuning.seconds,
      });
    } catch (error) {
      if (error instanceof TuneCancelled) this.log.info("viewed-related tuning stopped for the shutdown", { merchant });
      else {
        this.retryAt.set(merchant, Date.now() + RETRY_AFTER_MS);
        this.log.error("viewed-related tuning failed", { merchant, error: String((error as Error)?.stack ?? error) });
      }
    }
  }
}
