import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";

describe("loadConfig", () => {
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
