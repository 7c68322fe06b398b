// The replication-lag client, run as its own process (in the bench's process
// it would share an event loop with the bench's bookkeeping): single event
// POSTs to node A at a fixed rate, open loop, and for each acknowledged write
// the moment node B has applied the sequence A answered (X-Aisle-Seq).
//
// That moment is taken from B itself: right after A's answer, the client asks
// B for /healthz with X-Aisle-After-Seq, which B holds until it has applied the
// sequence (then answers at once) or 100 ms have passed. So the lag a reader
// without the header would see is measured to about one round trip to B, the
// probe's floor (measured too, with a sequence B holds already), instead of to
// a sampling interval; and B pays a cheap request per write, where reading its
// /metrics (about 2 ms of its HTTP thread each) every millisecond would load
// the very thread that applies the stream. A probe held the full 100 ms is
// followed by reading B's applied sequence from /metrics every 5 ms until it
// has the write.
//
// usage: node dist/bench/cluster/lag-client.js '<LagSpec as JSON>'
// prints: one JSON line, a LagMeasured.
import { Agent, request } from "node:http";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import type { LagMeasured } from "../shared/results.js";
import { MicrosecondHistogram } from "../load/microsecond-histogram.js";
import { runAsClientProcess } from "../shared/client-process.js";

export interface LagSpec {
  /** Node A: where events are written. */
  writeOrigin: string;
  /** Node B: where the write is looked for. */
  readOrigin: string;
  /** Event POST paths, one per line, sent in turn. */
  pathsFile: string;
  /** Writes per second, sent at that pace whatever the answers (open loop). */
  ratePerSec: number;
  warmupS: number;
  durationS: number;
}

/** main.ts's AFTER_SEQ_WAIT_MS: how long B holds a probe for a sequence it has not applied. */
const AFTER_SEQ_WAIT_MS = 100;
const METRICS_POLL_MS = 5;
const FLOOR_PROBES = 1_000;

const agent = new Agent({ keepAlive: true, maxSockets: 64 });
/** Probes B held the whole wait. */
let held = 0;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(origin: string, method: "GET" | "POST", path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { method, headers, agent }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

async function appliedSequence(origin: string): Promise<number> {
  const { body } = await send(origin, "GET", "/metrics");
  const match = /^aisle_cluster_applied_sequence (\d+)/m.exec(body);
  if (!match) throw new Error(`no aisle_cluster_applied_sequence in ${origin}/metrics`);
  return Number(match[1]);
}

/** /healthz on `origin` once it has applied `seq`, or once it has held the request for its whole wait. */
async function probe(origin: string, seq: number): Promise<void> {
  const { status, body } = await send(origin, "GET", "/healthz", { "X-Aisle-After-Seq": String(seq) });
  if (status !== 200) throw new Error(`${origin}/healthz with X-Aisle-After-Seq answered ${status}: ${body.slice(0, 200)}`);
}

/** Resolves at the moment `origin` has applied `seq`. */
async function applied(origin: string, seq: number): Promise<void> {
  const probeStarted = performance.now();
  await probe(origin, seq);
  if (performance.now() - probeStarted < AFTER_SEQ_WAIT_MS) return;
  held++;
  while ((await appliedSequence(origin)) < seq) await new Promise((resolve) => setTimeout(resolve, METRICS_POLL_MS));
}

async function run(spec: LagSpec): Promise<LagMeasured> {
  const paths = readFileSync(spec.pathsFile, "utf8")
    .split("\n")
    .filter((line) => line !== "");
  const ack = new MicrosecondHistogram();
  const lag = new MicrosecondHistogram();
  const startedAt = performance.now();
  const measuredFrom = startedAt + spec.warmupS * 1000;
  const endsAt = measuredFrom + spec.durationS * 1000;
  let sent = 0;
  let measuredSent = 0;
  let acknowledged = 0;
  let failed = 0;
  const pending = new Set<Promise<void>>();
  let probeError: unknown;

  const write = async (path: string) => {
    const sentAt = performance.now();
    const measured = sentAt >= measuredFrom;
    if (measured) measuredSent++;
    const answer = await send(spec.writeOrigin, "POST", path).catch(() => null);
    const ackAt = performance.now();
    const seq = Number(answer?.headers["x-aisle-seq"]);
    if (answer?.status !== 200 || !Number.isSafeInteger(seq)) {
      failed++;
      return;
    }
    if (!measured) return;
    acknowledged++;
    ack.record(ackAt - sentAt);
    await applied(spec.readOrigin, seq);
    lag.record(performance.now() - ackAt);
  };

  // Open loop: each tick sends every write due by now, however the earlier ones fare.
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const now = performance.now();
      const due = Math.floor(((Math.min(now, endsAt) - startedAt) / 1000) * spec.ratePerSec);
      while (sent < due) {
        // A write that fails counts as failed; a probe that fails fails the run (its lag would be a guess).
        const written = write(paths[sent % paths.length]!).catch((error: unknown) => void (probeError ??= error));
        pending.add(written);
        void written.finally(() => pending.delete(written));
        sent++;
      }
      if (now >= endsAt) {
        clearInterval(tick);
        resolve();
      }
    }, 1);
  });
  await Promise.all(pending);
  if (probeError !== undefined) throw probeError;

  const floor = new MicrosecondHistogram();
  for (let i = 0; i < FLOOR_PROBES; i++) {
    const probeStarted = performance.now();
    await probe(spec.readOrigin, 1);
    floor.record(performance.now() - probeStarted);
  }
  return {
    sent: measuredSent,
    acknowledged,
    failed,
    ackPerSec: acknowledged / spec.durationS,
    ackLatencyMs: ack.summary(),
    lagMs: lag.summary(),
    heldOut: held,
    probeFloorMs: floor.summary(),
  };
}

runAsClientProcess(run);
