import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HeldReplies, MAX_HELD } from "../../src/http/held-replies.js";

describe("HeldReplies", () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it("sends each reply between three quarters of the delay and the delay after it was held", () => {
    const draws = [0, 1, 0.5];
    const held = new HeldReplies(1_000, Date.now, () => draws.shift()!);
    const sent: string[] = [];
    for (const name of ["soonest", "latest", "between"]) held.hold(() => sent.push(name));
    vi.advanceTimersByTime(749);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(["soonest"]);
    // Due at 875 ms: sent on the next tick of 10 ms.
    vi.advanceTimersByTime(129);
    expect(sent).toEqual(["soonest"]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(["soonest", "between"]);
    vi.advanceTimersByTime(119);
    expect(sent).toEqual(["soonest", "between"]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(["soonest", "between", "latest"]);
    expect(held.size).toBe(0);
  });

  it("holds nothing without a delay, or beyond MAX_HELD: the caller sends at once", () => {
    expect(new HeldReplies(0).hold(() => {})).toBe(false);
    const held = new HeldReplies(1_000);
    for (let i = 0; i < MAX_HELD; i++) expect(held.hold(() => {})).toBe(true);
    expect(held.hold(() => {})).toBe(false);
    vi.advanceTimersByTime(1_000);
    expect(held.size).toBe(0);
    expect(held.hold(() => {})).toBe(true);
  });

  it("sends everything held at once when flushed, and nothing twice", () => {
    const held = new HeldReplies(1_000);
    const sent: number[] = [];
    for (let i = 0; i < 3; i++) held.hold(() => sent.push(i));
    held.flush();
    // In an order the random hold decides: every one of them, once.
    const sentOnce = () => [...sent].sort((a, b) => a - b);
    expect(sentOnce()).toEqual([0, 1, 2]);
    vi.advanceTimersByTime(2_000);
    expect(sentOnce()).toEqual([0, 1, 2]);
  });
});
