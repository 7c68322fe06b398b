// How every report writes its figures: number formats ("n/a" for a figure
// not measured), the plain-text table, and the line naming the machine.
import { availableParallelism, cpus, loadavg } from "node:os";

export function us(value: number): string {
  if (!Number.isFinite(value)) return "n/a";
  if (value >= 1_000) return `${(value / 1000).toFixed(value < 10_000 ? 2 : 1)} ms`;
  return `${value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0)} µs`;
}

export const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(3)} ms` : "n/a");
export const count = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString("en-US") : "n/a");

/** A share of a ceiling: two decimals, four below 0.1 so a small ratio does not read as 0.00. */
export const ratioText = (ratio: number) => `${ratio.toFixed(ratio < 0.1 ? 4 : 2)}×`;
export const seconds = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : "n/a");

/** A plain-text table: columns padded to their widest cell, a rule under the header. */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => (r[c] ?? "").length)));
  const line = (r: readonly string[]) =>
    widths
      .map((w, c) => (r[c] ?? "").padEnd(w))
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "─".repeat(w)).join("  ");
  return [line(header), rule, ...rows.map(line)].join("\n");
}

/** The first line of every report: what ran on what, and how busy the machine was. */
export function machineLine(title: string, loadAtStart: number): string {
  const model = cpus()[0]?.model.trim() ?? "unknown";
  return `${title} — Node ${process.version}, this machine: ${availableParallelism()} cores, ${model}; 1-min load average ${loadAtStart.toFixed(2)} at start, ${(loadavg()[0] ?? NaN).toFixed(2)} at report`;
}
