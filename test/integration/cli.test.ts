import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Store } from "../../src/stores/store.js";
import { product } from "../helpers/fixtures.js";
import { tempDirs } from "../helpers/temp-dirs.js";

// These run the built CLI (npm test builds first) exactly as an operator would.
const CLI = join(import.meta.dirname, "../../dist/src/cli.js");
const tempDir = tempDirs("aisle-cli-", "all");

function aisle(args: string[], dataDir: string) {
  return spawnSync(process.execPath, [CLI, ...args, "--data", dataDir], {
    encoding: "utf8",
    env: { ...process.env, AISLE_ADMIN_TOKEN: "" },
  });
}

/** Starts `aisle serve` and resolves with its output once it logs that it listens. */
function serve(dataDir: string): Promise<{ child: ChildProcess; output: () => string; port: number }> {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", "--data", dataDir], {
    env: { ...process.env, AISLE_DEMO: "auto", AISLE_WORKERS: "1", AISLE_ADMIN_TOKEN: "" },
  });
  let output = "";
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /aisle listening on http:\/\/localhost:(\d+)/.exec(output);
      if (listening) resolve({ child, output: () => output, port: Number(listening[1]) });
    });
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${output}`)));
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.on("exit", (code) => resolve(code)));
}

/** The banner's searches answer by the demo's search settings: pinned gifts and a redirect, hoodies for "sweatshirt", sofas for "cuoch". */
async function expectDemoSearches(banner: string): Promise<void> {
  const key = /demo API key: {2}(pk_\S+)/.exec(banner)![1]!;
  const searches = new Map([...banner.matchAll(/curl -X POST '([^']+query=(\w+)[^']*)'/g)].map(([, url, query]) => [query!, url!]));
  expect([...searches.keys()]).toEqual(["gift", "sweatshirt", "cuoch"]);
  const idsOf = async (query: string) => {
    const res = await fetch(searches.get(query)!, { method: "POST" });
    expect(res.status, query).toBe(200);
    const answer = (await res.json()) as { data: { productSuggestions: { id: string }[]; redirect?: string } };
    return { ids: answer.data.productSuggestions.map((suggestion) => suggestion.id), redirect: answer.data.redirect };
  };
  const typesOf = async (ids: string[]) => {
    const base = new URL(searches.get("gift")!).origin;
    const res = await fetch(`${base}/api/v1/products/static?key=${key}&ids=${ids.join(",")}&filter_oos=no&limit=10`);
    return ((await res.json()) as { data: { product_type: string }[] }).data.map((product) => product.product_type);
  };
  const gift = await idsOf("gift");
  expect(gift.redirect).toMatch(/^https:\/\/\S+\/collections\/gifts-under-50$/);
  // The keyword group's promoted products first, in their order, as the banner's admin line reads them.
  const [, header, settingsUrl] = /curl -H "Authorization: ([^"]+)" '([^']+\/search-settings)'/.exec(banner)!;
  const authorization = header!.replace(/\$\(cat (\S+)\)/, (_, file: string) => readFileSync(file, "utf8").trim());
  const settings = (await (await fetch(settingsUrl!, { headers: { Authorization: authorization } })).json()) as {
    data: { keyword_groups: { promoted: number[] }[] };
  };
  const promoted = settings.data.keyword_groups[0]!.promoted.map(String);
  expect(promoted).toHaveLength(3);
  expect(gift.ids.slice(0, 3)).toEqual(promoted);
  for (const query of ["sweatshirt", "cuoch"]) {
    const { ids, redirect } = await idsOf(query);
    expect(ids, query).toHaveLength(4);
    expect(redirect).toBeUndefined();
    expect(new Set(await typesOf(ids)), query).toEqual(new Set([query === "cuoch" ? "Sofa" : "Hoodie"]));
  }
}

describe("aisle serve", () => {
  it("seeds the demo into an empty data dir, prints curl lines that return spec products, and stops cleanly on SIGTERM", async () => {
    const dataDir = tempDir();
    const first = await serve(dataDir);
    const banner = first.output();
    expect(banner).toMatch(/Seeded the demo merchant "demo" \(3000 products/);
    expect(banner).toMatch(/demo API key: {2}pk_/);
    // The token is printed on the start that creates it, with where it is kept.
    expect(banner).toMatch(/admin token: {3}adm_\S+ {3}\(created now, kept in \S+admin-token\)/);
    const curls = [...banner.matchAll(/curl (?:-H "([^"]+)" )?'([^']+)'/g)];
    expect(curls.length).toBeGreaterThanOrEqual(6);
    expect(curls.map(([, , url]) => url).filter((url) => /purchased\?|viewed\?uuid=/.test(url!))).toHaveLength(2);
    for (const [, header, url] of curls) {
      // "Authorization: Bearer $(cat <file>)", as a shell would run it.
      const value = header?.split(": ")[1]?.replace(/\$\(cat (\S+)\)/, (_, file: string) => readFileSync(file, "utf8").trim());
      const headers: Record<string, string> = header ? { [header.split(": ")[0]!]: value! } : {};
      const res = await fetch(url!, { headers });
      expect(res.status, url).toBe(200);
      const body = (await res.json()) as { data: any };
      // The search settings are one object; every other line answers a list.
      const shown = url!.endsWith("/search-settings") ? body.data.keyword_groups : body.data;
      expect(shown.length, url).toBeGreaterThan(0);
      if (url!.includes("/products/")) {
        for (const p of body.data) {
          expect(typeof p.tags).toBe("string");
          // Static answers the full product; ranked lists the spec's reduced fields.
          if (url!.includes("/products/static")) expect(p.admin_graphql_api_id).toBe(`gid://platform/Product/${p.id}`);
          for (const v of p.variants) expect(v.price).toMatch(/^\d+\.\d\d$/);
        }
      }
    }
    await expectDemoSearches(banner);
    // The demo storefront the banner points at: a page that carries the demo's public key.
    const storefront = await fetch(/storefront: {4}(\S+)/.exec(banner)![1]!);
    expect(storefront.status).toBe(200);
    expect(await storefront.text()).toContain(`<meta name="aisle-key" content="${/demo API key: {2}(pk_\S+)/.exec(banner)![1]}" />`);
    // A second service on the same data dir is refused while the first runs: both would number events from memory.
    const rival = aisle(["serve", "--port", "0"], dataDir);
    expect(rival.status).toBe(2);
    expect(rival.stderr).toContain(`is in use by aisle serve (pid ${first.child.pid})`);
    // And one on another data dir but the same port: refused in a line, and it exits (uWS would share the port).
    const samePort = spawnSync(process.execPath, [CLI, "serve", "--port", String(first.port), "--data", tempDir()], {
      encoding: "utf8",
      env: { ...process.env, AISLE_DEMO: "off", AISLE_WORKERS: "1", AISLE_ADMIN_TOKEN: "", AISLE_TUNE_EVERY_S: "off" },
      timeout: 60_000,
    });
    expect(samePort.status).toBe(2);
    expect(samePort.stderr).toContain(`aisle: cannot listen on 0.0.0.0:${first.port}: the port is in use`);
    expect(samePort.stderr).not.toMatch(/\n\s+at /);

    first.child.kill("SIGTERM");
    expect(await exitOf(first.child)).toBe(0);

    // A restart keeps the data and does not seed again, but still shows the demo key.
    const second = await serve(dataDir);
    expect(second.output()).toContain('Demo merchant "demo" is in this data dir');
    expect(second.output()).toContain(/demo API key: {2}(pk_\S+)/.exec(banner)![1]);
    // Later starts say where the token is, never the token (their output may end up in a log collector).
    expect(second.output()).toMatch(/admin token: {3}kept in \S+admin-token\n/);
    expect(second.output()).not.toContain(/admin token: {3}(adm_\S+)/.exec(banner)![1]);
    second.child.kill("SIGINT");
    expect(await exitOf(second.child)).toBe(0);
  }, 60_000);
});

