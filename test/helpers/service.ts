import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { loadConfig, type Config } from "../../src/config.js";
import { startService, type Logger, type RunningService } from "../../src/main.js";
import type { LogLevel } from "../../src/observability/logger.js";

export const ADMIN_TOKEN = "test-admin-token-0123456789";

/** A service whose admin API a test calls with the admin token. */
export interface AdminApi {
  admin(path: string, init?: RequestInit): Promise<Response>;
}

/** The admin API of the service at `base`, called with the tests' admin token. */
export function adminApiAt(base: string): AdminApi["admin"] {
  return (path, init = {}) =>
    fetch(`${base}${path}`, { ...init, headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, ...(init.headers ?? {}) } });
}

export interface TestService extends AdminApi {
  base: string;
  service: RunningService;
  dataDir: string;
  stop(): Promise<void>;
}

const quietLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: (message, fields) => console.error(message, fields),
};

/** A real service — LMDB in a temp dir, a Piscina pool, uWS on an ephemeral port. */
export async function startTestService(
  options: { demo?: boolean; dataDir?: string; logger?: Logger; logLevel?: LogLevel; config?: Partial<Config> } = {},
): Promise<TestService> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "aisle-test-"));
  const config = loadConfig(
    {},
    {
      host: "127.0.0.1",
      port: 0,
      dataDir,
      adminToken: ADMIN_TOKEN,
      demo: options.demo ? "auto" : "off",
      workers: 1,
      // Orders show in the stored rankings within a moment, not the production interval.
      rankingRefreshMs: 100,
      logLevel: options.logLevel,
      ...options.config,
    },
  );
  const service = await startService(config, options.logger ?? quietLogger);
  const base = `http://127.0.0.1:${service.port}`;
  return {
    base,
    service,
    dataDir,
    admin: adminApiAt(base),
    async stop() {
      await service.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Creates a merchant through the admin API and returns its keys. */
export async function createTestMerchant(
  t: AdminApi,
  id: string,
  domain = `${id}.example.com`,
): Promise<{ id: string; api_key: string; webhook_secret: string }> {
  const res = await t.admin("/admin/v1/merchants", {
    method: "POST",
    body: JSON.stringify({ id, name: `Shop ${id}`, domain, currency: "USD" }),
  });
  if (res.status !== 201) throw new Error(`merchant create failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; api_key: string; webhook_secret: string };
}

export async function postJson(t: AdminApi, path: string, body: unknown): Promise<Response> {
  return t.admin(path, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body) });
}

/** What a test shop starts with, as the admin API takes each kind. */
export interface ShopData {
  products?: unknown[];
  collections?: unknown[];
  markets?: unknown[];
  orders?: unknown[];
}

/**
 * Creates a merchant through the admin API with this data (products first, so
 * collections, markets and orders name known products) and returns its keys;
 * with orders, once the stored rankings that product lists read count them.
 */
export async function createTestShop(
  t: TestService,
  id: string,
  data: ShopData,
): Promise<{ id: string; api_key: string; webhook_secret: string }> {
  const shop = await createTestMerchant(t, id);
  for (const kind of ["products", "collections", "markets", "orders"] as const) {
    const records = data[kind];
    if (records === undefined) continue;
    const res = await postJson(t, `/admin/v1/merchants/${id}/${kind}`, records);
    if (res.status !== 200) throw new Error(`${kind} of ${id} refused: ${res.status} ${await res.text()}`);
  }
  if (data.orders !== undefined) await rankingsRefreshed(t, id);
  return shop;
}

/**
 * Waits until the event writer has applied every logged event of the merchant
 * to histories, counts and carts (it does so a moment after acknowledging).
 */
export async function eventsApplied(t: TestService, merchant: string, timeoutMs = 10_000): Promise<void> {
  const { store } = t.service.services;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    store.refreshSnapshot();
    if (store.applied.derivedSequence(merchant) === store.events.eventSequence(merchant)) return;
    if (Date.now() > deadline) throw new Error(`events of ${merchant} not applied after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Waits until the applier thread has stored rankings that count every order,
 * applied add-to-cart event and collection change of the merchant so far
 * (after eventsApplied, for events).
 */
export async function rankingsRefreshed(t: TestService, merchant: string): Promise<void> {
  const { store } = t.service.services;
  await eventually(() => {
    store.refreshSnapshot();
    const state = store.rankings.state(merchant);
    expect(state?.sales).toBe(store.orders.dailySales.versionOf(merchant));
    expect(state?.adds).toBe(store.applied.dailyAdds.versionOf(merchant));
    expect(state?.collections).toBe(store.version(merchant, "collections"));
  });
}

/** Retries `check` (an expectation that throws until it holds) until it passes or `timeoutMs` runs out. */
export async function eventually(check: () => void | Promise<void>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
