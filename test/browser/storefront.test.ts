// The demo storefront in a real browser: Debian's chromium driven by
// playwright-core, against a service that seeded the demo shop. Each page's
// screenshot, and what the home page weighs on a first load, are written to
// test-artifacts/storefront/ (ignored by git).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../client/src/index.js";
import { eventually, startTestService, type TestService } from "../helpers/service.js";

const CHROMIUM = process.env.AISLE_CHROMIUM ?? "/usr/bin/chromium";
const ARTIFACTS = join("test-artifacts", "storefront");

// Playwright gives each launch a fresh profile of its own (--user-data-dir in a new temp dir).
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

let t: TestService;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`No chromium at ${CHROMIUM}: apt-get install -y chromium (or set AISLE_CHROMIUM)`);
  mkdirSync(ARTIFACTS, { recursive: true });
  [t, browser] = await Promise.all([startTestService({ demo: true }), chromium.launch({ executablePath: CHROMIUM, args: FLAGS })]);
  // As a storefront's traffic would: once the service says it answers in full (the demo's first rankings stored).
  await eventually(async () => expect((await fetch(`${t.base}/readyz`)).status).toBe(200), 60_000);
});
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

/**
 * A new shopper: a context of its own, so storage (session uuid, cart) starts
 * empty. `leave` checks that the pages logged no error (a failed load, an
 * exception) and closes the context.
 */
async function shopper(): Promise<{ page: Page; leave: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  return {
    page,
    async leave() {
      expect(errors).toEqual([]);
      await context.close();
    },
  };
}

/** Waits until the widget answered (loaded, or empty), and returns the handles it shows. */
async function widgetHandles(page: Page, name: string): Promise<string[]> {
  const widget = page.locator(`[data-widget="${name}"]`);
  await widget.and(page.locator('[data-state="loaded"], [data-state="empty"]')).waitFor();
  return widget.locator(".card").evaluateAll((cards) => cards.map((card) => card.getAttribute("data-handle") ?? ""));
}

async function screenshot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

