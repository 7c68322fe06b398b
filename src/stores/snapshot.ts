// `aisle snapshot`: a copy of a data dir that a service can start from, taken
// while the service runs. Each LMDB environment is copied as one read
// snapshot of it (LMDB's own copy), so each is consistent in itself; a cluster
// node's place in the write stream is inside them (StreamWatermarks), so a node
// started from the copy goes on from there. On a single box it is the backup.
import { cpSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Environment } from "./environment.js";
import { StreamWatermarks } from "./stream-watermarks.js";

/** The snapshot would overwrite something: it is written only into a new or empty dir. */
export class SnapshotTargetError extends Error {}

function copyModels(dataDir: string, outDir: string): void {
  const models = join(dataDir, "models");
  if (existsSync(models)) cpSync(models, join(outDir, "models"), { recursive: true });
}

/** What a snapshot holds of the write stream: the last sequence applied to each environment (0 on a single box). */
export interface SnapshotPlace {
  main: number;
  log: number;
}

/**
 * Copies the data dir's environments, its trained models and its admin token
 * into `outDir`. The main environment is copied before the event log: what
 * the applier had derived from the log is then always in the copied log too
 * (the log only grows ahead of it), and what the copied log holds beyond is
 * applied again at the next start, as after a crash.
 */
export async function writeSnapshot(dataDir: string, outDir: string): Promise<SnapshotPlace> {
  if (existsSync(outDir) && readdirSync(outDir).length > 0)
    throw new SnapshotTargetError(`${outDir} is not empty: a snapshot goes into a new dir`);
  const env = Environment.open(dataDir, true);
  try {
    mkdirSync(outDir, { recursive: true });
    // Model files are copied before and after the main environment: the file
    // its manifests name is in one copy or the other, unless two trainings of
    // a shop finish while the snapshot is taken. (A training replaces the file,
    // then removes the one before.)
    copyModels(dataDir, outDir);
    await env.root.backup(join(outDir, "aisle.lmdb"), false);
    copyModels(dataDir, outDir);
    await env.logRoot.backup(join(outDir, "events.lmdb"), false);
    const token = join(dataDir, "admin-token");
    if (existsSync(token)) cpSync(token, join(outDir, "admin-token"));
  } finally {
    await Promise.all([env.root.close(), env.logRoot.close()]);
  }
  const copy = Environment.open(outDir, true);
  try {
    return new StreamWatermarks(copy).applied();
  } finally {
    await Promise.all([copy.root.close(), copy.logRoot.close()]);
  }
}
