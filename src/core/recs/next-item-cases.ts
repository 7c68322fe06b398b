// The next-item protocol's cases, carved from sessions in time order: the
// last share of the sessions are held out, each keeps only the items the
// earlier sessions viewed (nothing can recommend an item no one viewed), and
// each held-out session of two items or more gives a case per prefix: the
// session so far predicts its next view. A shop's tuning carves its
// validation this way from its own sessions; `aisle eval sessions --carve`
// carves a test set from a dataset's training sessions the same way.

export interface NextItemCase {
  /** The session so far, oldest view first. */
  prefix: number[];
  next: number;
  /** Which held-out session it comes from (0, 1, … in time order): its cases rise and fall together. */
  session: number;
}

export interface CarvedSessions<Session> {
  /** The earlier sessions, in time order. */
  train: Session[];
  cases: NextItemCase[];
}

/** Holds out the last `share` (0 … 1) of `sessions` (oldest first) as cases. */
export function carveNextItemCases<Session extends ArrayLike<number>>(
  sessions: readonly Session[],
  share: number,
): CarvedSessions<Session> {
  const cut = sessions.length - Math.round(share * sessions.length);
  const train = sessions.slice(0, cut);
  const known = new Set<number>();
  for (const session of train) for (let i = 0; i < session.length; i++) known.add(session[i]!);
  const cases: NextItemCase[] = [];
  sessions.slice(cut).forEach((session, index) => {
    const items = Array.from(session).filter((item) => known.has(item));
    for (let end = 1; end < items.length; end++) cases.push({ prefix: items.slice(0, end), next: items[end]!, session: index });
  });
  return { train, cases };
}
