// A data dir written by the last build before the derived stores existed
// (store format 6: catalogue, orders, counts, histories and the event log, and
// no stored product JSON, starter vectors, search index, session index or
// stored rankings) opens with this build, gets its derived stores built, and
// then answers every endpoint with the same bytes as a data dir this build
// wrote from the same records and events. The fixture is a small demo shop;
// test/fixtures/format-6-demo/README.md says how it was made.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BehaviourEvent, Merchant } from "../../src/core/types.js";
import { ingest, MAX_BATCH_ITEMS, type IngestKind } from "../../src/ingest/ingest.js";
import { readPage } from "../../src/ingest/read-back.js";
import type { Logger } from "../../src/main.js";
import { Store } from "../../src/stores/store.js";
import { eventually, startTestService, type TestService } from "../helpers/service.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const FIXTURE = join("test", "fixtures", "format-6-demo");
const MERCHANT = "demo";
/** Kinds in an order where every reference points back. */
const KINDS: IngestKind[] = ["products", "collections", "markets", "customers", "orders"];
const tempDir = tempDirs("aisle-format-6-");
/** The fixture's events and orders are of a fixed past: kept whatever today's date, so histories and sessions stay to compare. */
const KEEP_EVERYTHING = { days: 100_000, sessionDays: 100_000, maxSessions: 1_000_000 };

/** What the fixture holds, read through this build's store after the upgrade on open. */
interface ShopContents {
  merchant: Merchant;
  records: Map<IngestKind, unknown[]>;
  events: BehaviourEvent[];
}

function unpackFixture(): string {
  const dir = tempDir();
  mkdirSync(dir, { recursive: true });
  for (const file of ["aisle.lmdb", "events.lmdb"]) writeFileSync(join(dir, file), gunzipSync(readFileSync(join(FIXTURE, `${file}.gz`))));
  return dir;
}

async function readContents(dataDir: string): Promise<ShopContents> {
  const store = Store.open(dataDir, { mustExist: true });
  try {
    const records = new Map<IngestKind, unknown[]>();
    for (const kind of KINDS) {
      const all: unknown[] = [];
      let after: number | null = null;
      do {
        const page = readPage(store, MERCHANT, kind, after, 250);
        all.push(...page.data);
        after = page.next === null ? null : Number(page.next);
      } while (after !== null);
      records.set(kind, all);
    }
    const events = [...store.events.eventsSince(MERCHANT, 0)].map(({ event }) => event);
    return { merchant: store.catalogue.merchant(MERCHANT)!, records, events };
  } finally {
    await store.close();
  }
}

/** The same shop written by this build: the same merchant, records through ingest, events through the log. */
async function writeFresh(contents: ShopContents): Promise<string> {
  const dir = tempDir();
  const store = Store.open(dir);
  try {
    await store.catalogue.createMerchant(contents.merchant);
    for (const kind of KINDS) {
      const items = contents.records.get(kind)!;
      for (let start = 0; start < items.length; start += MAX_BATCH_ITEMS)
        await ingest(store, MERCHANT, kind, items.slice(start, start + MAX_BATCH_ITEMS));
    }
    await store.applied.appendEvents(MERCHANT, contents.events);
  } finally {
    await store.close();
  }
  return dir;
}

/** A service over a data dir, and a promise that settles once its similar-products model is trained. */
async function serve(dataDir: string): Promise<{ t: TestService; trained: Promise<void> }> {
  let settle!: () => void;
  const trained = new Promise<void>((resolve) => (settle = resolve));
  const logger: Logger = {
    debug: () => {},
    info: (message) => {
      if (message === "similar-products model trained") settle();
    },
    warn: () => {},
    error: (message, fields) => console.error(message, fields),
  };
  const t = await startTestService({ dataDir, logger, config: { retention: KEEP_EVERYTHING } });
  await eventually(async () => expect((await fetch(`${t.base}/readyz`)).status).toBe(200), 60_000);
  return { t, trained };
}

interface Answer {
  status: number;
  /** The body without what differs by when it was computed (cache stamps). */
  body: { data?: { handle: string }[] };
}

