// The demo's options resolved into the sizes and the time window every part of
// the shop is generated in.

import { formatTimestamp } from "../core/timestamps.js";
import type { DemoOptions } from "./shapes.js";

export const DAY_S = 86_400;
export const DAY_MS = DAY_S * 1000;

export interface Config {
  seed: number;
  products: number;
  customers: number;
  days: number;
  sessions: number;
  /** Whole seconds: timestamps are printed without milliseconds. */
  nowS: number;
  nowMs: number;
  /** First whole second inside [now - days, now], so floored stamps never leave the window. */
  windowStartS: number;
}

export function resolveOptions(options: DemoOptions): Config {
  const products = positiveInteger(options.products ?? 3000, "products");
  const customers = positiveInteger(options.customers ?? 2000, "customers");
  const days = positiveInteger(options.days ?? 90, "days");
  const now = options.now ?? new Date();
  const nowMs = now.getTime();
  if (!Number.isFinite(nowMs)) throw new RangeError("now must be a valid Date");
  const seed = options.seed ?? 42;
  if (!Number.isFinite(seed)) throw new RangeError("seed must be a finite number");
  const sessions = options.sessions === undefined ? customers * 10 : nonNegativeInteger(options.sessions, "sessions");
  return {
    seed: Math.floor(seed),
    products,
    customers,
    days,
    sessions,
    nowMs,
    nowS: Math.floor(nowMs / 1000),
    windowStartS: Math.ceil((nowMs - days * DAY_MS) / 1000),
  };
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

function nonNegativeInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer`);
  return value;
}

/** Platform style timestamp: `2026-08-23T14:05:09+00:00`. */
export function iso(seconds: number): string {
  return formatTimestamp(new Date(seconds * 1000));
}
