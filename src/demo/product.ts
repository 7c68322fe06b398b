// One product with its variants, options, images and metafields, drawn from
// its type and style.

import { formatCents } from "../core/money.js";
import type { Rng } from "../core/random.js";
import { OUTDOOR, IMAGE_SIZES, LINES, STYLES, type StyleSpec, type TypeSpec } from "./catalogue-vocabulary.js";
import type { HandleRegistry } from "./handles.js";
import { DAY_S, iso, type Config } from "./options.js";
import { at, runningTotals, type IdSequence } from "./random.js";
import type { DemoImage, DemoMetafield, DemoOption, DemoProduct, DemoVariant } from "./shapes.js";
import { inventory, keepInStock, optionGrid, pickStockProfile, productPricing, type OptionGrid } from "./variants.js";

/** The catalogue's id sequences: one per kind of record, all drawing their gaps from the catalogue stream. */
export interface ProductIds {
  product: IdSequence;
  variant: IdSequence;
  option: IdSequence;
  image: IdSequence;
  metafield: IdSequence;
}

interface ProductInput {
  cfg: Config;
  rng: Rng;
  ids: ProductIds;
  handles: HandleRegistry;
  skus: Set<string>;
  index: number;
  spec: TypeSpec;
  vendor: string;
  style: number;
  draft: boolean;
  createdS: number;
  /** 0..1 relative to the best seller; drives review counts and the bestseller tag. */
  popularity: number;
}

export function buildProduct(input: ProductInput): { product: DemoProduct; outOfStock: boolean; variantCumulative: number[] } {
  const { cfg, rng, ids, spec, draft, createdS } = input;
  const style = at(STYLES, input.style);
  const material = rng.pick(spec.materials);
  const title = productTitle(rng, style, material, spec);
  const handle = input.handles.claim(title);
  const id = ids.product.take();
  const updatedS = createdS + Math.floor(rng.next() * (cfg.nowS - createdS));
  const publishedS = draft ? null : Math.min(cfg.nowS, createdS + Math.floor(rng.next() * 2 * DAY_S));
  const createdAt = iso(createdS);
  const updatedAt = iso(Math.max(updatedS, publishedS ?? 0));

  const stock = pickStockProfile(rng);
  const grid = optionGrid(rng, spec, style);
  const pricing = productPricing(rng, spec);
  const weightUnit: "lb" | "kg" = rng.chance(0.15) ? "kg" : "lb";
  const grams = rng.int(spec.grams[0], spec.grams[1]);
  const fabricGsm = spec.fabric && rng.chance(0.5) ? rng.int(spec.fabric[0], spec.fabric[1]) : null;
  const barcodePrefix = 8_400_000 + rng.int(0, 599_999);

  const variants: DemoVariant[] = grid.combos.map((combo, v) => {
    const cents = pricing.baseCents + combo.upcharge;
    const variantGrams = Math.round(grams * (1 + 0.08 * combo.sizeIndex));
    return {
      id: ids.variant.take(),
      title: combo.values.join(" / "),
      price: formatCents(cents),
      compare_at_price:
        pricing.saleFactor !== null && (pricing.wholeProductOnSale || v % 2 === 0)
          ? formatCents(roundToWhole(cents * pricing.saleFactor))
          : null,
      sku: uniqueSku(input.skus, [spec.code, String(input.index + 1).padStart(6, "0"), ...combo.codes]),
      barcode: upc(barcodePrefix * 10_000 + ((input.index * 13 + v) % 10_000)),
      position: v + 1,
      ...inventory(rng, stock),
      option1: combo.values[0] ?? null,
      option2: combo.values[1] ?? null,
      option3: combo.values[2] ?? null,
      grams: variantGrams,
      weight: weightUnit === "kg" ? round2(variantGrams / 1000) : round2(variantGrams / 453.592),
      weight_unit: weightUnit,
      image_id: null,
      taxable: true,
      requires_shipping: true,
      created_at: createdAt,
      updated_at: updatedAt,
      metafields:
        fabricGsm === null
          ? []
          : [metafield(ids, "custom", "fabric_weight", `${fabricGsm + combo.sizeIndex * 5} gsm`, "single_line_text_field")],
    };
  });

  keepInStock(rng, stock, variants);
  const options: DemoOption[] = grid.options.map((o, k) => ({ id: ids.option.take(), name: o.name, position: k + 1, values: o.values }));
  const images = productImages(rng, ids, handle, title, grid, variants, createdAt, updatedAt);
  const onSale = variants.some((v) => v.compare_at_price !== null);
  const excluded = rng.chance(0.02);
  const tags = productTags(spec, style, material, {
    season: productSeason(rng, spec, style),
    onSale,
    excluded,
    gift: spec.giftable && rng.chance(0.45),
    isNew: cfg.nowS - createdS < 30 * DAY_S,
    bestseller: input.popularity > 0.25,
  });

  const product: DemoProduct = {
    id,
    title,
    body_html: productBody(rng, title, style, material, spec),
    vendor: input.vendor,
    product_type: spec.name,
    handle,
    status: draft ? "draft" : "active",
    tags,
    created_at: createdAt,
    updated_at: updatedAt,
    published_at: publishedS === null ? null : iso(publishedS),
    template_suffix: null,
    published_scope: "web",
    variants,
    options,
    images,
    metafields: productMetafields(rng, ids, spec, input.popularity),
  };
  return { product, outOfStock: stock === "out", variantCumulative: runningTotals(grid.combos.map((c) => c.weight)) };
}

