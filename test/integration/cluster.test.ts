// Cluster mode on real nats-servers (3, clustered) and real aisle nodes in
// child processes: a write on one node is readable on another that names its
// sequence, a 400 publishes nothing, a node killed -9 under load catches up to
// the same data, and writes go on with one nats-server down. The command
// line's `import` and `merchants add` publish to the stream as a node does.
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { execFile, execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { publishWrite } from "../../src/cluster/stream-writer.js";
import { createMerchantCommand } from "../../src/ingest/write-commands.js";
import { AlreadyExistsError } from "../../src/stores/catalogue-store.js";
import { Store } from "../../src/stores/store.js";
import { serveInChild } from "../helpers/child-service.js";
import { appliedSequence, startClusterNodes, type ClusterNodes } from "../helpers/cluster-nodes.js";
import { basketOrder, product } from "../helpers/fixtures.js";
import { NICENESS, startNatsCluster, type NatsCluster } from "../helpers/nats-cluster.js";
import { createTestMerchant, eventually, postJson, type AdminApi } from "../helpers/service.js";

let nats: NatsCluster;
let cluster: ClusterNodes;

beforeAll(async () => {
  nats = await startNatsCluster(3);
  cluster = await startClusterNodes(nats, 2);
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
  await nats?.stop();
}, 60_000);

const seqOf = (res: Response) => Number(res.headers.get("x-aisle-seq"));
const CLI = join(import.meta.dirname, "../../dist/src/cli.js");

describe("cluster mode", () => {
  it("a write on A is read on B that names its sequence; a 400 or 413 publishes nothing", { timeout: 60_000 }, async () => {
    const [a, b] = [cluster.node(0), cluster.node(1)];
    const { api_key: key } = await createTestMerchant(a, "north");

    const created = await postJson(a, "/admin/v1/merchants/north/products", [product(1), product(2), product(3)]);
    expect(created.status).toBe(200);
    const productsSeq = seqOf(created);
    expect(productsSeq).toBeGreaterThan(0);

    // Invalid: nothing reaches the stream, so the next write takes the very next sequence.
    const invalid = await postJson(a, "/admin/v1/merchants/north/products", [product(4), { id: "x" }]);
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("x-aisle-seq")).toBeNull();

    // More than one stream message may carry (the servers' max_payload, 1 MB by default): a 413, and nothing published.
    const longText = `<p>${"x".repeat(4_000)}</p>`;
    const tooLarge = await postJson(
      a,
      "/admin/v1/merchants/north/products",
      Array.from({ length: 400 }, (_, i) => product(10 + i, { body_html: longText })),
    );
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as { error: string }).error).toMatch(/max_payload/);

    const ordered = await postJson(a, "/admin/v1/merchants/north/orders", [basketOrder(100, [1, 2])]);
    expect(ordered.status).toBe(200);
    expect(seqOf(ordered)).toBe(productsSeq + 1);

    const uuid = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
    const viewed = await fetch(`${a.base}/api/v1/analytics/event?key=${key}&verb=viewed&uuid=${uuid}&platform_product_handle=product-3`, {
      method: "POST",
    });
    expect(viewed.status).toBe(200);
    const eventSeq = seqOf(viewed);
    expect(eventSeq).toBe(productsSeq + 2);

    const afterSeq = { "X-Aisle-After-Seq": String(eventSeq) };
    const readOn = async (node: typeof a, path: string) => {
      const res = await node.admin(path, { headers: afterSeq });
      expect(res.status).toBe(200);
      return res.text();
    };
    for (const path of ["/admin/v1/merchants/north/products/2", "/admin/v1/merchants/north/orders/100", "/admin/v1/merchants/north"]) {
      expect(await readOn(b, path)).toBe(await readOn(a, path));
    }
    // The view is B's too: the session's viewed products hold it.
    const recent = await fetch(`${b.base}/api/v1/products/viewed?key=${key}&uuid=${uuid}`, { headers: afterSeq });
    expect(recent.status).toBe(200);
    expect(((await recent.json()) as { data: { id: number }[] }).data.map((p) => p.id)).toEqual([3]);

    expect(await appliedSequence(b)).toBeGreaterThanOrEqual(eventSeq);
    expect(await appliedSequence(a)).toBeGreaterThanOrEqual(eventSeq);
  });

  it(
    "a PATCH on A is merged as every node holds the record when applied; one that would make it invalid is published nowhere",
    { timeout: 60_000 },
    async () => {
      const [a, b] = [cluster.node(0), cluster.node(1)];
      await createTestMerchant(a, "patched");
      expect((await postJson(a, "/admin/v1/merchants/patched/products", [product(1)])).status).toBe(200);
      const patch = (node: typeof a, body: unknown) =>
        node.admin("/admin/v1/merchants/patched/products/1", { method: "PATCH", body: JSON.stringify(body) });
      // Sent to both nodes at once: each merges into the record as the stream left it, so both fields land.
      const [onA, onB] = await Promise.all([patch(a, { title: "Patched on A" }), patch(b, { vendor: "Patched on B" })]);
      expect([onA.status, onB.status]).toEqual([200, 200]);
      const last = String(Math.max(seqOf(onA), seqOf(onB)));
      const readOn = async (node: typeof a) =>
        (await (await node.admin("/admin/v1/merchants/patched/products/1", { headers: { "X-Aisle-After-Seq": last } })).json()) as {
          title: string;
          vendor: string;
        };
      for (const node of [a, b]) expect(await readOn(node)).toMatchObject({ title: "Patched on A", vendor: "Patched on B" });
      const invalid = await patch(b, { variants: [{ id: 11, price: "cheap" }] });
      expect(invalid.status).toBe(400);
      expect(((await invalid.json()) as { error: string }).error).toMatch(/^products\[0\]\.variants\[0\]\.price: /);
      // B holds the record: it checks the patch on it and publishes nothing.
      expect(invalid.headers.get("x-aisle-seq")).toBeNull();
      for (const node of [a, b]) expect((await readOn(node)).title).toBe("Patched on A");
    },
  );
});

