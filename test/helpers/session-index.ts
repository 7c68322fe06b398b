// The session index's tables read as raw bytes, for comparisons byte for byte,
// and an index built from scratch from an event log, as the applier builds a
// data dir that lacks it.
import { open, type RootDatabase } from "lmdb";
import { join } from "node:path";
import type { BehaviourEvent } from "../../src/core/types.js";
import { DerivedBuilds } from "../../src/stores/derived-builds.js";
import { SessionIndexBuild } from "../../src/stores/session-index-build.js";
import { SessionIndex, type AppliedEventLog } from "../../src/stores/session-index.js";

/** The tables the index keeps per merchant (the heads table is keyed by the merchant alone). */
export const KEYED_TABLES = ["session_index_numbers", "session_index_sessions", "session_index_item_tails", "session_index_item_heads"];

/** Every entry of the merchant's index, as "table key → value bytes" lines, the merchant left out of keys. */
export function dumpSessionIndex(root: RootDatabase, merchant: string): string[] {
  const raw = (name: string) => root.openDB<Uint8Array, (string | number)[]>({ name, encoding: "binary" });
  const hex = (bytes: Uint8Array | undefined) =>
    bytes === undefined ? "absent" : Buffer.from(bytes.subarray(0, bytes.length)).toString("hex");
  const lines = [
    `session_index_heads → ${hex(root.openDB<Uint8Array, string>({ name: "session_index_heads", encoding: "binary" }).getBinary(merchant))}`,
  ];
  for (const name of KEYED_TABLES) {
    for (const { key, value } of raw(name).getRange({ start: [merchant], end: [merchant, "\uffff"] })) {
      lines.push(`${name} ${JSON.stringify(key.slice(1))} → ${hex(value)}`);
    }
  }
  return lines;
}

/** The data dir's index of the merchant, read with the data dir's store closed. */
export async function dumpDataDir(dataDir: string, merchant: string): Promise<string[]> {
  const root = open({ path: join(dataDir, "aisle.lmdb"), maxDbs: 64, readOnly: true });
  try {
    return dumpSessionIndex(root, merchant);
  } finally {
    await root.close();
  }
}

/** An event log in memory, numbered from 1, all of it applied. */
export function logOf(events: readonly BehaviourEvent[]): AppliedEventLog {
  return {
    eventsSince: (_merchant, after) => events.slice(after).map((event, i) => ({ sequence: after + 1 + i, event })),
    derivedSequence: () => events.length,
  };
}

/** Builds the merchant's index in `root` from `log`, as the applier builds a store a data dir lacks: clear, then slices. */
export function buildIndex(root: RootDatabase, merchant: string, log: AppliedEventLog): SessionIndex {
  const index = new SessionIndex(root);
  const build = new SessionIndexBuild(index, log);
  const builds = new DerivedBuilds(root.openDB<unknown, string>({ name: "meta" }), [build]);
  while (!root.transactionSync(() => builds.step(build, merchant)));
  return index;
}
