// The cluster bench (`npm run bench -- --cluster`): three nats-servers (the
// stream at R=3) and three aisle nodes, all on this machine, then acknowledged
// writes per second through one node and through three, the replication lag
// at a steady write rate, and how fast a restarted node and a fresh one catch
// up. Everything shares the machine's cores: the figures show behaviour, not
// what a cluster of machines would do.
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { makeTempDir, removeTempDir } from "../shared/children.js";
import type { CatchUp, ClusterReport, ClusterWriteKind, LagMeasured, ReplicationLag, WriteThroughput } from "../shared/results.js";
import { runJsonClient } from "../load/scenario.js";
import { findWrk, runWrk } from "../load/wrk-client.js";
import { timeCatchUp, untilAllApplied } from "./catch-up.js";
import { startClusterNodes, type ClusterNodes } from "./cluster-nodes.js";
import type { LagSpec } from "./lag-client.js";
import { startNatsServers, type NatsServers } from "./nats-servers.js";
import { createClusterShop, type ClusterShop } from "./shop.js";
import { measureWrites } from "./write-throughput.js";

const LAG_CLIENT = fileURLToPath(new URL("./lag-client.js", import.meta.url));

const NODES = 3;
/** Single event writes per second through A while the lag is measured: far below what one node acknowledges. */
const LAG_RATE_PER_SEC = 1_000;

interface Profile {
  /** The demo generator's sizes for the bench's shop: its products are the catalogue, its orders the webhooks. */
  shop: { products: number; customers: number };
  /** Closed-loop connections in all for each write run, split between the nodes loaded. */
  writeConnections: readonly number[];
  write: { warmupS: number; durationS: number };
  lag: { warmupS: number; durationS: number };
  /** Seconds of events, then of orders, written through A while B is down. */
  missed: { eventsS: number; ordersS: number };
}

/** --quick: a smoke run of a few seconds per part (wrk counts whole seconds). */
function profileOf(quick: boolean): Profile {
  return quick
    ? {
        shop: { products: 200, customers: 200 },
        writeConnections: [64],
        write: { warmupS: 0, durationS: 1 },
        lag: { warmupS: 0.5, durationS: 2 },
        missed: { eventsS: 1, ordersS: 1 },
      }
    : {
        shop: { products: 1_000, customers: 2_000 },
        writeConnections: [64, 256],
        write: { warmupS: 2, durationS: 10 },
        lag: { warmupS: 3, durationS: 20 },
        missed: { eventsS: 10, ordersS: 5 },
      };
}

/** How long the marking write is retried while a node answers 503 (the stream did not acknowledge in time: "retry shortly"). */
const MARK_RETRY_MS = 30_000;

