// Which pool workers have finished starting: loaded their modules and opened
// the store. Piscina stops a worker by terminating it wherever it is, and a
// worker terminated while it is still starting can abort the whole process
// (Node 20, both seen: "FATAL ERROR: Error::ThrowAsJavaScriptException
// napi_throw" from lmdb's open, and "v8::Module::IsGraphAsync must be used on
// an instantiated module" from the module loader; a service closed moments
// after it started, as tests do and as a restart loop may). So the pool stops
// its workers only once each has said it started, or has exited.
/** The key of the message a worker posts on its parent port once it has started; its value is the worker's thread id. */
export const WORKER_STARTED = "aisleWorkerStarted";

/** What the pool needs of a worker thread to wait for it (node:worker_threads' Worker). */
export interface StartingWorker {
  /** -1 once the thread has exited. */
  readonly threadId: number;
  once(event: "exit", listener: () => void): unknown;
  off(event: "exit", listener: () => void): unknown;
}

export class WorkerStarts {
  private readonly started = new Set<number>();
  private readonly waiting = new Map<number, () => void>();

  /** Takes each message workers post outside tasks; others than WORKER_STARTED are ignored. */
  onMessage(message: unknown): void {
    if (typeof message !== "object" || message === null || !(WORKER_STARTED in message)) return;
    const thread = (message as Record<string, unknown>)[WORKER_STARTED];
    if (typeof thread !== "number") return;
    this.started.add(thread);
    this.waiting.get(thread)?.();
    this.waiting.delete(thread);
  }

  /** How many workers have said they started, over the pool's life (a replacement counts too). */
  get count(): number {
    return this.started.size;
  }

  /**
   * Resolves once none of the workers `current` gives is still starting, or
   * after `timeoutMs`: asked again after each wait, since a pool replaces a
   * worker that exited meanwhile with one that starts anew.
   */
  async allStarted(current: () => readonly StartingWorker[], timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const starting = current().filter((worker) => worker.threadId >= 0 && !this.started.has(worker.threadId));
      const left = deadline - performance.now();
      if (starting.length === 0 || left <= 0) return;
      await this.settled(starting, left);
    }
  }

  /**
   * Resolves once every one of `workers` has started or exited, or after
   * `timeoutMs` (a worker stuck in its start is then terminated all the same).
   */
  async settled(workers: readonly StartingWorker[], timeoutMs: number): Promise<void> {
    const cleanups: (() => void)[] = [];
    const each = workers.flatMap((worker) => {
      const thread = worker.threadId;
      if (thread < 0 || this.started.has(thread)) return [];
      return [
        new Promise<void>((resolve) => {
          this.waiting.set(thread, resolve);
          worker.once("exit", resolve);
          cleanups.push(() => {
            worker.off("exit", resolve);
            this.waiting.delete(thread);
          });
        }),
      ];
    });
    if (each.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([Promise.all(each), timeout]);
    clearTimeout(timer);
    cleanups.forEach((cleanup) => cleanup());
  }
}
