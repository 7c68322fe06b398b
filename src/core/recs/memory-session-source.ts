// A session index held in memory, built from whole sessions in arrival order:
// what a shop's tuning queries (its training part of the shop's recent
// sessions, without the validation sessions that follow them), read as the
// stored index is read (src/stores/session-index.ts): sessions numbered by
// arrival, each item's `keptPerItem` most recent sessions, exact counts.
import type { SessionSource } from "./session-knn.js";

export class MemorySessionSource implements SessionSource {
  readonly sessionCount: number;
  readonly newestSession: number;
  /** Per item: the sessions that viewed it, oldest first (every one of them, for the count). */
  private readonly viewers = new Map<number, number[]>();
  private readonly recent = new Map<number, Int32Array>();

  constructor(
    private readonly sessions: readonly Float64Array[],
    private readonly keptPerItem: number,
  ) {
    this.sessionCount = sessions.length;
    this.newestSession = sessions.length - 1;
    sessions.forEach((views, session) => {
      for (const item of new Set(views)) {
        const list = this.viewers.get(item);
        if (list === undefined) this.viewers.set(item, [session]);
        else list.push(session);
      }
    });
  }

  recentSessionsWith(item: number): Int32Array | null {
    let kept = this.recent.get(item);
    if (kept === undefined) {
      const all = this.viewers.get(item);
      if (all === undefined) return null;
      kept = Int32Array.from(all.slice(-this.keptPerItem));
      this.recent.set(item, kept);
    }
    return kept;
  }

  sessionCountWith(item: number): number {
    return this.viewers.get(item)?.length ?? 0;
  }

  viewsOf(session: number): Float64Array | null {
    return this.sessions[session] ?? null;
  }
}
