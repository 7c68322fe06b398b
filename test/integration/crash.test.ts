import { open } from "lmdb";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HISTORY_LIMIT } from "../../src/core/recs/history.js";
import { MAX_SESSION_VIEWS } from "../../src/stores/session-index.js";
import { Store } from "../../src/stores/store.js";
import { product } from "../helpers/fixtures.js";
import { serveInChild } from "../helpers/child-service.js";
import { createTestMerchant, postJson } from "../helpers/service.js";
import { buildIndex, dumpDataDir, dumpSessionIndex } from "../helpers/session-index.js";

const dataDir = mkdtempSync(join(tmpdir(), "aisle-crash-"));
const rebuildDir = mkdtempSync(join(tmpdir(), "aisle-crash-rebuilt-"));
afterAll(() => [dataDir, rebuildDir].forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe("event durability", () => {
  it("keeps every acknowledged event, once, when the server is killed mid-stream", async () => {
    const first = await serveInChild(dataDir);
    const { api_key: key } = await createTestMerchant(first, "crash");
    await postJson(first, "/admin/v1/merchants/crash/products", [product(1), product(2)]);

    const acknowledged: string[] = [];
    let sent = 0;
    let killed = false;
    const uuid = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
    // Twenty clients post as fast as they can; the server is killed -9 once 300 are acknowledged.
    const client = async () => {
      while (!killed) {
        const n = sent++;
        const id = `e${n}`;
        try {
          const handle = `product-${(n % 2) + 1}`;
          const res = await fetch(
            `${first.base}/api/v1/analytics/event?key=${key}&verb=viewed&uuid=${uuid}&platform_product_handle=${handle}&theme_id=${id}`,
            { method: "POST" },
          );
          if (res.status === 200) acknowledged.push(id);
        } catch {
          return; // the connection died with the server: this event was not acknowledged
        }
        if (acknowledged.length >= 300 && !killed) {
          killed = true;
          first.child.kill("SIGKILL");
        }
      }
    };
    await Promise.all(Array.from({ length: 20 }, client));
    await first.exited;

    // It starts again on the same data, then we read what survived.
    const second = await serveInChild(dataDir);
    const health = await fetch(`${second.base}/healthz`);
    expect(health.status).toBe(200);
    // Applied at start, before listening: checked before the orderly stop, which would apply them too.
    const reader = Store.open(dataDir);
    const [applied, logged] = [reader.applied.derivedSequence("crash"), reader.events.eventSequence("crash")];
    await reader.close();
    expect(applied).toBe(logged);
    second.child.kill("SIGTERM");
    await second.exited;

    const store = Store.open(dataDir);
    let rebuilt: string[];
    try {
      const stored = [...store.events.eventsSince("crash", 0)].map(({ event }) => event.theme_id);
      expect(new Set(stored).size).toBe(stored.length);
      const missing = acknowledged.filter((id) => !stored.includes(id));
      expect(missing).toEqual([]);
      expect(acknowledged.length).toBeGreaterThanOrEqual(300);
      // Applied behind the log, also across the kill: the session's history is the log's tail, each event once.
      expect(store.applied.derivedSequence("crash")).toBe(store.events.eventSequence("crash"));
      const tail = [...store.events.eventsSince("crash", 0)].map(({ event }) => event).slice(-HISTORY_LIMIT);
      const history = store.applied.sessionHistory("crash", uuid)!;
      expect(history.products).toEqual(tail.map((event) => event.product_id));
      expect(history.ats).toEqual(tail.map((event) => event.at));
      // The session index, written with the watermark, holds the session's first views, each once.
      const logged = [...store.events.eventsSince("crash", 0)].map(({ event }) => event.product_id);
      expect([...store.sessionIndex.source("crash")!.viewsOf(store.sessionIndex.numberOf("crash", uuid)!)!]).toEqual(
        logged.slice(0, MAX_SESSION_VIEWS),
      );
      // And is, byte for byte, what a build from the log up to the watermark writes.
      const root = open({ path: rebuildDir, maxDbs: 16 });
      buildIndex(root, "crash", store.appliedLog);
      rebuilt = dumpSessionIndex(root, "crash");
      await root.close();
    } finally {
      await store.close();
    }
    expect(await dumpDataDir(dataDir, "crash")).toEqual(rebuilt);
  }, 60_000);
});
