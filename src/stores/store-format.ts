// The stored layout's format version: a new data dir is stamped with it, an
// older one is migrated to it on open (formats 2 to 5), any other refused.
import type { Database } from "lmdb";
import { randomUUID } from "node:crypto";
import type { History } from "../core/recs/history.js";
import type { BehaviourEvent, MerchantId } from "../core/types.js";
import { derivedKey } from "./applied-events.js";
import type { Environment } from "./environment.js";
import type { EventHistories } from "./event-histories.js";
import type { Key } from "./merchant-keys.js";

/** Bumped whenever the stored layout changes; a data dir of another version is migrated (from formats 2 to 5) or refused. */
export const STORE_FORMAT_VERSION = 6;

export class StoreFormatError extends Error {}

/** Where each environment keeps the id that pairs aisle.lmdb with its events.lmdb. */
const PAIR_KEY = "environment_pair";
const MISMATCHED_LOG =
  "events.lmdb in this data dir is missing or belongs to another aisle.lmdb (their pair ids differ): restore the two files together, or move both away to start afresh";

/** The stores' tables that migrations write into. */
export interface MigratedTables {
  histories: EventHistories;
  eventsOneByOne: Database<BehaviourEvent, Key>;
  sessionMerchants: Database<MerchantId, string>;
}

/** Stamps a new data dir with the current format, or migrates an older one to it; refuses any other. */
export function checkFormat(env: Environment, tables: MigratedTables): void {
  let found = env.meta.get("format_version");
  if (found === undefined) {
    if (env.logMeta.get(PAIR_KEY) !== undefined) throw new StoreFormatError(MISMATCHED_LOG);
    env.root.transactionSync(() => env.meta.putSync("format_version", STORE_FORMAT_VERSION));
    pairEnvironments(env);
    return;
  }
  if (found === 2) found = migrateHistoriesToBinary(env, tables);
  if (found === 3) found = moveEventLog(env, tables);
  if (found === 4) found = startEventRecords(env);
  if (found === 5) found = startHistoryTails(env);
  if (found !== STORE_FORMAT_VERSION) {
    throw new StoreFormatError(`data dir has store format ${String(found)}, this build reads format ${STORE_FORMAT_VERSION}`);
  }
  // The applied watermarks here count events of that log: any other log would be misread.
  const pair = env.meta.get(PAIR_KEY);
  if (pair === undefined && env.logMeta.get(PAIR_KEY) === undefined)
    pairEnvironments(env); // a migration interrupted at its end
  else if (pair !== env.logMeta.get(PAIR_KEY)) throw new StoreFormatError(MISMATCHED_LOG);
}

/** Gives both environments one random id, so a data dir never runs on another one's event log. */
function pairEnvironments(env: Environment): void {
  const id = randomUUID();
  env.logRoot.transactionSync(() => env.logMeta.putSync(PAIR_KEY, id));
  env.root.transactionSync(() => env.meta.putSync(PAIR_KEY, id));
}

/** Format 2 kept histories as msgpack in "histories"; format 3 keeps them binary in "event_histories". */
function migrateHistoriesToBinary(env: Environment, { histories }: MigratedTables): number {
  const old = env.root.openDB<History, Key>({ name: "histories", encoding: "msgpack", sharedStructuresKey: Symbol.for("structures") });
  env.root.transactionSync(() => {
    for (const { key, value } of old.getRange()) histories.putWhole(key, value);
    old.dropSync();
    env.meta.putSync("format_version", 3);
  });
  return 3;
}

/**
 * Format 3 kept the event log, its counters and the session → merchant index
 * in the main environment; format 4 keeps them in events.lmdb. Copied in
 * chunks (a crash midway copies again: the same keys), then dropped here.
 */
function moveEventLog(env: Environment, { eventsOneByOne, sessionMerchants }: MigratedTables): number {
  const shared = { encoding: "msgpack" as const, sharedStructuresKey: Symbol.for("structures") };
  const oldEvents = env.root.openDB<BehaviourEvent, Key>({ name: "events", ...shared });
  const oldSessions = env.root.openDB<MerchantId, string>({ name: "session_merchants", ...shared });
  const CHUNK = 50_000;
  const copy = <V, K extends Key | string>(from: Database<V, K>, to: Database<V, K>) => {
    const chunk: { key: K; value: V }[] = [];
    const flush = () =>
      env.logRoot.transactionSync(() => {
        for (const { key, value } of chunk.splice(0)) to.put(key, value);
      });
    for (const entry of from.getRange()) {
      chunk.push({ key: entry.key, value: entry.value });
      if (chunk.length >= CHUNK) flush();
    }
    flush();
  };
  copy(oldEvents, eventsOneByOne);
  copy(oldSessions, sessionMerchants);
  const counters = [...env.meta.getRange({ start: "event_sequence:", end: "event_sequence;" })];
  env.logRoot.transactionSync(() => {
    for (const { key, value } of counters) env.logMeta.put(key, value);
  });
  env.root.transactionSync(() => {
    oldEvents.dropSync();
    oldSessions.dropSync();
    for (const { key, value } of counters) {
      env.meta.removeSync(key);
      // Before format 4 most data dirs applied each event in the commit that logged it.
      const merchant = key.slice("event_sequence:".length);
      if (env.meta.get(derivedKey(merchant)) === undefined) env.meta.putSync(derivedKey(merchant), value);
    }
    env.meta.putSync("format_version", 4);
  });
  pairEnvironments(env);
  return 4;
}

/**
 * Format 5 logs a commit's events of one merchant as one record
 * (the event log's records). Events format 4 logged one by one stay where they are:
 * eventsSince reads them before the records, whose sequence numbers follow
 * theirs.
 */
function startEventRecords(env: Environment): number {
  env.root.transactionSync(() => env.meta.putSync("format_version", 5));
  return 5;
}

/**
 * Format 6 keeps each history as a head and a tail (EventHistories), and
 * logs the applier's carts until a list refresh folds them into the
 * bought-together counts (CopurchaseCounts). A format-5 history is a head
 * without a tail, and a format-5 data dir has no carts waiting: nothing is
 * copied, but a build that reads format 5 would miss tails and waiting
 * carts from here on.
 */
function startHistoryTails(env: Environment): number {
  env.root.transactionSync(() => env.meta.putSync("format_version", 6));
  return 6;
}
