import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DataDirUnusableError } from "../../src/stores/environment.js";
import { DataDirInUseError, lockDataDir } from "../../src/stores/serve-lock.js";
import { Store } from "../../src/stores/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-serve-lock-");

/** A process that runs until killed, and its pid. */
function otherProcess() {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  return { pid: child.pid!, stop: () => new Promise((resolve) => child.once("exit", resolve).kill("SIGKILL")) };
}

describe("one aisle serve per data dir", () => {
  it("names a data dir it cannot use, as the store's open does", () => {
    const file = join(tempDir(), "a-file");
    writeFileSync(file, "x");
    expect(() => lockDataDir(file)).toThrow(DataDirUnusableError);
    expect(() => lockDataDir(file)).toThrow(`cannot use ${file} as a data dir: ENOTDIR`);
    // Its main database file's place taken by a directory: LMDB's own refusal, named the same way.
    const dir = tempDir();
    mkdirSync(join(dir, "aisle.lmdb"));
    expect(() => Store.open(dir)).toThrow(`cannot use ${dir} as a data dir: Is a directory`);
  });

  it("refuses a data dir whose lock a running process holds, naming it", async () => {
    const dir = tempDir();
    const other = otherProcess();
    try {
      writeFileSync(join(dir, "serve.pid"), `${other.pid}\n`);
      expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
      expect(() => lockDataDir(dir)).toThrow(`pid ${other.pid}`);
      // Refusing left the holder's file as it was.
      expect(readFileSync(join(dir, "serve.pid"), "utf8").trim()).toBe(String(other.pid));
    } finally {
      await other.stop();
    }
  });

  it("takes over the lock of a process that has died, and gives it back", async () => {
    const dir = tempDir();
    const other = otherProcess();
    writeFileSync(join(dir, "serve.pid"), `${other.pid}\n`);
    await other.stop();
    const unlock = lockDataDir(dir);
    expect(readFileSync(join(dir, "serve.pid"), "utf8").trim()).toBe(String(process.pid));
    unlock();
    expect(existsSync(join(dir, "serve.pid"))).toBe(false);
    // Free again: the next start takes it at once.
    lockDataDir(dir)();
  });
});
