import { describe, expect, it } from "vitest";
import { ConfigError, defaultWorkers, loadConfig } from "../../src/config.js";

describe("loadConfig", () => {
  it("is a single box unless AISLE_NATS_URL (or --nats) names nats-servers; then 3 replicas, a lag of 1,000 and daily snapshots unless told", () => {
    expect(loadConfig({}).cluster).toBeNull();
    const urls = "nats://10.0.0.1:4222,nats://10.0.0.2:4222";
    const day = 86_400_000;
    expect(loadConfig({ AISLE_NATS_URL: urls }).cluster).toEqual({ natsUrl: urls, replicas: 3, maxLag: 1_000, snapshotEveryMs: day });
    expect(loadConfig({ AISLE_NATS_URL: "nats://a:1" }, { natsUrl: "nats://b:2" }).cluster?.natsUrl).toBe("nats://b:2");
    expect(
      loadConfig({ AISLE_NATS_URL: urls, AISLE_NATS_REPLICAS: "1", AISLE_CLUSTER_MAX_LAG: "50", AISLE_CLUSTER_SNAPSHOT_HOURS: "6" })
        .cluster,
    ).toEqual({ natsUrl: urls, replicas: 1, maxLag: 50, snapshotEveryMs: day / 4 });
    // A retention shorter than two days takes snapshots every half of it.
    expect(loadConfig({ AISLE_NATS_URL: urls, AISLE_EVENT_RETENTION_DAYS: "1" }).cluster?.snapshotEveryMs).toBe(day / 2);
  });

  it("names the cluster setting that is wrong", () => {
    expect(() => loadConfig({ AISLE_NATS_URL: "http://a:4222" })).toThrow(/AISLE_NATS_URL \(or --nats\) must be nats:\/\/host:port URLs/);
    expect(() => loadConfig({ AISLE_NATS_URL: "nats://a:4222,,nats://b:4222" })).toThrow(ConfigError);
    expect(() => loadConfig({ AISLE_NATS_URL: "nats://a:4222/x" })).toThrow(ConfigError);
    const cluster = { AISLE_NATS_URL: "nats://a:4222" };
    expect(() => loadConfig({ ...cluster, AISLE_NATS_REPLICAS: "6" })).toThrow(
      /AISLE_NATS_REPLICAS must be an integer from 1 to 5, got "6"/,
    );
    expect(() => loadConfig({ ...cluster, AISLE_CLUSTER_MAX_LAG: "0" })).toThrow(
      /AISLE_CLUSTER_MAX_LAG must be an integer from 1 to 10000000/,
    );
    expect(() => loadConfig({ ...cluster, AISLE_CLUSTER_SNAPSHOT_HOURS: "0" })).toThrow(
      /AISLE_CLUSTER_SNAPSHOT_HOURS must be an integer of at least 1, got "0"/,
    );
    expect(() => loadConfig({ ...cluster, AISLE_EVENT_RETENTION_DAYS: "30", AISLE_CLUSTER_SNAPSHOT_HOURS: "361" })).toThrow(
      /AISLE_CLUSTER_SNAPSHOT_HOURS must be at most half the event retention \(AISLE_EVENT_RETENTION_DAYS 30: 360 hours\), got "361"/,
    );
  });

  it("gives the pool the cores the HTTP thread leaves, at least two workers on two cores or more, unless AISLE_WORKERS says", () => {
    expect([1, 2, 3, 4, 16].map(defaultWorkers)).toEqual([1, 2, 2, 3, 15]);
    expect(loadConfig({ AISLE_WORKERS: "1" }).workers).toBe(1);
    expect(loadConfig({}).workers).toBeGreaterThanOrEqual(2);
  });

  it("gives pool workers no search cache unless AISLE_SEARCH_CACHE_MB asks for one", () => {
    expect(loadConfig({}).searchCacheBytes).toBe(0);
    expect(loadConfig({ AISLE_SEARCH_CACHE_MB: "32" }).searchCacheBytes).toBe(32 * 1024 * 1024);
    expect(loadConfig({ AISLE_SEARCH_CACHE_MB: "8" }).searchCacheBytes).toBe(8 * 1024 * 1024);
    expect(() => loadConfig({ AISLE_SEARCH_CACHE_MB: "-1" })).toThrow(/AISLE_SEARCH_CACHE_MB/);
  });

  it("tunes in the background every 60 s unless AISLE_TUNE_EVERY_S says otherwise", () => {
    expect(loadConfig({}).tuneEveryMs).toBe(60_000);
    expect(loadConfig({ AISLE_TUNE_EVERY_S: "300" }).tuneEveryMs).toBe(300_000);
    expect(loadConfig({ AISLE_TUNE_EVERY_S: "off" }).tuneEveryMs).toBeNull();
  });

  it("names the setting when AISLE_TUNE_EVERY_S is neither a period nor off", () => {
    expect(() => loadConfig({ AISLE_TUNE_EVERY_S: "0" })).toThrow(ConfigError);
    expect(() => loadConfig({ AISLE_TUNE_EVERY_S: "never" })).toThrow(/AISLE_TUNE_EVERY_S must be an integer from 1 to 86400, got "never"/);
    expect(() => loadConfig({ AISLE_TUNE_EVERY_S: "86401" })).toThrow(ConfigError);
  });

  it("holds a 429 at most 10 s (AISLE_RATE_LIMIT_DELAY_MS)", () => {
    expect(loadConfig({}).refusalDelayMs).toBe(1_000);
    expect(loadConfig({ AISLE_RATE_LIMIT_DELAY_MS: "0" }).refusalDelayMs).toBe(0);
    expect(() => loadConfig({ AISLE_RATE_LIMIT_DELAY_MS: "10001" })).toThrow(/from 0 to 10000/);
  });
});
