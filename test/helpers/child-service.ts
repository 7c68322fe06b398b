// The service in a process of its own (the built CLI's `serve`), for tests that
// kill it mid-write: only another process can be killed -9 without taking the
// test along.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { ADMIN_TOKEN, adminApiAt, type AdminApi } from "./service.js";

const CLI = join(import.meta.dirname, "../../dist/src/cli.js");

export interface ChildService extends AdminApi {
  child: ChildProcess;
  base: string;
  /** Settles once the process has exited. */
  exited: Promise<unknown>;
}

/**
 * Starts the service on a free port over `dataDir`, with one worker, no demo
 * shop and the tests' admin token; `env` adds to its environment (e.g. a
 * cluster node's AISLE_NATS_URL); `niceness` lowers its priority.
 */
export function serveInChild(dataDir: string, env: Record<string, string> = {}, { niceness = 0 } = {}): Promise<ChildService> {
  // Under `nice` (every thread of the process, unlike setPriority on its pid), so that tests that start
  // several services leave the other test files their share of a small machine.
  const [command, args] = niceness === 0 ? [process.execPath, [CLI]] : ["nice", ["-n", String(niceness), process.execPath, CLI]];
  const child = spawn(command, [...args, "serve", "--port", "0", "--data", dataDir], {
    env: { ...process.env, AISLE_DEMO: "off", AISLE_WORKERS: "1", AISLE_ADMIN_TOKEN: ADMIN_TOKEN, ...env },
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  let output = "";
  // Kept for the error of a start that fails (a startup error goes to stderr).
  let errors = "";
  child.stderr!.on("data", (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4_000)));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const port = /aisle listening on http:\/\/localhost:(\d+)/.exec(output)?.[1];
      if (!port) return;
      const base = `http://127.0.0.1:${port}`;
      resolve({ child, base, exited, admin: adminApiAt(base) });
    });
    child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${output}${errors}`)));
  });
}
