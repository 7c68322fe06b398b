// The event-applier thread: one EventApplier (src/ingest/event-applier.ts) on
// its own store, fed the HTTP thread's reports of logged events; it also keeps
// the stored rankings.
import { parentPort, workerData } from "node:worker_threads";
import { EventApplier } from "../src/ingest/event-applier.js";
import type { EventApplierMessage, EventThreadData } from "../src/ingest/event-writer.js";
import { Store } from "../src/stores/store.js";

const { dataDir, rankingRefreshMs, retention } = workerData as EventThreadData;
const port = parentPort!;
const applier = new EventApplier(
  Store.open(dataDir),
  rankingRefreshMs,
  retention,
  (reply) => port.postMessage(reply),
  () => process.exit(0),
);
applier.start();
port.on("message", (message: EventApplierMessage) => applier.handle(message));
