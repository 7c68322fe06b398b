// The cluster bench's report: acknowledged writes per second through one node
// and three, the replication lag, the catch-up rates, then how each was
// measured (generator, connections, rates, everything on one machine).
import { availableParallelism } from "node:os";
import type { CatchUp, ClusterReport, LatencySummaryMs, WriteThroughput } from "../shared/results.js";
import { count, machineLine, ms, renderTable, seconds } from "./format.js";

function writeRow(run: WriteThroughput): string[] {
  const what = run.kind === "events" ? "behaviour events (POST analytics/event)" : "orders (orders/create webhooks)";
  const through = run.nodes === 1 ? "node A" : `${run.nodes} nodes, ${run.connections / run.nodes} connections each`;
  return [
    what,
    through,
    count(run.connections),
    count(run.okPerSec),
    `${ms(run.p50Ms)} / ${ms(run.p99Ms)}`,
    run.failures === 0 ? "none" : `${count(run.failures)} (invalid run)`,
  ];
}

function latencyRow(label: string, summary: LatencySummaryMs): string[] {
  return [label, count(summary.count), ms(summary.p50), ms(summary.p90), ms(summary.p99), ms(summary.max)];
}

function catchUpRow(run: CatchUp): string[] {
  const what = run.what === "restarted" ? "node B, killed -9 and restarted on its data" : "a fresh node on an empty data dir (replay)";
  return [
    what,
    count(run.messages),
    `${run.levelAtListen ? "≤ " : ""}${seconds(run.caughtUpMs)}`,
    seconds(run.levelStartMs),
    count(run.messagesPerSec),
    count(run.grossMessagesPerSec),
  ];
}

export function formatClusterReport(report: ClusterReport | null, loadAtStart: number, quick: boolean, errors: string[]): string {
  const out = ["", machineLine(`aisle bench --cluster${quick ? " --quick" : ""}`, loadAtStart), ""];
  if (report !== null) {
    const { lag, missed, writeSettings } = report;
    out.push(
      `Acknowledged writes per second (${report.generator}, one process of 1 thread per node loaded; ${writeSettings.warmupS} s warm-up + ${writeSettings.durationS} s measured)`,
      renderTable(["writes", "through", "connections", "acknowledged/s", "latency p50 / p99", "failures"], report.writes.map(writeRow)),
      "",
      `Replication lag: ${count(lag.ratePerSec)} single event writes/s through node A (open loop), until node B has applied each`,
      renderTable(
        ["figure", "count", "p50", "p90", "p99", "max"],
        [
          latencyRow("lag: A's answer → B has applied it", lag.lagMs),
          latencyRow("A's answer time (send → answer)", lag.ackLatencyMs),
          latencyRow("the probe on B alone (the lag's floor)", lag.probeFloorMs),
        ],
      ),
      `  ${count(lag.sent)} writes sent over ${lag.durationS} s measured (after ${lag.warmupS} s warm-up), ${count(lag.acknowledged)} acknowledged (${count(lag.ackPerSec)}/s), ${count(lag.failed)} failed; ${count(lag.heldOut)} probes held the full 100 ms and asked again.`,
      "",
      "Catch-up: from the node's spawn until it has applied the stream's end",
      renderTable(
        ["node", "messages", "spawn → caught up", "level start", "messages/s (start subtracted)", "messages/s (start included)"],
        report.catchUps.map(catchUpRow),
      ),
      `  While B was down, A took ${missed.eventsS} s of events (${count(missed.eventsPerSec)}/s acknowledged, 64 connections) then ${missed.ordersS} s of orders (${count(missed.ordersPerSec)}/s, 16 connections): about ${count(missed.ordersPerSec * missed.ordersS)} of B's messages are orders, the rest events. A message is one publish: an order webhook, or one turn's events on a node (the events of a turn share a message), so the messages are fewer than the events; an order costs more to apply than a message of events.`,
      "",
      `How: 3 nats-servers (Debian's 2.9 package, JetStream, file storage, one cluster on loopback) and 3 aisle nodes, then a 4th for the replay (\`aisle serve\` with AISLE_NATS_URL, the stream at R=3, every rate limit off), each node over its own temp data dir, all on this machine's ${availableParallelism()} cores with the load generators and whatever else runs here: the figures show how the cluster behaves, not what machines of their own would reach. The shop: the demo generator's ${count(report.shop.products)} products written through node A's admin API; every node applied them before the runs.`,
      `Writes: one ${report.generator} process (1 thread) per node loaded, started together, the connections split evenly between them; a 2xx answer is a write the stream acknowledged (R=3: a majority of the servers hold it). Events: the default bench's ingest rotation on this shop's handles (${count(report.shop.eventPaths)} POSTs of interleaved sessions, product views and some add-to-carts), one event per request; the node batches each turn's events into one publish. Orders: the demo's ${count(report.shop.orders)} orders, one signed orders/create webhook each (a rotation: after the first pass an order is written again, as an update); each is answered once the stream has acknowledged it and the node has applied it. Between runs every node is left to apply everything before the next run starts.`,
      `Lag: a Node client process sends single event POSTs to A at the fixed rate and asks B for /healthz with X-Aisle-After-Seq set to each answer's X-Aisle-Seq: B holds that request until it has applied the sequence and answers at once then (or after 100 ms, when it is asked again), so the time from A's answer to B's is the lag a read on B without the header sees, measured to about one round trip to B (the floor row: the same probe for a sequence B holds already; the lag includes it). At most 32 probes are in flight, for the oldest writes not yet seen on B: however far B falls behind, the measurement holds at most that many waiting requests on it. Sampling B's /metrics instead would read the applied sequence only at the sampling interval, and each read costs B's HTTP thread, the thread that applies the stream, about 2 ms.`,
      `Catch-up: "level start" is the same node's spawn to its first /healthz 200 when it has nothing to catch up (it is killed and started again once caught up); the rate with the start subtracted is the messages over the difference. A node starts applying before it listens, so "≤" marks a node that had caught up by the time it first answered (its time is an upper bound). The moment a node has applied the stream's end is taken as for the lag.`,
    );
  }
  for (const error of errors) out.push(`NOT MEASURED: ${error}`);
  out.push("Benchmarks are not tests: figures are reported as measured, and the exit code stays 0.", "");
  return out.join("\n");
}
