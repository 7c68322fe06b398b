// Real nats-server processes with JetStream on loopback, for cluster tests:
// three servers forming one cluster (or a single one), each with its own
// store dir on a free client port and (clustered) a free route port. Started
// servers are stopped and their dirs removed by stop(), and killed when the
// test process exits, so no test leaves a server behind.
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../bench/shared/free-port.js";

/** Debian's package installs it here; `.ci/run` installs the package when it is missing. */
export const NATS_SERVER = process.env.AISLE_NATS_SERVER ?? "/usr/sbin/nats-server";

/** A cluster of 3 places streams within a few seconds on a busy 2-core machine. */
const READY_WITHIN_MS = 30_000;
/** The servers' priority (nice): lower than the test files beside them. */
export const NICENESS = 10;
/** A server that ignores SIGTERM this long is killed. */
const STOP_WITHIN_MS = 5_000;

export interface NatsServer {
  name: string;
  /** nats://127.0.0.1:port */
  url: string;
  clientPort: number;
  /** Its store dir and config. */
  dir: string;
  /** Whether its process is running (stopServer and startServer change it). */
  readonly running: boolean;
}

export interface NatsCluster {
  servers: NatsServer[];
  /** Every server's url, comma-separated: what a client (and AISLE_NATS_URL) is given. */
  urls: string;
  /** Stops one server (SIGTERM, then SIGKILL), keeping its store dir, so it can be started again. */
  stopServer(index: number): Promise<void>;
  /** Starts a stopped server again on the same ports and store dir. */
  startServer(index: number): void;
  /** Stops every server and removes their dirs. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
// A test process that ends without stop() (a failed hook, a timeout) takes its servers along.
process.once("exit", () => running.forEach((child) => child.kill("SIGKILL")));

interface ServerSpec {
  name: string;
  clientPort: number;
  routePort: number | null;
  dir: string;
  config: string;
}

function configOf(spec: ServerSpec, routePorts: number[]): string {
  const cluster =
    spec.routePort === null
      ? ""
      : `cluster {
  name: aisle-test
  listen: 127.0.0.1:${spec.routePort}
  routes: [${routePorts
    .filter((port) => port !== spec.routePort)
    .map((port) => `nats-route://127.0.0.1:${port}`)
    .join(", ")}]
}`;
  return `server_name: ${spec.name}
listen: 127.0.0.1:${spec.clientPort}
jetstream {
  store_dir: "${join(spec.dir, "jetstream")}"
  max_memory_store: 64MB
  max_file_store: 2GB
}
${cluster}
`;
}

/**
 * Waits until JetStream can place a stream on every server: a meta leader
 * alone (account info answers) is not enough, as a server that has not joined
 * the meta group yet makes a 3-replica stream time out.
 */
async function waitForJetStream(urls: string, replicas: number, deadline: number): Promise<void> {
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const connection = await connect({ servers: urls.split(","), timeout: 1_000 });
      try {
        const manager = await jetstreamManager(connection, { timeout: 2_000 });
        await manager.streams.add({ name: "harness_probe", subjects: ["harness_probe"], num_replicas: replicas });
        await manager.streams.delete("harness_probe");
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`JetStream could not place a stream on every server within ${READY_WITHIN_MS} ms: ${String(lastError)}`);
}

/** Starts `size` nats-servers (3: a cluster; 1: a single server) with JetStream and waits until it places streams on all of them. */
export async function startNatsCluster(size: 1 | 3 = 3): Promise<NatsCluster> {
  const specs: ServerSpec[] = [];
  for (let index = 0; index < size; index++) {
    const dir = mkdtempSync(join(tmpdir(), `aisle-nats-${index}-`));
    specs.push({
      name: `n${index + 1}`,
      clientPort: await freePort(),
      routePort: size === 1 ? null : await freePort(),
      dir,
      config: join(dir, "server.conf"),
    });
  }
  const routePorts = specs.map((spec) => spec.routePort).filter((port): port is number => port !== null);
  const children: (ChildProcess | null)[] = specs.map(() => null);
  const output: string[] = specs.map(() => "");

  const startServer = (index: number) => {
    const spec = specs[index]!;
    writeFileSync(spec.config, configOf(spec, routePorts));
    // At low priority, as the cluster tests' aisle nodes: other test files keep their share of a small machine.
    const child = spawn("nice", ["-n", String(NICENESS), NATS_SERVER, "-c", spec.config], { stdio: ["ignore", "pipe", "pipe"] });
    // Kept for the error message of a cluster that does not come up.
    const keep = (chunk: Buffer) => (output[index] = (output[index]! + chunk.toString()).slice(-4_000));
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    running.add(child);
    child.once("exit", () => running.delete(child));
    children[index] = child;
  };

  const stopServer = async (index: number) => {
    const child = children[index];
    children[index] = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_WITHIN_MS);
    await exited;
    clearTimeout(timer);
  };

  const stop = async () => {
    await Promise.all(specs.map((_, index) => stopServer(index)));
    for (const spec of specs) rmSync(spec.dir, { recursive: true, force: true });
  };

  const servers: NatsServer[] = specs.map((spec, index) => ({
    name: spec.name,
    url: `nats://127.0.0.1:${spec.clientPort}`,
    clientPort: spec.clientPort,
    dir: spec.dir,
    get running() {
      return children[index] !== null;
    },
  }));
  const urls = servers.map((server) => server.url).join(",");

  specs.forEach((_, index) => startServer(index));
  try {
    await waitForJetStream(urls, size, Date.now() + READY_WITHIN_MS);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${output.join("\n---\n")}`);
  }
  return { servers, urls, stopServer, startServer, stop };
}
