import { describe, expect, it } from "vitest";
import { Abandonment } from "../../src/pool/abandonment.js";

describe("Abandonment", () => {
  it("tells each listener once, in the order they listened, however often it is abandoned", () => {
    const heard: string[] = [];
    const gone = new Abandonment();
    gone.onAbandon(() => heard.push("a"));
    gone.onAbandon(() => heard.push("b"));
    expect(gone.abandoned).toBe(false);
    gone.abandon();
    gone.abandon();
    expect(gone.abandoned).toBe(true);
    expect(heard).toEqual(["a", "b"]);
  });

  it("tells a listener that comes after the fact at once", () => {
    const gone = new Abandonment();
    gone.abandon();
    let heard = 0;
    gone.onAbandon(() => heard++);
    expect(heard).toBe(1);
  });

  it("tells no listener that stopped listening, and the others still", () => {
    const heard: string[] = [];
    const gone = new Abandonment();
    const stopA = gone.onAbandon(() => heard.push("a"));
    gone.onAbandon(() => heard.push("b"));
    stopA();
    stopA();
    gone.abandon();
    expect(heard).toEqual(["b"]);
  });
});