/** The built CLI run as an operator would, at the cluster's low priority; its exit code and output. */
function aisle(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile("nice", ["-n", String(NICENESS), process.execPath, CLI, ...args], { encoding: "utf8" }, (error, stdout, stderr) =>
      resolve({ status: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

/** The stream's last sequence, as its servers report it (asked again while JetStream is briefly unavailable, e.g. just started). */
async function streamLastSeq(): Promise<number> {
  const connection = await connect({ servers: nats.urls.split(",") });
  try {
    const manager = await jetstreamManager(connection, { checkAPI: false });
    let lastSeq = 0;
    await eventually(async () => {
      lastSeq = (await manager.streams.info("AISLE")).state.last_seq;
    });
    return lastSeq;
  } finally {
    await connection.close();
  }
}

describe("aisle merchants add and aisle import on a cluster", () => {
  const files = mkdtempSync(join(tmpdir(), "aisle-cluster-import-"));
  afterAll(() => rmSync(files, { recursive: true, force: true }));

  it("merchants add --nats creates a merchant whose key works on every node; its id is then taken", { timeout: 60_000 }, async () => {
    const added = await aisle([
      "merchants",
      "add",
      "--id",
      "cli-north",
      "--name",
      "CLI North",
      "--domain",
      "north.example.com",
      "--nats",
      nats.urls,
    ]);
    expect(added.status, added.stderr).toBe(0);
    const { api_key: key, seq } = JSON.parse(added.stdout) as { api_key: string; seq: number };
    expect(key).toMatch(/^pk_/);
    expect(seq).toBe(await streamLastSeq());
    const afterSeq = { "X-Aisle-After-Seq": String(seq) };
    for (const node of [cluster.node(0), cluster.node(1)]) {
      const viewed = await fetch(`${node.base}/api/v1/products/viewed?key=${key}&uuid=0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d`, {
        headers: afterSeq,
      });
      expect(viewed.status).toBe(200);
      expect((await node.admin("/admin/v1/merchants/cli-north", { headers: afterSeq })).status).toBe(200);
    }
    const again = await aisle([
      "merchants",
      "add",
      "--id",
      "cli-north",
      "--name",
      "Again",
      "--domain",
      "again.example.com",
      "--nats",
      nats.urls,
    ]);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain("Merchant cli-north already exists");
    expect(await streamLastSeq()).toBe(seq);

    // A creation that passed every check before (two racing at once): the stream itself stores only the first.
    const connection = await connect({ servers: nats.urls.split(",") });
    try {
      const racing = createMerchantCommand({ id: "cli-north", name: "Racing", domain: "racing.example.com", currency: "USD" });
      await expect(publishWrite(jetstream(connection), racing, randomUUID())).rejects.toThrow(AlreadyExistsError);
    } finally {
      await connection.close();
    }
    expect(await streamLastSeq()).toBe(seq);
  });

  it(
    "import --nats publishes a catalogue every node then answers with the same bytes; a bad file publishes nothing",
    { timeout: 60_000 },
    async () => {
      await createTestMerchant(cluster.node(1), "cli-south");
      writeFileSync(join(files, "products.ndjson"), Array.from({ length: 12 }, (_, i) => JSON.stringify(product(i + 1))).join("\n"));
      writeFileSync(
        join(files, "shop.json"),
        JSON.stringify({ collections: [{ id: 5, title: "All", product_ids: [1, 2] }], orders: [basketOrder(100, [1, 2])] }),
      );
      const before = await streamLastSeq();
      const imported = await aisle([
        "import",
        "--merchant",
        "cli-south",
        "--nats",
        nats.urls,
        join(files, "products.ndjson"),
        join(files, "shop.json"),
      ]);
      expect(imported.status, imported.stderr).toBe(0);
      expect(imported.stdout).toContain("imported 12 products, 1 collections, 1 orders into cli-south through the write stream");
      const seq = Number(/the last at sequence (\d+)/.exec(imported.stdout)?.[1]);
      // One message per kind: products, then collections, then orders, in that order.
      expect(seq).toBe(before + 3);
      expect(await streamLastSeq()).toBe(seq);

      const afterSeq = { "X-Aisle-After-Seq": String(seq) };
      for (const path of [
        "/admin/v1/merchants/cli-south/products?limit=250",
        "/admin/v1/merchants/cli-south/collections/5",
        "/admin/v1/merchants/cli-south/orders/100",
      ]) {
        const [fromA, fromB] = await Promise.all([cluster.node(0), cluster.node(1)].map((node) => node.admin(path, { headers: afterSeq })));
        expect(fromA!.status, path).toBe(200);
        const text = await fromA!.text();
        expect(await fromB!.text(), path).toBe(text);
        if (path.includes("/products")) expect((JSON.parse(text) as { data: unknown[] }).data).toHaveLength(12);
      }

      // One invalid object: the import is refused before anything is published.
      writeFileSync(
        join(files, "more-products.ndjson"),
        [JSON.stringify(product(13)), JSON.stringify({ id: 14, title: "No variants" })].join("\n"),
      );
      const invalid = await aisle(["import", "--merchant", "cli-south", "--nats", nats.urls, join(files, "more-products.ndjson")]);
      expect(invalid.status).toBe(2);
      expect(invalid.stderr).toContain("more-products.ndjson: 1 invalid object; nothing was written");
      expect(invalid.stderr).toContain("line 2: variants: is required");
      // A merchant the stream has never heard of: nothing published either.
      const unknown = await aisle(["import", "--merchant", "nobody", "--nats", nats.urls, join(files, "products.ndjson")]);
      expect(unknown.status).toBe(2);
      expect(unknown.stderr).toContain("the write stream holds no message of merchant nobody");
      expect(await streamLastSeq()).toBe(seq);
    },
  );
});

/**
 * Retries a write until a node acknowledges it (while a nats-server is down the stream may take seconds to elect a
 * leader); its sequence. The wait outlasts a node's own (30 s for a write it has not applied yet, answered 503) with
 * room for the retry after it.
 */
async function acknowledged(write: () => Promise<Response>, withinMs = 75_000): Promise<number> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    let res: Response | null = null;
    try {
      res = await write();
    } catch {
      // The node may be restarting: try again.
    }
    if (res?.status === 200) return seqOf(res);
    if (res && res.status !== 503) throw new Error(`write refused: ${res.status} ${await res.text()}`);
    if (Date.now() > deadline) throw new Error(`no write acknowledged within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Every event of the merchant's log on a node's data dir, in log order (LMDB lets another process read a dir a node serves from). */
async function loggedEvents(dataDir: string, merchant: string): Promise<unknown[]> {
  const store = Store.open(dataDir, { mustExist: true });
  try {
    return [...store.events.eventsSince(merchant, 0)].map(({ event }) => event);
  } finally {
    await store.close();
  }
}

describe("cluster failures", () => {
  // A test that fails half way leaves its nodes as they were then: the next test starts on a whole cluster regardless.
  afterEach(async () => {
    for (const [index, node] of cluster.nodes.entries()) if (node === null) await cluster.start(index);
  });

  it(
    "a node killed -9 under writes through another restarts and converges: same answers, nothing acknowledged lost",
    // Its waits are bounded on their own (30 s, 60 s, 60 s), each failing with what it waited for; on a loaded machine
    // they need more than two minutes together, and a test timeout would then hide which one ran out.
    { timeout: 240_000 },
    async () => {
      const a = cluster.node(0);
      const { api_key: key } = await createTestMerchant(a, "south");
      expect(
        (
          await postJson(
            a,
            "/admin/v1/merchants/south/products",
            [1, 2, 3, 4, 5].map((id) => product(id)),
          )
        ).status,
      ).toBe(200);

      const orders: number[] = [];
      const events: string[] = [];
      let highest = 0;
      let written = 0;
      let stopping = false;
      // Four clients through A: each write an event, an order or a product update, in turn.
      const client = async (n: number) => {
        for (let i = 0; !stopping; i++) {
          const id = n * 100_000 + i + 1;
          let res: Response;
          if (i % 3 === 0) {
            res = await postJson(a, "/admin/v1/merchants/south/orders", [basketOrder(id, [1 + (i % 5), 1 + ((i + 1) % 5)])]);
            if (res.status === 200) orders.push(id);
          } else if (i % 3 === 1) {
            const handle = `product-${1 + (i % 5)}`;
            res = await fetch(
              `${a.base}/api/v1/analytics/event?key=${key}&verb=viewed&uuid=00000000-0000-4000-8000-00000000000${n}&platform_product_handle=${handle}&theme_id=${id}`,
              { method: "POST" },
            );
            if (res.status === 200) events.push(String(id));
          } else {
            res = await postJson(a, "/admin/v1/merchants/south/products", [product(1 + (i % 5), { title: `Title ${id}` })]);
          }
          if (res.status !== 200) {
            stopping = true;
            throw new Error(`write ${i} of client ${n} refused: ${res.status} ${await res.text()}`);
          }
          highest = Math.max(highest, seqOf(res));
          written++;
        }
      };
      const load = Promise.all([0, 1, 2, 3].map(client));
      try {
        await eventually(() => expect(written).toBeGreaterThan(60), 30_000);
        await cluster.kill(1);
        const killedAt = written;
        await eventually(() => expect(written).toBeGreaterThan(killedAt + 150), 60_000);
      } finally {
        // Also when a wait ran out: the clients would otherwise go on writing through the next tests.
        stopping = true;
      }
      await load;

      const b = await cluster.start(1);
      await eventually(async () => expect(await appliedSequence(b)).toBeGreaterThanOrEqual(highest), 60_000);
      expect((await fetch(`${b.base}/readyz`)).status).toBe(200);
      const same = async (path: string, client: (node: AdminApi & { base: string }) => Promise<Response>) => {
        const [fromA, fromB] = await Promise.all([client(a), client(b)]);
        expect(fromB.status).toBe(200);
        expect(await fromB.text()).toBe(await fromA.text());
      };
      for (const id of orders) await same(`orders/${id}`, (node) => node.admin(`/admin/v1/merchants/south/orders/${id}`));
      await same("products", (node) => node.admin("/admin/v1/merchants/south/products?limit=250"));
      for (const n of [0, 1, 2, 3]) {
        await same(`viewed ${n}`, (node) =>
          fetch(`${node.base}/api/v1/products/viewed?key=${key}&uuid=00000000-0000-4000-8000-00000000000${n}`),
        );
      }

      // Stopped, the two logs are one: the same events in the same order, every acknowledged one there once.
      await Promise.all([cluster.halt(0), cluster.halt(1)]);
      const [logA, logB] = await Promise.all([loggedEvents(cluster.dataDir(0), "south"), loggedEvents(cluster.dataDir(1), "south")]);
      expect(logB).toEqual(logA);
      const themes = logB.map((event) => (event as { theme_id: string }).theme_id);
      expect(new Set(themes).size).toBe(themes.length);
      expect(events.filter((id) => !themes.includes(id))).toEqual([]);
      await Promise.all([cluster.start(0), cluster.start(1)]);
    },
  );

  it(
    "with one of the three nats-servers stopped, writes go on through every node and each reads the others'",
    // Above its two bounded waits for an acknowledged write (75 s each).
    { timeout: 200_000 },
    async () => {
      const [a, b] = [cluster.node(0), cluster.node(1)];
      await createTestMerchant(a, "west");
      // B validates its own write against the merchant it has applied: it must have applied the creation first.
      await eventually(async () => expect((await b.admin("/admin/v1/merchants/west")).status).toBe(200));
      // The stream leader's server, the hardest one to lose: the other two elect a new leader.
      const connection = await connect({ servers: nats.urls.split(",") });
      const leaderName = (await (await jetstreamManager(connection)).streams.info("AISLE")).cluster?.leader;
      await connection.close();
      const leader = nats.servers.findIndex((server) => server.name === leaderName);
      expect(leader).toBeGreaterThanOrEqual(0);
      await nats.stopServer(leader);
      try {
        const fromA = await acknowledged(() => postJson(a, "/admin/v1/merchants/west/products", [product(1)]));
        const fromB = await acknowledged(() => postJson(b, "/admin/v1/merchants/west/products", [product(2)]));
        for (const [node, id, seq] of [
          [b, 1, fromA],
          [a, 2, fromB],
        ] as const) {
          const res = await node.admin(`/admin/v1/merchants/west/products/${id}`, { headers: { "X-Aisle-After-Seq": String(seq) } });
          expect(res.status).toBe(200);
        }
      } finally {
        nats.startServer(leader);
      }
    },
  );

  it(
    "a node started from another's snapshot catches up from the place it holds and answers as the others",
    { timeout: 120_000 },
    async () => {
      const a = cluster.node(0);
      const { api_key: key } = await createTestMerchant(a, "east");
      const uuid = "00000000-0000-4000-8000-0000000000e1";
      const view = (handle: string) =>
        fetch(`${a.base}/api/v1/analytics/event?key=${key}&verb=viewed&uuid=${uuid}&platform_product_handle=${handle}`, { method: "POST" });
      expect(
        (
          await postJson(
            a,
            "/admin/v1/merchants/east/products",
            [1, 2, 3].map((id) => product(id)),
          )
        ).status,
      ).toBe(200);
      expect((await view("product-1")).status).toBe(200);

      const out = join(mkdtempSync(join(tmpdir(), "aisle-snapshot-")), "copy");
      const printed = execFileSync(process.execPath, [CLI, "snapshot", "--data", cluster.dataDir(0), "--out", out], { encoding: "utf8" });
      const held = Number(/write stream applied through (\d+)/.exec(printed)?.[1]);
      expect(held).toBeGreaterThan(0);

      // Written after the snapshot: the new node takes these from the stream.
      expect((await postJson(a, "/admin/v1/merchants/east/orders", [basketOrder(7, [1, 2])])).status).toBe(200);
      let highest = 0;
      for (const handle of ["product-2", "product-3"]) highest = seqOf(await view(handle));
      expect(highest).toBeGreaterThan(held);

      const started = performance.now();
      const c = await serveInChild(out, { AISLE_NATS_URL: nats.urls, AISLE_NATS_REPLICAS: "3" }, { niceness: NICENESS });
      try {
        await eventually(async () => expect(await appliedSequence(c)).toBeGreaterThanOrEqual(highest), 60_000);
        console.log(
          `a node started from a snapshot ${highest - held} messages behind was level with the stream ${Math.round(performance.now() - started)} ms after its start`,
        );
        for (const path of ["/admin/v1/merchants/east/orders/7", "/admin/v1/merchants/east/products?limit=250"]) {
          expect(await (await c.admin(path)).text()).toBe(await (await a.admin(path)).text());
        }
        const viewed = `/api/v1/products/viewed?key=${key}&uuid=${uuid}`;
        expect(await (await fetch(`${c.base}${viewed}`)).text()).toBe(await (await fetch(`${a.base}${viewed}`)).text());
        c.child.kill("SIGTERM");
        await c.exited;
        // The snapshot's events are not logged again: the copy's log is A's, event for event.
        const [fromA, fromC] = [await loggedEvents(cluster.dataDir(0), "east"), await loggedEvents(out, "east")];
        expect(fromC).toEqual(fromA);
      } finally {
        c.child.kill("SIGKILL");
        rmSync(dirname(out), { recursive: true, force: true });
      }
    },
  );

  // Last: it stops the nodes applying the stream.
  it(
    "a node that meets a write it cannot apply stops there and answers /readyz with 503, instead of skipping it",
    { timeout: 60_000 },
    async () => {
      const [a, b] = [cluster.node(0), cluster.node(1)];
      expect((await fetch(`${a.base}/readyz`)).status).toBe(200);
      const connection = await connect({ servers: nats.urls.split(",") });
      const seq = (await jetstream(connection).publish("aisle.west.from-a-newer-build", "{}")).seq;
      await connection.close();
      for (const node of [a, b]) {
        await eventually(async () => {
          const res = await fetch(`${node.base}/readyz`);
          expect(res.status).toBe(503);
          expect(await res.text()).toContain(`stopped at message ${seq}`);
        }, 30_000);
        expect(await appliedSequence(node)).toBe(seq - 1);
      }
    },
  );
});
