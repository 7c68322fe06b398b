// The server's pool task histogram (aisle_pool_task_duration_seconds on
// /metrics) read before and after a load run: how many of the run's answers a
// pool worker computed (misses handed to the pool; cache hits, and misses
// answered on the HTTP thread, are not tasks), and their latency on the
// server, queue wait included. A run that mixes hits and misses (quick-view
// keystrokes typed again) has its p99 decided by how many misses fall in its
// window; these figures show the misses themselves.

/** Cumulative task counts by bucket bound in seconds (Infinity for +Inf), every task kind and outcome added up. */
export type TaskHistogram = Map<number, number>;

export interface PoolTaskFigures {
  tasks: number;
  /** The bucket bounds (ms) that the median and the 99th percentile task fall within: "at most". */
  p50AtMostMs: number;
  p99AtMostMs: number;
}

const BUCKET_LINE = /^aisle_pool_task_duration_seconds_bucket\{[^}]*le="([^"]+)"[^}]*\}\s+(\S+)$/;

/** The histogram in a /metrics body. */
export function taskHistogramOf(metricsText: string): TaskHistogram {
  const histogram: TaskHistogram = new Map();
  for (const line of metricsText.split("\n")) {
    const match = BUCKET_LINE.exec(line);
    if (!match) continue;
    const bound = match[1] === "+Inf" ? Number.POSITIVE_INFINITY : Number(match[1]);
    histogram.set(bound, (histogram.get(bound) ?? 0) + Number(match[2]));
  }
  return histogram;
}

/** The server's histogram now. */
export async function readTaskHistogram(origin: string): Promise<TaskHistogram> {
  const response = await fetch(`${origin}/metrics`);
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
  return taskHistogramOf(await response.text());
}

/** The tasks that ended between two readings, or null when none did. */
export function tasksBetween(before: TaskHistogram, after: TaskHistogram): PoolTaskFigures | null {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const counts = bounds.map((bound) => (after.get(bound) ?? 0) - (before.get(bound) ?? 0));
  const tasks = counts.at(-1) ?? 0;
  if (tasks <= 0) return null;
  const atMost = (share: number) => bounds[counts.findIndex((count) => count >= share * tasks)]! * 1000;
  return { tasks, p50AtMostMs: atMost(0.5), p99AtMostMs: atMost(0.99) };
}
