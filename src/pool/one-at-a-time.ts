// A worker's tasks run one after the other, each starting once the one before
// it has ended, however they arrive: the pool hands a worker its next task
// while one still runs (TASKS_PER_WORKER in pool.ts), and two tasks
// interleaved at their awaits (the re-ranker's ONNX run, the search fallback)
// would share the thread's scratch space and its read snapshot.

/** `run`, called so that each call starts only once every earlier call has settled, fulfilled or rejected. */
export function oneAtATime<Input, Output>(run: (input: Input) => Promise<Output>): (input: Input) => Promise<Output> {
  let previous: Promise<unknown> = Promise.resolve();
  return (input) => {
    const result = previous.then(() => run(input));
    previous = result.then(settled, settled);
    return result;
  };
}

function settled(): void {}
