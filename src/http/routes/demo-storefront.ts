// The demo storefront at /demo, served while the data dir has the demo
// merchant: one HTML page for every storefront path (the page's script draws
// the home, product, collection and cart pages on the typed client), its
// compiled scripts and style, and the catalogue's images drawn as SVG.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { imageColour, placeholderSvg } from "../../core/placeholder-image.js";
import type { Merchant } from "../../core/types.js";
import { ApiError } from "../../errors.js";
import { quoted } from "../request.js";
import type { Reply } from "../respond.js";
import type { Route } from "../router.js";
import type { Services } from "../services.js";

/** The repository: two folders up from src/http/routes/ when run from source, three from dist/. */
const ROOT = fileURLToPath(new URL(import.meta.url.endsWith(".ts") ? "../../../" : "../../../../", import.meta.url));

/** Where each served folder's files are: scripts as compiled, the style and page as written. */
const ASSET_FOLDERS = [
  { url: "storefront", dir: join(ROOT, "dist", "storefront"), ext: ".js" },
  { url: "client/src", dir: join(ROOT, "dist", "client", "src"), ext: ".js" },
  { url: "storefront", dir: join(ROOT, "storefront"), ext: ".css" },
];
const PAGE_FILE = join(ROOT, "storefront", "index.html");

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

interface Asset {
  /** From the asset base: "storefront/app.js". */
  path: string;
  body: Buffer;
  /** The body gzipped once, for every browser that takes gzip (a third of the bytes). */
  gzipped: Buffer;
  contentType: string;
}

interface Assets {
  /** Changes with any asset's bytes: their URLs carry it, so browsers may keep them for good. */
  build: string;
  files: Asset[];
  page: string;
}

function readAssets(): Assets | null {
  if (!existsSync(PAGE_FILE) || !ASSET_FOLDERS.every(({ dir }) => existsSync(dir))) return null;
  const files = ASSET_FOLDERS.flatMap(({ url, dir, ext }) =>
    readdirSync(dir)
      .filter((name) => name.endsWith(ext))
      .sort()
      .map((name) => {
        const body = readFileSync(join(dir, name));
        return { path: `${url}/${name}`, body, gzipped: gzipSync(body, { level: 9 }), contentType: CONTENT_TYPES[ext]! };
      }),
  );
  const hash = createHash("sha256");
  for (const file of files) hash.update(file.path).update(file.body);
  return { build: hash.digest("hex").slice(0, 12), files, page: readFileSync(PAGE_FILE, "utf8") };
}

function escapeHtml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The page only loads what aisle serves: its own scripts, style and images (and an empty icon), and calls to this origin. */
const PAGE_HEADERS = {
  "Cache-Control": "no-cache",
  "Content-Security-Policy":
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; base-uri 'none'; form-action 'self'",
  "X-Content-Type-Options": "nosniff",
};

function page(assets: Assets, merchant: Merchant): Reply {
  const base = `/demo/assets/${assets.build}`;
  // Every module up front: the browser fetches them in parallel instead of one import level at a time.
  const preloads = assets.files
    .filter((file) => file.path.endsWith(".js"))
    .map((file) => `<link rel="modulepreload" href="${base}/${file.path}">`)
    .join("\n    ");
  const values: Record<string, string> = {
    shop: escapeHtml(merchant.name),
    key: escapeHtml(merchant.api_key),
    currency: escapeHtml(merchant.currency),
    assets: base,
    preloads,
  };
  const html = assets.page.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? "");
  return { status: 200, body: html, contentType: "text/html; charset=utf-8", headers: PAGE_HEADERS };
}

function getRoute(pattern: string, handle: Route["handle"]): Route {
  return { method: "GET", pattern, cors: false, readsBody: false, errorStyle: "message", handle };
}

/** The demo storefront's routes; `demoMerchantId` is null when the data dir has no demo merchant. */
export function demoStorefrontRoutes(services: Services, demoMerchantId: string | null): Route[] {
  const { store } = services;
  const assets = readAssets();
  const demoMerchant = (): Merchant => {
    const merchant = demoMerchantId === null ? undefined : store.catalogue.merchant(demoMerchantId);
    if (!merchant)
      throw new ApiError("not_found", "This data dir has no demo merchant: the demo storefront is shown where aisle seeded it");
    return merchant;
  };
  const pageRoute = (pattern: string) =>
    getRoute(pattern, () => {
      const merchant = demoMerchant();
      if (!assets) throw new ApiError("not_found", "The demo storefront is not built: run npm run build");
      return page(assets, merchant);
    });
  const assetRoutes = (assets?.files ?? []).map((file): Route => ({
    ...getRoute(`/demo/assets/${assets!.build}/${file.path}`, (request) => {
      const gzip = /\bgzip\b/.test(request.headers["accept-encoding"] ?? "");
      return {
        status: 200,
        body: gzip ? file.gzipped : file.body,
        contentType: file.contentType,
        headers: {
          "Cache-Control": "public, max-age=31536000, immutable",
          "X-Content-Type-Options": "nosniff",
          Vary: "Accept-Encoding",
          ...(gzip ? { "Content-Encoding": "gzip" } : {}),
        },
      };
    }),
    readsHeaders: ["accept-encoding"],
  }));
  return [
    pageRoute("/demo"),
    pageRoute("/demo/cart"),
    pageRoute("/demo/products/:handle"),
    pageRoute("/demo/collections/:id"),
    ...assetRoutes,
    // The catalogue's image addresses end in <handle>-<position>.jpg; the page asks for <handle>-<position>.svg.
    getRoute("/demo/images/:file", (request) => {
      const merchant = demoMerchant();
      const match = /^([\w-]+)-(\d{1,3})\.svg$/.exec(request.params.file ?? "");
      const id = match ? store.catalogue.productIdByHandle(merchant.id, match[1]!) : undefined;
      const product = id === undefined ? undefined : store.catalogue.product(merchant.id, id);
      const image = product?.images.find((candidate) => candidate.position === Number(match![2]));
      if (!product || !image) throw new ApiError("not_found", `No image ${quoted(request.params.file ?? "")}`);
      const svg = placeholderSvg({
        productType: product.product_type,
        colour: imageColour(product, image.position),
        width: image.width,
        height: image.height,
      });
      return {
        status: 200,
        body: svg,
        contentType: "image/svg+xml",
        headers: { "Cache-Control": "public, max-age=86400", "X-Content-Type-Options": "nosniff" },
      };
    }),
  ];
}
