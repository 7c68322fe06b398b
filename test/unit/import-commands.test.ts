import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidInput } from "../../src/core/ingest/fields.js";
import { importCommands } from "../../src/ingest/import-commands.js";
import type { Upsert, WriteCommand } from "../../src/ingest/write-commands.js";
import { product } from "../helpers/fixtures.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-import-commands-");

function writeNdjson(name: string, objects: unknown[]): string {
  const file = join(tempDir(), name);
  writeFileSync(file, objects.map((object) => JSON.stringify(object)).join("\n"));
  return file;
}

const payloadBytes = (write: WriteCommand) => Buffer.byteLength(JSON.stringify(write.payload));
const idsOf = (write: WriteCommand) => (write.payload as Upsert).items.map((item) => (item as { id: number }).id);

describe("an import as the write commands a cluster publishes", () => {
  it("cuts a file's records into upserts that each fit one message, in file order, stamped with one time", () => {
    const products = Array.from({ length: 40 }, (_, i) => product(i + 1));
    const limit = 4_000;
    const { commands, counts } = importCommands("shop", [writeNdjson("products.ndjson", products)], undefined, limit);
    expect(counts.products).toBe(40);
    expect(commands.length).toBeGreaterThan(1);
    for (const { write, objects } of commands) {
      expect(write).toMatchObject({ merchant: "shop", kind: "products" });
      expect(payloadBytes(write)).toBeLessThanOrEqual(limit);
      expect(objects).toBe(idsOf(write).length);
    }
    // Not cut finer than the limit asks: each message but the last had no room for the next record.
    for (const [index, { write }] of commands.slice(0, -1).entries()) {
      const next = (commands[index + 1]!.write.payload as Upsert).items[0];
      expect(payloadBytes(write) + Buffer.byteLength(JSON.stringify(next)) + 1).toBeGreaterThan(limit);
    }
    expect(commands.flatMap(({ write }) => idsOf(write))).toEqual(products.map((p) => p.id));
    expect(new Set(commands.map(({ write }) => (write.payload as Upsert).now)).size).toBe(1);
  });

  it("puts at most 1,000 records in one message however small they are", () => {
    const customers = Array.from({ length: 2_001 }, (_, i) => ({ id: i + 1 }));
    const { commands } = importCommands("shop", [writeNdjson("customers.ndjson", customers)], undefined, 1_000_000);
    expect(commands.map(({ objects }) => objects)).toEqual([1_000, 1_000, 1]);
  });

  it("orders the kinds as a single box writes them, a file's sources in one command", () => {
    const dir = tempDir();
    const bundle = join(dir, "shop.json");
    const source = { id: "picks", name: "Picks", rules: [{ return: { kind: "products", product_ids: [1] } }] };
    writeFileSync(bundle, JSON.stringify({ sources: [source, { ...source, id: "more" }], orders: [], products: [product(1)] }));
    const { commands } = importCommands("shop", [bundle], undefined, 1_000_000);
    expect(commands.map(({ write, objects }) => [write.kind, objects])).toEqual([
      ["products", 1],
      ["sources", 2],
    ]);
  });

  it("refuses, naming it, a record no message can carry, before making any command", () => {
    const big = product(2, { body_html: "x".repeat(5_000) });
    const file = writeNdjson("products.ndjson", [product(1), big]);
    const importing = () => importCommands("shop", [file], undefined, 4_000);
    expect(importing).toThrow(InvalidInput);
    expect(importing).toThrow(/products\.ndjson: products\[1\]: is \d+ bytes as a message, more than the 4000 one may carry/);
  });
});
