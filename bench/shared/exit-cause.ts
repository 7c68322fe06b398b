// Why a child process of the bench died, in one line a report can carry: the
// exit code or signal, what its stderr said last, and how its RSS moved. A
// load run against a dead server only says "fetch failed"; this says why.

export interface ExitStatus {
  code: number | null;
  signal: string | null;
}

/** One RSS reading of a child, seconds after it started. */
export interface RssSample {
  atS: number;
  mb: number;
}

/** Lines of stderr kept per child: enough for a V8 fatal error and its JS stack. */
export const STDERR_TAIL_LINES = 60;

/** Appends a line to a bounded tail (oldest lines dropped). */
export function remember(tail: string[], line: string, max = STDERR_TAIL_LINES): void {
  tail.push(line);
  if (tail.length > max) tail.splice(0, tail.length - max);
}

/** Known ways to die, recognised from stderr, most specific first. */
const KNOWN_CAUSES: [RegExp, string][] = [
  [/ERR_WORKER_OUT_OF_MEMORY/, "a worker thread ran out of its V8 heap (ERR_WORKER_OUT_OF_MEMORY)"],
  [
    /Reached heap limit|JavaScript heap out of memory|Ineffective mark-compacts near heap limit/,
    "the V8 heap limit was reached (JavaScript heap out of memory)",
  ],
  [/Cannot allocate memory|ENOMEM|std::bad_alloc/, "a native allocation failed (out of memory)"],
  [/MDB_MAP_FULL/, "the LMDB map is full (MDB_MAP_FULL)"],
];

/** The first stderr line that names the failure, else the last non-empty one. */
function telling(stderrTail: readonly string[]): string | null {
  const lines = stderrTail.map((line) => line.trim()).filter((line) => line !== "");
  for (const [pattern] of KNOWN_CAUSES) {
    const hit = lines.find((line) => pattern.test(line));
    if (hit !== undefined) return hit;
  }
  // Stack frames ("at …") name functions, not the failure.
  return lines.find((line) => !line.startsWith("at ") && /(Error|FATAL|Fatal|Aborted|panic)\b/.test(line)) ?? lines.at(-1) ?? null;
}

export function rssSummary(samples: readonly RssSample[]): string {
  if (samples.length === 0) return "no RSS sample";
  const peak = samples.reduce((best, s) => (s.mb > best.mb ? s : best));
  const last = samples.at(-1)!;
  const gb = (mb: number) => `${(mb / 1024).toFixed(1)} GB`;
  return `RSS ${gb(samples[0]!.mb)} at ${samples[0]!.atS.toFixed(0)} s, peak ${gb(peak.mb)} at ${peak.atS.toFixed(0)} s, last ${gb(last.mb)} at ${last.atS.toFixed(0)} s`;
}

/**
 * "aisle serve exited with signal SIGABRT after 95 s: the V8 heap limit was
 * reached (…) — stderr: «FATAL ERROR: …»; RSS …". A SIGKILL with a silent
 * stderr is named as the kernel's OOM killer's signature, not asserted as it.
 */
export function describeExit(
  what: string,
  status: ExitStatus,
  stderrTail: readonly string[],
  options: { afterS?: number; rss?: readonly RssSample[] } = {},
): string {
  const how = status.signal !== null ? `was killed by ${status.signal}` : `exited with code ${status.code ?? "?"}`;
  const when = options.afterS === undefined ? "" : ` ${options.afterS.toFixed(0)} s after start`;
  const text = stderrTail.join("\n");
  const cause = KNOWN_CAUSES.find(([pattern]) => pattern.test(text))?.[1];
  const line = telling(stderrTail);
  const parts = [`${what} ${how}${when}`];
  if (cause !== undefined) parts.push(`: ${cause}`);
  else if (status.signal === "SIGKILL" && line === null)
    parts.push(": nothing on stderr (what the kernel's OOM killer leaves; see the kernel log)");
  if (line !== null) parts.push(` — stderr: «${line.length > 300 ? `${line.slice(0, 300)}…` : line}»`);
  if (options.rss !== undefined) parts.push(`; ${rssSummary(options.rss)}`);
  return parts.join("");
}

/** An error as a report line: its stack when it has one. */
export function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** V8 maps its heap in pages of this size, each one memory mapping of the process. */
const V8_PAGE_MB = 0.25;
/** Share of the process's mappings left to V8's heap (the rest: libraries, thread stacks, malloc arenas, LMDB). */
const HEAP_SHARE_OF_MAPPINGS = 0.85;

/**
 * V8 heap for the shop-building child: the machine's memory less room for the
 * kernel, LMDB's pages and the other processes — and no more than the kernel's
 * vm.max_map_count lets V8 map. Past that (65,530 mappings ≈ 16 GB of heap by
 * default) mmap fails and the process dies of std::bad_alloc or SIGSEGV with no
 * word on why; under it, V8 stops with a plain "JavaScript heap out of memory".
 * Never below Node's own default of about 4 GB.
 */
export function builderHeapMB(totalMemBytes: number, maxMapCount = Infinity, headroomMB = 4_096): number {
  const byMemory = Math.floor(totalMemBytes / 1024 / 1024) - headroomMB;
  const byMappings = Math.floor(maxMapCount * HEAP_SHARE_OF_MAPPINGS * V8_PAGE_MB);
  return Math.max(4_096, Math.min(byMemory, byMappings));
}

/** vm.max_map_count, or Infinity where the kernel does not say (not Linux). */
export function maxMapCount(read: () => string): number {
  try {
    const value = Number(read().trim());
    return Number.isInteger(value) && value > 0 ? value : Infinity;
  } catch {
    return Infinity;
  }
}
