// A PATCH is merged into the record as it stands when the write is applied, in
// the write's own transaction: writes made in one turn, committed in one LMDB
// batch, apply in the order they were made, whatever their kinds. Driven
// through applyWrite on a real store, so the order is the one made here, not
// the order requests happen to reach a server.
import { describe, expect, it } from "vitest";
import { InvalidInput } from "../../src/core/ingest/fields.js";
import { applyWrite, deleteCommand, patchCommand, upsertCommand } from "../../src/ingest/write-commands.js";
import { product, variant } from "../helpers/fixtures.js";
import { storeWithMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-patch-writes-");

async function shopWithLamp() {
  const store = await storeWithMerchant(tempDir());
  await applyWrite(store, upsertCommand("shop", "products", [product(1, { variants: [variant({ id: 11 }), variant({ id: 12 })] })]));
  return store;
}

describe("patch writes", () => {
  it("build on every write made before them in the same turn, and answer the record as they wrote it", async () => {
    const store = await shopWithLamp();
    const posted = applyWrite(store, upsertCommand("shop", "products", [product(1, { title: "Posted lamp" })]));
    const titled = applyWrite(store, patchCommand("shop", "products", 1, { vendor: "Harbor" }));
    const priced = applyWrite(store, patchCommand("shop", "products", 1, { variants: [{ id: 11, price: "9.50" }] }));
    await posted;
    expect(await titled).toMatchObject({ title: "Posted lamp", vendor: "Harbor" });
    expect(await priced).toMatchObject({ title: "Posted lamp", vendor: "Harbor", variants: [{ id: 11, price: "9.50" }] });
    expect(store.catalogue.product("shop", 1)).toMatchObject({ title: "Posted lamp", vendor: "Harbor" });
    await store.close();
  });

  it("answer their own record when a delete right after removes it, and find nothing after a delete", async () => {
    const store = await shopWithLamp();
    const patched = applyWrite(store, patchCommand("shop", "products", 1, { vendor: "Before the delete" }));
    const deleted = applyWrite(store, deleteCommand("shop", "products", 1));
    const late = applyWrite(store, patchCommand("shop", "products", 1, { vendor: "After the delete" }));
    expect(await patched).toMatchObject({ id: 1, vendor: "Before the delete" });
    expect(await deleted).toBe(true);
    expect(await late).toBeNull();
    expect(store.catalogue.product("shop", 1)).toBeUndefined();
    await store.close();
  });

  it("validate the merged record where they are applied, writing nothing from an invalid one, and the next write goes on", async () => {
    const store = await shopWithLamp();
    const invalid = applyWrite(store, patchCommand("shop", "products", 1, { variants: [{ id: 12, price: "cheap" }] }));
    const next = applyWrite(store, patchCommand("shop", "products", 1, { title: "Still fine" }));
    await expect(invalid).rejects.toThrow(InvalidInput);
    await expect(invalid).rejects.toThrow(/^products\[0\]\.variants\[1\]\.price: /);
    expect(await next).toMatchObject({ title: "Still fine", variants: [{ id: 11 }, { id: 12, price: "10.00" }] });
    await store.close();
  });
});
