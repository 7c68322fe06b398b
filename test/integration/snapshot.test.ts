// `aisle snapshot` on a single box: a copy taken while the service writes,
// from which a service starts with the same data; it never writes into a dir
// that holds something.
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { serveInChild } from "../helpers/child-service.js";
import { product } from "../helpers/fixtures.js";
import { createTestMerchant, postJson } from "../helpers/service.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const CLI = join(import.meta.dirname, "../../dist/src/cli.js");
const tempDir = tempDirs("aisle-snapshot-");

describe("aisle snapshot", () => {
  it("copies a data dir while the service runs on it; a service started from the copy answers the same", { timeout: 60_000 }, async () => {
    const dataDir = tempDir();
    const out = join(tempDir(), "copy");
    const first = await serveInChild(dataDir);
    try {
      const { api_key: key } = await createTestMerchant(first, "shop");
      expect((await postJson(first, "/admin/v1/merchants/shop/products", [product(1), product(2)])).status).toBe(200);
      const uuid = "00000000-0000-4000-8000-000000000051";
      for (const handle of ["product-1", "product-2"]) {
        const res = await fetch(
          `${first.base}/api/v1/analytics/event?key=${key}&verb=viewed&uuid=${uuid}&platform_product_handle=${handle}`,
          {
            method: "POST",
          },
        );
        expect(res.status).toBe(200);
        // A single box's answers carry no stream sequence.
        expect(res.headers.get("x-aisle-seq")).toBeNull();
      }
      expect(execFileSync(process.execPath, [CLI, "snapshot", "--data", dataDir, "--out", out], { encoding: "utf8" })).toContain(
        `written to ${out}`,
      );
      const paths = ["/admin/v1/merchants/shop/products?limit=250", "/admin/v1/merchants/shop"];
      const viewed = `/api/v1/products/viewed?key=${key}&uuid=${uuid}`;
      const answers = async (node: typeof first) => [
        ...(await Promise.all(paths.map(async (path) => (await node.admin(path)).text()))),
        await (await fetch(`${node.base}${viewed}`)).text(),
      ];
      const before = await answers(first);
      first.child.kill("SIGTERM");
      await first.exited;

      const restored = await serveInChild(out);
      try {
        expect(await answers(restored)).toEqual(before);
      } finally {
        restored.child.kill("SIGTERM");
        await restored.exited;
      }
    } finally {
      first.child.kill("SIGKILL");
    }
  });

  it("refuses a dir that is not empty, naming it, and writes nothing into it", () => {
    const dataDir = tempDir();
    execFileSync(process.execPath, [
      CLI,
      "merchants",
      "add",
      "--id",
      "shop",
      "--name",
      "Shop",
      "--domain",
      "shop.example.com",
      "--data",
      dataDir,
    ]);
    const held = readdirSync(dataDir).sort();
    const run = spawnSync(process.execPath, [CLI, "snapshot", "--data", dataDir, "--out", dataDir], { encoding: "utf8" });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`${dataDir} is not empty`);
    expect(readdirSync(dataDir).sort()).toEqual(held);
  });
});