/** Same-type products read alike: "Alpine Merino Zip Hoodie", "Merino Coastal Everyday Tee", "The Summit Tent". */
function productTitle(rng: Rng, style: StyleSpec, material: string, spec: TypeSpec): string {
  const base = rng.pick(spec.nouns);
  const line = rng.pick(LINES);
  const noun = rng.chance(0.5) && !base.includes(line) ? `${line} ${base}` : base;
  const r = rng.next();
  if (r < 0.55) return `${style.name} ${material} ${noun}`;
  if (r < 0.85) return `${material} ${style.name} ${noun}`;
  return `The ${style.name} ${noun}`;
}

function productBody(rng: Rng, title: string, style: StyleSpec, material: string, spec: TypeSpec): string {
  const [first, second] = rng.shuffle([...spec.features]);
  const intro = `<p>The ${escapeHtml(title)} is ${style.pitch}. ${first ?? ""}</p>`;
  if (rng.chance(0.5)) return intro;
  return `${intro}<ul><li>${escapeHtml(material)} construction</li><li>${second ?? ""}</li></ul>`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function roundToWhole(cents: number): number {
  return Math.round(cents / 100) * 100;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/** SKUs are unique across the shop; the product sequence makes that true by construction, the set proves it. */
function uniqueSku(skus: Set<string>, parts: string[]): string {
  const base = parts.join("-");
  let sku = base;
  for (let n = 2; skus.has(sku); n++) sku = `${base}-${n}`;
  skus.add(sku);
  return sku;
}

/** UPC-A with a valid check digit, so barcode validators accept it. */
function upc(body11: number): string {
  const digits = String(body11 % 100_000_000_000).padStart(11, "0");
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += Number(digits[i]) * (i % 2 === 0 ? 3 : 1);
  return `${digits}${(10 - (sum % 10)) % 10}`;
}

/** 1–4 images; one per colour (linked to that colour's variants) before any lifestyle shots. */
function productImages(
  rng: Rng,
  ids: ProductIds,
  handle: string,
  title: string,
  grid: OptionGrid,
  variants: DemoVariant[],
  createdAt: string,
  updatedAt: string,
): DemoImage[] {
  const linked = Math.min(grid.colors.length, 4);
  const count = Math.max(linked, rng.int(1, 4));
  const [width, height] = rng.pick(IMAGE_SIZES);
  const images: DemoImage[] = [];
  for (let n = 0; n < count; n++) {
    const color = n < linked ? at(grid.colors, n) : null;
    const imageId = ids.image.take();
    const variantIds: number[] = [];
    if (color !== null) {
      grid.combos.forEach((combo, v) => {
        if (combo.colorIndex === n) {
          const variant = at(variants, v);
          variant.image_id = imageId;
          variantIds.push(variant.id);
        }
      });
    }
    images.push({
      id: imageId,
      position: n + 1,
      src: `https://cdn.aisle.example/demo/${handle}-${n + 1}.jpg`,
      width,
      height,
      alt: color !== null ? `${title} in ${color}` : rng.chance(0.7) ? title : null,
      variant_ids: variantIds,
      created_at: createdAt,
      updated_at: updatedAt,
    });
  }
  return images;
}

/** One season per product: the style's if the type suits it (an Alpine tee is still a summer tee). */
function productSeason(rng: Rng, spec: TypeSpec, style: StyleSpec): string {
  return spec.seasons.includes(style.season) ? style.season : rng.pick(spec.seasons);
}

/** Tags from a small vocabulary: material, season, look, style line, and merchandising flags. */
function productTags(
  spec: TypeSpec,
  style: StyleSpec,
  material: string,
  flags: { season: string; onSale: boolean; excluded: boolean; gift: boolean; isNew: boolean; bestseller: boolean },
): string {
  const tags = new Set<string>([material.toLowerCase(), flags.season, style.look, style.name.toLowerCase()]);
  if (flags.isNew) tags.add("new");
  if (flags.onSale) tags.add("sale");
  if (flags.bestseller) tags.add("bestseller");
  if (flags.gift) tags.add("gift");
  if (flags.excluded) tags.add("exclude_service");
  return [...tags].join(", ");
}

function metafield(ids: ProductIds, namespace: string, key: string, value: string, type: string): DemoMetafield {
  return { id: ids.metafield.take(), namespace, key, value, type };
}

/** Reviews on ~70% (counts follow popularity), care guides on fabric goods, warranties on gear. */
function productMetafields(rng: Rng, ids: ProductIds, spec: TypeSpec, popularity: number): DemoMetafield[] {
  const fields: DemoMetafield[] = [];
  if (rng.chance(0.7)) {
    const rating = Math.min(5, Math.max(2.5, rng.normal(4.35, 0.3)));
    const value = JSON.stringify({ value: rating.toFixed(1), scale_min: "1.0", scale_max: "5.0" });
    fields.push(metafield(ids, "reviews", "rating", value, "rating"));
    const count = 1 + rng.int(0, 6) + Math.round(400 * Math.sqrt(popularity));
    fields.push(metafield(ids, "reviews", "rating_count", String(count), "number_integer"));
  }
  if (spec.care.length > 0 && rng.chance(0.6)) {
    fields.push(metafield(ids, "custom", "care_guide", rng.pick(spec.care), "single_line_text_field"));
  }
  if (spec.dept === OUTDOOR && rng.chance(0.3)) {
    fields.push(metafield(ids, "custom", "warranty_years", String(rng.pick([1, 2, 3, 5])), "number_integer"));
  }
  return fields;
}
