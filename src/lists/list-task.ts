// Every product list task answered by its list module: one table for the pool
// workers (workers/entry.ts) and for the HTTP thread's inline answers
// (inline-answers.ts).
import { OWN_ANSWER, type AnswerMode, type ViewedTask } from "../core/products/query.js";
import type { CustomSourceTask } from "../core/sources/task.js";
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
/** Those whose list functions take an AnswerMode: what the HTTP thread may answer itself (custom sources, never answered there, take none). */
export type InlineListTask = Exclude<SyncListTask, CustomSourceTask>;

const answer = (body: Uint8Array): TaskResult => ({ ok: true, body });

/** `mode`: how this thread wants the answer, for the tasks that honour one (InlineListTask); others get a buffer of their own, unbounded. */
export function answerListTask(store: Store, task: InlineListTask, mode: AnswerMode): TaskResult;
export function answerListTask(store: Store, task: SyncListTask): TaskResult;
export function answerListTask(store: Store, task: ListTask): TaskResult | Promise<TaskResult>;
export function answerListTask(store: Store, task: ListTask, mode: AnswerMode = OWN_ANSWER): TaskResult | Promise<TaskResult> {
  switch (task.kind) {
    case "static_products":
      return answer(staticProducts(store, task, mode));
    case "trending":
    case "top_sellers":
      return answer(salesList(store, task, mode));
    case "recommended":
      return answer(recommended(store, task, mode));
    case "viewed":
      return answer(viewed(store, task, mode));
    case "viewed_related":
      return viewedRelated(store, task).then(answer);
    case "purchased":
      return answer(purchased(store, task, mode));
    case "custom_source":
      return customSource(store, task);
    default:
      return { ok: false, code: "bad_task", message: `unknown task ${(task as { kind: string }).kind}` };
  }
}
