// One `aisle serve` per data dir. The service numbers the events it logs from
// memory (EventLog.logEvents): a second service on the same data dir, e.g. one
// started before the old one has stopped, would overwrite the other's events.
// Other commands (import, merchants, rebuild, train) write through LMDB
// transactions and do not take the lock. The lock is a pid file; one left by a
// process that no longer runs (a crash, kill -9) is taken over.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { DataDirUnusableError } from "./environment.js";

export class DataDirInUseError extends Error {}

const LOCK_FILE = "serve.pid";

/** Takes the data dir for this process; returns the function that gives it back. */
export function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, LOCK_FILE);
  // Twice at most: a stale file is removed, then created again as ours. (Two
  // services starting at the same instant after a crash could both remove it;
  // that window is not guarded.)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o644);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => release(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw new DataDirUnusableError(dataDir, error);
    }
    const holder = holderOf(file);
    if (holder !== null && holder !== process.pid && isRunning(holder)) {
      throw new DataDirInUseError(
        `data dir ${dataDir} is in use by aisle serve (pid ${holder}): stop that one first (if pid ${holder} is not aisle, remove ${file})`,
      );
    }
    removeIfPresent(file);
  }
  throw new DataDirInUseError(`data dir ${dataDir}: could not take ${LOCK_FILE}`);
}

function holderOf(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Signal 0 checks that a process exists without touching it; EPERM means it exists under another user. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function release(file: string): void {
  if (holderOf(file) === process.pid) removeIfPresent(file);
}

function removeIfPresent(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
