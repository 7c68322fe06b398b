// The cluster bench's launcher and measurements on a tiny load: 3 nats-servers
// and 2 nodes started by the bench's own code, its shop created, the lag
// client run for a second, and a killed node and a fresh one timed catching
// up. Timings are not judged (a test has no timing assertions); only that each
// part measured what it says. The write-throughput runs (wrk) are left to the
// bench itself: several seconds of full-speed load would starve the test
// files beside this one on a small machine.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

// The built bench: it spawns its built scripts (the lag client, the CLI) from beside itself.
const built = async <Module>(path: string) =>
  (await import(pathToFileURL(join(import.meta.dirname, "../../dist/bench", path)).href)) as Module;
const { startNatsServers } = await built<typeof import("../../bench/cluster/nats-servers.js")>("cluster/nats-servers.js");
const { ADMIN_TOKEN, startClusterNodes } = await built<typeof import("../../bench/cluster/cluster-nodes.js")>("cluster/cluster-nodes.js");
const { createClusterShop } = await built<typeof import("../../bench/cluster/shop.js")>("cluster/shop.js");
const { level, replicationLag } = await built<typeof import("../../bench/cluster/cluster.js")>("cluster/cluster.js");
const { timeCatchUp } = await built<typeof import("../../bench/cluster/catch-up.js")>("cluster/catch-up.js");
const { makeTempDir, removeTempDir } = await built<typeof import("../../bench/shared/children.js")>("shared/children.js");

type Nats = Awaited<ReturnType<typeof startNatsServers>>;
type Nodes = Awaited<ReturnType<typeof startClusterNodes>>;
type Shop = Awaited<ReturnType<typeof createClusterShop>>;

let nats: Nats;
let nodes: Nodes;
let shop: Shop;
let scratch: string;

beforeAll(async () => {
  scratch = makeTempDir("aisle-bench-cluster-test-");
  nats = await startNatsServers();
  nodes = await startClusterNodes(nats.urls, 2);
  shop = await createClusterShop(nodes.node(0).origin, scratch, { products: 20, customers: 20 });
  await level(nodes, [0, 1], shop);
}, 120_000);

afterAll(async () => {
  await nodes?.stop();
  await nats?.stop();
  if (scratch) removeTempDir(scratch);
}, 60_000);

describe("the cluster bench on a tiny load", () => {
  it("times every write through A until B has applied it, and the probe's floor", { timeout: 60_000 }, async () => {
    const lag = await replicationLag(nodes, shop, { warmupS: 0, durationS: 1 }, 100);
    expect(lag.failed).toBe(0);
    expect(lag.sent).toBeGreaterThan(0);
    expect(lag.acknowledged).toBe(lag.sent);
    expect(lag.lagMs.count).toBe(lag.acknowledged);
    expect(lag.probeFloorMs.count).toBeGreaterThan(0);
  });

  it("times a node killed -9 and restarted, then a fresh one, until each has the stream's end", { timeout: 120_000 }, async () => {
    const before = await level(nodes, [0, 1], shop);
    await nodes.kill(1);
    for (let i = 0; i < 20; i++) {
      const response = await fetch(`${nodes.node(0).origin}${shop.markPath}`, { method: "POST" });
      expect(response.status).toBe(200);
    }
    const end = await level(nodes, [0], shop);

    const restarted = await timeCatchUp(nodes, 1, { appliedBefore: before, streamEnd: end, what: "restarted" });
    expect(restarted.messages).toBe(end - before);
    expect(restarted.caughtUpMs).toBeGreaterThan(0);
    expect(restarted.levelStartMs).toBeGreaterThan(0);

    const fresh = await timeCatchUp(nodes, 2, { appliedBefore: 0, streamEnd: end, what: "fresh" });
    expect(fresh.messages).toBe(end);
    // The new node has the shop the others have: its products are there through the stream alone.
    const listed = await fetch(`${nodes.node(2).origin}/admin/v1/merchants/${shop.merchant}/products?limit=50`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { data: unknown[] }).data).toHaveLength(shop.products);
  });
});
