// A Prometheus histogram for what is observed on every request. prom-client's
// observe() checks and hashes the labels and builds closures on each call:
// about 2-3 µs, a tenth of the HTTP thread's whole cost for an event. Here a
// caller looks its series up once, and an observation is a bucket scan and
// three additions. The histogram registers with a prom-client registry and is
// scraped with its other metrics; so can a counter of the same observations.
import type { Metric, Registry } from "prom-client";

interface ExportedValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

/** What prom-client's registry reads from a metric when it is scraped. */
interface ExportedMetric {
  name: string;
  help: string;
  type: "histogram" | "counter";
  aggregator: "sum";
  values: ExportedValue[];
}

/** One label set's observations. */
export class HistogramSeries {
  /** Per bucket (not cumulative): observations ≤ its upper bound and above the previous one. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    private readonly upperBounds: readonly number[],
    readonly labels: Readonly<Record<string, string>>,
  ) {
    this.counts = new Float64Array(upperBounds.length);
  }

  observe(value: number): void {
    const bounds = this.upperBounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        this.counts[i]!++;
        break;
      }
    }
    this.sum += value;
    this.count++;
  }
}

export interface HotHistogramOptions<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  buckets: readonly number[];
  registry: Registry;
}

export class HotHistogram<L extends string = never> {
  private readonly series = new Map<string, HistogramSeries>();
  private readonly buckets: readonly number[];

  constructor(private readonly options: HotHistogramOptions<L>) {
    this.buckets = [...options.buckets].sort((a, b) => a - b);
    register(options.registry, { name: options.name, get: () => this.exported() });
  }

  /** The series of one label set, created on first use: keep it, and observe on it. */
  labels(labels: Record<L, string>): HistogramSeries {
    const key = this.options.labelNames.map((name) => labels[name]).join("\u0000");
    let series = this.series.get(key);
    if (!series) {
      series = new HistogramSeries(this.buckets, { ...labels });
      this.series.set(key, series);
    }
    return series;
  }

  /** Registers a counter of the same observations (e.g. requests_total beside their durations). */
  countAs(name: string, help: string): void {
    register(this.options.registry, {
      name,
      get: (): ExportedMetric => ({
        name,
        help,
        type: "counter",
        aggregator: "sum",
        values: [...this.series.values()].map((series) => ({ value: series.count, labels: series.labels })),
      }),
    });
  }

  private exported(): ExportedMetric {
    const { name, help } = this.options;
    const values: ExportedValue[] = [];
    for (const series of this.series.values()) {
      let cumulative = 0;
      this.buckets.forEach((bound, i) => {
        cumulative += series.counts[i]!;
        values.push({ value: cumulative, labels: { le: bound, ...series.labels }, metricName: `${name}_bucket` });
      });
      values.push({ value: series.count, labels: { le: "+Inf", ...series.labels }, metricName: `${name}_bucket` });
      values.push({ value: series.sum, labels: series.labels, metricName: `${name}_sum` });
      values.push({ value: series.count, labels: series.labels, metricName: `${name}_count` });
    }
    return { name, help, type: "histogram", aggregator: "sum", values };
  }
}

/** prom-client's registry types ask for its own classes, but it only reads `name` and `get()`. */
function register(registry: Registry, metric: { name: string; get: () => ExportedMetric }): void {
  registry.registerMetric({ ...metric, get: () => Promise.resolve(metric.get()) } as unknown as Metric);
}
