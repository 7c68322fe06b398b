// The bounded search a shop's tuning runs (src/recs/tune-viewed-related.ts):
// coordinate descent over a few values per setting. Each pass sets each
// dimension in turn to its best value with the others held; it stops after a
// pass that changed nothing, after `maxPasses`, or once `maxEvaluations`
// settings have been scored. It depends on the scores alone, so a search over
// the same cases always ends at the same setting.
import type { NextItemFigures } from "./next-item-figures.js";

/** One dimension of the search: the values it tries, and the setting with one of them. */
export interface Dimension<S> {
  name: string;
  values: readonly number[];
  with: (setting: S, value: number) => S;
}

export interface SearchResult<S> {
  best: S;
  figures: NextItemFigures;
  /** The starting setting's figures. */
  start: NextItemFigures;
  /** Distinct settings scored. */
  evaluated: number;
}

/** What the search maximises: HR and MRR alike (both in percent). */
export function objective(figures: NextItemFigures): number {
  return figures.hr + figures.mrr;
}

export function coordinateDescent<S>(
  start: S,
  dimensions: readonly Dimension<S>[],
  evaluate: (setting: S) => NextItemFigures,
  limits: { maxEvaluations: number; maxPasses: number },
): SearchResult<S> {
  const scored = new Map<string, NextItemFigures>();
  const score = (setting: S): NextItemFigures | null => {
    const key = JSON.stringify(setting);
    let figures = scored.get(key);
    if (figures === undefined) {
      if (scored.size >= limits.maxEvaluations) return null;
      figures = evaluate(setting);
      scored.set(key, figures);
    }
    return figures;
  };
  const startFigures = score(start)!;
  let best = start;
  let bestFigures = startFigures;
  search: for (let pass = 0; pass < limits.maxPasses; pass++) {
    let changed = false;
    for (const dimension of dimensions) {
      for (const value of dimension.values) {
        const candidate = dimension.with(best, value);
        const figures = score(candidate);
        if (figures === null) break search;
        if (objective(figures) > objective(bestFigures)) {
          best = candidate;
          bestFigures = figures;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return { best, figures: bestFigures, start: startFigures, evaluated: scored.size };
}
