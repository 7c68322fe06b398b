import { readdirSync, readFileSync } from "node:fs";

/** The nice value of one of this process's threads (field 19 of its stat line), or undefined once it has exited. */
export function niceOf(thread: string): number | undefined {
  try {
    return Number(readFileSync(`/proc/self/task/${thread}/stat`, "utf8").split(") ")[1]!.split(" ")[16]);
  } catch {
    return undefined;
  }
}

/** This process's threads running at `nice` or lower priority (a thread that exits meanwhile is left out). */
export function threadsAtNice(nice: number): string[] {
  return readdirSync("/proc/self/task").filter((thread) => (niceOf(thread) ?? -Infinity) >= nice);
}
