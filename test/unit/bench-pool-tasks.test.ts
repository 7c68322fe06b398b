// The scale bench's count of the answers pool workers computed during a load run, from the server's task histogram.
import { describe, expect, it } from "vitest";
import { taskHistogramOf, tasksBetween } from "../../bench/load/pool-task-metrics.js";

/** A /metrics body with the task histogram of two kinds, the counts cumulative by bound as Prometheus writes them. */
function metrics(quickView: number[], trending: number[]): string {
  const bounds = ["0.001", "0.005", "0.025", "+Inf"];
  const series = (kind: string, counts: number[]) =>
    bounds.map((le, at) => `aisle_pool_task_duration_seconds_bucket{le="${le}",kind="${kind}",outcome="ok"} ${counts[at]}`);
  return [
    "# HELP aisle_pool_task_duration_seconds Worker pool task latency",
    "# TYPE aisle_pool_task_duration_seconds histogram",
    ...series("quick_view", quickView),
    ...series("trending", trending),
    `aisle_pool_task_duration_seconds_sum{kind="quick_view",outcome="ok"} 1.5`,
    `aisle_pool_task_duration_seconds_count{kind="quick_view",outcome="ok"} ${quickView.at(-1)}`,
    `aisle_http_request_duration_seconds_bucket{le="0.001",route="x"} 999`,
  ].join("\n");
}

describe("pool tasks between two readings of /metrics", () => {
  it("adds up every kind's buckets and counts only the tasks that ended between the readings", () => {
    const before = taskHistogramOf(metrics([5, 5, 5, 5], [1, 1, 1, 1]));
    // Since then: 10 quick-view tasks (2 within 1 ms, 5 more within 5 ms, 2 within 25 ms, 1 slower) and nothing else.
    const after = taskHistogramOf(metrics([7, 12, 14, 15], [1, 1, 1, 1]));
    expect(tasksBetween(before, after)).toEqual({ tasks: 10, p50AtMostMs: 5, p99AtMostMs: Number.POSITIVE_INFINITY });
  });

  it("takes the first bound that holds the share of tasks", () => {
    const before = taskHistogramOf(metrics([0, 0, 0, 0], [0, 0, 0, 0]));
    const after = taskHistogramOf(metrics([50, 99, 100, 100], [0, 0, 0, 0]));
    expect(tasksBetween(before, after)).toEqual({ tasks: 100, p50AtMostMs: 1, p99AtMostMs: 5 });
  });

  it("is null when no task ended, or the server has no task histogram", () => {
    const reading = taskHistogramOf(metrics([3, 3, 3, 3], [2, 2, 2, 2]));
    expect(tasksBetween(reading, reading)).toBeNull();
    expect(tasksBetween(new Map(), taskHistogramOf("# nothing here\n"))).toBeNull();
  });
});
