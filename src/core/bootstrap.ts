// Bootstrap intervals of a mean: what evaluations report beside each figure,
// and what a shop's training asks before it adopts a model over another
// (is the paired gain on its own held-out cases above zero?).
import { Rng } from "./random.js";

/**
 * A percentile bootstrap interval (95% unless `coverage` says otherwise) of a
 * mean over cases that come in groups (a session's prefixes: its cases rise and fall together, so whole
 * groups are resampled). `values[i]` is case i's value, `groups[i]` its group
 * (0 … groups − 1). Seeded: every caller with the same seed and groups draws
 * the same resamples, so intervals of systems on the same cases are paired.
 */
export function groupedBootstrapInterval(
  values: ArrayLike<number>,
  groups: ArrayLike<number>,
  seed: number,
  resamples = 1_000,
  coverage = 0.95,
): [number, number] {
  let groupCount = 0;
  for (let i = 0; i < groups.length; i++) groupCount = Math.max(groupCount, groups[i]! + 1);
  const sums = new Float64Array(groupCount);
  const counts = new Float64Array(groupCount);
  for (let i = 0; i < values.length; i++) {
    const group = groups[i]!;
    sums[group] = sums[group]! + values[i]!;
    counts[group] = counts[group]! + 1;
  }
  const rng = new Rng(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    let count = 0;
    for (let g = 0; g < groupCount; g++) {
      const drawn = rng.int(0, groupCount - 1);
      sum += sums[drawn]!;
      count += counts[drawn]!;
    }
    means[r] = sum / Math.max(1, count);
  }
  means.sort();
  const tail = (1 - coverage) / 2;
  return [means[Math.floor(tail * (resamples - 1))]!, means[Math.ceil((1 - tail) * (resamples - 1))]!];
}
