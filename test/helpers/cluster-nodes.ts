// aisle cluster nodes as child processes (the built CLI's `serve`) on one
// nats-server cluster, each on a free port over its own temp data dir: a node
// can be killed -9 and started again on its data, as an operator's would.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveInChild, type ChildService } from "./child-service.js";
import { NICENESS, type NatsCluster } from "./nats-cluster.js";

export interface ClusterNodes {
  nodes: (ChildService | null)[];
  node(index: number): ChildService;
  /** Kills a node with SIGKILL and waits for its exit. */
  kill(index: number): Promise<void>;
  /** Stops a node in order (SIGTERM) and waits for its exit; its data dir stays. */
  halt(index: number): Promise<void>;
  dataDir(index: number): string;
  /** Starts a node (again) over its data dir. */
  start(index: number): Promise<ChildService>;
  /** Stops every node (SIGTERM) and removes their data dirs. */
  stop(): Promise<void>;
}

export async function startClusterNodes(nats: NatsCluster, count: number): Promise<ClusterNodes> {
  const dirs = Array.from({ length: count }, (_, index) => mkdtempSync(join(tmpdir(), `aisle-node-${index}-`)));
  const nodes: (ChildService | null)[] = dirs.map(() => null);
  const replicas = String(nats.servers.length);
  const start = async (index: number) => {
    const node = await serveInChild(dirs[index]!, { AISLE_NATS_URL: nats.urls, AISLE_NATS_REPLICAS: replicas }, { niceness: NICENESS });
    nodes[index] = node;
    return node;
  };
  const halt = async (index: number, signal: NodeJS.Signals) => {
    const node = nodes[index];
    nodes[index] = null;
    if (!node || node.child.exitCode !== null || node.child.signalCode !== null) return;
    node.child.kill(signal);
    const timer = setTimeout(() => node.child.kill("SIGKILL"), 15_000);
    await node.exited;
    clearTimeout(timer);
  };
  try {
    // One at a time: the first creates the stream the others find.
    for (let index = 0; index < count; index++) await start(index);
  } catch (error) {
    await Promise.all(dirs.map((_, index) => halt(index, "SIGKILL")));
    dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
    throw error;
  }
  return {
    nodes,
    node(index) {
      const node = nodes[index];
      if (!node) throw new Error(`node ${index} is not running`);
      return node;
    },
    kill: (index) => halt(index, "SIGKILL"),
    halt: (index) => halt(index, "SIGTERM"),
    dataDir: (index) => dirs[index]!,
    start,
    async stop() {
      await Promise.all(dirs.map((_, index) => halt(index, "SIGTERM")));
      dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
    },
  };
}

/** A node's last applied stream sequence, from its /metrics. */
export async function appliedSequence(node: ChildService): Promise<number> {
  const text = await (await fetch(`${node.base}/metrics`)).text();
  const match = /^aisle_cluster_applied_sequence (\d+)/m.exec(text);
  if (!match) throw new Error("no aisle_cluster_applied_sequence in /metrics");
  return Number(match[1]);
}
