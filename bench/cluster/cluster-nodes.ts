// aisle cluster nodes for the bench: `aisle serve` processes on the bench's
// nats-servers, each over its own temp data dir, every rate limit off (a
// throughput run would otherwise measure 429s). A node can be killed and
// started again over its data, or a fresh one started from an empty dir.
import { RATE_LIMITS_OFF, startAisleNode, type AisleNode } from "../shared/aisle-process.js";
import { makeTempDir, removeTempDir, stopChild } from "../shared/children.js";

export const ADMIN_TOKEN = "adm_bench_cluster";

export interface ClusterNodes {
  /** The running node at `index`; throws when it is stopped. */
  node(index: number): AisleNode;
  /** Starts the node at `index` over its data dir (empty the first time); a new index is a new node with a dir of its own. */
  start(index: number): Promise<AisleNode>;
  /** Kills the node at `index` (SIGKILL), keeping its data dir. */
  kill(index: number): Promise<void>;
  /** Stops every running node and removes every node's data dir. */
  stop(): Promise<void>;
}

/** `count` nodes on the servers at `natsUrls`, started one at a time: the first creates the stream the others find. */
export async function startClusterNodes(natsUrls: string, count: number): Promise<ClusterNodes> {
  const dirs: string[] = [];
  const nodes: (AisleNode | null)[] = [];
  // One pool worker a node: several nodes share the machine's cores, and the cluster's figures were measured so.
  const settings = { ...RATE_LIMITS_OFF, AISLE_NATS_URL: natsUrls, AISLE_NATS_REPLICAS: "3", AISLE_WORKERS: "1" };
  const start = async (index: number) => {
    dirs[index] ??= makeTempDir(`aisle-bench-node-${index}-`);
    const node = await startAisleNode(dirs[index], ADMIN_TOKEN, settings);
    nodes[index] = node;
    return node;
  };
  const halt = async (index: number, signal: "SIGTERM" | "SIGKILL") => {
    const node = nodes[index];
    nodes[index] = null;
    if (!node) return;
    if (signal === "SIGKILL") node.child.kill("SIGKILL");
    else await stopChild(node.child, 15_000);
    await node.exited;
  };
  const stop = async () => {
    await Promise.all(nodes.map((_, index) => halt(index, "SIGTERM")));
    dirs.forEach(removeTempDir);
  };
  try {
    for (let index = 0; index < count; index++) await start(index);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    node(index) {
      const node = nodes[index];
      if (!node) throw new Error(`cluster node ${index} is not running`);
      return node;
    },
    start,
    kill: (index) => halt(index, "SIGKILL"),
    stop,
  };
}

/** A node's last applied stream sequence, from its /metrics. */
export async function appliedSequence(origin: string): Promise<number> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  const match = /^aisle_cluster_applied_sequence (\d+)/m.exec(text);
  if (!match) throw new Error(`no aisle_cluster_applied_sequence in ${origin}/metrics`);
  return Number(match[1]);
}
