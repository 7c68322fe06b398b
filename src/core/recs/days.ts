const DAY_MS = 86_400_000;

/** Whole UTC days since the epoch: the bucket of daily sales and events. */
export function dayNumber(epochMs: number): number {
  return Math.floor(epochMs / DAY_MS);
}

export function dayOfTimestamp(timestamp: string): number {
  return dayNumber(Date.parse(timestamp));
}
