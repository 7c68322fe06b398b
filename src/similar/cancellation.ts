// Stopping a similar-model build from outside, e.g. at shutdown: the build
// calls a checkpoint between small steps of work, and the checkpoint throws
// once the caller asked it to stop. Nothing is written before the last one, so
// a stopped build leaves the store and the model directory as they were.
// Kept apart from build.ts, which loads ONNX Runtime: the HTTP thread only
// needs the error class.

/** Called between steps of a build; throws BuildCancelled once the build should stop. */
export type Checkpoint = () => void;

export class BuildCancelled extends Error {
  constructor() {
    super("the similar-model work was cancelled (the service is stopping)");
    this.name = "BuildCancelled";
  }
}

/** A checkpoint for builds nobody stops (the CLI, evaluations, benchmarks). */
export const NEVER_CANCELLED: Checkpoint = () => {};

/** The checkpoint of a thread whose owner sets `flag[0]` to ask it to stop (the flag lives in shared memory). */
export function checkpointOn(flag: Int32Array): Checkpoint {
  return () => {
    if (Atomics.load(flag, 0) !== 0) throw new BuildCancelled();
  };
}
