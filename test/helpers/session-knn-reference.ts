// V-SKNN as first written here, with maps and sets and full sorts, over every
// session of a stream of views kept in full: the reference the scratch-array
// query over a store that keeps only each item's most recent sessions must
// match exactly (same scores, same order of first vote, since rankings break
// ties by that order).
import type { SessionKnnConfig } from "../../src/core/recs/session-knn.js";

/** One view: a session (any label) and the product it viewed, in arrival order. */
export interface View {
  session: string | number;
  item: number;
}

/**
 * Sessions numbered by their first view, each one's views (at most
 * `maxViews`; later ones are left out), and per item the sessions that viewed
 * it, in the order of their first view of it.
 */
export function sessionsOfStream(views: readonly View[], maxViews = Number.POSITIVE_INFINITY) {
  const numbers = new Map<string | number, number>();
  const sessions: number[][] = [];
  const postings = new Map<number, number[]>();
  for (const { session: label, item } of views) {
    let session = numbers.get(label);
    if (session === undefined) {
      session = sessions.length;
      numbers.set(label, session);
      sessions.push([]);
    }
    const items = sessions[session]!;
    if (items.length >= maxViews) continue;
    if (!items.includes(item)) postings.set(item, [...(postings.get(item) ?? []), session]);
    items.push(item);
  }
  return { numbers, sessions, postings };
}

export function referenceQuery(
  views: readonly View[],
  prefix: readonly number[],
  config: SessionKnnConfig,
  self: string | number | null = null,
  maxViews = Number.POSITIVE_INFINITY,
): Map<number, number> {
  const { numbers, sessions, postings } = sessionsOfStream(views, maxViews);
  const selfNumber = self === null ? -1 : (numbers.get(self) ?? -1);
  const known = prefix.filter((item) => postings.has(item));
  const weights = new Map<number, number>();
  const steps = new Map<number, number>();
  known.forEach((item, p) => {
    weights.set(item, (p + 1) / known.length);
    steps.set(item, known.length - p);
  });
  const similarity = new Map<number, number>();
  for (const [item, weight] of weights) {
    const posting = postings.get(item)!;
    for (let k = posting.length - 1; k >= Math.max(0, posting.length - config.sampleSize); k--) {
      const session = posting[k]!;
      if (session !== selfNumber) similarity.set(session, (similarity.get(session) ?? 0) + weight);
    }
  }
  const sample = [...similarity.keys()].sort((a, b) => b - a).slice(0, config.sampleSize);
  sample.sort((a, b) => similarity.get(b)! - similarity.get(a)! || b - a);
  const scores = new Map<number, number>();
  const newest = sessions.length - 1;
  for (const session of sample.slice(0, config.neighbours)) {
    const list = sessions[session]!;
    let nearest = Number.POSITIVE_INFINITY;
    let anchor = -1;
    list.forEach((item, i) => {
      const step = steps.get(item) ?? Number.POSITIVE_INFINITY;
      if (step < nearest || (step === nearest && i > anchor)) [nearest, anchor] = [step, i];
    });
    if (nearest === Number.POSITIVE_INFINITY) continue;
    let vote = similarity.get(session)! / nearest;
    if (config.recencyFade > 0) vote *= Math.exp(-(newest - session) / (config.recencyFade * sessions.length));
    const voted = new Set<number>();
    list.forEach((item, i) => {
      if (voted.has(item) || (!config.remind && steps.has(item))) return;
      voted.add(item);
      const position = config.positionDecay > 0 ? Math.exp(-Math.abs(i - anchor) / config.positionDecay) : 1;
      scores.set(item, (scores.get(item) ?? 0) + vote * position);
    });
  }
  if (config.idfWeight > 0 && sessions.length > 1) {
    for (const [item, score] of scores) {
      const idf = Math.log(sessions.length / Math.max(1, postings.get(item)?.length ?? 1)) / Math.log(sessions.length);
      scores.set(item, score * (1 + config.idfWeight * idf));
    }
  }
  if (config.remind && config.boost > 0) {
    const best = Math.max(0, ...scores.values());
    if (best > 0) for (const [item, score] of scores) scores.set(item, score / best);
    known.forEach((item, p) => scores.set(item, (scores.get(item) ?? 0) + config.boost * config.boostDecay ** (known.length - p - 1)));
  }
  return scores;
}
