// The Node flags `npm start` gives the service (package.json's start script),
// so the bench starts the service as an operator does.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The flags between `node` and the script in package.json's start script. */
export function startScriptNodeFlags(): string[] {
  const start = (JSON.parse(readFileSync(packageJsonPath(), "utf8")) as { scripts: { start: string } }).scripts.start;
  const words = start.split(" ").filter((word) => word !== "");
  if (words[0] !== "node") throw new Error(`package.json's start script does not run node: ${start}`);
  return words.slice(1).filter((word) => word.startsWith("--"));
}

/** The repository's package.json, found upward from here (this file runs from the sources in tests, from dist in the bench). */
function packageJsonPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("package.json not found above the bench");
    dir = parent;
  }
  return join(dir, "package.json");
}
