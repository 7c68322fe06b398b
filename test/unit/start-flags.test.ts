import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { nodeFlagsOfScript } from "../../bench/shared/node-flags.js";

describe("the Node settings aisle starts with", () => {
  it("are the same in the command's first line and in package.json's start script", () => {
    const flags = nodeFlagsOfScript("src/cli.ts");
    expect(flags.length).toBeGreaterThan(0);
    const start = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { start: string } }).scripts.start;
    expect(start).toBe(`node ${flags.join(" ")} dist/src/cli.js serve`);
  });
});
