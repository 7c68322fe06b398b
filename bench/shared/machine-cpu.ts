// CPU time the whole machine spent busy, from /proc/stat: beside one process's
// own CPU time (cpuMicros in aisle-process.ts) it shows what everything else on
// the shared cores took meanwhile (load generators, other users' work).
import { readFileSync } from "node:fs";

/** USER_HZ: 100 on Linux builds for every mainstream architecture. */
const CLOCK_TICKS_PER_SECOND = 100;

/** Busy CPU time of all cores together since boot, in µs: user, nice, system and interrupt time. */
export function machineBusyMicros(): number {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0]!;
  // "cpu  user nice system idle iowait irq softirq steal guest guest_nice": guest time is already in user, and
  // steal is time the hypervisor gave elsewhere, not work done here.
  const [user, nice, system, _idle, _iowait, irq, softirq] = line.trim().split(/\s+/).slice(1).map(Number);
  const busy = [user, nice, system, irq, softirq].reduce((sum: number, ticks) => sum + (ticks ?? 0), 0);
  return (busy / CLOCK_TICKS_PER_SECOND) * 1e6;
}