/** The same request to both services, each with its own key. */
async function bothAnswer(request: (t: TestService, key: string) => Promise<Response>): Promise<[Answer, Answer]> {
  const answer = async (t: TestService): Promise<Answer> => {
    const response = await request(t, t.service.services.store.catalogue.merchant(MERCHANT)!.api_key);
    const body = JSON.parse(await response.text(), (key, value: unknown) => (key === "cache_info" ? undefined : value)) as Answer["body"];
    return { status: response.status, body };
  };
  return Promise.all([answer(upgraded), answer(fresh)]);
}

let contents: ShopContents;
let upgraded: TestService;
let fresh: TestService;

beforeAll(async () => {
  const fixture = unpackFixture();
  contents = await readContents(fixture);
  const freshDir = await writeFresh(contents);
  const [a, b] = await Promise.all([serve(fixture), serve(freshDir)]);
  [upgraded, fresh] = [a.t, b.t];
  await Promise.all([a.trained, b.trained]);
}, 180_000);

afterAll(async () => {
  await upgraded?.stop();
  await fresh?.stop();
});

describe("a format-6 data dir", () => {
  it("holds the shop the fixture was made from", () => {
    expect(contents.records.get("products")).toHaveLength(80);
    expect(contents.records.get("orders")).toHaveLength(270);
    expect(contents.events).toHaveLength(1_800);
  });

  it("answers every endpoint as a data dir this build wrote from the same records and events", async () => {
    const products = contents.records.get("products") as { id: number; handle: string }[];
    const orders = contents.records.get("orders") as { customer: { id: number } | null }[];
    const customer = orders.find((order) => order.customer !== null)!.customer!.id;
    const uuid = contents.events.find((event) => event.uuid !== null)!.uuid!;
    const ids = products.slice(0, 6).map((product) => product.id);
    const paths = [
      `/api/v1/products/static?ids=${ids.join(",")}`,
      `/api/v1/products/static?platform_collection_id=${(contents.records.get("collections") as { id: number }[])[0]!.id}&limit=20`,
      ...ids.slice(0, 3).map((id) => `/api/v1/products/recommended?platform_product_ids=${id}&limit=10`),
      ...ids.slice(0, 3).map((id) => `/api/v1/products/similar_products?platform_product_ids=${id}&limit=10`),
      `/api/v1/products/trending_products?limit=20`,
      // The longest window: the fixture's orders stay in it for most of a year after they were made.
      `/api/v1/products/top_sellers?limit=20&window_days=365`,
      `/api/v1/products/top_sellers?limit=20`,
      `/api/v1/products/viewed?uuid=${uuid}`,
      `/api/v1/products/viewed-related?uuid=${uuid}&limit=10`,
      `/api/v1/products/purchased?platform_customer_id=${customer}`,
    ];
    const handles = (answer: Answer) => answer.body.data?.map((product) => product.handle).join(" ");
    for (const path of paths) {
      const [before, after] = await bothAnswer((t, key) => fetch(`${t.base}${path}&key=${key}`));
      expect(before.status, path).toBe(200);
      expect(before.body.data?.length, path).toBeGreaterThan(0);
      // The handles first: a difference in order reads better than a diff of whole products.
      expect(handles(before), path).toBe(handles(after));
      expect(before, path).toEqual(after);
    }
    const titles = products.map((product) => (product as unknown as { title: string }).title);
    for (const query of [titles[0]!.split(" ")[0]!, titles[1]!.slice(0, 4), "zzqx"]) {
      const [before, after] = await bothAnswer((t, key) =>
        fetch(`${t.base}/api/v1/smart-search/search/quick-view`, {
          method: "POST",
          headers: { "Service-Api-Key": key, "Content-Type": "application/json" },
          body: JSON.stringify({ query, limit: 8 }),
        }),
      );
      expect(before.status, query).toBe(200);
      const suggestions = (answer: Answer) =>
        (answer.body as unknown as { data: { productSuggestions: unknown[] } }).data.productSuggestions;
      if (query !== "zzqx") expect(suggestions(before).length, query).toBeGreaterThan(0);
      expect(before, query).toEqual(after);
    }
  });
});
