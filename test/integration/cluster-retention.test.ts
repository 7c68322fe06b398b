// Catalogue state outlives the write stream's retention: a node writes
// snapshots to the cluster's bucket, and a new node, once the stream's early
// messages have aged out, starts from one. Ageing out is a purge of the
// stream's first messages here, which is what its max age does after the
// event retention.
import { jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SnapshotBucket } from "../../src/cluster/snapshot-bucket.js";
import type { SnapshotManifest } from "../../src/cluster/snapshot-manifest.js";
import { STREAM_NAME } from "../../src/cluster/stream.js";
import { serveInChild, type ChildService } from "../helpers/child-service.js";
import { appliedSequence, startClusterNodes, type ClusterNodes } from "../helpers/cluster-nodes.js";
import { basketOrder, product } from "../helpers/fixtures.js";
import { NICENESS, startNatsCluster, type NatsCluster } from "../helpers/nats-cluster.js";
import { createTestMerchant, eventually, postJson } from "../helpers/service.js";

let nats: NatsCluster;
let cluster: ClusterNodes;
let connection: NatsConnection;
let manager: JetStreamManager;
let bucket: SnapshotBucket;
let dirs: string;

beforeAll(async () => {
  nats = await startNatsCluster(3);
  cluster = await startClusterNodes(nats, 1);
  connection = await connect({ servers: nats.urls.split(",") });
  manager = await jetstreamManager(connection);
  bucket = await SnapshotBucket.open(connection, 3);
  dirs = mkdtempSync(join(tmpdir(), "aisle-retention-"));
}, 120_000);

afterAll(async () => {
  await connection?.close();
  await cluster?.stop();
  await nats?.stop();
  if (dirs) rmSync(dirs, { recursive: true, force: true });
}, 60_000);

const seqOf = (res: Response) => Number(res.headers.get("x-aisle-seq"));
const env = () => ({ AISLE_NATS_URL: nats.urls, AISLE_NATS_REPLICAS: "3" });

/** What the stream's max age does once the retention has passed: every message before `seq` is dropped. */
async function ageOutBefore(seq: number): Promise<void> {
  await manager.streams.purge(STREAM_NAME, { seq });
  expect((await manager.streams.info(STREAM_NAME)).state.first_seq).toBe(seq);
}

/** A node in a child process on a new, empty data dir; stopped by the test. */
function nodeOnEmptyDir(name: string): Promise<ChildService> {
  return serveInChild(join(dirs, name), env(), { niceness: NICENESS });
}

async function stopNode(node: ChildService): Promise<void> {
  node.child.kill("SIGTERM");
  const timer = setTimeout(() => node.child.kill("SIGKILL"), 15_000);
  await node.exited;
  clearTimeout(timer);
}