describe("the demo storefront at /demo", () => {
  it("shows trending and top sellers on the home page; its first load's weight is recorded", async () => {
    const { page, leave } = await shopper();
    const transfers: { url: string; bytes: number }[] = [];
    page.on("requestfinished", (request) => {
      void request
        .sizes()
        .then((sizes) => transfers.push({ url: request.url(), bytes: sizes.responseHeadersSize + sizes.responseBodySize }));
    });
    await page.goto(`${t.base}/demo`);
    expect(await widgetHandles(page, "trending")).toHaveLength(6);
    expect(await widgetHandles(page, "top-sellers")).toHaveLength(6);
    // The first card's picture arrived and was decoded: an SVG aisle drew for the demo catalogue.
    await expect
      .poll(() =>
        page
          .locator(".card img")
          .first()
          .evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth),
      )
      .toBeGreaterThan(0);
    await screenshot(page, "home");
    const kind = (url: string) => {
      const path = new URL(url).pathname;
      if (path.startsWith("/api/")) return "api";
      if (path.startsWith("/demo/images/")) return "images";
      if (path.startsWith("/demo/assets/")) return path.endsWith(".css") ? "css" : "js";
      return "html";
    };
    const byKind: Record<string, { requests: number; bytes: number }> = {};
    for (const { url, bytes } of transfers) {
      const entry = (byKind[kind(url)] ??= { requests: 0, bytes: 0 });
      entry.requests++;
      entry.bytes += bytes;
    }
    const total = transfers.reduce((sum, { bytes }) => sum + bytes, 0);
    writeFileSync(
      join(ARTIFACTS, "home-weight.json"),
      `${JSON.stringify({ totalBytes: total, requests: transfers.length, byKind }, null, 2)}\n`,
    );
    console.log(`demo home page, first load: ${total} bytes in ${transfers.length} requests`, byKind);
    expect(byKind.api?.requests).toBe(2);
    await leave();
  });

  it("finds the right product for a misspelt query, and opens it from the keyboard", async () => {
    const { page, leave } = await shopper();
    await page.goto(`${t.base}/demo`);
    const box = page.getByRole("combobox", { name: "Search products" });
    await box.pressSequentially("ember lantren", { delay: 40 });
    const first = page.getByRole("option").first();
    await expect.poll(() => first.textContent()).toContain("Ember LED Lantern");
    // The typo tolerance, shown: what was searched for.
    await expect.poll(() => page.locator("#search-note").textContent()).toBe("Showing results for “ember lantern”");
    expect(await page.getByRole("group", { name: "Collections" }).count()).toBeLessThanOrEqual(1);
    await screenshot(page, "search");
    await box.press("ArrowDown");
    expect(await first.getAttribute("aria-selected")).toBe("true");
    expect(await box.getAttribute("aria-activedescendant")).toBe(await first.getAttribute("id"));
    await box.press("Enter");
    await page.waitForURL(`${t.base}/demo/products/ember-led-lantern`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Ember LED Lantern");
    await leave();
  });

  it("shows a product page with its bought-together, similar and viewed-related widgets", async () => {
    const { page, leave } = await shopper();
    await page.goto(`${t.base}/demo/products/harbor-merino-hoodie`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Harbor Merino Hoodie");
    expect(await widgetHandles(page, "recommended")).toHaveLength(6);
    const similar = await widgetHandles(page, "similar");
    expect(similar).toHaveLength(6);
    expect(similar).not.toContain("harbor-merino-hoodie");
    expect((await widgetHandles(page, "viewed-related")).length).toBeGreaterThan(0);
    await screenshot(page, "product");
    await leave();
  });

  it("says Not found for a handle the shop lacks or that could be none, with no uncaught error", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // Only uncaught errors: the refused view of a missing product is a 400 the browser logs as a failed load.
    const uncaught: string[] = [];
    page.on("pageerror", (error) => uncaught.push(error.message));
    for (const handle of ["no-such-product", "a%2Fb"]) {
      await page.goto(`${t.base}/demo/products/${handle}`);
      await page.getByRole("heading", { level: 1, name: "Not found" }).waitFor();
      await page.waitForLoadState("networkidle");
    }
    expect(uncaught).toEqual([]);
    await context.close();
  });

  it("changes viewed and viewed-related as a shopper views three products", async () => {
    const { page, leave } = await shopper();
    const handles = ["ember-led-lantern", "harbor-merino-hoodie", "coastal-ceramic-mug"];
    const seen: { viewed: string[]; related: string[] }[] = [];
    for (const handle of handles) {
      await page.goto(`${t.base}/demo/products/${handle}`);
      seen.push({ viewed: await widgetHandles(page, "viewed"), related: await widgetHandles(page, "viewed-related") });
    }
    // Most recent first, the page's own product left out.
    expect(seen.map(({ viewed }) => viewed)).toEqual([[], ["ember-led-lantern"], ["harbor-merino-hoodie", "ember-led-lantern"]]);
    expect(seen[2]!.related).not.toEqual(seen[0]!.related);
    for (const { related } of seen) for (const handle of handles) expect(related).not.toContain(handle);
    await leave();
  });

  it("adds to cart: the count, the added event, the cart page and its complete-the-look widget", async () => {
    const { page, leave } = await shopper();
    await page.goto(`${t.base}/demo/products/coastal-ceramic-mug`);
    await page.getByRole("button", { name: "Add to cart" }).click();
    await expect.poll(() => page.locator("#cart-count").textContent()).toBe("1");
    await expect.poll(() => page.locator("#announcer").textContent()).toBe("Added Coastal Ceramic Mug to the cart");
    // The event went by beacon; aisle has it under the page's session.
    const uuid = (await page.evaluate('localStorage.getItem("aisle.session")')) as string | null;
    const key = await page.locator('meta[name="aisle-key"]').getAttribute("content");
    const client = createClient({ baseUrl: t.base, key: key! });
    await eventually(async () => {
      const added = await client.viewedProducts({ uuid: uuid!, verb: "added" });
      expect(added.data.map((product) => product.handle)).toEqual(["coastal-ceramic-mug"]);
    });
    await page.getByRole("link", { name: "Cart (1)" }).click();
    await page.waitForURL(`${t.base}/demo/cart`);
    await page.locator('.cart-line[data-handle="coastal-ceramic-mug"]').waitFor();
    const look = await widgetHandles(page, "complete-the-look");
    expect(look.length).toBeGreaterThan(0);
    expect(look).not.toContain("coastal-ceramic-mug");
    await screenshot(page, "cart");
    await leave();
  });
});
