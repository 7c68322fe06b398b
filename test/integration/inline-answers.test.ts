// The list misses the HTTP thread answers itself must be the pool's answers,
// byte for byte, and what is not surely cheap must be left to the pool.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpointRotations, type EndpointRotations } from "../../bench/load/endpoint-paths.js";
import { TaskRecorder } from "../../bench/shared/task-recorder.js";
import type { ListBudget } from "../../src/core/products/query.js";
import { OverBudget } from "../../src/core/products/render.js";
import { INLINE_BUDGET, INLINE_MAX_INPUTS, InlineAnswers } from "../../src/lists/inline-answers.js";
import { answerListTask, type InlineListTask } from "../../src/lists/list-task.js";
import type { Task } from "../../src/pool/protocol.js";
import type { Store } from "../../src/stores/store.js";
import { product } from "../helpers/fixtures.js";
import { createTestMerchant, postJson, startTestService, type TestService } from "../helpers/service.js";

let t: TestService;
let store: Store;
let recorder: TaskRecorder;
let rotations: EndpointRotations;
let key: string;

beforeAll(async () => {
  t = await startTestService({ demo: true });
  // context=similar is answered here once the shop's model exists.
  await t.service.similar.idle();
  store = t.service.services.store;
  key = t.service.demo!.apiKey;
  recorder = new TaskRecorder(store);
  rotations = endpointRotations(store, "demo", key);
}, 120_000);
afterAll(() => t.stop());

/** The task the storefront route builds for a path with its query. */
function taskOf(pathAndQuery: string): Promise<Task> {
  const [path, query] = pathAndQuery.split("?") as [string, string];
  return recorder.task<Task>(path, query.replace("&bust_cache=yes", ""));
}

const text = (bytes: Uint8Array | null) => (bytes === null ? null : Buffer.from(bytes).toString("utf8"));

describe("inline answers", () => {
  it("are the pool's answers, byte for byte, for every list they take", async () => {
    const rotationsTaken: (keyof EndpointRotations)[] = [
      "staticMiss",
      "recommendedMiss",
      "similarContextMiss",
      "similarProductsMiss",
      "trendingMiss",
      "topSellersMiss",
      "viewed",
      "purchased",
    ];
    for (const name of rotationsTaken) {
      for (const path of rotations[name].paths.slice(0, 8)) {
        const task = await taskOf(path);
        // A copy: the inline answer is a view that this thread's next list overwrites.
        const inline = new InlineAnswers(store).answer(task)?.slice() ?? null;
        expect(inline, `${name}: ${path}`).not.toBeNull();
        // The pool's own answer, computed by a worker thread.
        const pooled = await t.service.services.pool.run(task);
        expect(text(inline), `${name}: ${path}`).toBe(text(pooled.body));
      }
    }
  });

  it("bound every list they take by its mode, and answer a view of the thread's buffer only when asked for one", async () => {
    const rotationsTaken: (keyof EndpointRotations)[] = [
      "staticMiss",
      "recommendedMiss",
      "trendingMiss",
      "topSellersMiss",
      "viewed",
      "purchased",
    ];
    for (const name of rotationsTaken) {
      const task = (await taskOf(rotations[name].paths[0]!)) as InlineListTask;
      const within = (budget: ListBudget) => () => answerListTask(store, task, { budget, transient: true });
      expect(within({ judged: 0, bytes: INLINE_BUDGET.bytes }), name).toThrow(OverBudget);
      expect(within({ judged: INLINE_BUDGET.judged, bytes: 1 }), name).toThrow(OverBudget);
      const view = answerListTask(store, task, { budget: null, transient: true });
      if (!view.ok) throw new Error(`${name}: no answer`);
      // Read before the next list overwrites it.
      const viewed = { text: text(view.body), length: view.body.byteLength, bufferLength: view.body.buffer.byteLength };
      const own = answerListTask(store, task);
      if (!own.ok) throw new Error(`${name}: no answer`);
      expect(viewed.text, name).toBe(text(own.body));
      expect(own.body.byteLength, name).toBe(own.body.buffer.byteLength);
      expect(viewed.length, name).toBeLessThan(viewed.bufferLength);
    }
  });

  it("leave to the pool what renders from products, runs a model, or reads many inputs' lists or a collection", async () => {
    const [first] = rotations.staticMiss.paths;
    const heavy = [
      `${first}&format=pretty`,
      `${first}&metafields=yes`,
      `${first}&selling_plans=yes`,
      `${rotations.recommendedMiss.paths[0]}&unset_variants=yes&any_variant_price_less_than=10`,
      rotations.viewedRelated.paths[0]!,
      `/api/v1/products/static?key=${key}&platform_collection_id=${store.catalogue.collectionsOf("demo")[0]!.id}`,
      `/api/v1/products/recommended?key=${key}&platform_product_ids=${Array.from({ length: INLINE_MAX_INPUTS + 1 }, (_, i) => i + 1).join(",")}`,
    ];
    const inline = new InlineAnswers(store);
    for (const path of heavy) expect(inline.answer(await taskOf(path)), path).toBeNull();
  });

  it(`give a list up to the pool once it has judged ${INLINE_BUDGET.judged} candidates, and the pool answers it`, async () => {
    const shop = await createTestMerchant(t, "many-products");
    const products = Array.from({ length: INLINE_BUDGET.judged + 100 }, (_, i) => product(i + 1));
    expect((await postJson(t, "/admin/v1/merchants/many-products/products", products)).status).toBe(200);
    // No product costs that much: the list judges its fallbacks, the whole catalogue, and shows none.
    const path = `/api/v1/products/recommended?key=${shop.api_key}&platform_product_ids=1&variant_price_greater_than=1000000`;
    const inline = new InlineAnswers(store);
    expect(inline.answer(await taskOf(path))).toBeNull();
    // For a while, the shop's next recommendation goes to the pool at once, even a cheap one.
    const cheap = await taskOf(`/api/v1/products/recommended?key=${shop.api_key}&platform_product_ids=1`);
    expect(inline.answer(cheap)).toBeNull();
    expect(new InlineAnswers(store).answer(cheap)).not.toBeNull();
    const answer = await fetch(`${t.base}${path}`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ data: [] });
  });
});
