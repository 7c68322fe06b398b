// docs/ARCHITECTURE.md is the map a newcomer reads first: it must match the tree.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const MAP = readFileSync("docs/ARCHITECTURE.md", "utf8");

/** The folders the map's table names, one per row: "| `src/http/` | …". */
const named = [...MAP.matchAll(/^\| `([\w./-]+\/)`/gm)].map((match) => match[1]!);

function foldersUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const path = `${join(dir, entry.name)}/`;
      return [path, ...foldersUnder(path)];
    });
}

describe("docs/ARCHITECTURE.md", () => {
  it("names only folders that exist", () => {
    expect(named.length).toBeGreaterThan(10);
    const missing = named.filter((folder) => !existsSync(folder) || !statSync(folder).isDirectory());
    expect(missing).toEqual([]);
  });

  it("names every folder under src/", () => {
    const unnamed = foldersUnder("src/").filter((folder) => !named.includes(folder));
    expect(unnamed).toEqual([]);
  });

  it("names every top-level folder the repository tracks", () => {
    const tracked = execFileSync("git", ["ls-files"], { encoding: "utf8" }).split("\n");
    const topLevel = new Set(tracked.filter((path) => path.includes("/") && !path.startsWith(".")).map((path) => `${path.split("/")[0]}/`));
    const unnamed = [...topLevel].filter((folder) => !named.includes(folder));
    expect(unnamed).toEqual([]);
  });
});
