// What a newcomer's first commands depend on: a restart that does not compile
// an unchanged tree, and an install that runs no dependency's install script.
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { needsBuild } from "../../tools/build-if-changed.mjs";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-start-");

describe("npm start", () => {
  it("builds when a source is newer than the last build, and not otherwise", () => {
    const root = tempDir();
    mkdirSync(join(root, "src"));
    mkdirSync(join(root, "dist"));
    writeFileSync(join(root, "src", "a.ts"), "export {};\n");
    expect(needsBuild(root)).toBe(true);
    writeFileSync(join(root, "dist", ".tsbuildinfo"), "{}");
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, "dist", ".tsbuildinfo"), later, later);
    expect(needsBuild(root)).toBe(false);
    const latest = new Date(Date.now() + 120_000);
    utimesSync(join(root, "src", "a.ts"), latest, latest);
    expect(needsBuild(root)).toBe(true);
  });
});

describe("npm ci", () => {
  it("decides about every dependency install script in package.json, and .npmrc holds only settings npm knows", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { allowScripts?: Record<string, boolean> };
    const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = new Set(
      Object.entries(lock.packages)
        .filter(([path, entry]) => path !== "" && entry.hasInstallScript)
        .map(([path]) => path.split("node_modules/").at(-1)!),
    );
    expect([...withScripts].sort()).toEqual(Object.keys(pkg.allowScripts ?? {}).sort());
    // onnxruntime-node's would download CUDA binaries from outside the npm registry.
    expect(pkg.allowScripts?.["onnxruntime-node"]).toBe(false);
    const npmrc = readFileSync(".npmrc", "utf8");
    expect(npmrc).not.toMatch(/onnxruntime/);
  });
});
