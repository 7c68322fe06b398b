import { describe, expect, it } from "vitest";
import { startScriptNodeFlags } from "../../bench/shared/node-flags.js";

describe("the Node flags the bench starts the service with", () => {
  it("are npm start's: the main thread's starting heap limit", () => {
    expect(startScriptNodeFlags()).toEqual(["--initial-old-space-size=256"]);
  });
});
