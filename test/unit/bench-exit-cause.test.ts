import { describe, expect, it } from "vitest";
import { serverNotes } from "../../bench/report/curve-report.js";
import { builderHeapMB, describeExit, maxMapCount, remember, rssSummary } from "../../bench/shared/exit-cause.js";

const GB = 1024 ** 3;

describe("describeExit", () => {
  it("names a V8 heap exhaustion from the fatal error on stderr", () => {
    const stderr = [
      "<--- Last few GCs --->",
      "[123:0x5e]   95000 ms: Mark-Compact 4090.1 (4140.2) -> 4088.0 (4141.0) MB",
      "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
      " 1: 0xb8ced1 node::Abort() [node]",
    ];
    const text = describeExit("aisle serve", { code: null, signal: "SIGABRT" }, stderr, { afterS: 95.4 });
    expect(text).toContain("aisle serve was killed by SIGABRT 95 s after start");
    expect(text).toContain("the V8 heap limit was reached");
    expect(text).toContain("«FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory»");
  });

  it("prefers a worker's out-of-memory error to the heap message it carries", () => {
    const stderr = [
      "Error [ERR_WORKER_OUT_OF_MEMORY]: Worker terminated due to reaching memory limit: JS heap out of memory",
      "    at new NodeError",
    ];
    expect(describeExit("aisle serve", { code: 1, signal: null }, stderr)).toMatch(
      /exited with code 1: a worker thread ran out of its V8 heap .*«Error \[ERR_WORKER_OUT_OF_MEMORY\]/,
    );
  });

  it("says what a silent SIGKILL looks like without claiming the OOM killer sent it", () => {
    const text = describeExit("aisle serve", { code: null, signal: "SIGKILL" }, ["", "  "]);
    expect(text).toBe("aisle serve was killed by SIGKILL: nothing on stderr (what the kernel's OOM killer leaves; see the kernel log)");
  });

  it("falls back to the error line, or the last line, of an unknown failure", () => {
    expect(describeExit("child", { code: 1, signal: null }, ["starting", "TypeError: x is not a function", "    at f (a.js:1:1)"])).toBe(
      "child exited with code 1 — stderr: «TypeError: x is not a function»",
    );
    expect(describeExit("child", { code: 3, signal: null }, ["one", "two"])).toBe("child exited with code 3 — stderr: «two»");
    expect(describeExit("child", { code: 3, signal: null }, [])).toBe("child exited with code 3");
  });

  it("adds the RSS course when samples are given", () => {
    const rss = [
      { atS: 1, mb: 1024 },
      { atS: 30, mb: 6144 },
      { atS: 31, mb: 5120 },
    ];
    expect(describeExit("aisle serve", { code: null, signal: "SIGKILL" }, [], { rss })).toContain(
      "RSS 1.0 GB at 1 s, peak 6.0 GB at 30 s, last 5.0 GB at 31 s",
    );
  });
});

describe("rssSummary", () => {
  it("says when there is nothing to summarise", () => {
    expect(rssSummary([])).toBe("no RSS sample");
  });
});

describe("remember", () => {
  it("keeps only the last lines", () => {
    const tail: string[] = [];
    for (let i = 0; i < 10; i++) remember(tail, String(i), 3);
    expect(tail).toEqual(["7", "8", "9"]);
  });
});

describe("builderHeapMB", () => {
  it("leaves 4 GB of the machine to everything else, and never goes below Node's default", () => {
    expect(builderHeapMB(24 * GB)).toBe(20 * 1024);
    expect(builderHeapMB(6 * GB)).toBe(4096);
    expect(builderHeapMB(24 * GB, Infinity, 8192)).toBe(16 * 1024);
  });

  it("stays under what vm.max_map_count lets V8 map (256 KB pages, 85% of the mappings)", () => {
    // The kernel's default 65,530 mappings: 65,530 × 0.85 × 0.25 MB.
    expect(builderHeapMB(24 * GB, 65_530)).toBe(13_925);
    expect(builderHeapMB(24 * GB, 262_144)).toBe(20 * 1024);
    expect(builderHeapMB(24 * GB, 1_000)).toBe(4096);
  });
});

describe("maxMapCount", () => {
  it("reads the kernel's number, or gives no limit when there is none to read", () => {
    expect(maxMapCount(() => "65530\n")).toBe(65_530);
    expect(maxMapCount(() => "nonsense")).toBe(Infinity);
    expect(
      maxMapCount(() => {
        throw new Error("ENOENT");
      }),
    ).toBe(Infinity);
  });
});

describe("serverNotes", () => {
  it("turns the server's JSON log lines into one readable line each", () => {
    const lines = [
      '{"level":"info","time":"2025-01-01T00:00:00.000Z","message":"similar-products model trained","merchant":"demo","seconds":61.2}',
      '{"level":"error","time":"2025-01-01T00:00:00.000Z","message":"similar-products model update failed","merchant":"demo","error":"Error: boom\\n    at x"}',
      "not json",
    ];
    expect(serverNotes({ serverNotes: lines })).toEqual([
      "info: similar-products model trained (merchant=demo, seconds=61.2)",
      "error: similar-products model update failed (merchant=demo, error=Error: boom)",
      "not json",
    ]);
  });
});
