// The two LMDB environments of a data dir (aisle.lmdb and events.lmdb), their
// meta tables and the data versions cached answers are keyed by. The stores
// open their tables in these environments; Store (src/stores/store.ts) holds them.
import { open, type Database, type RootDatabase } from "lmdb";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { MerchantId } from "../core/types.js";
import type { Key } from "./merchant-keys.js";

/** What a change touches, so caches of unrelated lists survive it. */
/**
 * "similar": the similar-products model (vectors and neighbour lists);
 * "collections": collections (moves with "catalogue"); "rankings": the stored
 * shop-wide rankings, whenever a refresh changes one.
 */
export type DataDomain = "catalogue" | "customers" | "orders" | "similar" | "collections" | "rankings";

/** A command that needs existing data found none where it looked. */
export class StoreNotFoundError extends Error {
  constructor(readonly dataDir: string) {
    super(`no aisle data in ${dataDir}: pass --data (or set AISLE_DATA_DIR) to the data dir aisle serve uses`);
  }
}

/** A data dir that cannot be made or opened (on a read-only disk, a file's path, not permitted): the operator's to fix. */
export class DataDirUnusableError extends Error {
  constructor(
    readonly dataDir: string,
    cause: unknown,
  ) {
    super(`cannot use ${dataDir} as a data dir: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** Makes the data dir if it is not there; a DataDirUnusableError names why it cannot be. */
export function makeDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    throw new DataDirUnusableError(dataDir, error);
  }
}

/**
 * Named tables the main environment can open. The service opens about 60 now
 * (and a data dir from an older build a few legacy ones): past the limit an
 * open fails natively and takes the thread down, so keep room. LMDB sizes a
 * few per-transaction arrays by it: a few KB.
 */
const MAIN_TABLES_MAX = 256;

export class Environment {
  readonly meta: Database<unknown, string>;
  /** Event-log sequence counters ("event_sequence:<merchant>"), in the log's environment. */
  readonly logMeta: Database<unknown, string>;
  private readonly versions: Database<number, Key>;

  private constructor(
    readonly root: RootDatabase,
    /**
     * The behaviour-event log in an environment of its own: LMDB has one writer
     * per environment, so logging an event (what its acknowledgement waits for)
     * never waits behind a catalogue write or the application of earlier events.
     */
    readonly logRoot: RootDatabase,
  ) {
    this.meta = this.table("meta");
    this.versions = this.table("versions");
    this.logMeta = this.table("log_meta", logRoot);
  }

  /**
   * Opens the environments of a data dir, creating them if the dir has none. `mustExist`:
   * for commands that only read or change what is there, so that a mistyped
   * --data names the problem instead of quietly creating an empty store.
   */
  static open(dataDir: string, mustExist = false): Environment {
    if (mustExist && !existsSync(join(dataDir, "aisle.lmdb"))) throw new StoreNotFoundError(dataDir);
    makeDataDir(dataDir);
    let root: RootDatabase | undefined;
    let logRoot: RootDatabase;
    try {
      root = open({ path: join(dataDir, "aisle.lmdb"), maxDbs: MAIN_TABLES_MAX, mapSize: 64 * 1024 ** 3 });
      // separateFlushed: a write's promise also says when its transaction is on disk (logEvents).
      logRoot = open({ path: join(dataDir, "events.lmdb"), maxDbs: 8, mapSize: 64 * 1024 ** 3, separateFlushed: true });
    } catch (error) {
      // Only the files' opening: what fails past it is aisle's to explain.
      root?.close().catch(() => {});
      throw new DataDirUnusableError(dataDir, error);
    }
    return new Environment(root, logRoot);
  }

  /** A msgpack table of `env` (the main environment unless told). */
  table<V, K extends string | Key>(name: string, env: RootDatabase = this.root): Database<V, K> {
    return env.openDB<V, K>({ name, encoding: "msgpack", sharedStructuresKey: Symbol.for("structures") });
  }

  version(merchant: MerchantId, domain: DataDomain): number {
    return this.versions.get([merchant, domain]) ?? 0;
  }

  /** In the caller's transaction. */
  bump(merchant: MerchantId, domain: DataDomain): void {
    this.versions.put([merchant, domain], this.version(merchant, domain) + 1);
  }
}
