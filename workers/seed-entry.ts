// A thread for the demo seed of a first start: the demo's generated objects
// (~180 MB of heap at its default size) live and die with this thread's heap,
// which goes back to the system when it exits, instead of staying in the
// service's own heap for its whole life.
import { parentPort, workerData } from "node:worker_threads";
import { seedDemo } from "../src/demo/seed.js";
import type { SeedThreadData, SeedThreadReply } from "../src/demo/seed-thread.js";
import { Store } from "../src/stores/store.js";

const { dataDir } = workerData as SeedThreadData;
const post = (reply: SeedThreadReply) => parentPort!.postMessage(reply);

const store = Store.open(dataDir);
try {
  post({ type: "seeded", demo: await seedDemo(store) });
} catch (error) {
  post({ type: "failed", message: String((error as Error)?.stack ?? error) });
} finally {
  await store.close();
}
