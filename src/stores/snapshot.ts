// `aisle snapshot`: a copy of a data dir that a service can start from, taken
// while the service runs. Each LMDB environment is copied as one read
// snapshot of it (LMDB's own copy), so each is consistent in itself; a cluster
// node's place in the write stream is inside them (StreamWatermarks), so a node
// started from the copy goes on from there. On a single box it is the backup.
// A cluster node also keeps such copies in the cluster's snapshot bucket, and
// restores one into its data dir when it starts too far behind the stream
// (src/cluster/).
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { Environment } from "./environment.js";
import { StreamWatermarks } from "./stream-watermarks.js";

const MAIN_ENVIRONMENT = "aisle.lmdb";
const EVENT_LOG = "events.lmdb";
const MODELS = "models";
/** What a snapshot holds of a data dir besides the main environment and the admin token. */
const STORE_PARTS = [EVENT_LOG, MODELS];
const ADMIN_TOKEN = "admin-token";

/** The snapshot would overwrite something: it is written only into a new or empty dir. */
export class SnapshotTargetError extends Error {}

/** Asynchronous: a cluster node takes snapshots while it serves, and models run to tens of MB per shop. */
async function copyModels(dataDir: string, outDir: string): Promise<void> {
  const models = join(dataDir, MODELS);
  if (existsSync(models)) await cp(models, join(outDir, MODELS), { recursive: true });
}

/** What a snapshot holds of the write stream: the last sequence applied to each environment (0 on a single box). */
export interface SnapshotPlace {
  main: number;
  log: number;
  /** The write stream these places are in (its creation time); undefined before the store first joined one. */
  stream: string | undefined;
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
    await copyModels(dataDir, outDir);
    await env.root.backup(join(outDir, MAIN_ENVIRONMENT), false);
    await copyModels(dataDir, outDir);
    await env.logRoot.backup(join(outDir, EVENT_LOG), false);
    const token = join(dataDir, ADMIN_TOKEN);
    if (existsSync(token)) cpSync(token, join(outDir, ADMIN_TOKEN));
  } finally {
    await Promise.all([env.root.close(), env.logRoot.close()]);
  }
  return readPlace(outDir);
}

/** The place in the write stream that the store of `dir` holds; null when `dir` holds no store. */
export function placeHeldBy(dir: string): Promise<SnapshotPlace | null> {
  return existsSync(join(dir, MAIN_ENVIRONMENT)) ? readPlace(dir) : Promise.resolve(null);
}

async function readPlace(dir: string): Promise<SnapshotPlace> {
  const env = Environment.open(dir, true);
  try {
    const watermarks = new StreamWatermarks(env);
    return { ...watermarks.applied(), stream: watermarks.stream() };
  } finally {
    await Promise.all([env.root.close(), env.logRoot.close()]);
  }
}

/**
 * Moves the store of a snapshot (as writeSnapshot writes one) from
 * `snapshotDir` into `dataDir`, in place of the store there, which no process
 * may have open. The data dir's admin token, if it has one, is kept: the
 * node's operator chose it. The main environment is removed first and moved in
 * last, so a data dir whose restore was cut short holds no store (and is
 * restored again), never one environment of each.
 */
export function installSnapshot(snapshotDir: string, dataDir: string): void {
  const remove = (name: string) => {
    rmSync(join(dataDir, name), { recursive: true, force: true });
    // LMDB's lock file holds the readers of an environment that is gone.
    rmSync(join(dataDir, `${name}-lock`), { force: true });
  };
  const moveIn = (name: string) => {
    if (existsSync(join(snapshotDir, name))) renameSync(join(snapshotDir, name), join(dataDir, name));
  };
  remove(MAIN_ENVIRONMENT);
  for (const name of STORE_PARTS) {
    remove(name);
    moveIn(name);
  }
  if (!existsSync(join(dataDir, ADMIN_TOKEN))) moveIn(ADMIN_TOKEN);
  moveIn(MAIN_ENVIRONMENT);
}
