import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HeldReplies, MAX_HELD } from "../../src/http/held-replies.js";

describe("HeldReplies", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("sends each reply once its delay has passed, in the order they were held", () => {
    const held = new HeldReplies(1_000);
    const sent: string[] = [];
    held.hold(() => sent.push("a"));
    vi.advanceTimersByTime(400);
    held.hold(() => sent.push("b"));
    vi.advanceTimersByTime(599);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(["a"]);
    vi.advanceTimersByTime(400);
    expect(sent).toEqual(["a", "b"]);
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
    expect(sent).toEqual([0, 1, 2]);
    vi.advanceTimersByTime(2_000);
    expect(sent).toEqual([0, 1, 2]);
  });
});