describe("aisle merchants add and aisle import", () => {
  it("creates a merchant, imports NDJSON and bundle files with a progress bar, and writes nothing from an invalid file", async () => {
    const dataDir = tempDir();
    const added = aisle(["merchants", "add", "--id", "cli", "--name", "CLI Shop", "--domain", "cli.example.com"], dataDir);
    expect(added.status).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ id: "cli", api_key: expect.stringMatching(/^pk_/) });
    expect(aisle(["merchants", "add", "--id", "cli", "--name", "Again", "--domain", "cli.example.com"], dataDir).status).toBe(2);

    const files = tempDir();
    writeFileSync(join(files, "products.ndjson"), [product(1), product(2)].map((p) => JSON.stringify(p)).join("\n"));
    writeFileSync(
      join(files, "shop.json"),
      JSON.stringify({ collections: [{ id: 5, title: "All", product_ids: [1, 2] }], products: [product(3)] }),
    );
    const imported = aisle(["import", "--merchant", "cli", join(files, "products.ndjson"), join(files, "shop.json")], dataDir);
    expect(imported.stderr + imported.stdout).toContain("imported 3 products, 1 collections into cli");
    expect(imported.stderr).toContain("importing [");
    expect(imported.status).toBe(0);
    // Imported products get the shop's similar-products model, trained with a progress bar.
    expect(imported.stdout).toMatch(/similar-products model [0-9a-f]{16}: 3 products/);
    expect(imported.stderr).toContain("neighbours");

    writeFileSync(join(files, "more-products.json"), JSON.stringify([product(4), { id: 5, title: "No variants" }]));
    const invalid = aisle(["import", "--merchant", "cli", join(files, "more-products.json")], dataDir);
    expect(invalid.status).toBe(2);
    expect(invalid.stderr).toContain("products[1].variants: is required");
    expect(aisle(["import", "--merchant", "nobody", join(files, "products.ndjson")], dataDir).status).toBe(2);

    // Every invalid object of a file at once (up to 20), by NDJSON line and field; nothing written.
    const bad = (id: number, overrides: Record<string, unknown>) => JSON.stringify(product(id, overrides));
    writeFileSync(
      join(files, "broken-products.ndjson"),
      [
        bad(6, {}),
        "",
        bad(7, { title: "" }),
        bad(8, { variants: [] }),
        ...Array.from({ length: 25 }, (_, i) => bad(20 + i, { handle: "no spaces allowed" })),
      ].join("\n"),
    );
    const broken = aisle(["import", "--merchant", "cli", join(files, "broken-products.ndjson")], dataDir);
    expect(broken.status).toBe(2);
    expect(broken.stderr).toContain("broken-products.ndjson: 27 invalid objects, the first 20 listed; nothing was written");
    expect(broken.stderr).toContain("  line 3: title: must not be empty");
    expect(broken.stderr).toContain("  line 4: variants: must contain at least one variant");
    expect(broken.stderr).toContain("  line 5: handle: must be a URL handle");
    expect(broken.stderr.split("\n").filter((line) => line.startsWith("  line "))).toHaveLength(20);
    // A missing file, and one whose name does not say what it holds: one line each, no stack trace.
    const missing = aisle(["import", "--merchant", "cli", join(files, "nope.ndjson")], dataDir);
    expect([missing.status, missing.stderr.trim()]).toEqual([2, `aisle: ${join(files, "nope.ndjson")}: cannot be read: no such file`]);
    writeFileSync(join(files, "p2.ndjson"), [product(9), product(10)].map((p) => JSON.stringify(p)).join("\n"));
    const unnamed = aisle(["import", "--merchant", "cli", join(files, "p2.ndjson")], dataDir);
    expect(unnamed.status).toBe(2);
    expect(unnamed.stderr).toContain("cannot tell what it holds: pass --type");
    // A read-only command with the wrong data dir says so, and creates nothing there.
    const elsewhere = join(files, "not-a-data-dir");
    const show = aisle(["merchants", "show", "cli"], elsewhere);
    expect(show.status).toBe(2);
    expect(show.stderr).toContain(`no aisle data in ${elsewhere}`);
    expect(existsSync(elsewhere)).toBe(false);

    const store = Store.open(dataDir);
    try {
      expect(store.catalogue.productIds("cli")).toEqual([1, 2, 3]);
      expect(store.catalogue.collection("cli", 5)?.product_ids).toEqual([1, 2]);
      expect([...store.similar.vectorIds("cli")].sort()).toEqual([1, 2, 3]);
      expect(store.similar.neighboursOf("cli", 1)?.ids.sort()).toEqual([2, 3]);
    } finally {
      await store.close();
    }
  }, 60_000);

  it("refuses --data with --nats: a cluster's writes go to the stream, and a data dir named with them would get nothing", () => {
    const dataDir = tempDir();
    for (const args of [
      ["merchants", "add", "--id", "shop", "--name", "Shop", "--domain", "shop.example.com"],
      ["import", "--merchant", "shop", "products.ndjson"],
    ]) {
      const refused = aisle([...args, "--nats", "nats://127.0.0.1:4222"], dataDir);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain("aisle: --data names a data dir, but --nats (or AISLE_NATS_URL) makes this a cluster write");
    }
    expect(existsSync(join(dataDir, "aisle.lmdb"))).toBe(false);
  });

  it("names a path it cannot use in one line, exit 2, never a stack trace", () => {
    const dir = tempDir();
    const file = join(dir, "not-a-dir.json");
    writeFileSync(file, "{}");
    const cases: [string[], string][] = [
      [["serve", "--port", "0", "--data", file], `aisle: cannot use ${file} as a data dir: EEXIST`],
      [
        ["merchants", "add", "--id", "x", "--name", "X", "--domain", "x.example.com", "--data", file],
        `aisle: cannot use ${file} as a data dir`,
      ],
      [["snapshot", "--out", file, "--data", dir], `aisle: ENOTDIR: not a directory`],
      [["eval", "fbt", "--data", join(dir, "missing.parquet")], "cannot be read as the Online Retail parquet file (ENOENT"],
      [["eval", "fbt", "--data", file], "cannot be read as the Online Retail parquet file"],
    ];
    for (const [args, message] of cases) {
      const run = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: { ...process.env, AISLE_ADMIN_TOKEN: "" } });
      expect([run.status, run.stderr.trim().split("\n")], args.join(" ")).toEqual([2, [expect.stringContaining(message)]]);
    }
  });

  it("imports custom sources and search settings, validated as the admin API validates them, and writes nothing from an invalid file", async () => {
    const dataDir = tempDir();
    expect(aisle(["merchants", "add", "--id", "rules", "--name", "Rules", "--domain", "rules.example.com"], dataDir).status).toBe(0);
    const files = tempDir();
    const source = (id: string, productIds: number[]) => ({
      id,
      name: id,
      rules: [{ return: { kind: "products", product_ids: productIds } }],
    });
    writeFileSync(join(files, "shop.json"), JSON.stringify({ products: [product(1), product(2)], sources: [source("picks", [2, 1])] }));
    writeFileSync(join(files, "sources.ndjson"), [source("more", [1]), source("dangling", [9])].map((s) => JSON.stringify(s)).join("\n"));
    writeFileSync(
      join(files, "search-settings.json"),
      JSON.stringify({
        keyword_groups: [{ id: "top", queries: ["mug"], promoted: [2] }],
        synonyms: [{ type: "two_way", synonyms: ["mug", "cup"] }],
      }),
    );
    const inputs = ["shop.json", "sources.ndjson", "search-settings.json"].map((name) => join(files, name));
    const imported = aisle(["import", "--merchant", "rules", "--no-train", ...inputs], dataDir);
    expect(imported.stdout).toContain("imported 2 products, 3 sources, 1 search-settings into rules");
    expect(imported.stderr).toContain("warning: source dangling: rules[0].return.product_ids[0]: no product 9");
    expect(imported.status).toBe(0);

    // Each invalid source by line and field, the settings by field; nothing of either file is written.
    writeFileSync(
      join(files, "bad-sources.ndjson"),
      [source("fine", [1]), { id: "broken", name: "x", rules: [{ return: { kind: "bestsellers" } }] }, { id: "nameless", rules: [] }]
        .map((s) => JSON.stringify(s))
        .join("\n"),
    );
    const badSources = aisle(["import", "--merchant", "rules", "--type", "sources", join(files, "bad-sources.ndjson")], dataDir);
    expect(badSources.status).toBe(2);
    expect(badSources.stderr).toContain("2 invalid objects; nothing was written");
    expect(badSources.stderr).toContain("  line 2: rules[0].return.kind: must be one of");
    expect(badSources.stderr).toContain("  line 3: name: is required");
    writeFileSync(join(files, "search-settings-bad.json"), JSON.stringify({ keyword_groups: [{ id: "x", queries: [""] }] }));
    const badSettings = aisle(["import", "--merchant", "rules", join(files, "search-settings-bad.json")], dataDir);
    expect(badSettings.status).toBe(2);
    expect(badSettings.stderr).toContain("keyword_groups[0].queries[0]: must be a non-empty string");
    // A settings file of no object, after a catalogue file: refused by name before anything is written.
    writeFileSync(join(files, "late-products.ndjson"), JSON.stringify(product(90)));
    writeFileSync(join(files, "search-settings-none.json"), "[]");
    const noSettings = aisle(
      ["import", "--merchant", "rules", join(files, "late-products.ndjson"), join(files, "search-settings-none.json")],
      dataDir,
    );
    expect(noSettings.status).toBe(2);
    expect(noSettings.stderr).toContain(
      "search-settings-none.json: holds 0 search settings objects, where a file holds one; nothing was written",
    );

    const store = Store.open(dataDir);
    try {
      expect(store.customSources.list("rules").map(({ source }) => source.id)).toEqual(["dangling", "more", "picks"]);
      expect(store.catalogue.product("rules", 90)).toBeUndefined();
      const { settings, version } = store.searchSettings.get("rules");
      expect(version).toBe(1);
      expect(settings.keyword_groups.map((group) => group.promoted)).toEqual([[2]]);
    } finally {
      await store.close();
    }
  }, 60_000);
});
