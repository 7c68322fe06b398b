// Every child process and temp dir the bench creates is registered here, so a
// crash, an error or Ctrl-C never leaves a server holding a port or a seeded
// LMDB env in /tmp. Children are ended by their own pid, never by name.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

export function spawnTracked(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

/** Waits for a child's exit, keeping everything it printed: for children that report through their output. */
export async function outputOf(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, stdout, stderr };
}

export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Asks a child to stop (SIGTERM lets aisle drain and close LMDB), then forces it after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (!running(child)) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => {
    if (running(child)) child.kill("SIGKILL");
  }, graceMs);
  await exited;
  clearTimeout(timer);
}

/** Synchronous last resort: runs from the `exit` event, where nothing async can happen. */
function cleanupSync(): void {
  for (const child of children) if (running(child)) child.kill("SIGKILL");
  children.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

let installed = false;

/** Installs the exit and signal hooks once; an interrupt exits 130 after cleaning up. */
export function installCleanup(): void {
  if (installed) return;
  installed = true;
  process.on("exit", cleanupSync);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      console.error(`\nbench: ${signal}, stopping children and removing temp dirs`);
      process.exit(130);
    });
  }
}
