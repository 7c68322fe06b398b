// Background jobs that end (similar-model training) work behind what
// shoppers wait for: when they compete for a core with the HTTP thread or a
// pool worker, the scheduler should run the latter. A higher nice value for
// the job's thread alone does that and costs nothing on an idle machine; the
// job still gets a share of a busy one, and finishes once load drops.
//
// Not for the event applier, which never ends under load: niced, it let
// events be acknowledged faster than it applied them. At 512 connections for
// 90 s its backlog stayed under 10k events at nice 0, but grew to 446k at
// nice 5 and reached the 500k cap (where events are refused) at nice 10. The
// 13-17% more events/s that 10 s runs showed with it niced were borrowed.
import { getPriority, setPriority } from "node:os";

/** The nice value background threads run at (0 is the default, 19 the lowest priority). */
export const BACKGROUND_NICE = 10;

/**
 * Lowers the calling thread's priority to BACKGROUND_NICE (never raises it).
 * Threads it starts later inherit it. Only on Linux, where the nice value is
 * per thread; elsewhere it would lower the whole process.
 *
 * The libuv thread pool, where lmdb commits the event log that
 * acknowledgements wait for, takes the priority of the thread that first uses
 * it. In aisle's processes (ES modules) the module loader has used it on the
 * main thread before any background thread starts, so it stays at the
 * process's priority; its test checks that only the calling thread is lowered.
 */
export function runAsBackgroundThread(): void {
  if (process.platform !== "linux") return;
  try {
    if (getPriority() < BACKGROUND_NICE) setPriority(BACKGROUND_NICE);
  } catch {
    // Not permitted here (e.g. a sandbox without setpriority): the thread keeps the process's priority.
  }
}
