import { fileURLToPath } from "node:url";

/**
 * The compiled file of a worker thread entry (e.g. "workers/entry.js"). Under
 * the test runner the modules run from their TypeScript sources, while threads
 * need JavaScript: then the build's copy is used.
 */
export function compiledWorkerFile(pathFromRoot: string): string {
  const fromSource = import.meta.url.endsWith(".ts");
  return fileURLToPath(new URL(`${fromSource ? "../../dist/" : "../../"}${pathFromRoot}`, import.meta.url));
}