describe("catalogue state beyond the stream's retention", () => {
  let key: string;
  /** The snapshot the first node wrote, and a sequence after it. */
  let snapshot: SnapshotManifest | undefined;
  let afterSnapshot = 0;

  it(
    "a new node, after the messages its snapshot holds aged out, starts from the bucket and answers as the others",
    { timeout: 180_000 },
    async () => {
      const a = cluster.node(0);
      key = (await createTestMerchant(a, "north")).api_key;
      const writes: [string, string, unknown][] = [
        ["POST", "/admin/v1/merchants/north/products", [1, 2, 3, 4, 5].map((id) => product(id))],
        ["POST", "/admin/v1/merchants/north/collections", [{ id: 50, title: "Lamps", handle: "lamps", product_ids: [1, 2] }]],
        [
          "POST",
          "/admin/v1/merchants/north/markets",
          [{ id: 5, name: "Canada", active: true, countries: ["CA"], currency: "CAD", product_ids: null, variant_prices: {} }],
        ],
        ["PUT", "/admin/v1/merchants/north/search-settings", { keyword_groups: [{ id: "g", queries: ["gift"], promoted: [3] }] }],
        ["PUT", "/admin/v1/merchants/north/rate-limits", { search: { per_second: 50, burst: 100 } }],
        ["POST", "/admin/v1/merchants/north/orders", [basketOrder(100, [1, 2])]],
      ];
      for (const [method, path, body] of writes) {
        const res = await a.admin(path, { method, body: JSON.stringify(body) });
        expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBe(200);
      }
      const uuid = "00000000-0000-4000-8000-0000000000a1";
      const view = (handle: string) =>
        fetch(`${a.base}/api/v1/analytics/event?key=${key}&verb=viewed&uuid=${uuid}&platform_product_handle=${handle}`, { method: "POST" });
      expect((await view("product-1")).status).toBe(200);

      // The node's first look at the bucket, soon after its start, finds none and writes one.
      await eventually(async () => {
        [snapshot] = await bucket.snapshots();
        expect(snapshot?.seq).toBeGreaterThan(0);
      }, 90_000);

      // Written after the snapshot: the new node takes these from the stream.
      expect((await postJson(a, "/admin/v1/merchants/north/products", [product(2, { title: "Renamed" })])).status).toBe(200);
      expect((await postJson(a, "/admin/v1/merchants/north/orders", [basketOrder(101, [2, 3])])).status).toBe(200);
      for (const handle of ["product-2", "product-3"]) afterSnapshot = seqOf(await view(handle));
      expect(afterSnapshot).toBeGreaterThan(snapshot!.seq);

      await ageOutBefore(snapshot!.seq + 1);
      const started = performance.now();
      const b = await nodeOnEmptyDir("b");
      try {
        await eventually(async () => expect(await appliedSequence(b)).toBeGreaterThanOrEqual(afterSnapshot), 60_000);
        console.log(
          `a node on an empty data dir, the stream holding messages from ${snapshot!.seq + 1} on, restored a snapshot of ` +
            `${snapshot!.files.reduce((sum, file) => sum + file.size, 0)} bytes and was level with the stream ` +
            `${Math.round(performance.now() - started)} ms after its start`,
        );
        const admin = [
          "/admin/v1/merchants/north",
          "/admin/v1/merchants/north/products?limit=250",
          "/admin/v1/merchants/north/products/2",
          "/admin/v1/merchants/north/collections",
          "/admin/v1/merchants/north/markets/5",
          "/admin/v1/merchants/north/search-settings",
          "/admin/v1/merchants/north/rate-limits",
          "/admin/v1/merchants/north/orders/100",
          "/admin/v1/merchants/north/orders/101",
        ];
        for (const path of admin) {
          const [fromA, fromB] = [await a.admin(path), await b.admin(path)];
          expect(fromB.status, path).toBe(200);
          expect(await fromB.text(), path).toBe(await fromA.text());
        }
        const lists = [`/api/v1/products/static?key=${key}&ids=1,2,3,4,5&limit=5`, `/api/v1/products/viewed?key=${key}&uuid=${uuid}`];
        for (const path of lists) {
          const [fromA, fromB] = [await fetch(`${a.base}${path}`), await fetch(`${b.base}${path}`)];
          expect(fromB.status, path).toBe(200);
          expect(await fromB.text(), path).toBe(await fromA.text());
        }
      } finally {
        await stopNode(b);
      }
    },
  );

  it(
    "a node whose place is older than the stream's first message, with no snapshot that reaches it, refuses to start",
    { timeout: 120_000 },
    async () => {
      const a = cluster.node(0);
      // Node b stopped at `afterSnapshot` or later; the stream now drops everything up to a later write.
      expect((await postJson(a, "/admin/v1/merchants/north/products", [product(6)])).status).toBe(200);
      const last = seqOf(await postJson(a, "/admin/v1/merchants/north/products", [product(7)]));
      expect(last).toBeGreaterThan(afterSnapshot + 1);
      await ageOutBefore(last);

      await expect(serveInChild(join(dirs, "b"), env(), { niceness: NICENESS })).rejects.toThrow(
        new RegExp(
          `holds messages from ${last} on, this node has applied only through \\d+, and the cluster's bucket holds no snapshot from ${last - 1} on`,
        ),
      );
      await expect(nodeOnEmptyDir("c")).rejects.toThrow(/this node has applied nothing, and the cluster's bucket holds no snapshot from/);
      // The snapshot there, older than the stream's first message, is left as it was.
      await eventually(async () => expect((await bucket.snapshots()).map(({ id }) => id)).toEqual([snapshot!.id]), 30_000);
    },
  );
});
