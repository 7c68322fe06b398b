// The event-log thread (src/ingest/event-writer.ts): batches that arrive while
// a commit is under way are logged together in the next one, and the HTTP
// thread is told at once so it can acknowledge them. It writes only to the
// log's own LMDB environment, so nothing else makes a commit wait; applying
// the events is the applier thread's (workers/event-applier-entry.ts).
import { parentPort, workerData } from "node:worker_threads";
import type { BehaviourEvent, MerchantId } from "../src/core/types.js";
import type { EventBatchMessage, EventThreadData, EventWriterReply } from "../src/ingest/event-writer.js";
import { Store } from "../src/stores/store.js";

/** Most events in one log commit: a burst is split so its first events are answered sooner. */
const MAX_EVENTS_PER_COMMIT = 5_000;

const { dataDir } = workerData as EventThreadData;
const store = Store.open(dataDir);
const port = parentPort!;
const post = (reply: EventWriterReply) => port.postMessage(reply);

let queued: EventBatchMessage[] = [];
let drainScheduled = false;

port.on("message", (message: EventBatchMessage | { type: "close" }) => {
  if (message.type === "close") {
    void store.close().then(() => process.exit(0));
    return;
  }
  queued.push(message);
  if (!drainScheduled) {
    drainScheduled = true;
    // After every message already waiting has been received.
    setImmediate(drain);
  }
});
post({ type: "ready", recovered: 0, through: [] });

function drain(): void {
  drainScheduled = false;
  const batches = queued;
  queued = [];
  let start = 0;
  while (start < batches.length) {
    let end = start;
    let count = 0;
    while (end < batches.length && (count === 0 || count + batches[end]!.events.length <= MAX_EVENTS_PER_COMMIT)) {
      count += batches[end]!.events.length;
      end++;
    }
    logCommit(batches.slice(start, end));
    start = end;
  }
}

function logCommit(batches: EventBatchMessage[]): void {
  const ids = batches.map((batch) => batch.id);
  let firsts: Map<MerchantId, number>;
  try {
    firsts = store.appendEventLogSync(groupByMerchant(batches));
  } catch (error) {
    post({ type: "failed", ids, message: String((error as Error)?.message ?? error) });
    return;
  }
  post({ type: "committed", ids, firsts: [...firsts] });
}

/** Events per merchant, in arrival order. */
function groupByMerchant(batches: readonly EventBatchMessage[]): Map<MerchantId, BehaviourEvent[]> {
  const groups = new Map<MerchantId, BehaviourEvent[]>();
  for (const { merchants, events } of batches) {
    events.forEach((event, i) => {
      const merchant = merchants[i]!;
      const list = groups.get(merchant);
      if (list) list.push(event);
      else groups.set(merchant, [event]);
    });
  }
  return groups;
}
