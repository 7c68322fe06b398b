// Three nats-servers (Debian's package) clustered on loopback with JetStream,
// each on its own store dir, for the cluster bench. The bench cannot use a
// NATS client (only src/cluster/ may import one), so a server counts as up
// once it logs that it is ready; the first aisle node then creates the R=3
// stream, asking again while JetStream is still electing its leaders.
import type { ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { makeTempDir, removeTempDir, spawnTracked, stopChild } from "../shared/children.js";
import { remember } from "../shared/exit-cause.js";
import { freePort } from "../shared/free-port.js";

/** Where Debian's package installs it. */
const NATS_SERVER = process.env.AISLE_NATS_SERVER ?? "/usr/sbin/nats-server";
const READY_WITHIN_MS = 30_000;

export interface NatsServers {
  /** Every server's nats:// URL, comma-separated: a node's AISLE_NATS_URL. */
  urls: string;
  /** The servers' processes, for their CPU time. */
  pids: number[];
  stop(): Promise<void>;
}

function serverConfig(name: string, clientPort: number, routePort: number, otherRoutes: number[], storeDir: string): string {
  return [
    `server_name: ${name}`,
    `listen: 127.0.0.1:${clientPort}`,
    `jetstream { store_dir: "${storeDir}" }`,
    "cluster {",
    "  name: aisle-bench",
    `  listen: 127.0.0.1:${routePort}`,
    `  routes: [${otherRoutes.map((port) => `nats-route://127.0.0.1:${port}`).join(", ")}]`,
    "}",
    "",
  ].join("\n");
}

/** Resolves once the server logs "Server is ready"; rejects if it exits or stays silent too long. */
function untilReady(child: ChildProcess, name: string): Promise<void> {
  const tail: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`nats-server ${name} not ready within ${READY_WITHIN_MS} ms:\n${tail.join("\n")}`)),
      READY_WITHIN_MS,
    );
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`nats-server ${name} exited (${code}):\n${tail.join("\n")}`));
    });
    // The server logs to stderr; both streams are read to the end so a full pipe never blocks it.
    createInterface({ input: child.stdout! }).on("line", (line) => remember(tail, line, 20));
    createInterface({ input: child.stderr! }).on("line", (line) => {
      remember(tail, line, 20);
      if (line.includes("Server is ready")) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

/** Starts three clustered nats-servers with JetStream on loopback ports, each over a temp store dir. */
export async function startNatsServers(): Promise<NatsServers> {
  const names = ["n1", "n2", "n3"];
  const clientPorts: number[] = [];
  const routePorts: number[] = [];
  for (const _ of names) {
    clientPorts.push(await freePort());
    routePorts.push(await freePort());
  }
  const dirs = names.map((name) => makeTempDir(`aisle-bench-nats-${name}-`));
  const children = names.map((name, index) => {
    const dir = dirs[index]!;
    const config = join(dir, "server.conf");
    const others = routePorts.filter((_, other) => other !== index);
    writeFileSync(config, serverConfig(name, clientPorts[index]!, routePorts[index]!, others, join(dir, "jetstream")));
    return spawnTracked(NATS_SERVER, ["-c", config]);
  });
  const stop = async () => {
    await Promise.all(children.map((child) => stopChild(child)));
    dirs.forEach(removeTempDir);
  };
  try {
    await Promise.all(children.map((child, index) => untilReady(child, names[index]!)));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    urls: clientPorts.map((port) => `nats://127.0.0.1:${port}`).join(","),
    pids: children.map((child) => child.pid!),
    stop,
  };
}
