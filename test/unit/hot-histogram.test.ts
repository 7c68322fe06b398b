import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { HotHistogram } from "../../src/observability/hot-histogram.js";

const BUCKETS = [0.001, 0.01, 0.1, 1];
const OBSERVED: [string, number][] = [
  ["a", 0.0005],
  ["a", 0.001],
  ["b", 0.05],
  ["a", 0.5],
  ["b", 7],
  ["a", 0.02],
];

describe("HotHistogram", () => {
  it("scrapes exactly as prom-client's own histogram and counter of the same observations", async () => {
    const reference = new Registry();
    const histogram = new Histogram({ name: "x_seconds", help: "h", labelNames: ["route"], buckets: BUCKETS, registers: [reference] });
    const counter = new Counter({ name: "x_total", help: "c", labelNames: ["route"], registers: [reference] });
    const hot = new Registry();
    const fast = new HotHistogram({ name: "x_seconds", help: "h", labelNames: ["route"], buckets: BUCKETS, registry: hot });
    fast.countAs("x_total", "c");

    for (const [route, value] of OBSERVED) {
      histogram.observe({ route }, value);
      counter.inc({ route });
      fast.labels({ route }).observe(value);
    }
    expect(await hot.metrics()).toBe(await reference.metrics());
  });

  it("keeps one series per label set", () => {
    const fast = new HotHistogram({ name: "y_seconds", help: "h", labelNames: ["route"], buckets: BUCKETS, registry: new Registry() });
    expect(fast.labels({ route: "a" })).toBe(fast.labels({ route: "a" }));
    expect(fast.labels({ route: "a" })).not.toBe(fast.labels({ route: "b" }));
  });
});
