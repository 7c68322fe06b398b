// Piscina worker entry: opens the store once per thread, then answers tasks.
import { move } from "piscina";
import { workerData } from "node:worker_threads";
import type { Task, TaskResult, WireResult, WorkerConfig } from "../src/pool/protocol.js";
import { takeWarmingNotes } from "../src/pool/warming-notes.js";
import { readBudgetsForRequests, REQUEST_READ_BUDGETS } from "../src/recs/sales-history.js";
import { refreshSimilar } from "../src/similar/refresh.js";
import { Store } from "../src/stores/store.js";
import { purchased, viewed } from "./tasks/history-lists.js";
import { recommended } from "./tasks/recommended.js";
import { viewedRelated } from "./tasks/viewed-related.js";
import { salesList } from "./tasks/sales-lists.js";
import { staticProducts } from "./tasks/static-products.js";
import { quickViewSearch } from "./tasks/quick-view.js";
import { warmUp } from "./tasks/warm-up.js";

const config = workerData as WorkerConfig;
const store = Store.open(config.dataDir);
// A call here is a shopper's request: it reads the sales history for a few ms at most.
readBudgetsForRequests(REQUEST_READ_BUDGETS);
// Opening read the store: let go of that snapshot now. A worker blocks between
// tasks, so lmdb-js's timer never renews it; held, it pins every page freed
// after it, and under event ingest (which gives workers no task) the data file
// grew to 2.2 GB after 600k events (69 MB released). The price, measured under
// event load: reusing freed pages, LMDB writes several times more bytes to disk
// per event, without a measurable change in acknowledged events/s.
store.refreshSnapshot();

const encoder = new TextEncoder();

async function run(task: Task): Promise<TaskResult> {
  switch (task.kind) {
    case "static_products":
      return staticProducts(store, task);
    case "trending":
    case "top_sellers":
      return salesList(store, task);
    case "recommended":
      return recommended(store, task);
    case "viewed":
      return viewed(store, task);
    case "viewed_related":
      return viewedRelated(store, task);
    case "purchased":
      return purchased(store, task);
    case "refresh_similar": {
      const summary = await refreshSimilar(store, config.dataDir, task.merchantId, task.productIds);
      return { ok: true, body: encoder.encode(JSON.stringify(summary)) };
    }
    case "quick_view":
      return quickViewSearch(store, config.dataDir, task);
    case "search_warm":
    case "sessions_warm":
    case "sales_warm":
      return warmUp(store, task);
    case "ping":
      return { ok: true, body: new Uint8Array(0) };
    default:
      return { ok: false, code: "bad_task", message: `unknown task ${(task as { kind: string }).kind}` };
  }
}

/** Success is the body itself, moved (not copied) to the uWS thread; see WireResult. */
export default async function handle(task: Task): Promise<WireResult> {
  // Read the latest committed state, and let go of it afterwards: an idle worker
  // holding an old snapshot stops LMDB from reusing freed pages, and the file grows.
  store.refreshSnapshot();
  let result: TaskResult;
  let noted: string | undefined;
  try {
    result = await run(task);
  } finally {
    store.refreshSnapshot();
    noted = takeWarmingNotes();
  }
  if (!result.ok) return result;
  const warming = [result.warming, noted].filter((note) => note !== undefined).join("; ");
  return warming !== "" ? { warming, body: result.body } : (move(result.body) as Uint8Array);
}
