import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach } from "vitest";

/**
 * A maker of temp dirs named `prefix…` for one test file; the dirs it made are
 * removed after each test, or after the file's last one ("all": for dirs that
 * tests share, e.g. a CLI's data dir used across several steps).
 */
export function tempDirs(prefix: string, removeAfter: "each" | "all" = "each"): () => string {
  const made: string[] = [];
  (removeAfter === "each" ? afterEach : afterAll)(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
