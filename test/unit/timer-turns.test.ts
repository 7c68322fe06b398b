import { describe, expect, it } from "vitest";
import { TIMER_TURN_EVERY_MS, timerTurns } from "../../src/pool/timer-turns.js";

describe("timerTurns", () => {
  it("lets the event loop run the due timers once TIMER_TURN_EVERY_MS have passed, and not before", async () => {
    let clock = 0;
    const turnDue = timerTurns(() => clock);
    clock += TIMER_TURN_EVERY_MS - 1;
    expect(turnDue()).toBeNull();

    let fired = false;
    setTimeout(() => (fired = true), 0);
    clock += 1;
    const turn = turnDue();
    expect(turn).not.toBeNull();
    await turn;
    // The timer set before the turn has run by the time the turn ends.
    expect(fired).toBe(true);
    // The next turn is due a whole interval after this one.
    clock += TIMER_TURN_EVERY_MS - 1;
    expect(turnDue()).toBeNull();
  });
});
