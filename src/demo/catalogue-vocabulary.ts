// The catalogue's vocabulary, pure data: departments and their vendors, styles
// and their palettes, product types with their option, price and copy ranges,
// and the bundle templates that tie complementary types together.

/** Departments, as indices into VENDORS. */
export const APPAREL = 0;
export const OUTDOOR = 1;
export const HOME = 2;

export const VENDORS: readonly (readonly string[])[] = [
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
export interface StyleSpec {
  name: string;
  look: string;
  season: string;
  colors: readonly string[];
  pitch: string;
}

export const STYLES: readonly StyleSpec[] = [
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
export const COLOR_CODES: Readonly<Record<string, string>> = {
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

export interface SizeSpec {
  name: string;
  code: string;
  /** Extra cents over the product's base price. */
  upcharge: number;
}

type OptionMode = "size-color" | "size" | "color" | "default";

export interface TypeSpec {
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

export const TYPES: readonly TypeSpec[] = [
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
export const BUNDLE_TEMPLATES: readonly { types: readonly string[]; weight: number }[] = [
  { types: ["Tent", "Sleeping Mat", "Lantern"], weight: 3 },
  { types: ["Jacket", "Backpack", "Water Bottle"], weight: 3 },
  { types: ["Hoodie", "Beanie", "Socks"], weight: 4 },
  { types: ["T-Shirt", "Socks"], weight: 3 },
  { types: ["Mug", "Candle"], weight: 3 },
  { types: ["Sofa", "Lamp", "Blanket"], weight: 2 },
  { types: ["Candle", "Blanket", "Mug"], weight: 3 },
];

export const IMAGE_SIZES: readonly (readonly [number, number])[] = [
  [2048, 2048],
  [1600, 2000],
  [2000, 2000],
  [1200, 1500],
  [2400, 1600],
  [1080, 1350],
];

/** Product-line words; they widen the title space so big catalogues are not mostly "-2", "-3" handles. */
export const LINES = [
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
