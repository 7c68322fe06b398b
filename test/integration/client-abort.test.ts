import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Logger } from "../../src/main.js";
import { product } from "../helpers/fixtures.js";
import { createTestMerchant, eventually, postJson, startTestService, type TestService } from "../helpers/service.js";

// Shoppers close tabs, and type the next letter before the last search came
// back. For a request whose client went away, the server must write nothing (a
// uWS response is gone with its client) and log no answer, keep serving
// everyone else, and not wait for it when it shuts down.

let t: TestService;
let key: string;
/** The access log: the status of every answer written, by request id. */
const answered = new Map<string, number>();

const logger: Logger = {
  debug: (message, fields) => {
    if (message === "request") answered.set(fields!.requestId as string, fields!.status as number);
  },
  info: () => {},
  warn: () => {},
  error: (message, fields) => console.error(message, fields),
};

const SEARCH = "/api/v1/smart-search/search/quick-view";
const PAGE_SIZE = 50;
const HOSE = 51;

/** uWS throws when an aborted response is touched: from an answer's promise callback, that surfaces here. */
const unhandled: unknown[] = [];
const noteUnhandled = (error: unknown) => unhandled.push(error);

beforeAll(async () => {
  process.on("unhandledRejection", noteUnhandled);
  t = await startTestService({ logger, logLevel: "debug" });
  key = (await createTestMerchant(t, "abort")).api_key;
  // A page of products with long descriptions: each answer takes the pool's one thread tens of milliseconds.
  for (let first = 1; first <= PAGE_SIZE; first += 10) {
    const batch = Array.from({ length: 10 }, (_, i) =>
      product(first + i, { title: `Brass Lantern ${first + i}`, body_html: `<p>${"Solid brass. ".repeat(8_000)}</p>` }),
    );
    expect((await postJson(t, "/admin/v1/merchants/abort/products", batch)).status).toBe(200);
  }
  expect((await postJson(t, "/admin/v1/merchants/abort/products", [product(HOSE, { title: "Garden Hose" })])).status).toBe(200);
});
afterAll(async () => {
  process.off("unhandledRejection", noteUnhandled);
  await t.stop();
});

/**
 * Writes `request` on a new connection and closes the sending side at once, as
 * a closed tab does; once the server has closed the connection, resolves with
 * whatever it sent back before (nothing: the request was dropped unanswered).
 */
function sendAndHangUp(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port: t.service.port, allowHalfOpen: true });
    let received = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => (received += chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(received));
    socket.on("connect", () => socket.end(request));
  });
}

/** bust_cache: every request computes its answer in the pool. */
function listPath(productIds: readonly number[]): string {
  return `/api/v1/products/static?key=${key}&ids=${productIds.join(",")}&limit=${productIds.length}&bust_cache=yes`;
}

const PAGE = Array.from({ length: PAGE_SIZE }, (_, i) => i + 1);

function getRequest(path: string, requestId: string): string {
  return `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: ${requestId}\r\n\r\n`;
}

/** A search whose body stops `missing` bytes short of its Content-Length. */
function cutSearchRequest(query: string, requestId: string, missing: number): string {
  const body = JSON.stringify({ query });
  return (
    `POST ${SEARCH}?Service-Api-Key=${key} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${body.length}\r\nX-Request-Id: ${requestId}\r\n\r\n${body.slice(0, body.length - missing)}`
  );
}

async function search(query: string): Promise<string> {
  const res = await fetch(`${t.base}${SEARCH}?Service-Api-Key=${key}`, { method: "POST", body: JSON.stringify({ query }) });
  expect(res.status).toBe(200);
  return res.text();
}

async function list(productIds: readonly number[]): Promise<string> {
  const res = await fetch(`${t.base}${listPath(productIds)}`);
  expect(res.status).toBe(200);
  return res.text();
}

