// Deterministic generator of a realistic demo shop ("Demo Outfitters").
//
// Everything is synthesised from a seeded PRNG: the same (seed, counts, now) always
// yields byte-identical JSON, so tests, benchmarks and evals can share fixtures
// without shipping a dataset. The shop is built to have the structure that
// recommendation and list features feed on: Zipf-skewed popularity, latent
// "bundles" of complementary products bought and browsed together, a handful of
// rising products, and the awkward cases (sold out, drafts, untracked stock,
// inactive markets) that storefront code must handle.
//
// Only Node built-ins; no Math.random or Date.now inside.

import { Rng } from "../core/random.js";
import type { BehaviourEvent } from "../core/types.js";

// ---------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------

export interface DemoOptions {
  /** PRNG seed (default 42); fractions are floored, any finite number works. */
  seed?: number;
  /** Catalogue size (default 3000). */
  products?: number;
  /** Customer accounts (default 2000); orders scale with it, ~0.075 per customer per day. */
  customers?: number;
  /** Length of the order/session window ending at `now` (default 90). */
  days?: number;
  /** End of the window (default: the current time). Pass it for reproducible output. */
  now?: Date;
  /** Browsing sessions; default 10 per customer (20,000 at the default size). */
  sessions?: number;
}

export interface DemoMetafield {
  id: number;
  namespace: string;
  key: string;
  value: string;
  type: string;
}

export interface DemoVariant {
  id: number;
  title: string;
  price: string;
  compare_at_price: string | null;
  sku: string;
  barcode: string;
  position: number;
  inventory_policy: "deny" | "continue";
  inventory_management: "platform" | null;
  inventory_quantity: number;
  option1: string | null;
  option2: string | null;
  option3: string | null;
  grams: number;
  weight: number;
  weight_unit: "lb" | "kg";
  image_id: number | null;
  taxable: boolean;
  requires_shipping: boolean;
  created_at: string;
  updated_at: string;
  metafields: DemoMetafield[];
}

export interface DemoOption {
  id: number;
  name: string;
  position: number;
  values: string[];
}

export interface DemoImage {
  id: number;
  position: number;
  src: string;
  width: number;
  height: number;
  alt: string | null;
  variant_ids: number[];
  created_at: string;
  updated_at: string;
}

export interface DemoProduct {
  id: number;
  title: string;
  body_html: string;
  vendor: string;
  product_type: string;
  handle: string;
  status: "active" | "draft" | "archived";
  tags: string;
  created_at: string;
  updated_at: string;
  published_at: string | null;
  template_suffix: null;
  published_scope: "web";
  variants: DemoVariant[];
  options: DemoOption[];
  images: DemoImage[];
  metafields: DemoMetafield[];
}

export interface DemoCollection {
  id: number;
  title: string;
  handle: string;
  product_ids: number[];
}

export interface DemoAddress {
  id: number;
  first_name: string;
  last_name: string;
  company: string | null;
  address1: string;
  address2: string;
  city: string;
  province: string;
  country: string;
  zip: string;
  phone: string | null;
  province_code: string;
  country_code: string;
  country_name: string;
  default: boolean;
}

export interface DemoCustomer {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  accepts_marketing: boolean;
  created_at: string;
  updated_at: string;
  state: "enabled";
  verified_email: boolean;
  phone: string | null;
  tags: string;
  currency: string;
  note: null;
  tax_exempt: false;
  addresses: DemoAddress[];
}

export interface DemoOrderLine {
  product_id: number;
  variant_id: number;
  quantity: number;
  price: string;
}

export interface DemoOrder {
  id: number;
  created_at: string;
  customer: { id: number } | null;
  line_items: DemoOrderLine[];
  cancelled_at: string | null;
}

export interface DemoVariantPrice {
  price: string;
  compare_at_price: string | null;
}

export interface DemoMarket {
  id: number;
  name: string;
  active: boolean;
  countries: string[];
  currency: string;
  product_ids: number[] | null;
  variant_prices: Record<string, DemoVariantPrice>;
}

export interface DemoData {
  merchant: { id: string; name: string; domain: string; currency: string };
  products: DemoProduct[];
  collections: DemoCollection[];
  customers: DemoCustomer[];
  orders: DemoOrder[];
  markets: DemoMarket[];
  events: BehaviourEvent[];
}

/**
 * The latent structure the demo was generated from, by product id. Not part of
 * the shop; tests and evals use it to check that recommenders recover it.
 */
export interface DemoTruth {
  /** Groups of complementary products (same style, complementary types). */
  bundles: number[][];
  /** Products whose sales and views ramp up sharply over the last 14 days. */
  rising: number[];
}

/**
 * The demo shop with its two big lists generated on demand: everything but the
 * orders and events as arrays, those two as iterables that generate their
 * records as they are read. A consumer can import a shop whose orders and events
 * would not fit in the heap, holding only the catalogue, the customers and a
 * day or so of events at a time.
 */
export interface DemoStream extends Omit<DemoData, "orders" | "events"> {
  /** The same orders, in the same order, as generateDemo's `orders`. */
  orders: Iterable<DemoOrder>;
  /** The same events, in the same (time) order, as generateDemo's `events`. */
  events: Iterable<BehaviourEvent>;
  truth: DemoTruth;
}

/** The demo shop for these options; identical (seed, sizes, now) give byte-identical JSON. */
export function generateDemo(options: DemoOptions = {}): DemoData {
  return generateDemoWithTruth(options).data;
}

/** As generateDemo, plus the latent bundles and rising products it was drawn from. */
export function generateDemoWithTruth(options: DemoOptions = {}): { data: DemoData; truth: DemoTruth } {
  const { merchant, products, collections, customers, orders, markets, events, truth } = generateDemoStream(options);
  // Key order is part of the JSON: keep it as it always was.
  const data: DemoData = { merchant, products, collections, customers, orders: [...orders], markets, events: [...events] };
  return { data, truth };
}

/**
 * As generateDemoWithTruth, with orders and events generated lazily as they
 * are read. Each pass over `orders` or `events` generates them afresh from the
 * seed (every part of the shop draws from its own random stream, and nothing
 * the passes share is mutated), so they can be read in any interleaving, or
 * again, with identical results.
 */
export function generateDemoStream(options: DemoOptions = {}): DemoStream {
  const cfg = resolveOptions(options);
  const { products, catalogue } = buildCatalogue(cfg);
  const customers = buildCustomers(cfg);
  // The shopper, which the orders and events read, holds no product or customer object.
  const shopper = buildShopper(cfg, catalogue, customers.pool);
  const ids = (indices: number[]): number[] => indices.map((i) => catalogue.ids[i]!);
  return {
    merchant: { id: "demo", name: "Demo Outfitters", domain: "demo-outfitters.example", currency: "USD" },
    products,
    collections: buildCollections(cfg, products, catalogue),
    customers: customers.records,
    orders: { [Symbol.iterator]: () => generateOrders(cfg, shopper) },
    markets: buildMarkets(cfg, products),
    events: { [Symbol.iterator]: () => generateEvents(cfg, shopper) },
    truth: { bundles: shopper.bundles.map(ids), rising: ids(shopper.rising) },
  };
}

// ---------------------------------------------------------------------------
// Options and time window
// ---------------------------------------------------------------------------

const DAY_S = 86_400;
const DAY_MS = DAY_S * 1000;
/** How far back the catalogue reaches: products were created over two years. */
const CATALOGUE_AGE_DAYS = 730;
const RISING_WINDOW_DAYS = 14;

