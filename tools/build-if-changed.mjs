// `npm start` builds only when the sources changed since the last build: a
// restart of an unchanged tree then starts in about a second instead of
// waiting for the compiler (seconds even when it has nothing to do).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BUILD_INFO = "dist/.tsbuildinfo";
const INPUTS = [
  "src",
  "workers",
  "bench",
  "client/codegen",
  "client/src",
  "storefront",
  "tsconfig.json",
  "tsconfig.browser.json",
  "package-lock.json",
];

function newestChange(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

/** Whether some input under `root` changed after the last build (or there was none). */
export function needsBuild(root) {
  const info = join(root, BUILD_INFO);
  const built = existsSync(info) ? statSync(info).mtimeMs : 0;
  const inputs = INPUTS.map((input) => join(root, input)).filter((input) => existsSync(input));
  return Math.max(0, ...inputs.map(newestChange)) > built;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && needsBuild(".")) {
  execFileSync("npm", ["run", "--silent", "build"], { stdio: "inherit" });
  // The compiler leaves its build info alone when no output changed (a touched file): mark the build as current.
  const now = new Date();
  utimesSync(BUILD_INFO, now, now);
}