/** Pool tasks of a kind ended so far with an outcome ("abandoned": dropped unrun), from the service's metrics. */
async function tasksEnded(kind: string, outcome: "ok" | "abandoned" = "ok"): Promise<number> {
  const text = await t.service.services.metrics!.text();
  const series = `aisle_pool_task_duration_seconds_count{kind="${kind}",outcome="${outcome}"} `;
  const line = text.split("\n").find((row) => row.startsWith(series));
  return line === undefined ? 0 : Number(line.slice(series.length));
}

describe("a client that hangs up", () => {
  it("while its list is computed in the pool gets nothing written or logged; the others get their own answers", async () => {
    const expected = [await list([HOSE]), await list([1])];
    expect(expected[0]).toContain('"title":"Garden Hose"');
    expect(expected[1]).toContain('"title":"Brass Lantern 1"');
    const before = await tasksEnded("static_products");
    const droppedBefore = await tasksEnded("static_products", "abandoned");

    // Slow pages on a pool of one thread: most wait in its queue when their client hangs up.
    const ids = Array.from({ length: 6 }, (_, i) => `page-hang-up-${i}`);
    const replies = Promise.all(ids.map((id) => sendAndHangUp(getRequest(listPath(PAGE), id))));
    const others = await Promise.all([HOSE, 1, HOSE, 1].map((productId) => list([productId])));
    expect(others).toEqual([expected[0], expected[1], expected[0], expected[1]]);

    // Every page's task ended: run to its end (answered or not), or dropped unrun once its client
    // had gone. The others' one-product lists are answered on the HTTP thread, or in the pool once a
    // page has gone over the inline budget.
    const ended = async () =>
      (await tasksEnded("static_products")) - before + (await tasksEnded("static_products", "abandoned")) - droppedBefore;
    await eventually(async () => expect(await ended()).toBeGreaterThanOrEqual(ids.length));
    expect(await ended()).toBeLessThanOrEqual(ids.length + others.length);
    // Slow pages on one worker: the clients of the later ones had gone before their turn, and they were never run.
    expect(await tasksEnded("static_products", "abandoned")).toBeGreaterThan(droppedBefore);
    expect(t.service.services.pool.queueSize).toBe(0);
    const received = await replies;
    const dropped = ids.filter((_, i) => received[i] === "");
    expect(dropped.length, "requests whose client hung up before their answer").toBeGreaterThan(0);
    for (const id of dropped) expect(answered.get(id), `access log of ${id}`).toBeUndefined();
    // A request answered before its client hung up is an ordinary answer.
    for (const id of ids.filter((_, i) => received[i] !== "")) expect(answered.get(id)).toBe(200);
    expect(unhandled.map(String)).toEqual([]);
  });

  it("while sending its search gets nothing written or logged; later searches are answered", async () => {
    const expected = await search("garden hose");
    expect(expected).toContain('"name":"Garden Hose"');
    const ids = Array.from({ length: 4 }, (_, i) => `search-hang-up-${i}`);
    const received = await Promise.all(ids.map((id) => sendAndHangUp(cutSearchRequest("garden hose", id, 3))));
    expect(received).toEqual(ids.map(() => ""));
    expect(await search("garden hose")).toBe(expected);
    for (const id of ids) expect(answered.get(id), `access log of ${id}`).toBeUndefined();
    expect(unhandled.map(String)).toEqual([]);
  });

  it("does not hold up shutdown", async () => {
    const grace = t.service.services.config.shutdownGraceMs;
    await Promise.all([
      sendAndHangUp(getRequest(listPath(PAGE), "before-shutdown-list")),
      sendAndHangUp(cutSearchRequest("hose", "before-shutdown-search", 1)),
    ]);
    const started = performance.now();
    await t.stop();
    // Draining waits up to the grace period for requests under way: the page's task
    // ends within milliseconds, and the cut search, whose body never comes, is not under way.
    expect(performance.now() - started).toBeLessThan(grace / 2);
    expect(unhandled.map(String)).toEqual([]);
  });
});