/** One event written through `origin`: its stream sequence marks the stream's end at that moment. */
async function streamEndMark(origin: string, shop: ClusterShop): Promise<number> {
  const deadline = performance.now() + MARK_RETRY_MS;
  for (;;) {
    const response = await fetch(`${origin}${shop.markPath}`, { method: "POST" });
    const text = await response.text();
    const seq = Number(response.headers.get("x-aisle-seq"));
    if (response.status === 200 && Number.isSafeInteger(seq)) return seq;
    if (response.status !== 503 || performance.now() > deadline)
      throw new Error(`the marking event answered ${response.status}: ${text.slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Waits until the nodes at `indexes` have applied everything written so far (a level cluster); the stream's end then. */
export async function level(nodes: ClusterNodes, indexes: readonly number[], shop: ClusterShop): Promise<number> {
  const end = await streamEndMark(nodes.node(0).origin, shop);
  await untilAllApplied(
    indexes.map((index) => nodes.node(index).origin),
    end,
  );
  return end;
}

async function writeRuns(nodes: ClusterNodes, shop: ClusterShop, profile: Profile, scratch: string): Promise<WriteThroughput[]> {
  const files: Record<ClusterWriteKind, string> = { events: shop.eventsFile, orders: shop.ordersFile };
  const everyNode = Array.from({ length: NODES }, (_, index) => index);
  const runs: WriteThroughput[] = [];
  for (const kind of ["events", "orders"] as const) {
    for (const connections of profile.writeConnections) {
      for (const loaded of [[0], everyNode]) {
        process.stderr.write(`  cluster: ${kind} through ${loaded.length} node(s), ${connections} connections…\n`);
        const origins = loaded.map((index) => nodes.node(index).origin);
        runs.push(
          await measureWrites({
            kind,
            requestsFile: files[kind],
            origins,
            connections,
            settings: { ...profile.write, timeoutS: 5 },
            scratch,
          }),
        );
        await level(nodes, everyNode, shop);
      }
    }
  }
  return runs;
}

/** Single event writes through node 0 at `ratePerSec`, each timed until node 1 has applied it. */
export async function replicationLag(
  nodes: ClusterNodes,
  shop: ClusterShop,
  timing: { warmupS: number; durationS: number },
  ratePerSec: number,
): Promise<ReplicationLag> {
  process.stderr.write(`  cluster: replication lag, ${ratePerSec} single event writes/s through A, applied on B…\n`);
  const spec: LagSpec = {
    writeOrigin: nodes.node(0).origin,
    readOrigin: nodes.node(1).origin,
    pathsFile: shop.eventsFile,
    ratePerSec,
    ...timing,
  };
  const out = await runJsonClient<LagMeasured>(LAG_CLIENT, spec);
  return { ratePerSec, ...timing, ...out };
}

/** Kills B, writes events then orders through A for the set seconds, and times B's restart and a fresh node's replay. */
async function catchUps(nodes: ClusterNodes, shop: ClusterShop, profile: Profile, scratch: string) {
  const appliedBefore = await level(nodes, [0, 1, 2], shop);
  process.stderr.write("  cluster: node B killed (-9); writing through A…\n");
  await nodes.kill(1);
  const origin = nodes.node(0).origin;
  const written = async (file: string, connections: number, seconds: number) =>
    (await runWrk({ origin, pathsFile: file, connections, warmupS: 0, durationS: seconds, timeoutS: 5, scratch })).okPerSec;
  const missed = {
    eventsS: profile.missed.eventsS,
    ordersS: profile.missed.ordersS,
    eventsPerSec: await written(shop.eventsFile, 64, profile.missed.eventsS),
    ordersPerSec: await written(shop.ordersFile, 16, profile.missed.ordersS),
  };
  const streamEnd = await level(nodes, [0, 2], shop);
  process.stderr.write(`  cluster: restarting B (${streamEnd - appliedBefore} messages behind)…\n`);
  const restarted = await timeCatchUp(nodes, 1, { appliedBefore, streamEnd, what: "restarted" });
  process.stderr.write(`  cluster: a fresh node replaying the whole stream (${streamEnd} messages)…\n`);
  const fresh = await timeCatchUp(nodes, NODES, { appliedBefore: 0, streamEnd, what: "fresh" });
  return { missed, catchUps: [restarted, fresh] satisfies CatchUp[] };
}

export async function runCluster(options: { quick: boolean }): Promise<ClusterReport> {
  const generator = findWrk();
  if (generator === null) throw new Error("wrk is not installed (Debian: apt-get install -y wrk): the cluster bench posts with wrk");
  const profile = profileOf(options.quick);
  const scratch = makeTempDir("aisle-bench-cluster-");
  let nats: NatsServers | null = null;
  let nodes: ClusterNodes | null = null;
  try {
    process.stderr.write("  cluster: starting 3 nats-servers and 3 aisle nodes…\n");
    nats = await startNatsServers();
    nodes = await startClusterNodes(nats.urls, NODES);
    const shop = await createClusterShop(nodes.node(0).origin, scratch, profile.shop);
    await level(
      nodes,
      Array.from({ length: NODES }, (_, index) => index),
      shop,
    );
    const writes = await writeRuns(nodes, shop, profile, scratch);
    const lag = await replicationLag(nodes, shop, profile.lag, LAG_RATE_PER_SEC);
    const { missed, catchUps: caught } = await catchUps(nodes, shop, profile, scratch);
    return {
      generator,
      shop: { products: shop.products, eventPaths: shop.eventPaths, orders: shop.orders },
      writeSettings: profile.write,
      writes,
      lag,
      missed,
      catchUps: caught,
    };
  } finally {
    await nodes?.stop();
    await nats?.stop();
    removeTempDir(scratch);
  }
}
