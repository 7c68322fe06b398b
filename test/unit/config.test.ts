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
    expect(() => loadConfig({ AISLE_TUNE_EVERY_S: "never" })).toThrow(/AISLE_TUNE_EVERY_S must be an integer of at least 1, got "never"/);
  });
});
