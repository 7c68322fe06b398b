// Every product list task answered by its list module: one table for the pool
// workers (workers/entry.ts) and for the HTTP thread's inline answers
// (inline-answers.ts).
import type { ViewedTask } from "../core/products/query.js";
import type { Task, TaskResult } from "../pool/protocol.js";
import type { Store } from "../stores/store.js";
import { customSource } from "./custom-source.js";
import { purchased, viewed } from "./history.js";
import { recommended } from "./recommended.js";
import { salesList } from "./sales-lists.js";
import { staticProducts } from "./static-products.js";
import { viewedRelated } from "./viewed-related.js";

/** The tasks that answer a product list. */
export type ListTask = Exclude<Task, { kind: "quick_view" } | { kind: "ping" }>;
/** Those answered without awaiting anything: viewed-related may await its re-ranker in ONNX Runtime. */
export type SyncListTask = Exclude<ListTask, ViewedTask> | (ViewedTask & { kind: "viewed" });

const answer = (body: Uint8Array): TaskResult => ({ ok: true, body });

export function answerListTask(store: Store, task: SyncListTask): TaskResult;
export function answerListTask(store: Store, task: ListTask): TaskResult | Promise<TaskResult>;
export function answerListTask(store: Store, task: ListTask): TaskResult | Promise<TaskResult> {
  switch (task.kind) {
    case "static_products":
      return answer(staticProducts(store, task));
    case "trending":
    case "top_sellers":
      return answer(salesList(store, task));
    case "recommended":
      return answer(recommended(store, task));
    case "viewed":
      return answer(viewed(store, task));
    case "viewed_related":
      return viewedRelated(store, task).then(answer);
    case "purchased":
      return answer(purchased(store, task));
    case "custom_source":
      return customSource(store, task);
    default:
      return { ok: false, code: "bad_task", message: `unknown task ${(task as { kind: string }).kind}` };
  }
}
