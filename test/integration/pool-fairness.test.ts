// The worker pool's order on a real service (one worker, a real Piscina pool):
// a merchant with a long queue of tasks does not hold another merchant's task
// behind it, and a full queue refuses the flooding merchant's tasks first.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listOptionsFrom, staticSelectionFrom, type StaticProductsTask } from "../../src/core/products/query.js";
import { TASKS_PER_WORKER } from "../../src/pool/pool.js";
import { PoolSaturatedError } from "../../src/pool/protocol.js";
import { product } from "../helpers/fixtures.js";
import { createTestMerchant, postJson, startTestService, type TestService } from "../helpers/service.js";

const MAX_QUEUE = 16;
let t: TestService;

beforeAll(async () => {
  t = await startTestService({ config: { workers: 1, poolMaxQueue: MAX_QUEUE } });
  for (const shop of ["flooding", "other"]) {
    await createTestMerchant(t, shop);
    await postJson(t, `/admin/v1/merchants/${shop}/products`, [product(1), product(2), product(3)]);
  }
  // Similar-products refreshes done: only this test's tasks reach the worker.
  await t.service.similar.idle();
});
afterAll(() => t.stop());

const task = (merchantId: string): StaticProductsTask => ({
  kind: "static_products",
  merchantId,
  selection: staticSelectionFrom({ ids: [1, 2, 3] }),
  list: listOptionsFrom({}, "full"),
});

describe("the worker pool", () => {
  it("answers another merchant's tasks between a flooding merchant's, refusing the flooding merchant's once full", async () => {
    const { pool } = t.service.services;
    const finished: string[] = [];
    const refused: string[] = [];
    const submit = (merchant: string, name: string) =>
      pool.run(task(merchant)).then(
        (answer) => {
          expect(JSON.parse(Buffer.from(answer.body).toString("utf8"))).toHaveProperty("data");
          finished.push(name);
        },
        (error: unknown) => {
          if (!(error instanceof PoolSaturatedError)) throw error;
          refused.push(name);
        },
      );
    const flood = Array.from({ length: 40 }, (_, i) => submit("flooding", `flood-${i}`));
    const others = [submit("other", "other-0"), submit("other", "other-1")];
    await Promise.all([...flood, ...others]);

    // TASKS_PER_WORKER tasks went to the one worker at once and MAX_QUEUE waited; of the rest, the flooding
    // merchant's were refused, and the other merchant's two took the places of the flood's newest.
    const handed = TASKS_PER_WORKER;
    expect(refused).toHaveLength(40 - handed - MAX_QUEUE + 2);
    expect(refused.every((name) => name.startsWith("flood-"))).toBe(true);
    expect(refused).toContain(`flood-${handed + MAX_QUEUE - 1}`);
    // The queues took turns: the other merchant's tasks finished among the first after those handed on at once (the flood's queue had its turn first), not after the flood.
    expect(finished.indexOf("other-0")).toBeLessThanOrEqual(handed + 1);
    expect(finished.indexOf("other-1")).toBeLessThanOrEqual(handed + 3);
    expect(finished).toHaveLength(handed + MAX_QUEUE);
  });
});