interface Config {
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

function resolveOptions(options: DemoOptions): Config {
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
function iso(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}+00:00`;
}

// ---------------------------------------------------------------------------
// Seeded randomness
// ---------------------------------------------------------------------------

/** Independent stream per purpose: FNV-1a of the label mixed with the seed (both halves). */
function stream(seed: number, label: string): Rng {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
  const hi = Math.floor(seed / 4294967296) | 0;
  return new Rng(h ^ Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(hi, 0x85ebca77));
}

/** Bounds-checked index, because noUncheckedIndexedAccess and because a bug here should be loud. */
function at<T>(items: readonly T[], index: number): T {
  const value = items[index];
  if (value === undefined) throw new RangeError(`index ${index} out of range (${items.length})`);
  return value;
}

/** Draws item indices in proportion to fixed weights in O(log n) (cumulative sums + binary search). */
class Sampler {
  private readonly cumulative: Float64Array;
  private readonly items: Int32Array;

  constructor(items: readonly number[], weight: (item: number) => number) {
    this.items = Int32Array.from(items);
    this.cumulative = new Float64Array(items.length);
    let total = 0;
    items.forEach((item, i) => {
      total += Math.max(0, weight(item));
      this.cumulative[i] = total;
    });
  }

  get size(): number {
    return this.items.length;
  }

  /** -1 when empty. */
  sample(rng: Rng): number {
    const n = this.items.length;
    if (n === 0) return -1;
    const target = rng.next() * (this.cumulative[n - 1] ?? 0);
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.cumulative[mid] ?? 0) > target) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo] ?? -1;
  }
}

/** Ids that look like the platform's: large, increasing over time, with gaps. */
class IdSequence {
  constructor(
    private next: number,
    private readonly maxGap: number,
    private readonly rng: Rng,
  ) {}

  take(): number {
    const id = this.next;
    this.next += 1 + Math.floor(this.rng.next() * this.maxGap);
    return id;
  }
}

// ---------------------------------------------------------------------------
// Catalogue vocabulary
// ---------------------------------------------------------------------------

const APPAREL = 0;
const OUTDOOR = 1;
const HOME = 2;

const VENDORS: readonly (readonly string[])[] = [
  [
    "Northbound Apparel",
    "Fieldnote Clothing Co.",
    "Greywool Knits",
    "Tidewater Threads",
    "Switchback Supply",
    "Common Loom",
    "Ridgeline Wear",
    "Hollow Pine",
    "Lowtide Goods",
  ],
  [
    "Basalt Gear",
    "Coldwater Outfitters",
    "Trailhead Works",
    "Cairn & Co.",
    "Kestrel Equipment",
    "Juniper Ridge Gear",
    "Bivouac Labs",
    "Granite Peak",
  ],
  [
    "Ashgrove Home",
    "Lumen & Oak",
    "Driftwood Mercantile",
    "Hearth & Wick",
    "Stoneware Studio",
    "Fernhill Living",
    "Copperleaf",
    "Quiet Harbor Home",
  ],
];

/** Style groups: same-style products share a title word, palette, season and look, and are bundled together. */
interface StyleSpec {
  name: string;
  look: string;
  season: string;
  colors: readonly string[];
  pitch: string;
}

const STYLES: readonly StyleSpec[] = [
  {
    name: "Alpine",
    look: "rugged",
    season: "winter",
    colors: ["Forest", "Charcoal", "Rust", "Oatmeal", "Black"],
    pitch: "built for cold mornings above the tree line",
  },
  {
    name: "Coastal",
    look: "relaxed",
    season: "summer",
    colors: ["Sand", "Navy", "Seafoam", "White", "Sky"],
    pitch: "made for salt air and long summer evenings",
  },
  {
    name: "Canyon",
    look: "retro",
    season: "autumn",
    colors: ["Terracotta", "Ochre", "Sand", "Olive", "Clay"],
    pitch: "inspired by sun-baked desert trails",
  },
  {
    name: "Nordic",
    look: "minimal",
    season: "winter",
    colors: ["Oatmeal", "Slate", "White", "Charcoal", "Fog"],
    pitch: "pared back and quietly warm",
  },
  {
    name: "Harbor",
    look: "classic",
    season: "spring",
    colors: ["Navy", "Red", "White", "Grey", "Indigo"],
    pitch: "a classic you will reach for every day",
  },
  {
    name: "Meadow",
    look: "cozy",
    season: "spring",
    colors: ["Sage", "Cream", "Lavender", "Moss", "Blush"],
    pitch: "soft, easy and made to linger over",
  },
  {
    name: "Ember",
    look: "modern",
    season: "autumn",
    colors: ["Black", "Rust", "Copper", "Charcoal", "Amber"],
    pitch: "modern lines with a warm glow",
  },
  {
    name: "Summit",
    look: "technical",
    season: "all-season",
    colors: ["Orange", "Black", "Cobalt", "Lime", "Grey"],
    pitch: "technical enough for big days out",
  },
];

/** Explicit SKU codes so two colours never collide inside one product. */
const COLOR_CODES: Readonly<Record<string, string>> = {
  Forest: "FOR",
  Charcoal: "CHR",
  Rust: "RST",
  Oatmeal: "OAT",
  Black: "BLK",
  Sand: "SND",
  Navy: "NVY",
  Seafoam: "SEA",
  White: "WHT",
  Sky: "SKY",
  Terracotta: "TER",
  Ochre: "OCH",
  Olive: "OLV",
  Clay: "CLY",
  Slate: "SLT",
  Fog: "FOG",
  Red: "RED",
  Grey: "GRY",
  Indigo: "IND",
  Sage: "SAG",
  Cream: "CRM",
  Lavender: "LAV",
  Moss: "MOS",
  Blush: "BLS",
  Copper: "COP",
  Amber: "AMB",
  Orange: "ORG",
  Cobalt: "COB",
  Lime: "LIM",
};

interface SizeSpec {
  name: string;
  code: string;
  /** Extra cents over the product's base price. */
  upcharge: number;
}

type OptionMode = "size-color" | "size" | "color" | "default";

interface TypeSpec {
  name: string;
  plural: string;
  code: string;
  dept: number;
  /** Relative share of the catalogue. */
  share: number;
  nouns: readonly string[];
  materials: readonly string[];
  /** Base price range in whole dollars. */
  price: readonly [number, number];
  grams: readonly [number, number];
  sizes: readonly SizeSpec[];
  modes: readonly (readonly [OptionMode, number])[];
  seasons: readonly string[];
  features: readonly string[];
  /** Care guide metafield candidates (empty: none). */
  care: readonly string[];
  /** Fabric weight range in gsm for the variant metafield, or null. */
  fabric: readonly [number, number] | null;
  giftable: boolean;
}

const sizes = (list: readonly [string, string, number][]): SizeSpec[] => list.map(([name, code, upcharge]) => ({ name, code, upcharge }));

const APPAREL_SIZES = sizes([
  ["XS", "XS", 0],
  ["S", "S", 0],
  ["M", "M", 0],
  ["L", "L", 0],
  ["XL", "XL", 0],
  ["XXL", "XXL", 300],
]);
const WASH_CARE = [
  "Machine wash cold, tumble dry low.",
  "Machine wash cold with like colours; line dry.",
  "Hand wash cool and dry flat to keep its shape.",
];

const TYPES: readonly TypeSpec[] = [
  {
    name: "T-Shirt",
    plural: "T-Shirts",
    code: "TEE",
    dept: APPAREL,
    share: 14,
    nouns: ["Tee", "T-Shirt", "Pocket Tee", "Crew Tee", "Long Sleeve Tee"],
    materials: ["Cotton", "Organic Cotton", "Merino", "Linen", "Hemp"],
    price: [18, 42],
    grams: [140, 260],
    sizes: APPAREL_SIZES,
    modes: [
      ["size-color", 85],
      ["size", 15],
    ],
    seasons: ["summer", "spring"],
    features: [
      "Cut for an easy, relaxed fit that layers well.",
      "Pre-shrunk so it keeps its shape wash after wash.",
      "Tagless neck label for all-day comfort.",
    ],
    care: WASH_CARE,
    fabric: [140, 220],
    giftable: true,
  },
  {
    name: "Hoodie",
    plural: "Hoodies",
    code: "HOO",
    dept: APPAREL,
    share: 9,
    nouns: ["Hoodie", "Pullover Hoodie", "Zip Hoodie", "Trail Hoodie"],
    materials: ["Fleece", "Merino", "French Terry", "Organic Cotton"],
    price: [48, 98],
    grams: [450, 750],
    sizes: APPAREL_SIZES,
    modes: [
      ["size-color", 90],
      ["size", 10],
    ],
    seasons: ["autumn", "winter"],
    features: [
      "Brushed inside for warmth without bulk.",
      "Kangaroo pocket and a lined, adjustable hood.",
      "Ribbed cuffs that hold their stretch.",
    ],
    care: WASH_CARE,
    fabric: [280, 420],
    giftable: false,
  },
  {
    name: "Jacket",
    plural: "Jackets",
    code: "JKT",
    dept: APPAREL,
    share: 7,
    nouns: ["Jacket", "Shell Jacket", "Puffer", "Field Jacket", "Anorak"],
    materials: ["Down", "Waxed Canvas", "Softshell", "Recycled Nylon", "Insulated"],
    price: [98, 320],
    grams: [350, 1200],
    sizes: APPAREL_SIZES,
    modes: [
      ["size-color", 80],
      ["size", 20],
    ],
    seasons: ["winter", "autumn"],
    features: ["Seam-sealed and rated for steady rain.", "Packs into its own chest pocket.", "Two-way zip and a helmet-compatible hood."],
    care: ["Spot clean; reproof with wash-in waterproofing.", "Machine wash warm, tumble dry low with dryer balls."],
    fabric: null,
    giftable: false,
  },
  {
    name: "Socks",
    plural: "Socks",
    code: "SCK",
    dept: APPAREL,
    share: 7,
    nouns: ["Socks", "Crew Socks", "Hiking Socks", "Boot Socks"],
    materials: ["Merino", "Wool", "Bamboo", "Cotton"],
    price: [12, 26],
    grams: [60, 120],
    sizes: sizes([
      ["S/M", "SM", 0],
      ["L/XL", "LX", 0],
    ]),
    modes: [
      ["size-color", 60],
      ["size", 40],
    ],
    seasons: ["all-season", "winter"],
    features: [
      "Cushioned heel and toe for long days on foot.",
      "Seamless toe that never rubs.",
      "Arch support that keeps them from slipping.",
    ],
    care: WASH_CARE,
    fabric: [180, 260],
    giftable: true,
  },
  {
    name: "Beanie",
    plural: "Beanies",
    code: "BNE",
    dept: APPAREL,
    share: 5,
    nouns: ["Beanie", "Watch Cap", "Rib Beanie", "Fisherman Beanie"],
    materials: ["Wool", "Merino", "Cashmere", "Recycled Acrylic"],
    price: [18, 38],
    grams: [70, 130],
    sizes: [],
    modes: [
      ["color", 70],
      ["default", 30],
    ],
    seasons: ["winter", "autumn"],
    features: ["Double-layer cuff keeps ears warm.", "Soft enough to wear all day without itching.", "One size, with plenty of stretch."],
    care: ["Hand wash cool and dry flat."],
    fabric: null,
    giftable: true,
  },
  {
    name: "Backpack",
    plural: "Backpacks",
    code: "BPK",
    dept: OUTDOOR,
    share: 6,
    nouns: ["Backpack", "Daypack", "Rucksack", "Roll-Top Pack"],
    materials: ["Canvas", "Nylon", "Ripstop", "Waxed Canvas"],
    price: [45, 189],
    grams: [600, 1500],
    sizes: sizes([
      ["20L", "20L", 0],
      ["28L", "28L", 1500],
      ["35L", "35L", 3000],
    ]),
    modes: [
      ["color", 50],
      ["size-color", 20],
      ["default", 30],
    ],
    seasons: ["all-season"],
    features: [
      "Padded laptop sleeve fits a 16-inch machine.",
      "Water-resistant base and weatherproof zips.",
      "Load lifters and a sternum strap for longer hauls.",
    ],
    care: [],
    fabric: null,
    giftable: false,
  },
  {
    name: "Water Bottle",
    plural: "Water Bottles",
    code: "BTL",
    dept: OUTDOOR,
    share: 5,
    nouns: ["Water Bottle", "Bottle", "Flask", "Canteen"],
    materials: ["Stainless Steel", "Insulated", "Glass", "Titanium"],
    price: [18, 45],
    grams: [250, 500],
    sizes: sizes([
      ["500 ml", "05L", 0],
      ["750 ml", "07L", 400],
      ["1 L", "10L", 800],
    ]),
    modes: [
      ["size-color", 50],
      ["color", 30],
      ["default", 20],
    ],
    seasons: ["summer", "all-season"],
    features: [
      "Keeps drinks cold for 24 hours and hot for 12.",
      "Leakproof lid you can toss in a bag.",
      "Wide mouth for ice cubes and easy cleaning.",
    ],
    care: [],
    fabric: null,
    giftable: true,
  },
  {
    name: "Tent",
    plural: "Tents",
    code: "TNT",
    dept: OUTDOOR,
    share: 4,
    nouns: ["Tent", "Dome Tent", "Backpacking Tent", "Trekking Shelter"],
    materials: ["Ultralight", "Ripstop", "Canvas", "Silnylon"],
    price: [149, 649],
    grams: [1100, 4500],
    sizes: sizes([
      ["2-Person", "2P", 0],
      ["3-Person", "3P", 6000],
      ["4-Person", "4P", 12000],
    ]),
    modes: [
      ["size", 60],
      ["default", 40],
    ],
    seasons: ["summer", "spring"],
    features: [
      "Pitches in under five minutes with colour-coded poles.",
      "Two doors and two vestibules, so nobody climbs over anyone.",
      "Full-coverage fly rated for mountain storms.",
    ],
    care: [],
    fabric: null,
    giftable: false,
  },
  {
    name: "Sleeping Mat",
    plural: "Sleeping Mats",
    code: "MAT",
    dept: OUTDOOR,
    share: 4,
    nouns: ["Sleeping Mat", "Sleeping Pad", "Camp Mat", "Air Pad"],
    materials: ["Foam", "Inflatable", "Self-Inflating", "Insulated"],
    price: [49, 169],
    grams: [350, 1400],
    sizes: sizes([
      ["Regular", "REG", 0],
      ["Long", "LNG", 1500],
      ["Wide", "WDE", 2500],
    ]),
    modes: [
      ["size", 60],
      ["default", 40],
    ],
    seasons: ["summer", "all-season"],
    features: [
      "Baffled chambers stop you rolling off in the night.",
      "Inflates in a dozen breaths with the pump sack.",
      "Reflective layer for cold ground.",
    ],
    care: [],
    fabric: null,
    giftable: false,
  },
  {
    name: "Lantern",
    plural: "Lanterns",
    code: "LTN",
    dept: OUTDOOR,
    share: 4,
    nouns: ["Lantern", "Camp Lantern", "Lamp Lantern", "Hanging Lantern"],
    materials: ["LED", "Solar", "Brass", "Collapsible"],
    price: [24, 89],
    grams: [150, 700],
    sizes: [],
    modes: [
      ["color", 40],
      ["default", 60],
    ],
    seasons: ["summer", "autumn"],
    features: [
      "Warm dimmable light that lasts all weekend.",
      "USB-C rechargeable, with a power-bank mode.",
      "Folding hook hangs from any tent loop.",
    ],
    care: [],
    fabric: null,
    giftable: true,
  },
  {
    name: "Mug",
    plural: "Mugs",
    code: "MUG",
    dept: HOME,
    share: 8,
    nouns: ["Mug", "Camp Mug", "Coffee Mug", "Tumbler"],
    materials: ["Ceramic", "Stoneware", "Enamel", "Porcelain"],
    price: [14, 38],
    grams: [250, 450],
    sizes: [],
    modes: [
      ["color", 60],
      ["default", 40],
    ],
    seasons: ["all-season", "winter"],
    features: ["Hand-glazed, so no two are quite alike.", "Dishwasher and microwave safe.", "Holds a generous 12 oz pour."],
    care: [],
    fabric: null,
    giftable: true,
  },
  {
    name: "Candle",
    plural: "Candles",
    code: "CDL",
    dept: HOME,
    share: 9,
    nouns: ["Candle", "Jar Candle", "Pillar Candle", "Travel Candle"],
    materials: ["Soy", "Beeswax", "Coconut Wax", "Soy Blend"],
    price: [16, 48],
    grams: [200, 600],
    sizes: sizes([
      ["8 oz", "8OZ", 0],
      ["12 oz", "12OZ", 800],
      ["16 oz", "16OZ", 1400],
    ]),
    modes: [
      ["size", 50],
      ["default", 50],
    ],
    seasons: ["autumn", "winter"],
    features: ["Cotton wick for a clean, even burn.", "Notes of cedar, smoke and a little citrus.", "Burns for around 50 hours."],
    care: [],
    fabric: null,
    giftable: true,
  },
  {
    name: "Lamp",
    plural: "Lamps",
    code: "LMP",
    dept: HOME,
    share: 5,
    nouns: ["Lamp", "Table Lamp", "Floor Lamp", "Desk Lamp"],
    materials: ["Brass", "Oak", "Ceramic", "Rattan", "Linen"],
    price: [59, 289],
    grams: [1200, 6000],
    sizes: [],
    modes: [
      ["color", 50],
      ["default", 50],
    ],
    seasons: ["all-season"],
    features: ["Linen shade that softens the light.", "Three-way dimmer switch on the cord.", "Takes any standard E26 bulb."],
    care: [],
    fabric: null,
    giftable: false,
  },
  {
    name: "Sofa",
    plural: "Sofas",
    code: "SOF",
    dept: HOME,
    share: 3,
    nouns: ["Sofa", "Loveseat", "Sectional", "Daybed"],
    materials: ["Linen", "Velvet", "Leather", "Boucle"],
    price: [799, 2899],
    grams: [35000, 90000],
    sizes: sizes([
      ["Loveseat", "LOV", 0],
      ["3-Seater", "3ST", 30000],
      ["Sectional", "SEC", 90000],
    ]),
    modes: [
      ["size-color", 60],
      ["color", 40],
    ],
    seasons: ["all-season"],
    features: [
      "Kiln-dried hardwood frame with a lifetime guarantee.",
      "Feather-wrapped cushions that stay plump.",
      "Arrives in boxes that fit through any door.",
    ],
    care: ["Vacuum weekly; blot spills straight away.", "Professional clean only."],
    fabric: null,
    giftable: false,
  },
  {
    name: "Blanket",
    plural: "Blankets",
    code: "BLK",
    dept: HOME,
    share: 6,
    nouns: ["Blanket", "Throw", "Camp Blanket", "Quilt"],
    materials: ["Wool", "Cotton", "Cashmere", "Fleece", "Linen"],
    price: [39, 149],
    grams: [600, 2000],
    sizes: sizes([
      ["Throw", "THR", 0],
      ["Queen", "QN", 4000],
      ["King", "KG", 6000],
    ]),
    modes: [
      ["size-color", 40],
      ["color", 40],
      ["default", 20],
    ],
    seasons: ["winter", "autumn"],
    features: [
      "Woven on vintage looms in small batches.",
      "Big enough to share on the sofa or at camp.",
      "Softens further with every wash.",
    ],
    care: ["Machine wash cold on a gentle cycle; line dry."],
    fabric: [300, 480],
    giftable: true,
  },
];

/** Latent complements: one concrete bundle takes one product of each type, all in one style. */
const BUNDLE_TEMPLATES: readonly { types: readonly string[]; weight: number }[] = [
  { types: ["Tent", "Sleeping Mat", "Lantern"], weight: 3 },
  { types: ["Jacket", "Backpack", "Water Bottle"], weight: 3 },
  { types: ["Hoodie", "Beanie", "Socks"], weight: 4 },
  { types: ["T-Shirt", "Socks"], weight: 3 },
  { types: ["Mug", "Candle"], weight: 3 },
  { types: ["Sofa", "Lamp", "Blanket"], weight: 2 },
  { types: ["Candle", "Blanket", "Mug"], weight: 3 },
];

const IMAGE_SIZES: readonly (readonly [number, number])[] = [
  [2048, 2048],
  [1600, 2000],
  [2000, 2000],
  [1200, 1500],
  [2400, 1600],
  [1080, 1350],
];

// ---------------------------------------------------------------------------
// Catalogue
// ---------------------------------------------------------------------------

/**
 * What the order and session simulators need to know about each product, by
 * product index. Kept as flat typed arrays: the simulators read them millions of
 * times at benchmark sizes, and scattered objects cost a cache miss each. It
 * holds no product object, so a consumer that streams orders and events can let
 * the products go once it has imported them (at 1M products they are most of
 * the heap, and a heap near its limit spends its time collecting garbage).
 */
interface Catalogue {
  /** Product ids. */
  ids: Float64Array;
  /** Each product's variant ids and prices, in variant order: what an order line copies. */
  variants: { ids: Float64Array; prices: readonly string[] }[];
  type: Uint8Array;
  style: Uint8Array;
  createdS: Float64Array;
  /** 1 when published and active: can be bought and browsed. */
  sellable: Uint8Array;
  outOfStock: Uint8Array;
  /** Zipf popularity weight (0 for unsellable products). */
  weight: Float64Array;
  /** Cumulative variant weights: middle sizes and first colours sell best. */
  variantCumulative: number[][];
}

interface ProductIds {
  product: IdSequence;
  variant: IdSequence;
  option: IdSequence;
  image: IdSequence;
  metafield: IdSequence;
}

function buildCatalogue(cfg: Config): { products: DemoProduct[]; catalogue: Catalogue } {
  const rng = stream(cfg.seed, "catalogue");
  const ids: ProductIds = {
    product: new IdSequence(7_100_000_000_000, 40_000, rng),
    variant: new IdSequence(41_000_000_000_000, 500, rng),
    option: new IdSequence(9_300_000_000_000, 50, rng),
    image: new IdSequence(31_000_000_000_000, 5_000, rng),
    metafield: new IdSequence(24_000_000_000_000, 300, rng),
  };
  const createdTimes = productCreationTimes(cfg, rng);
  const weights = zipfWeights(cfg.products, 0.95, 8, rng);
  const maxWeight = weights.reduce((a, b) => Math.max(a, b), 0) || 1;
  const handles = new HandleRegistry();
  const skus = new Set<string>();
  const vendorWeights = VENDORS.map((list) => list.map((_, i) => 1 / (i + 2)));
  const typeShares = TYPES.map((t) => t.share);

  const n = cfg.products;
  const products: DemoProduct[] = [];
  const catalogue: Catalogue = {
    ids: new Float64Array(n),
    variants: [],
    type: new Uint8Array(n),
    style: new Uint8Array(n),
    createdS: Float64Array.from(createdTimes),
    sellable: new Uint8Array(n),
    outOfStock: new Uint8Array(n),
    weight: new Float64Array(n),
    variantCumulative: [],
  };
  for (let i = 0; i < n; i++) {
    const type = rng.weighted(typeShares);
    const spec = at(TYPES, type);
    const vendor = at(at(VENDORS, spec.dept), rng.weighted(at(vendorWeights, spec.dept)));
    const draft = rng.chance(0.03);
    const style = rng.int(0, STYLES.length - 1);
    const built = buildProduct({
      cfg,
      rng,
      ids,
      handles,
      skus,
      index: i,
      spec,
      vendor,
      draft,
      style,
      createdS: at(createdTimes, i),
      popularity: draft ? 0 : at(weights, i) / maxWeight,
    });
    products.push(built.product);
    catalogue.ids[i] = built.product.id;
    catalogue.variants.push({
      ids: Float64Array.from(built.product.variants, (v) => v.id),
      prices: built.product.variants.map((v) => v.price),
    });
    catalogue.type[i] = type;
    catalogue.style[i] = style;
    catalogue.sellable[i] = draft ? 0 : 1;
    catalogue.outOfStock[i] = built.outOfStock ? 1 : 0;
    catalogue.weight[i] = draft ? 0 : at(weights, i);
    catalogue.variantCumulative.push(built.variantCumulative);
  }
  return { products, catalogue };
}

/** Creation times spread over two years, sorted so ids increase with age like the platform's. */
function productCreationTimes(cfg: Config, rng: Rng): number[] {
  // Long windows push the catalogue further back so most products predate most orders.
  const oldest = cfg.nowS - Math.max(CATALOGUE_AGE_DAYS, cfg.days + 180) * DAY_S;
  const span = cfg.nowS - oldest - DAY_S;
  const times = new Float64Array(cfg.products);
  for (let i = 0; i < times.length; i++) times[i] = oldest + Math.floor(rng.next() * span);
  return Array.from(times.sort());
}

/**
 * Zipf-like weights (rank + offset)^-s over a random ranking: a few products take
 * a large share, a long tail sells rarely. Index i's weight; rank 0 is the best seller.
 */
function zipfWeights(n: number, s: number, offset: number, rng: Rng): number[] {
  const ranks = rng.shuffle(Array.from({ length: n }, (_, i) => i));
  return ranks.map((rank) => Math.pow(rank + offset, -s));
}

/** Handles must be unique; collisions get -2, -3 … like the platform does. */
class HandleRegistry {
  private readonly used = new Set<string>();
  private readonly nextSuffix = new Map<string, number>();

  claim(title: string): string {
    const base = slug(title);
    let handle = base;
    let n = this.nextSuffix.get(base) ?? 2;
    while (this.used.has(handle)) handle = `${base}-${n++}`;
    this.nextSuffix.set(base, n);
    this.used.add(handle);
    return handle;
  }
}

function slug(text: string): string {
  const s = text
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return s === "" ? "item" : s;
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

type StockProfile = "normal" | "out" | "backorder" | "untracked";

function buildProduct(input: ProductInput): { product: DemoProduct; outOfStock: boolean; variantCumulative: number[] } {
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
  return { product, outOfStock: stock === "out", variantCumulative: cumulative(grid.combos.map((c) => c.weight)) };
}

/** Product-line words; they widen the title space so big catalogues are not mostly "-2", "-3" handles. */
const LINES = [
  "Everyday",
  "Classic",
  "Heritage",
  "Expedition",
  "Weekend",
  "Field",
  "Studio",
  "Essential",
  "Utility",
  "Trail",
  "Camp",
  "Lightweight",
  "Heavyweight",
  "Packable",
  "Signature",
  "Voyager",
];

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

/** ~5% sold out, ~6% sold on backorder, ~4% untracked, the rest tracked and in stock. */
function pickStockProfile(rng: Rng): StockProfile {
  const r = rng.next();
  if (r < 0.05) return "out";
  if (r < 0.11) return "backorder";
  if (r < 0.15) return "untracked";
  return "normal";
}

function inventory(rng: Rng, stock: StockProfile): Pick<DemoVariant, "inventory_policy" | "inventory_management" | "inventory_quantity"> {
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
function keepInStock(rng: Rng, stock: StockProfile, variants: DemoVariant[]): void {
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

interface OptionGrid {
  options: { name: string; values: string[] }[];
  combos: Combo[];
  colors: string[];
}

/** Options and their cartesian variants (Size outer, Color inner), capped at 12 variants. */
function optionGrid(rng: Rng, spec: TypeSpec, style: StyleSpec): OptionGrid {
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
function productPricing(rng: Rng, spec: TypeSpec): Pricing {
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

/** Two-decimal money string from integer cents (faster than toFixed, and exact). */
function formatCents(cents: number): string {
  const c = Math.round(cents);
  const sign = c < 0 ? "-" : "";
  const abs = Math.abs(c);
  const minor = abs % 100;
  return `${sign}${(abs - minor) / 100}.${minor < 10 ? "0" : ""}${minor}`;
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

function cumulative(weights: number[]): number[] {
  let total = 0;
  return weights.map((w) => (total += w));
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

// ---------------------------------------------------------------------------
// Collections
// ---------------------------------------------------------------------------

/** One collection per type plus thematic ones a merchant would curate (20 in all). */
function buildCollections(cfg: Config, products: readonly DemoProduct[], catalogue: Catalogue): DemoCollection[] {
  const rng = stream(cfg.seed, "collections");
  const ids = new IdSequence(280_000_000_000, 100_000, rng);
  const { sellable, createdS } = catalogue;
  const where = (keep: (p: DemoProduct, i: number) => boolean): number[] => products.filter(keep).map((p) => p.id);
  const forSale = (i: number): boolean => sellable[i] === 1;
  const hasTag = (p: DemoProduct, tag: string): boolean => `, ${p.tags}, `.includes(`, ${tag}, `);
  const minPrice = (p: DemoProduct): number => p.variants.reduce((min, v) => Math.min(min, Number(v.price)), Infinity);

  const collection = (title: string, productIds: number[]): DemoCollection => ({
    id: ids.take(),
    title,
    handle: slug(title),
    product_ids: productIds,
  });
  // Products are generated oldest first, so newest first is reverse index order.
  const newest = products.filter((_, i) => forSale(i)).reverse();
  const recentCount = products.filter((_, i) => forSale(i) && (createdS[i] ?? 0) >= cfg.nowS - 30 * DAY_S).length;

  return [
    ...TYPES.map((spec) =>
      collection(
        spec.plural,
        where((p) => p.product_type === spec.name),
      ),
    ),
    collection(
      "Summer Essentials",
      where((p, i) => forSale(i) && hasTag(p, "summer")),
    ),
    collection(
      "Winter Warmers",
      where((p, i) => forSale(i) && hasTag(p, "winter")),
    ),
    collection(
      "Gifts Under $50",
      where((p, i) => forSale(i) && hasTag(p, "gift") && minPrice(p) < 50),
    ),
    collection(
      "New Arrivals",
      newest.slice(0, Math.max(12, recentCount)).map((p) => p.id),
    ),
    collection(
      "Sale",
      where((p, i) => forSale(i) && hasTag(p, "sale")),
    ),
  ];
}

// ---------------------------------------------------------------------------
// Customers
// ---------------------------------------------------------------------------

const FIRST_NAMES = [
  "Olivia",
  "Liam",
  "Emma",
  "Noah",
  "Ava",
  "Oliver",
  "Sophia",
  "Elijah",
  "Isabella",
  "James",
  "Mia",
  "William",
  "Amelia",
  "Benjamin",
  "Harper",
  "Lucas",
  "Evelyn",
  "Henry",
  "Abigail",
  "Theodore",
  "Emily",
  "Jack",
  "Ella",
  "Levi",
  "Scarlett",
  "Alexander",
  "Grace",
  "Mateo",
  "Chloe",
  "Daniel",
  "Priya",
  "Arjun",
  "Mei",
  "Hiroshi",
  "Aisha",
  "Omar",
  "Sofia",
  "Diego",
  "Fatima",
  "Kwame",
  "Zara",
  "Ravi",
  "Nora",
  "Felix",
  "Ingrid",
  "Luca",
  "Maya",
  "Ethan",
  "Chloé",
  "Owen",
  "Freya",
  "Callum",
  "Isla",
  "Rhys",
  "Niamh",
  "Eilidh",
  "Amara",
  "Tariq",
  "Yuki",
  "Leila",
];
const LAST_NAMES = [
  "Smith",
  "Johnson",
  "Williams",
  "Brown",
  "Jones",
  "Garcia",
  "Miller",
  "Davis",
  "Rodriguez",
  "Martinez",
  "Hernandez",
  "Lopez",
  "Wilson",
  "Anderson",
  "Thomas",
  "Taylor",
  "Moore",
  "Jackson",
  "Martin",
  "Lee",
  "Thompson",
  "White",
  "Harris",
  "Clark",
  "Lewis",
  "Walker",
  "Young",
  "Allen",
  "King",
  "Wright",
  "Scott",
  "Nguyen",
  "Patel",
  "Kim",
  "Chen",
  "Singh",
  "Okafor",
  "Mensah",
  "Tanaka",
  "Haddad",
  "Novak",
  "Kowalski",
  "Larsen",
  "Murphy",
  "O'Brien",
  "MacDonald",
  "Campbell",
  "Evans",
  "Hughes",
  "Roberts",
  "Bouchard",
  "Tremblay",
  "Gagnon",
  "Roy",
  "Côté",
  "Fraser",
  "Sato",
  "Ali",
  "Hussain",
  "Fischer",
];
const STREETS = [
  "Maple",
  "Cedar",
  "Oak",
  "Elm",
  "Pine",
  "Birch",
  "Willow",
  "Lake",
  "Hill",
  "River",
  "Park",
  "Mill",
  "Church",
  "High",
  "Station",
  "Market",
  "King",
  "Queen",
  "Harbour",
  "Spruce",
];
const COMPANIES = ["Northwind Traders", "Bluebird Design", "Hillside Studio", "Acme Logistics", "Juniper Consulting", "Brightwater Labs"];

interface CountrySpec {
  code: string;
  name: string;
  currency: string;
  share: number;
  suffixes: readonly string[];
  /** city, province, province code, postcode prefixes, phone prefix. */
  cities: readonly (readonly [string, string, string, readonly string[], string])[];
}

// Phone numbers use the ranges reserved for fiction (NANP 555-01xx, Ofcom drama numbers).
const COUNTRIES: readonly CountrySpec[] = [
  {
    code: "US",
    name: "United States",
    currency: "USD",
    share: 60,
    suffixes: ["Street", "Avenue", "Road", "Lane", "Drive", "Way"],
    cities: [
      ["Portland", "Oregon", "OR", ["972"], "+1 503-555-01"],
      ["Denver", "Colorado", "CO", ["802"], "+1 303-555-01"],
      ["Seattle", "Washington", "WA", ["981"], "+1 206-555-01"],
      ["Austin", "Texas", "TX", ["787"], "+1 512-555-01"],
      ["Boston", "Massachusetts", "MA", ["021"], "+1 617-555-01"],
      ["Chicago", "Illinois", "IL", ["606"], "+1 312-555-01"],
      ["Brooklyn", "New York", "NY", ["112"], "+1 718-555-01"],
      ["San Francisco", "California", "CA", ["941"], "+1 415-555-01"],
      ["Boulder", "Colorado", "CO", ["803"], "+1 303-555-01"],
      ["Minneapolis", "Minnesota", "MN", ["554"], "+1 612-555-01"],
      ["Asheville", "North Carolina", "NC", ["288"], "+1 828-555-01"],
      ["Salt Lake City", "Utah", "UT", ["841"], "+1 801-555-01"],
      ["Burlington", "Vermont", "VT", ["054"], "+1 802-555-01"],
      ["Bend", "Oregon", "OR", ["977"], "+1 541-555-01"],
    ],
  },
  {
    code: "CA",
    name: "Canada",
    currency: "CAD",
    share: 25,
    suffixes: ["Street", "Avenue", "Road", "Crescent", "Drive"],
    cities: [
      ["Toronto", "Ontario", "ON", ["M5V", "M4C", "M6J"], "+1 416-555-01"],
      ["Vancouver", "British Columbia", "BC", ["V6B", "V5K"], "+1 604-555-01"],
      ["Calgary", "Alberta", "AB", ["T2P", "T3A"], "+1 403-555-01"],
      ["Montreal", "Quebec", "QC", ["H2X", "H3B"], "+1 514-555-01"],
      ["Halifax", "Nova Scotia", "NS", ["B3H", "B3K"], "+1 902-555-01"],
      ["Ottawa", "Ontario", "ON", ["K1P", "K2A"], "+1 613-555-01"],
      ["Winnipeg", "Manitoba", "MB", ["R3C"], "+1 204-555-01"],
      ["Victoria", "British Columbia", "BC", ["V8W"], "+1 250-555-01"],
    ],
  },
  {
    code: "GB",
    name: "United Kingdom",
    currency: "GBP",
    share: 15,
    suffixes: ["Road", "Street", "Lane", "Close", "Gardens", "Terrace"],
    cities: [
      ["London", "England", "ENG", ["EC1A", "SW1A", "N1", "E2", "SE1"], "+44 20 7946 0"],
      ["Manchester", "England", "ENG", ["M1", "M4"], "+44 161 496 0"],
      ["Edinburgh", "Scotland", "SCT", ["EH1", "EH3"], "+44 131 496 0"],
      ["Glasgow", "Scotland", "SCT", ["G1", "G2"], "+44 141 496 0"],
      ["Bristol", "England", "ENG", ["BS1", "BS8"], "+44 117 496 0"],
      ["Cardiff", "Wales", "WLS", ["CF10"], "+44 29 2018 0"],
      ["Leeds", "England", "ENG", ["LS1", "LS6"], "+44 113 496 0"],
    ],
  },
];

/** What the simulators need to know about each customer, by index: no customer object (see Catalogue). */
interface CustomerPool {
  ids: Float64Array;
  /** Preferred department, so a customer's orders lean one way. */
  dept: number[];
  /** Repeat-purchase skew: a minority of customers place most orders. */
  activity: Sampler;
}

function buildCustomers(cfg: Config): { records: DemoCustomer[]; pool: CustomerPool } {
  const rng = stream(cfg.seed, "customers");
  const ids = new IdSequence(6_800_000_000_000, 50_000, rng);
  const addressIds = new IdSequence(8_900_000_000_000, 20_000, rng);
  const emails = new Map<string, number>();
  // Accounts predate the order window so no order precedes its customer.
  const newest = cfg.windowStartS - DAY_S;
  const oldest = Math.min(cfg.nowS - 3 * 365 * DAY_S, newest - 365 * DAY_S);
  const created = Array.from(new Float64Array(cfg.customers).map(() => oldest + Math.floor(rng.next() * (newest - oldest))).sort());

  const records: DemoCustomer[] = [];
  const dept: number[] = [];
  for (let i = 0; i < cfg.customers; i++) {
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const country = at(COUNTRIES, rng.weighted(COUNTRIES.map((c) => c.share)));
    const addresses = [address(rng, addressIds, first, last, country, true)];
    if (rng.chance(0.25)) {
      const other = rng.chance(0.8) ? country : rng.pick(COUNTRIES);
      addresses.push(address(rng, addressIds, first, last, other, false));
    }
    const createdS = at(created, i);
    records.push({
      id: ids.take(),
      email: uniqueEmail(emails, first, last, rng),
      first_name: first,
      last_name: last,
      accepts_marketing: rng.chance(0.45),
      created_at: iso(createdS),
      updated_at: iso(createdS + Math.floor(rng.next() * (cfg.nowS - createdS))),
      state: "enabled",
      verified_email: rng.chance(0.92),
      phone: rng.chance(0.35) ? (at(addresses, 0).phone ?? fictionalPhone(rng, country)) : null,
      tags: rng.pick(["", "", "", "", "", "", "vip", "newsletter", "wholesale", "vip, newsletter"]),
      currency: country.currency,
      note: null,
      tax_exempt: false,
      addresses,
    });
    dept.push(rng.weighted([0.45, 0.3, 0.25]));
  }
  const activity = zipfWeights(cfg.customers, 0.6, 20, rng);
  const pool = {
    ids: Float64Array.from(records, (c) => c.id),
    dept,
    activity: new Sampler(
      records.map((_, i) => i),
      (i) => at(activity, i),
    ),
  };
  return { records, pool };
}

function address(rng: Rng, ids: IdSequence, first: string, last: string, country: CountrySpec, isDefault: boolean): DemoAddress {
  const [city, province, provinceCode, prefixes, phonePrefix] = rng.pick(country.cities);
  const unit = rng.next();
  return {
    id: ids.take(),
    first_name: first,
    last_name: last,
    company: rng.chance(0.08) ? rng.pick(COMPANIES) : null,
    address1: `${rng.int(1, 9899)} ${rng.pick(STREETS)} ${rng.pick(country.suffixes)}`,
    address2: unit < 0.12 ? `Apt ${rng.int(1, 30)}${rng.pick(["A", "B", "C", ""])}` : unit < 0.18 ? `Unit ${rng.int(1, 400)}` : "",
    city,
    province,
    country: country.name,
    zip: postcode(rng, country.code, rng.pick(prefixes)),
    phone: rng.chance(0.6)
      ? `${phonePrefix}${String(rng.int(0, country.code === "GB" ? 999 : 99)).padStart(country.code === "GB" ? 3 : 2, "0")}`
      : null,
    province_code: provinceCode,
    country_code: country.code,
    country_name: country.name,
    default: isDefault,
  };
}

function fictionalPhone(rng: Rng, country: CountrySpec): string {
  const prefix = rng.pick(country.cities)[4];
  return country.code === "GB"
    ? `${prefix}${String(rng.int(0, 999)).padStart(3, "0")}`
    : `${prefix}${String(rng.int(0, 99)).padStart(2, "0")}`;
}

const POSTCODE_LETTERS = "ABDEFGHJLNPQRSTUWXYZ";

/** Postcodes in each country's real shape: 97214, M5V 2T6, EC1A 4BB. */
function postcode(rng: Rng, countryCode: string, prefix: string): string {
  const letter = (): string => POSTCODE_LETTERS.charAt(rng.int(0, POSTCODE_LETTERS.length - 1));
  if (countryCode === "US") return `${prefix}${String(rng.int(0, 99)).padStart(2, "0")}`;
  if (countryCode === "CA") return `${prefix} ${rng.int(0, 9)}${letter()}${rng.int(0, 9)}`;
  return `${prefix} ${rng.int(1, 9)}${letter()}${letter()}`;
}

/** Reserved example domains; a number is added when two customers share a name. */
function uniqueEmail(seen: Map<string, number>, first: string, last: string, rng: Rng): string {
  const local = `${asciiFold(first)}.${asciiFold(last)}`;
  const n = (seen.get(local) ?? 0) + 1;
  seen.set(local, n);
  const domain = rng.pick(["example.com", "example.com", "example.net", "example.org"]);
  return n === 1 ? `${local}@${domain}` : `${local}${n}@${domain}`;
}

function asciiFold(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z]/g, "");
}

// ---------------------------------------------------------------------------
// Shopping behaviour shared by orders and sessions
// ---------------------------------------------------------------------------

/** The latent structure both orders and browsing sessions are drawn from. */
interface Shopper {
  cfg: Config;
  catalogue: Catalogue;
  customers: CustomerPool;
  global: Sampler;
  byDept: Sampler[];
  byType: Sampler[];
  /** [type][style] → sellable product indices. */
  byTypeStyle: number[][][];
  /** Product indices, one per bundle template type, same style. */
  bundles: number[][];
  bundlesOf: Map<number, number[]>;
  bundleSampler: Sampler;
  rising: number[];
  /** Per-day volume multiplier (weekday, trend, noise), shared by orders and sessions. */
  dayFactor: number[];
}

function buildShopper(cfg: Config, catalogue: Catalogue, customers: CustomerPool): Shopper {
  const rng = stream(cfg.seed, "structure");
  const { type, style } = catalogue;
  const weight = (i: number): number => catalogue.weight[i] ?? 0;
  // One pass groups sellable products by type × style; type and department lists derive from it.
  const sellable: number[] = [];
  const byTypeStyle = TYPES.map(() => STYLES.map((): number[] => []));
  const byType = TYPES.map((): number[] => []);
  const byDept = [APPAREL, OUTDOOR, HOME].map((): number[] => []);
  for (let i = 0; i < catalogue.ids.length; i++) {
    if (catalogue.sellable[i] !== 1) continue;
    const t = type[i] ?? 0;
    sellable.push(i);
    at(at(byTypeStyle, t), style[i] ?? 0).push(i);
    at(byType, t).push(i);
    at(byDept, at(TYPES, t).dept).push(i);
  }

  const bundles = buildBundles(cfg, rng, byTypeStyle);
  const bundlesOf = new Map<number, number[]>();
  bundles.forEach((members, b) => {
    for (const p of members) bundlesOf.set(p, [...(bundlesOf.get(p) ?? []), b]);
  });
  // A bundle sells in proportion to how popular its members are, times its own appeal.
  const appeal = bundles.map((members) => members.reduce((sum, p) => sum + weight(p), 0) * (0.5 + rng.next()));

  return {
    cfg,
    catalogue,
    customers,
    global: new Sampler(sellable, weight),
    byDept: byDept.map((list) => new Sampler(list, weight)),
    byType: byType.map((list) => new Sampler(list, weight)),
    byTypeStyle,
    bundles,
    bundlesOf,
    bundleSampler: new Sampler(
      bundles.map((_, b) => b),
      (b) => at(appeal, b),
    ),
    rising: pickRising(cfg, rng, catalogue, sellable),
    dayFactor: dayFactors(cfg, rng),
  };
}

/** About one bundle per six products; each takes one product per template type in a single style. */
function buildBundles(cfg: Config, rng: Rng, byTypeStyle: number[][][]): number[][] {
  const typeIndex = new Map(TYPES.map((t, i) => [t.name, i]));
  const target = Math.max(4, Math.round(cfg.products / 6));
  const bundles: number[][] = [];
  const seen = new Set<string>();
  for (let attempt = 0; attempt < target * 3 && bundles.length < target; attempt++) {
    const template = at(BUNDLE_TEMPLATES, rng.weighted(BUNDLE_TEMPLATES.map((t) => t.weight)));
    const style = rng.int(0, STYLES.length - 1);
    const members: number[] = [];
    for (const name of template.types) {
      const pool = at(at(byTypeStyle, typeIndex.get(name) ?? -1), style);
      if (pool.length > 0) members.push(rng.pick(pool));
    }
    const key = [...members].sort((a, b) => a - b).join(",");
    if (members.length < 2 || seen.has(key)) continue;
    seen.add(key);
    bundles.push(members);
  }
  return bundles;
}

/**
 * Eight mid-tail, in-stock products that existed well before the ramp: a trending
 * detector has to notice growth, not just newness or a best seller.
 */
function pickRising(cfg: Config, rng: Rng, catalogue: Catalogue, sellable: number[]): number[] {
  const { weight, outOfStock, createdS } = catalogue;
  const byWeight = [...sellable].sort((a, b) => (weight[b] ?? 0) - (weight[a] ?? 0) || a - b);
  const from = Math.floor(byWeight.length * 0.1);
  const to = Math.max(from + 1, Math.floor(byWeight.length * 0.5));
  // Old enough to have sales before the ramp to compare against.
  const established = (i: number): boolean => outOfStock[i] === 0 && (createdS[i] ?? Infinity) < cfg.nowS - 35 * DAY_S;
  const candidates = byWeight.slice(from, to).filter(established);
  return rng.shuffle(candidates).slice(0, 8);
}

/** Weekends busier, gentle growth over the window, ±10% day-to-day noise. */
function dayFactors(cfg: Config, rng: Rng): number[] {
  const weekday = [1.15, 0.9, 0.92, 0.95, 1.0, 1.05, 1.2]; // Sun..Sat
  return Array.from({ length: cfg.days }, (_, d) => {
    const dow = new Date((cfg.windowStartS + d * DAY_S + DAY_S / 2) * 1000).getUTCDay();
    const trend = 0.9 + (0.2 * d) / Math.max(1, cfg.days - 1);
    return at(weekday, dow) * trend * (0.9 + 0.2 * rng.next());
  });
}

/** Share of orders/sessions that go to a rising product: 0 before the ramp, climbing to 30%. */
function risingShare(cfg: Config, tS: number): number {
  const rampStart = cfg.nowS - RISING_WINDOW_DAYS * DAY_S;
  if (tS < rampStart) return 0;
  return 0.3 * Math.pow((tS - rampStart) / (RISING_WINDOW_DAYS * DAY_S), 1.5);
}

/** Orders come mostly in North American evenings (UTC hours). */
const HOURLY = [
  1.0, 1.0, 0.95, 0.85, 0.65, 0.45, 0.3, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.85, 0.9, 0.9, 0.9, 0.95, 1.0, 1.0, 1.0,
];

/** A second in day slot d of the window, shaped by time of day (rejection sampling). */
function timeInDay(cfg: Config, rng: Rng, d: number): number {
  const lo = cfg.windowStartS + d * DAY_S;
  const hi = Math.min(lo + DAY_S - 1, cfg.nowS);
  let t = lo;
  for (let tries = 0; tries < 20; tries++) {
    t = rng.int(lo, hi);
    if (rng.next() < at(HOURLY, Math.floor((t % DAY_S) / 3600))) return t;
  }
  return t;
}

/** Splits `total` across days in proportion to the day factors, exactly (largest remainder). */
function perDayCounts(factors: number[], total: number): number[] {
  const sum = factors.reduce((a, b) => a + b, 0);
  const raw = factors.map((f) => (total * f) / sum);
  const counts = raw.map(Math.floor);
  let left = total - counts.reduce((a, b) => a + b, 0);
  const order = raw.map((r, i) => [r - Math.floor(r), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left-- <= 0) break;
    counts[i] = at(counts, i) + 1;
  }
  return counts;
}

/** Only products that existed at time t can be bought or viewed then. */
function existed(s: Shopper, p: number, tS: number): boolean {
  return p >= 0 && (s.catalogue.createdS[p] ?? Infinity) <= tS;
}

function pickPopular(s: Shopper, rng: Rng, tS: number, sampler: Sampler = s.global): number {
  for (let tries = 0; tries < 8; tries++) {
    const p = sampler.sample(rng);
    if (existed(s, p, tS)) return p;
  }
  return -1;
}

/** Another member of one of p's bundles: the co-purchase / co-view signal. */
function pickComplement(s: Shopper, rng: Rng, p: number, tS: number): number {
  const bundles = s.bundlesOf.get(p);
  if (!bundles) return -1;
  const others = at(s.bundles, rng.pick(bundles)).filter((q) => q !== p);
  if (others.length === 0) return -1;
  const q = rng.pick(others);
  return existed(s, q, tS) ? q : -1;
}

/** Same type, half the time also the same style (shoppers compare alternatives). */
function pickSimilar(s: Shopper, rng: Rng, p: number, tS: number): number {
  const type = s.catalogue.type[p] ?? 0;
  if (rng.chance(0.5)) {
    const pool = at(at(s.byTypeStyle, type), s.catalogue.style[p] ?? 0);
    const q = rng.pick(pool);
    return q !== p && existed(s, q, tS) ? q : -1;
  }
  const q = pickPopular(s, rng, tS, at(s.byType, type));
  return q !== p ? q : -1;
}

/** During the ramp, a growing share of baskets and sessions start from a rising product. */
function pickRisingProduct(s: Shopper, rng: Rng, tS: number): number {
  if (s.rising.length === 0 || !rng.chance(risingShare(s.cfg, tS))) return -1;
  return rng.pick(s.rising);
}

// ---------------------------------------------------------------------------
// Orders
// ---------------------------------------------------------------------------

const MAX_LINES = 5;

/** ~150 orders a day per 2,000 customers, 1–5 lines, ids increasing with time; generated a day at a time. */
function* generateOrders(cfg: Config, s: Shopper): Generator<DemoOrder, void, undefined> {
  const rng = stream(cfg.seed, "orders");
  const ids = new IdSequence(5_600_000_000_000, 5_000, rng);
  const perDay = perDayCounts(s.dayFactor, Math.round(cfg.customers * 0.075 * cfg.days));
  for (const [d, count] of perDay.entries()) {
    const times = Array.from({ length: count }, () => timeInDay(cfg, rng, d)).sort((a, b) => a - b);
    for (const tS of times) {
      const guest = rng.chance(0.15);
      const customer = guest ? -1 : s.customers.activity.sample(rng);
      const items = composeBasket(s, rng, tS, customer);
      if (items.length === 0) continue;
      // Field by field in this order: each draws from rng in turn.
      yield {
        id: ids.take(),
        created_at: iso(tS),
        customer: customer < 0 ? null : { id: s.customers.ids[customer]! },
        line_items: items.map((p) => orderLine(rng, s.catalogue, p)),
        cancelled_at: rng.chance(0.02) ? iso(Math.min(cfg.nowS, tS + rng.int(600, 2 * DAY_S))) : null,
      };
    }
  }
}

/**
 * What goes in one basket. ~45% of orders are (part of) a bundle; the rest start
 * from a popular product (leaning to the customer's department) and sometimes add
 * a complement, a similar item or another popular item.
 */
function composeBasket(s: Shopper, rng: Rng, tS: number, customer: number): number[] {
  const items: number[] = [];
  const add = (p: number): void => {
    if (p >= 0 && items.length < MAX_LINES && !items.includes(p) && existed(s, p, tS)) items.push(p);
  };
  add(pickRisingProduct(s, rng, tS));
  if (s.bundles.length > 0 && rng.chance(0.45)) {
    const members = rng.shuffle([...at(s.bundles, s.bundleSampler.sample(rng))]);
    const take = rng.int(2, members.length);
    members.slice(0, take).forEach(add);
    if (rng.chance(0.2)) add(pickPopular(s, rng, tS));
  } else {
    const leaning = customer >= 0 && rng.chance(0.4);
    const seed = pickPopular(s, rng, tS, leaning ? at(s.byDept, at(s.customers.dept, customer)) : s.global);
    add(seed);
    const extras = at([0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 3], rng.int(0, 11));
    for (let e = 0; e < extras && seed >= 0; e++) {
      const r = rng.next();
      add(r < 0.4 ? pickComplement(s, rng, seed, tS) : r < 0.65 ? pickSimilar(s, rng, seed, tS) : pickPopular(s, rng, tS));
    }
  }
  if (items.length === 0) add(pickPopular(s, rng, tS));
  return items;
}

function orderLine(rng: Rng, catalogue: Catalogue, p: number): DemoOrderLine {
  const variants = at(catalogue.variants, p);
  const v = pickVariant(rng, at(catalogue.variantCumulative, p));
  const r = rng.next();
  return {
    product_id: catalogue.ids[p]!,
    variant_id: variants.ids[v]!,
    quantity: r < 0.85 ? 1 : r < 0.95 ? 2 : rng.int(3, 4),
    price: at(variants.prices, v),
  };
}

function pickVariant(rng: Rng, cumulativeWeights: number[]): number {
  const total = cumulativeWeights[cumulativeWeights.length - 1] ?? 0;
  const target = rng.next() * total;
  const i = cumulativeWeights.findIndex((c) => c > target);
  return i < 0 ? 0 : i;
}

// ---------------------------------------------------------------------------
// Markets
// ---------------------------------------------------------------------------

/**
 * Canada and the UK with local price lists for part of the catalogue, plus an
 * inactive Canadian market with different prices: code that ignores `active`
 * (or takes the last match) shows the wrong price.
 */
function buildMarkets(cfg: Config, products: DemoProduct[]): DemoMarket[] {
  const rng = stream(cfg.seed, "markets");
  return [
    market(
      { id: 1, name: "Canada", active: true, countries: ["CA"], currency: "CAD", rate: 1.35 },
      products.filter(() => rng.chance(0.9)),
    ),
    market(
      { id: 2, name: "United Kingdom", active: true, countries: ["GB"], currency: "GBP", rate: 0.79 },
      products.filter(() => rng.chance(0.8)),
    ),
    // product_ids null: the whole catalogue, which also exercises that branch of ingest.
    market({ id: 3, name: "Canada Wholesale", active: false, countries: ["CA"], currency: "CAD", rate: 1.1 }, products, true),
  ];
}

interface MarketSpec {
  id: number;
  name: string;
  active: boolean;
  countries: string[];
  currency: string;
  /** Local price ≈ USD price × rate. */
  rate: number;
}

/** A market with a local price for every variant of every product it sells. */
function market(spec: MarketSpec, catalogue: DemoProduct[], wholeCatalogue = false): DemoMarket {
  const variantPrices: Record<string, DemoVariantPrice> = {};
  for (const product of catalogue) {
    for (const v of product.variants) {
      const price = convertCents(toCentsExact(v.price), spec.rate);
      const compare = v.compare_at_price === null ? null : convertCents(toCentsExact(v.compare_at_price), spec.rate);
      variantPrices[String(v.id)] = {
        price: formatCents(price),
        compare_at_price: compare !== null && compare > price ? formatCents(compare) : null,
      };
    }
  }
  const { id, name, active, countries, currency } = spec;
  return {
    id,
    name,
    active,
    countries,
    currency,
    product_ids: wholeCatalogue ? null : catalogue.map((p) => p.id),
    variant_prices: variantPrices,
  };
}

function toCentsExact(price: string): number {
  return Math.round(Number(price) * 100);
}

/** Local retail endings: under 100 ends in .99, above rounds to a whole .00. */
function convertCents(cents: number, rate: number): number {
  const raw = cents * rate;
  if (raw >= 10_000) return Math.round(raw / 100) * 100;
  return Math.max(99, Math.ceil(raw / 100) * 100 - 1);
}

// ---------------------------------------------------------------------------
// Browsing sessions
// ---------------------------------------------------------------------------

/** Views per session: MIN_VIEWS to MAX_VIEWS, skewed towards few. */
const MIN_VIEWS = 2;
const MAX_VIEWS = 12;
/** Pauses within a session in ms: from a view to adding to the cart, from adding to removing, and on to the next view. */
const ADD_AFTER_MS = { min: 2_000, max: 20_000 } as const;
const REMOVE_AFTER_MS = { min: 5_000, max: 60_000 } as const;
const NEXT_VIEW_AFTER_MS = { min: 5_000, max: 180_000 } as const;
/**
 * A bound on a session's length, first event to last: as if every view were
 * followed by an add, a remove and the longest pause (the last view's pause is
 * not even part of the session).
 */
const MAX_SESSION_MS = MAX_VIEWS * (ADD_AFTER_MS.max + REMOVE_AFTER_MS.max + NEXT_VIEW_AFTER_MS.max);

const byTime = (a: BehaviourEvent, b: BehaviourEvent): number => a.at - b.at;

/**
 * Sessions of 2–12 views in time order that wander along the same structure as
 * baskets (complements, alternatives of the same type, popular items), with the
 * odd add/remove. Yielded sorted by time, as a live stream would arrive: the
 * order of one stable sort of every event by `at`, holding about a day of events
 * at a time rather than all of them.
 *
 * After each day, the events below that day's floor (see laterEventsFloor) are
 * final: no event generated later can sort before them. The rest wait, sorted,
 * and the next day's events are appended behind them before sorting again.
 * That reproduces the one big sort (Array.prototype.sort is stable): an event
 * waiting from earlier days was also generated earlier, so among equal times it
 * stays in front, exactly where the big sort keeps it.
 */
function* generateEvents(cfg: Config, s: Shopper): Generator<BehaviourEvent, void, undefined> {
  let waiting: BehaviourEvent[] = [];
  let day = 0;
  for (const dayEvents of eventsByDay(cfg, s)) {
    waiting = waiting.concat(dayEvents).sort(byTime);
    const final = countEarlier(waiting, laterEventsFloor(cfg, day++));
    yield* waiting.slice(0, final);
    waiting = waiting.slice(final);
  }
  yield* waiting;
}

/**
 * The earliest time an event generated for a day after `day` can have.
 *  - A later day's session starts no earlier than that day's first second
 *    (timeInDay), and browse only moves forward from the start.
 *  - A session that would end after now is shifted back to end at now, which
 *    puts its first event at now minus its length, after now - MAX_SESSION_MS.
 *    (Only the last day's sessions can reach now, and after the last day
 *    everything is yielded anyway; the bound just does not depend on that.)
 *  - Clamping to the window start only moves events later.
 * Events equal to the floor could be final too; strictly below is simply safe.
 */
function laterEventsFloor(cfg: Config, day: number): number {
  const nextDayStartMs = (cfg.windowStartS + (day + 1) * DAY_S) * 1000;
  return Math.min(nextDayStartMs, cfg.nowMs - MAX_SESSION_MS);
}

/** How many of these events, sorted by time, are earlier than `time` (binary search). */
function countEarlier(sorted: readonly BehaviourEvent[], time: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (at(sorted, mid).at < time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Each day's events in generation order: its sessions by start time, each session's events kept inside [now - days, now]. */
function* eventsByDay(cfg: Config, s: Shopper): Generator<BehaviourEvent[], void, undefined> {
  const rng = stream(cfg.seed, "sessions");
  const windowStartMs = cfg.nowMs - cfg.days * DAY_MS;
  for (const [d, count] of perDayCounts(s.dayFactor, cfg.sessions).entries()) {
    // Starting sessions in time order leaves the sort only short overlaps to fix.
    const starts = Float64Array.from({ length: count }, () => timeInDay(cfg, rng, d)).sort();
    const events: BehaviourEvent[] = [];
    for (const startS of starts) {
      const session = browse(s, rng, startS, startS * 1000 + rng.int(0, 999));
      // Keep the whole session inside [now - days, now].
      const last = session[session.length - 1]?.at ?? 0;
      const shift = Math.max(0, last - cfg.nowMs);
      for (const e of session) {
        e.at = Math.max(windowStartMs, e.at - shift);
        events.push(e);
      }
    }
    yield events;
  }
}

function browse(s: Shopper, rng: Rng, startS: number, startMs: number): BehaviourEvent[] {
  const uuid = rng.uuid();
  const customer = rng.chance(0.1) ? s.customers.activity.sample(rng) : -1;
  const customerId = customer < 0 ? null : s.customers.ids[customer]!;
  const views = MIN_VIEWS + Math.floor(Math.pow(rng.next(), 1.8) * (MAX_VIEWS - MIN_VIEWS + 1));
  const events: BehaviourEvent[] = [];
  const emit = (verb: BehaviourEvent["verb"], p: number, atMs: number): void => {
    events.push({ at: atMs, uuid, customer_id: customerId, verb, product_id: s.catalogue.ids[p]!, theme_id: null });
  };

  let t = startMs;
  let current = pickRisingProduct(s, rng, startS);
  if (current < 0) {
    const leaning = customer >= 0 && rng.chance(0.4);
    current = pickPopular(s, rng, startS, leaning ? at(s.byDept, at(s.customers.dept, customer)) : s.global);
  }
  if (current < 0) return events;
  for (let v = 0; v < views; v++) {
    emit("viewed", current, t);
    if (rng.chance(0.1)) {
      t += rng.int(ADD_AFTER_MS.min, ADD_AFTER_MS.max);
      emit("added", current, t);
      if (rng.chance(0.15)) {
        t += rng.int(REMOVE_AFTER_MS.min, REMOVE_AFTER_MS.max);
        emit("removed", current, t);
      }
    }
    t += rng.int(NEXT_VIEW_AFTER_MS.min, NEXT_VIEW_AFTER_MS.max);
    const r = rng.next();
    const tS = Math.floor(t / 1000);
    let next = r < 0.4 ? pickComplement(s, rng, current, tS) : r < 0.75 ? pickSimilar(s, rng, current, tS) : -1;
    if (next < 0) next = pickPopular(s, rng, tS);
    // Nothing found (tiny catalogue): the shopper looks at the same product again.
    if (next >= 0) current = next;
  }
  return events;
}
