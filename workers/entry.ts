// Piscina worker entry: opens the store once per thread, then answers tasks.
// Each task kind is one call into src/: this file only adapts results to the
// wire (bytes moved, not copied; expected failures as data).
import { move } from "piscina";
import { parentPort, threadId, workerData } from "node:worker_threads";
import { answerListTask } from "../src/lists/list-task.js";
import { isDropped, type PoolMessage, type Task, type TaskResult, type WireResult, type WorkerConfig } from "../src/pool/protocol.js";
import { timerTurns } from "../src/pool/timer-turns.js";
import { oneAtATime } from "../src/pool/one-at-a-time.js";
import { heapReporter } from "../src/pool/worker-heaps.js";
import { WORKER_STARTED } from "../src/pool/worker-starts.js";
import { withMeaningFallback } from "../src/search/meaning-fallback.js";
import { quickView } from "../src/search/quick-view.js";
import { Store } from "../src/stores/store.js";

const config = workerData as WorkerConfig;
const store = Store.open(config.dataDir, { searchCacheBytes: config.searchCacheBytes });
const searchDependencies = withMeaningFallback(store, config.dataDir);
// Opening read the store: let go of that snapshot now. A worker blocks between
// tasks, so lmdb-js's timer does not renew it (see timer-turns.ts); held, it pins every page freed
// after it, and under event ingest (which gives workers no task) the data file
// grew to 2.2 GB after 600k events (69 MB released). The price, measured under
// event load: reusing freed pages, LMDB writes several times more bytes to disk
// per event, without a measurable change in acknowledged events/s.
store.refreshSnapshot();
const reportHeap = heapReporter(config.heapChannel);
const timerTurnDue = timerTurns();
// Started: the pool may stop this worker from now on (see worker-starts.ts).
parentPort?.postMessage({ [WORKER_STARTED]: threadId });

async function run(task: Task): Promise<TaskResult> {
  switch (task.kind) {
    case "quick_view":
      return quickView(store, task, searchDependencies);
    case "ping":
      return { ok: true, body: new Uint8Array(0) };
    default:
      return answerListTask(store, task);
  }
}

/** Success is the body itself, moved (not copied) to the uWS thread; see WireResult. Tasks run in turn (one-at-a-time.ts). */
const handle = oneAtATime(answer);
export default handle;

async function answer(message: PoolMessage): Promise<WireResult> {
  // Handed while another task ran, and every client waiting for it has gone since: not worth running.
  if (isDropped(message)) return { ok: false, code: "abandoned", message: "the client went away before the worker started the task" };
  const { task } = message;
  const timerTurn = timerTurnDue();
  if (timerTurn !== null) await timerTurn;
  // Read the latest committed state, and let go of it afterwards: an idle worker
  // holding an old snapshot stops LMDB from reusing freed pages, and the file grows.
  store.refreshSnapshot();
  let result: TaskResult;
  try {
    result = await run(task);
  } finally {
    store.refreshSnapshot();
    reportHeap();
  }
  if (!result.ok) return result;
  return move(result.body) as Uint8Array;
}
