// How much of a data dir's LMDB files the kernel holds in its page cache, read
// with util-linux's fincore. A server started on a kept shop reads what is not
// resident from disk, on the HTTP thread too (a list miss it answers itself),
// so the first minute's latencies follow this share: a big shop's runs are
// only comparable beside it.
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";

export interface PageCacheShare {
  residentMB: number;
  fileMB: number;
}

/** The data dir's LMDB files' resident and total sizes, or null where fincore is missing or fails. */
export function pageCacheShare(dataDir: string): PageCacheShare | null {
  const files = readdirSync(dataDir)
    .filter((name) => name.endsWith(".lmdb"))
    .map((name) => join(dataDir, name));
  if (files.length === 0) return null;
  try {
    const table = execFileSync("fincore", ["--bytes", "--noheadings", "--raw", "--output", "RES,SIZE", ...files], { encoding: "utf8" });
    return sharesOf(table);
  } catch {
    return null;
  }
}

/** fincore's raw "RES SIZE" lines (bytes) added up, in MB. */
export function sharesOf(table: string): PageCacheShare | null {
  let resident = 0;
  let size = 0;
  for (const line of table.trim().split("\n")) {
    const [res, bytes] = line.trim().split(/\s+/).map(Number);
    if (!Number.isFinite(res) || !Number.isFinite(bytes)) return null;
    resident += res!;
    size += bytes!;
  }
  return { residentMB: resident / 2 ** 20, fileMB: size / 2 ** 20 };
}
