// Product images for the demo storefront, drawn instead of fetched: the demo
// catalogue's image addresses name a host that serves nothing. One SVG per
// product type and colour: the colour as the picture, the type as its label.

/** The demo catalogue's colour names (and common ones), as sRGB. */
const PALETTE: Readonly<Record<string, string>> = {
  Amber: "#c98a1b",
  Black: "#1f1f1f",
  Blush: "#e8b4b0",
  Charcoal: "#3b3f44",
  Clay: "#a86b52",
  Cobalt: "#1f4fa3",
  Copper: "#b06a3b",
  Cream: "#f1e7d0",
  Fog: "#c9ccce",
  Forest: "#2f5d3a",
  Grey: "#8a8d91",
  Indigo: "#34386e",
  Lavender: "#b5a6d6",
  Lime: "#9cc43a",
  Moss: "#6b7a3c",
  Navy: "#1d2b4f",
  Oatmeal: "#d8cbb0",
  Ochre: "#c7912f",
  Olive: "#6f6a34",
  Orange: "#e06a1f",
  Red: "#b8302a",
  Rust: "#a3472a",
  Sage: "#9caf8f",
  Sand: "#d9c7a3",
  Seafoam: "#8fc9b4",
  Sky: "#8fbfe0",
  Slate: "#56606b",
  Terracotta: "#c0603f",
  White: "#f5f3ef",
};

/** A product without colours is drawn in a neutral tone. */
const NEUTRAL = "#d6d1c7";

/** Only the palette's own names: a product's colour is the merchant's text, and "constructor" is in every object. */
export function knownColour(name: string): boolean {
  return Object.hasOwn(PALETTE, name);
}

/** A colour name aisle has no tone for still gets a steady one of its own. */
function tone(colour: string | null): string {
  if (colour === null) return NEUTRAL;
  if (knownColour(colour)) return PALETTE[colour]!;
  let hash = 0;
  for (const char of colour) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `hsl(${hash % 360} 45% 55%)`;
}

/** Dark text on light tones, light text on dark ones (relative luminance of the sRGB hex). */
function textOn(background: string): string {
  const match = /^#(..)(..)(..)$/.exec(background);
  if (!match) return "#1f1f1f";
  const [r, g, b] = match.slice(1).map((hex) => {
    const c = parseInt(hex, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b! > 0.35 ? "#1f1f1f" : "#ffffff";
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** What imageColour reads of a product (a stored one, or one the demo generator made). */
export interface ImagedProduct {
  options: readonly { name: string; values: readonly string[] }[];
  images: readonly { position: number; variant_ids: readonly number[] }[];
  variants: readonly { id: number; option1: string | null; option2: string | null; option3: string | null }[];
}

/** The colour of a product's image: the colour option's value of the variants it shows, else the first colour. */
export function imageColour(product: ImagedProduct, imagePosition: number): string | null {
  const option = product.options.find((candidate) => /^colou?r$/i.test(candidate.name));
  if (!option) return null;
  const slot = `option${product.options.indexOf(option) + 1}` as "option1" | "option2" | "option3";
  const image = product.images.find((candidate) => candidate.position === imagePosition);
  const shown = product.variants.find((variant) => image?.variant_ids.includes(variant.id));
  return shown?.[slot] ?? option.values[0] ?? null;
}

export interface Placeholder {
  productType: string;
  colour: string | null;
  width: number;
  height: number;
}

export function placeholderSvg({ productType, colour, width, height }: Placeholder): string {
  const w = width > 0 ? width : 800;
  const h = height > 0 ? height : 800;
  const background = tone(colour);
  const ink = textOn(background);
  const label = escapeXml(productType || "Product");
  // As large as fits (about 0.6 em a character) in 70% of the centred square, which survives any crop to a portrait card.
  const size = Math.round(Math.min(h / 9, (Math.min(w, h) * 0.7) / (0.6 * Math.max(4, (productType || "Product").length))));
  const caption =
    colour === null
      ? ""
      : `<text x="50%" y="${Math.round(h / 2 + size * 1.2)}" font-size="${Math.round(size / 2)}" opacity=".8">${escapeXml(colour)}</text>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${label}">` +
    `<rect width="100%" height="100%" fill="${background}"/>` +
    `<g fill="${ink}" font-family="system-ui, sans-serif" text-anchor="middle">` +
    `<text x="50%" y="${Math.round(h / 2)}" font-size="${size}" font-weight="600">${label}</text>${caption}</g></svg>`
  );
}
