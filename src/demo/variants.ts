// What a product's variants are made of: its option grid (sizes × colours), its
// price and sale, and how its stock is kept.

import type { Rng } from "../core/random.js";
import { COLOR_CODES, type SizeSpec, type StyleSpec, type TypeSpec } from "./catalogue-vocabulary.js";
import { at } from "./random.js";
import type { DemoVariant } from "./shapes.js";

type StockProfile = "normal" | "out" | "backorder" | "untracked";

/** ~5% sold out, ~6% sold on backorder, ~4% untracked, the rest tracked and in stock. */
export function pickStockProfile(rng: Rng): StockProfile {
  const r = rng.next();
  if (r < 0.05) return "out";
  if (r < 0.11) return "backorder";
  if (r < 0.15) return "untracked";
  return "normal";
}

export function inventory(
  rng: Rng,
  stock: StockProfile,
): Pick<DemoVariant, "inventory_policy" | "inventory_management" | "inventory_quantity"> {
  switch (stock) {
    case "out":
      // Sold out, occasionally oversold: every variant at or below zero and not purchasable.
      return { inventory_policy: "deny", inventory_management: "platform", inventory_quantity: rng.chance(0.85) ? 0 : -rng.int(1, 3) };
    case "backorder":
      return { inventory_policy: "continue", inventory_management: "platform", inventory_quantity: rng.int(-5, 20) };
    case "untracked":
      return { inventory_policy: "deny", inventory_management: null, inventory_quantity: 0 };
    case "normal":
      // Some sizes sell out; keepInStock makes sure the product as a whole does not.
      return { inventory_policy: "deny", inventory_management: "platform", inventory_quantity: rng.chance(0.08) ? 0 : rng.int(1, 120) };
  }
}

/** Sold-out products come only from the "out" profile, so the ~5% share is exact in expectation. */
export function keepInStock(rng: Rng, stock: StockProfile, variants: DemoVariant[]): void {
  if (stock !== "normal" || variants.some((v) => v.inventory_quantity > 0)) return;
  rng.pick(variants).inventory_quantity = rng.int(1, 120);
}

interface Combo {
  values: string[];
  codes: string[];
  upcharge: number;
  sizeIndex: number;
  colorIndex: number;
  weight: number;
}

export interface OptionGrid {
  options: { name: string; values: string[] }[];
  combos: Combo[];
  colors: string[];
}

/** Options and their cartesian variants (Size outer, Color inner), capped at 12 variants. */
export function optionGrid(rng: Rng, spec: TypeSpec, style: StyleSpec): OptionGrid {
  let mode = at(spec.modes, rng.weighted(spec.modes.map(([, w]) => w)))[0];
  if ((mode === "size" || mode === "size-color") && spec.sizes.length === 0) mode = "color";
  if (mode === "default") {
    return {
      options: [{ name: "Title", values: ["Default Title"] }],
      combos: [{ values: ["Default Title"], codes: [], upcharge: 0, sizeIndex: 0, colorIndex: 0, weight: 1 }],
      colors: [],
    };
  }
  const sizeList = mode === "color" ? [] : contiguousRange(rng, spec.sizes);
  const maxColors = Math.min(style.colors.length, Math.floor(12 / Math.max(1, sizeList.length)));
  const colorCount = mode === "size" ? 0 : Math.max(1, Math.ceil(Math.pow(rng.next(), 1.6) * maxColors));
  const colors = mode === "size" ? [] : rng.shuffle([...style.colors]).slice(0, colorCount);

  const options: OptionGrid["options"] = [];
  if (sizeList.length > 0) options.push({ name: "Size", values: sizeList.map((s) => s.name) });
  if (colors.length > 0) options.push({ name: "Color", values: colors });

  const combos: Combo[] = [];
  const sizeSlots: (SizeSpec | null)[] = sizeList.length > 0 ? sizeList : [null];
  const colorSlots: (string | null)[] = colors.length > 0 ? colors : [null];
  const middle = (sizeSlots.length - 1) / 2;
  sizeSlots.forEach((size, si) => {
    colorSlots.forEach((color, ci) => {
      const values: string[] = [];
      const codes: string[] = [];
      if (size) {
        values.push(size.name);
        codes.push(size.code);
      }
      if (color) {
        values.push(color);
        codes.push(COLOR_CODES[color] ?? color.slice(0, 3).toUpperCase());
      }
      combos.push({
        values,
        codes,
        upcharge: size?.upcharge ?? 0,
        sizeIndex: si,
        colorIndex: ci,
        weight: (1 / (1 + Math.abs(si - middle))) * (1 / (1 + 0.5 * ci)),
      });
    });
  });
  return { options, combos, colors };
}

/** A run of neighbouring sizes (a product sold in S–XL, not S, L and XXL). */
function contiguousRange<T>(rng: Rng, list: readonly T[]): T[] {
  if (list.length <= 2) return [...list];
  const length = rng.int(Math.max(2, list.length - 3), list.length);
  const start = rng.int(0, list.length - length);
  return list.slice(start, start + length);
}

interface Pricing {
  baseCents: number;
  /** compare_at / price for products on sale, else null. */
  saleFactor: number | null;
  wholeProductOnSale: boolean;
}

/** Prices by type with retail endings; ~15% of products on sale (some only on some variants). */
export function productPricing(rng: Rng, spec: TypeSpec): Pricing {
  const dollars = spec.price[0] + Math.pow(rng.next(), 1.4) * (spec.price[1] - spec.price[0]);
  const whole = Math.max(1, Math.round(dollars));
  const ending = rng.pick([0, 0, 0, 99, 95, 50]);
  const baseCents = ending === 0 ? whole * 100 : (whole - 1) * 100 + ending;
  const onSale = rng.chance(0.15);
  return {
    baseCents,
    saleFactor: onSale ? 1.2 + rng.next() * 0.4 : null,
    wholeProductOnSale: rng.chance(0.8),
  };
}
