import { loadConfig } from "../../src/config.js";
import type { EventThreadData } from "../../src/ingest/event-writer.js";

/** What the applier thread on a data dir starts with: the default settings, but for `overrides`. */
export function applierThread(dataDir: string, overrides: Partial<Omit<EventThreadData, "dataDir">> = {}): EventThreadData {
  const { rankingRefreshMs, retention } = loadConfig({});
  return { dataDir, rankingRefreshMs, retention, ...overrides };
}
