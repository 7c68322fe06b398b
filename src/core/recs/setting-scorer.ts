// Scores viewed-related settings on a tuning's validation cases, each setting
// once. Of what is tuned, a case's neighbours depend on the sample size alone,
// so they are found once per sample size, as many as any setting asks for,
// and voted on under each setting (SessionKnn.vote); each vote is ranked over
// typed arrays (TuningCase), as the endpoint would rank it.
import type { NextItemCase } from "./next-item-cases.js";
import { FiguresTally, type NextItemFigures } from "./next-item-figures.js";
import { SessionKnn, type SessionSource } from "./session-knn.js";
import { TuningCase } from "./tuning-case.js";
import type { ViewedRelatedSetting } from "./viewed-related-settings.js";

/** Cases whose neighbourhoods are found between two asks of `stop`. */
const CASES_BETWEEN_STOPS = 256;

export class SettingScorer {
  private readonly knn = new SessionKnn();
  private readonly bySampleSize = new Map<number, TuningCase[]>();
  private readonly scored = new Map<string, NextItemFigures>();
  /** TuningCase.rank's scratch, with room for every case's local items. */
  private scratch = new Int32Array(0);

  /**
   * `copurchase[i]` is bought-together's scores for `cases[i]`; `maxNeighbours`
   * is the most any scored setting asks for; `stop` is asked before each
   * setting and while neighbourhoods are found: true throws `cancelled()`.
   */
  constructor(
    private readonly source: SessionSource,
    private readonly cases: readonly NextItemCase[],
    private readonly copurchase: readonly ReadonlyMap<number, number>[],
    private readonly maxNeighbours: number,
    private readonly stop: () => boolean,
    private readonly cancelled: () => Error,
  ) {}

  /** How many distinct settings were scored. */
  get evaluated(): number {
    return this.scored.size;
  }

  /** The setting's HR@20 and MRR@20 over the cases (served: viewed products left out). */
  score(setting: ViewedRelatedSetting): NextItemFigures {
    const key = JSON.stringify(setting);
    const known = this.scored.get(key);
    if (known !== undefined) return known;
    if (this.stop()) throw this.cancelled();
    const tally = new FiguresTally();
    for (const tuningCase of this.casesOf(setting.knn.sampleSize)) {
      const vote = this.knn.vote(this.source, tuningCase.hood, setting.knn);
      // Served: nothing viewed is shown, whatever bought-together scored it.
      tally.add(tuningCase.rank(vote, setting.copurchaseWeight, !setting.knn.remind, this.scratch));
    }
    const figures = tally.figures();
    this.scored.set(key, figures);
    return figures;
  }

  private casesOf(sampleSize: number): TuningCase[] {
    const known = this.bySampleSize.get(sampleSize);
    if (known !== undefined) return known;
    const found = this.cases.map(({ prefix, next }, index) => {
      if (index % CASES_BETWEEN_STOPS === 0 && this.stop()) throw this.cancelled();
      const hood = this.knn.neighbourhood(this.source, prefix, sampleSize, this.maxNeighbours);
      if (hood.items.length > this.scratch.length) this.scratch = new Int32Array(hood.items.length);
      return new TuningCase(hood, next, new Set(prefix), this.copurchase[index]!);
    });
    this.bySampleSize.set(sampleSize, found);
    return found;
  }
}
