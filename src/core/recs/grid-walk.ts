// A bounded search along one ordered grid of values whose scores rise and then
// fall (a penalty such as EASE's λ): from the middle value it steps towards
// whichever neighbour scores better and goes on while scores improve, so each
// costly evaluation (a model fit) is spent near the best value. Ties keep the
// value found first: the same scores always give the same answer.

export function walkGrid<R>(values: readonly number[], evaluate: (value: number) => R, objective: (result: R) => number): R {
  let at = Math.floor((values.length - 1) / 2);
  let best = evaluate(values[at]!);
  for (const step of [-1, 1]) {
    let moved = false;
    for (let next = at + step; next >= 0 && next < values.length; next += step) {
      const candidate = evaluate(values[next]!);
      if (objective(candidate) <= objective(best)) break;
      best = candidate;
      at = next;
      moved = true;
    }
    if (moved) break;
  }
  return best;
}
