// The scale bench's share of a kept shop's LMDB files in the page cache, from fincore's raw output.
import { describe, expect, it } from "vitest";
import { sharesOf } from "../../bench/shared/page-cache.js";

describe("fincore's table read by the scale bench", () => {
  it("adds up every file's resident and total bytes, in MB", () => {
    expect(sharesOf(`${3 * 2 ** 20} ${8 * 2 ** 20}\n${2 ** 19} ${2 ** 20}\n`)).toEqual({ residentMB: 3.5, fileMB: 9 });
  });

  it("knows nothing from a table it cannot read", () => {
    expect(sharesOf("RES SIZE\n")).toBeNull();
    expect(sharesOf("12 \n")).toBeNull();
  });
});
