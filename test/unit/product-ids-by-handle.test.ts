import { describe, expect, it } from "vitest";
import { ProductIdsByHandle } from "../../src/stores/product-ids-by-handle.js";

/** A catalogue in memory that counts reads, and a clock the test moves. */
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
    version: () => catalogue.version,
  };
  const clock = { ms: 0 };
  return { catalogue, clock, ids: new ProductIdsByHandle(store, () => clock.ms) };
}

describe("ProductIdsByHandle", () => {
  it("reads a handle once while the catalogue version stays", () => {
    const { catalogue, clock, ids } = fixture();
    expect(ids.get("shop", "tee")).toBe(1);
    clock.ms += 5;
    expect(ids.get("shop", "tee")).toBe(1);
    expect(catalogue.reads).toBe(1);
  });

  it("forgets a merchant's handles once its catalogue version moves, looking at most every millisecond", () => {
    const { catalogue, clock, ids } = fixture();
    expect(ids.get("shop", "tee")).toBe(1);
    catalogue.handles.set("tee", 7);
    catalogue.version = 2;
    // Within the millisecond: the catalogue as it was (the event as if a moment earlier).
    clock.ms += 0.5;
    expect(ids.get("shop", "tee")).toBe(1);
    clock.ms += 0.5;
    expect(ids.get("shop", "tee")).toBe(7);
    catalogue.handles.delete("tee");
    catalogue.version = 3;
    clock.ms += 1;
    expect(ids.get("shop", "tee")).toBeUndefined();
  });

  it("never remembers an unknown handle, and keeps merchants apart", () => {
    const { catalogue, ids } = fixture();
    expect(ids.get("shop", "cap")).toBeUndefined();
    catalogue.handles.set("cap", 3);
    expect(ids.get("shop", "cap")).toBe(3);
    const other = new ProductIdsByHandle({ productIdByHandle: (merchant) => (merchant === "b" ? 9 : undefined), version: () => 1 });
    expect(other.get("a", "tee")).toBeUndefined();
    expect(other.get("b", "tee")).toBe(9);
    expect(other.get("a", "tee")).toBeUndefined();
  });
});
