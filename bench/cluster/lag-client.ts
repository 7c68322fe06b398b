// The replication-lag client, run as its own process (in the bench's process
// it would share an event loop with the bench's bookkeeping): single event
// POSTs to node A at a fixed rate, open loop, and for each acknowledged write
// the moment node B has applied the sequence A answered (X-Aisle-Seq).
//
// That moment is taken from B itself: the client asks B for /healthz with
// X-Aisle-After-Seq, which B holds until it has applied the sequence (then
// answers at once) or 100 ms have passed (then it is asked again). So the lag a
// reader without the header would see is measured to about one round trip to
// B, the probe's floor (measured too, with a sequence B holds already), instead
// of to a sampling interval: reading B's /metrics costs about 2 ms of B's HTTP
// thread, the thread that applies the stream, so sampling it often would slow
// the very applying it measures. At most 32 probes are in flight, for the
// oldest writes not yet seen on B: however far B falls behind, the measurement
// holds at most that many waiting requests on it.
//
// usage: node dist/bench/cluster/lag-client.js '<LagSpec as JSON>'
// prints: one JSON line, a LagMeasured.
import { Agent, request } from "node:http";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import type { LagMeasured } from "../shared/results.js";
import { MicrosecondHistogram, summaryOf } from "../load/microsecond-histogram.js";
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
const FLOOR_PROBES = 1_000;
/**
 * Probes in flight at once: enough to keep up with the write rate when B does,
 * few enough that a B far behind holds at most this many waiting requests.
 */
const MAX_PROBES = 32;

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

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

/** /healthz on `origin` once it has applied `seq`, or once it has held the request for its whole wait. */
async function probe(origin: string, seq: number): Promise<void> {
  const { status, body } = await send(origin, "GET", "/healthz", { "X-Aisle-After-Seq": String(seq) });
  if (status !== 200) throw new Error(`${origin}/healthz with X-Aisle-After-Seq answered ${status}: ${body.slice(0, 200)}`);
}

interface Watched {
  seq: number;
  seen: (at: number) => void;
  failed: (error: unknown) => void;
}

/** Acknowledged writes not yet seen applied on B, probed oldest sequence first, at most MAX_PROBES at a time. */
class AppliedWatcher {
  /** Writes waiting for a probe, in sequence order. */
  private readonly unprobed: Watched[] = [];
  private probes = 0;
  /** Probes B held for its whole wait (the write was not applied within it). */
  heldOut = 0;

  constructor(private readonly origin: string) {}

  /** Resolves with the moment (performance.now()) a probe for `seq` came back answered: B had applied it. */
  seen(seq: number): Promise<number> {
    return new Promise((seen, failed) => {
      // Answers arrive nearly in sequence order: the place is found from the end.
      let at = this.unprobed.length;
      while (at > 0 && this.unprobed[at - 1]!.seq > seq) at--;
      this.unprobed.splice(at, 0, { seq, seen, failed });
      this.startProbes();
    });
  }

  private startProbes(): void {
    while (this.probes < MAX_PROBES && this.unprobed.length > 0) void this.probeUntilSeen(this.unprobed.shift()!);
  }

  private async probeUntilSeen(watched: Watched): Promise<void> {
    this.probes++;
    try {
      for (;;) {
        const sent = performance.now();
        await probe(this.origin, watched.seq);
        const answered = performance.now();
        if (answered - sent < AFTER_SEQ_WAIT_MS) return watched.seen(answered);
        this.heldOut++;
      }
    } catch (error) {
      watched.failed(error);
    } finally {
      this.probes--;
      this.startProbes();
    }
  }
}

async function run(spec: LagSpec): Promise<LagMeasured> {
  const paths = readFileSync(spec.pathsFile, "utf8")
    .split("\n")
    .filter((line) => line !== "");
  const watcher = new AppliedWatcher(spec.readOrigin);
  const ack = new MicrosecondHistogram();
  // Kept whole: a lag can run to seconds, past the histogram's range.
  const lagsMs: number[] = [];
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
    lagsMs.push((await watcher.seen(seq)) - ackAt);
  };

  // Open loop: each tick sends every write due by now, however the earlier ones fare.
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const now = performance.now();
      const due = Math.floor(((Math.min(now, endsAt) - startedAt) / 1000) * spec.ratePerSec);
      while (sent < due) {
        // A write that fails counts as failed; a probe that fails fails the run (a lag would be a guess).
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
    lagMs: summaryOf(lagsMs),
    heldOut: watcher.heldOut,
    probeFloorMs: floor.summary(),
  };
}

runAsClientProcess(run);
