// A shop's viewed-related tuned on its own sessions: deterministic for a seed,
// stored per merchant, read back, shown by `aisle merchants show`, run in the
// background on a thread of its own, and what the endpoint answers with.
import { spawnSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { objective } from "../../src/core/recs/coordinate-descent.js";
import { Rng } from "../../src/core/random.js";
import { DEFAULT_VIEWED_RELATED } from "../../src/core/recs/viewed-related-settings.js";
import type { BehaviourEvent } from "../../src/core/types.js";
import { rankerGraph } from "../../src/embeddings/ranker-graph.js";
import { relatedToViews } from "../../src/recs/related-to-views.js";
import { DEFAULT_TUNE_OPTIONS, MIN_VALIDATION_CASES, tuneViewedRelated } from "../../src/recs/tune-viewed-related.js";
import { MIN_SESSIONS_TO_TUNE, ViewedRelatedTuner } from "../../src/recs/viewed-related-tuner.js";
import { Store } from "../../src/stores/store.js";
import type { ViewedRelatedTuning } from "../../src/stores/viewed-related-tuning.js";
import { product } from "../helpers/fixtures.js";
import { byFeature, summaryOf } from "../helpers/rerankers.js";
import { createTestMerchant, eventsApplied, postJson, startTestService, type TestService } from "../helpers/service.js";
import { storedMerchant, storeWithMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-tuning-");

/**
 * `count` sessions of a shop of 60 products in 10 themes: each session
 * browses one theme, sometimes going back to a product it viewed; halfway,
 * each theme's products move on to the next theme's, so recent sessions tell
 * more than old ones.
 */
function shopSessions(count: number, seed = 5): BehaviourEvent[] {
  const rng = new Rng(seed);
  const events: BehaviourEvent[] = [];
  let at = Date.parse("2026-03-01T00:00:00Z");
  for (let n = 0; n < count; n++) {
    const theme = (rng.int(0, 9) + (n >= count / 2 ? 1 : 0)) % 10;
    const viewed: number[] = [];
    for (let v = rng.int(2, 6); v > 0; v--) {
      const item =
        viewed.length > 0 && rng.chance(0.3) ? rng.pick(viewed) : rng.chance(0.1) ? rng.int(1, 60) : 1 + theme * 6 + rng.int(0, 5);
      viewed.push(item);
      events.push({ at: at++, uuid: `session-${n}`, customer_id: null, verb: "viewed", product_id: item, theme_id: null });
    }
  }
  return events;
}

/** What two tunings decided, without when they ran and how long they took. */
const decided = ({ tunedAt: _at, seconds: _s, ...rest }: ViewedRelatedTuning) => rest;

describe("tuning viewed-related on a shop's own sessions", () => {
  it("is deterministic for a seed, validates on the most recent sessions, and never ends below the defaults", async () => {
    const store = await storeWithMerchant(tempDir());
    await store.applied.appendEvents("shop", shopSessions(1_500));
    // Fewer cases than the validation sessions hold: some are left out, so the seed matters.
    const options = { ...DEFAULT_TUNE_OPTIONS, seed: 3, maxCases: 250, maxEvaluations: 15 };
    const firstResult = tuneViewedRelated(store, "shop", options)!;
    const againResult = tuneViewedRelated(store, "shop", options)!;
    const first = firstResult.tuning;
    expect(decided(againResult.tuning)).toEqual(decided(first));
    expect(againResult.rerankers).toEqual(firstResult.rerankers);
    expect(first.trainSessions + first.validationSessions).toBe(1_500);
    expect(first.validationSessions).toBe(150);
    expect(first.evaluated).toBeGreaterThan(10);
    for (const mode of ["served", "protocol"] as const) {
      const { defaults, tuned } = first.validation[mode];
      expect(tuned.cases).toBeGreaterThanOrEqual(250);
      expect(objective(tuned)).toBeGreaterThanOrEqual(objective(defaults));
    }
    expect(first.settings.served.knn.remind).toBe(false);
    expect(first.settings.protocol.knn.remind).toBe(true);
    // No bought-together lists: their weight was not tuned.
    expect(first.copurchaseTuned).toBe(false);
    await store.close();
  });

  it("trains a re-ranker per setting on the validation sessions, deterministic for a seed, its bytes kept only when adopted", async () => {
    const store = await storeWithMerchant(tempDir());
    await store.applied.appendEvents("shop", shopSessions(6_000));
    const options = { ...DEFAULT_TUNE_OPTIONS, seed: 2, maxEvaluations: 4, rerankerModes: ["served", "protocol"] as const };
    const first = tuneViewedRelated(store, "shop", options)!;
    const again = tuneViewedRelated(store, "shop", options)!;
    expect(again.tuning.rerankers).toEqual(first.tuning.rerankers);
    expect(again.rerankers).toEqual(first.rerankers);
    for (const mode of ["served", "protocol"] as const) {
      const summary = first.tuning.rerankers![mode]!;
      expect(summary.fitted).toBeGreaterThanOrEqual(MIN_VALIDATION_CASES);
      expect(summary.check.reranked.cases).toBeGreaterThanOrEqual(MIN_VALIDATION_CASES);
      expect(summary.adopted).toBe(summary.check.gain[0] > 0);
      expect(summary.check.gain[0]).toBeLessThanOrEqual(summary.check.gain[1]);
      const bytes = first.rerankers[mode];
      expect(bytes !== undefined).toBe(summary.adopted);
      if (bytes !== undefined) expect(createHash("sha256").update(bytes).digest("hex")).toBe(summary.sha256);
    }
    await store.viewedRelatedTuning.write("shop", first.tuning, first.rerankers);
    store.refreshSnapshot();
    for (const mode of ["served", "protocol"] as const)
      expect(store.viewedRelatedTuning.rerankerBytes("shop", mode)).toEqual(first.rerankers[mode] && Buffer.from(first.rerankers[mode]));
    await store.close();
  });

  it("stores the settings per merchant and reads them back; a merchant never tuned is served the defaults", async () => {
    const store = await storeWithMerchant(tempDir());
    await store.catalogue.createMerchant(storedMerchant("other"));
    await store.applied.appendEvents("shop", shopSessions(1_200));
    const { tuning } = tuneViewedRelated(store, "shop", { ...DEFAULT_TUNE_OPTIONS, maxEvaluations: 10 })!;
    await store.viewedRelatedTuning.write("shop", tuning);
    expect(store.viewedRelatedTuning.read("shop")).toEqual(tuning);
    expect(store.viewedRelatedTuning.settings("shop")).toEqual(tuning.settings);
    expect(store.viewedRelatedTuning.read("other")).toBeUndefined();
    expect(store.viewedRelatedTuning.settings("other")).toEqual(DEFAULT_VIEWED_RELATED);
    await store.close();
  });

  it("keeps the defaults for a shop with too few sessions, and one with no behaviour still gets answers", async () => {
    const store = await storeWithMerchant(tempDir());
    expect(tuneViewedRelated(store, "shop")).toBeNull();
    expect([...(await relatedToViews(store, "shop", [1, 2], null))]).toEqual([]);
    await store.applied.appendEvents("shop", shopSessions(40));
    const { tuning, rerankers } = tuneViewedRelated(store, "shop")!;
    expect(tuning.settings).toEqual(DEFAULT_VIEWED_RELATED);
    expect(tuning.evaluated).toBe(2);
    expect(tuning.rerankers).toEqual({ served: null, protocol: null });
    expect(rerankers).toEqual({});
    expect([...(await relatedToViews(store, "shop", [1, 2], null))].length).toBeGreaterThan(0);
    await store.close();
  });
});

describe("ViewedRelatedTuner", () => {
  it("tunes a shop with enough sessions on its own thread, and not again until they have grown", async () => {
    const dir = tempDir();
    const store = await storeWithMerchant(dir);
    await store.applied.appendEvents("shop", shopSessions(MIN_SESSIONS_TO_TUNE - 1));
    const errors: unknown[] = [];
    const log = { info: () => {}, error: (message: string, fields?: Record<string, unknown>) => errors.push([message, fields]) };
    const tuner = new ViewedRelatedTuner(store, dir, log, 3_600_000);
    tuner.look();
    await tuner.idle();
    expect(store.viewedRelatedTuning.read("shop")).toBeUndefined();

    await store.applied.appendEvents(
      "shop",
      shopSessions(1, 9).map((event) => ({ ...event, uuid: "one-more" })),
    );
    tuner.look();
    await tuner.idle();
    store.refreshSnapshot();
    const tuned = store.viewedRelatedTuning.read("shop")!;
    expect(tuned.sessionsNumbered).toBe(MIN_SESSIONS_TO_TUNE);
    expect(decided(tuned)).toEqual(decided(tuneViewedRelated(store, "shop", { ...DEFAULT_TUNE_OPTIONS, seed: tuned.seed })!.tuning));
    tuner.look();
    await tuner.idle();
    store.refreshSnapshot();
    expect(store.viewedRelatedTuning.read("shop")!.tunedAt).toBe(tuned.tunedAt);
    await tuner.close();
    expect(errors).toEqual([]);
    await store.close();
  });
});

describe("the viewed-related endpoint", () => {
  let t: TestService;
  let shop: { id: string; api_key: string };

  beforeAll(async () => {
    t = await startTestService();
    shop = await createTestMerchant(t, "tuned");
    await postJson(
      t,
      "/admin/v1/merchants/tuned/products",
      [1, 2, 3, 4].map((id) => product(id)),
    );
  });
  afterAll(() => t.stop());

  const event = (uuid: string, handle: string) => {
    const params = new URLSearchParams({
      key: shop.api_key,
      uuid,
      subject: "user",
      verb: "viewed",
      noun: "product",
      platform_product_handle: handle,
    });
    return fetch(`${t.base}/api/v1/analytics/event?${params}`, { method: "POST" });
  };
  const related = async (uuid: string): Promise<number[]> => {
    const res = await fetch(`${t.base}/api/v1/products/viewed-related?key=${shop.api_key}&uuid=${uuid}&limit=3`);
    return ((await res.json()) as { data: { id: number }[] }).data.map((p) => p.id);
  };

  it("answers with the shop's tuned settings", async () => {
    for (const handles of [
      ...Array<string[]>(6).fill(["product-1", "product-2", "product-3"]),
      ["product-1", "product-4"],
      ["product-1", "product-4"],
    ]) {
      const uuid = randomUUID();
      for (const handle of handles) await event(uuid, handle);
    }
    const uuid = randomUUID();
    await event(uuid, "product-1");
    await indexCaughtUp(t.service.services.store, shop.id);
    // By default, the many sessions that went on to 2 and 3 outvote the two that went on to 4.
    expect(await related(uuid)).toEqual([2, 3, 4]);
    // Tuned to the two nearest sessions, the most recent of those that share product 1: both went on to 4.
    const tuned = { ...DEFAULT_VIEWED_RELATED.served, knn: { ...DEFAULT_VIEWED_RELATED.served.knn, neighbours: 2 } };
    const { tuning } = tuneViewedRelated(t.service.services.store, shop.id)!;
    await t.service.services.store.viewedRelatedTuning.write(shop.id, { ...tuning, settings: { ...tuning.settings, served: tuned } });
    expect((await related(uuid))[0]).toBe(4);
  });

  it("answers through the shop's re-ranker once its tuning has adopted one, loaded in the workers' ONNX Runtime", async () => {
    const store = t.service.services.store;
    const uuid = randomUUID();
    await event(uuid, "product-1");
    await indexCaughtUp(store, shop.id);
    const tuning = store.viewedRelatedTuning.read(shop.id)!;
    // The two nearest sessions (the tuning above) both went on to 4; 2 and 3 come after it as the shop's fallbacks.
    expect(await related(uuid)).toEqual([4, 2, 3]);
    // Scored against kNN's share of its best, kNN's one candidate (4) comes last, after those only the sequential
    // rules found (sessions went on from 1 to 2 and 3), scored 0 and tied, so by id.
    const againstKnn = rankerGraph(byFeature("knn_score_share_of_best", -1));
    await store.viewedRelatedTuning.write(
      shop.id,
      { ...tuning, rerankers: { served: summaryOf(againstKnn), protocol: null } },
      { served: againstKnn },
    );
    expect(await related(uuid)).toEqual([2, 3, 4]);
  });

  async function indexCaughtUp(store: Store, merchant: string): Promise<void> {
    await eventsApplied(t, merchant);
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 10))) {
      store.refreshSnapshot();
      if (!store.applied.sessionIndexBehind(merchant)) return;
    }
    throw new Error("the session index did not catch up");
  }
});

