// Acknowledged writes per second through one node and spread over three: one
// wrk process per node loaded (wrk connects to one origin), all started
// together, the connections split between them so one and three nodes see the
// same total. A 2xx is a write the stream acknowledged (R=3).
import type { ClusterWriteKind, LoadSettings, WriteThroughput } from "../shared/results.js";
import { runWrk, type WrkOutcome } from "../load/wrk-client.js";

export interface WriteRun {
  kind: ClusterWriteKind;
  /** The wrk request file: event paths, or webhook lines with their bodies. */
  requestsFile: string;
  origins: readonly string[];
  connections: number;
  settings: Omit<LoadSettings, "connections">;
  scratch: string;
}

/** Runs wrk against every origin at once, `connections` split between them. */
export async function measureWrites(run: WriteRun): Promise<WriteThroughput> {
  const perNode = Math.max(1, Math.round(run.connections / run.origins.length));
  const outcomes: WrkOutcome[] = await Promise.all(
    run.origins.map((origin) =>
      runWrk({ ...run.settings, connections: perNode, origin, pathsFile: run.requestsFile, scratch: run.scratch }),
    ),
  );
  return {
    kind: run.kind,
    nodes: run.origins.length,
    connections: perNode * run.origins.length,
    okPerSec: outcomes.reduce((sum, out) => sum + out.okPerSec, 0),
    reqPerSec: outcomes.reduce((sum, out) => sum + out.reqPerSec, 0),
    p50Ms: Math.max(...outcomes.map((out) => out.latencyMs.p50)),
    p99Ms: Math.max(...outcomes.map((out) => out.latencyMs.p99)),
    failures: outcomes.reduce((sum, out) => sum + out.non2xx + out.socketErrors + out.timeouts, 0),
  };
}
