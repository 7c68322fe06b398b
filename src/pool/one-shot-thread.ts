// One-shot threads (a similar-model training, the demo seed): their messages
// say how they ended, and the outcome settles only once the thread has exited
// (its store closed), so whoever awaits it may close the data dir next.
import { Worker } from "node:worker_threads";
import { compiledWorkerFile } from "./worker-file.js";

/** How a one-shot thread ended, as one of its messages says. */
export type ThreadEnd<T> = { value: T } | { error: Error };

/**
 * Runs the compiled thread `file` with `workerData` to its end. `onMessage`
 * turns a message into the thread's end, or returns null for a message that
 * does not end it (progress). A thread that exits without saying how it ended
 * rejects, named `name`.
 */
export function runOneShotThread<Message, T>(
  file: string,
  workerData: unknown,
  name: string,
  onMessage: (message: Message) => ThreadEnd<T> | null,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(compiledWorkerFile(file), { workerData });
    let end: ThreadEnd<T> | null = null;
    worker.on("message", (message: Message) => {
      end = onMessage(message) ?? end;
    });
    worker.on("error", (error) => (end ??= { error }));
    worker.on("exit", (code) => {
      const outcome = end ?? { error: new Error(`${name} stopped (exit ${code})`) };
      if ("value" in outcome) resolve(outcome.value);
      else reject(outcome.error);
    });
  });
}