describe("aisle tune and aisle merchants show", () => {
  const CLI = join(import.meta.dirname, "../../dist/src/cli.js");
  const aisle = (args: string[]) =>
    spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: { ...process.env, AISLE_ADMIN_TOKEN: "" } });

  it("tunes a merchant from the command line, and shows its settings and validation figures (or the defaults before)", async () => {
    const dir = tempDir();
    const store = await storeWithMerchant(dir);
    await store.applied.appendEvents("shop", shopSessions(300));
    await store.close();
    const before = JSON.parse(aisle(["merchants", "show", "shop", "--data", dir]).stdout) as { viewed_related: unknown };
    expect(before.viewed_related).toEqual({ tuned: false, settings: DEFAULT_VIEWED_RELATED });

    const tune = aisle(["tune", "--merchant", "shop", "--seed", "4", "--data", dir]);
    expect(tune.status).toBe(0);
    expect(tune.stdout).toMatch(/^tuned shop on 270 sessions, validated on the 30 most recent/);
    expect(tune.stdout).toMatch(/served: validation HR@20 \/ MRR@20 [\d.]+ \/ [\d.]+ with the defaults, [\d.]+ \/ [\d.]+ tuned/);
    const shown = JSON.parse(aisle(["merchants", "show", "shop", "--data", dir]).stdout) as { viewed_related: ViewedRelatedTuning };
    expect(shown.viewed_related.seed).toBe(4);
    expect(shown.viewed_related.validation.served.tuned.cases).toBeGreaterThan(0);

    const reopened = Store.open(dir);
    expect(shown.viewed_related.settings).toEqual(reopened.viewedRelatedTuning.settings("shop"));
    await reopened.close();
    expect(aisle(["tune", "--merchant", "nobody", "--data", dir]).stderr).toMatch(/no merchant nobody/);
  });
});
