// Background threads (the event applier, similar-model training) work behind
// what shoppers wait for. When they compete for a core with the HTTP thread or
// a pool worker, the scheduler should run the latter: on a 2-core machine
// under event load, an applier at the same priority preempts the HTTP thread
// at each wake-up, and acknowledged events/s measured 13-17% lower. A higher
// nice value for the background thread alone does that and costs nothing on
// an idle machine; the thread still gets a share of a busy one.
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
 * process's priority; the applier test checks that only one thread is lowered.
 */
export function runAsBackgroundThread(): void {
  if (process.platform !== "linux") return;
  try {
    if (getPriority() < BACKGROUND_NICE) setPriority(BACKGROUND_NICE);
  } catch {
    // Not permitted here (e.g. a sandbox without setpriority): the thread keeps the process's priority.
  }
}
