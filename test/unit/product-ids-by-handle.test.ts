import { describe, expect, it } from "vitest";
import { ProductIdsByHandle } from "../../src/stores/product-ids-by-handle.js";

/** A catalogue in memory that counts reads, with the version the test moves. */
function fixture() {
  const catalogue = {
    version: 1,
    handles: new Map([
      ["tee", 1],
      ["mug", 2],
    ]),
    reads: 0,
  };
  const store = {
    productIdByHandle: (_merchant: string, handle: string) => (catalogue.reads++, catalogue.handles.get(handle)),
    catalogueVersion: () => catalogue.version,
  };
  return { catalogue, ids: new ProductIdsByHandle(store) };
}

describe("ProductIdsByHandle", () => {
  it("reads a handle once while the catalogue version stays", () => {
    const { catalogue, ids } = fixture();
    expect(ids.get("shop", "tee")).toBe(1);
    expect(ids.get("shop", "tee")).toBe(1);
    expect(catalogue.reads).toBe(1);
  });

  it("forgets a merchant's handles once its catalogue version moves", () => {
    const { catalogue, ids } = fixture();
    expect(ids.get("shop", "tee")).toBe(1);
    // Moved in the catalogue, but the version it is read at has not: the catalogue as it was.
    catalogue.handles.set("tee", 7);
    expect(ids.get("shop", "tee")).toBe(1);
    catalogue.version = 2;
    expect(ids.get("shop", "tee")).toBe(7);
    catalogue.handles.delete("tee");
    catalogue.version = 3;
    expect(ids.get("shop", "tee")).toBeUndefined();
    expect(catalogue.reads).toBe(3);
  });

  it("never remembers an unknown handle, and keeps merchants apart", () => {
    const { catalogue, ids } = fixture();
    expect(ids.get("shop", "cap")).toBeUndefined();
    catalogue.handles.set("cap", 3);
    expect(ids.get("shop", "cap")).toBe(3);
    const other = new ProductIdsByHandle({
      productIdByHandle: (merchant) => (merchant === "b" ? 9 : undefined),
      catalogueVersion: () => 1,
    });
    expect(other.get("a", "tee")).toBeUndefined();
    expect(other.get("b", "tee")).toBe(9);
    expect(other.get("a", "tee")).toBeUndefined();
  });
});
