// The test harness's nats-servers: a 3-server cluster replicates a stream
// three ways and keeps taking writes with one server down; stopping the
// cluster leaves no process and no dir behind.
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { startNatsCluster, type NatsCluster } from "../helpers/nats-cluster.js";

const started: NatsCluster[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((cluster) => cluster.stop()));
});

async function start(size: 1 | 3): Promise<NatsCluster> {
  const cluster = await startNatsCluster(size);
  started.push(cluster);
  return cluster;
}

describe("nats-server harness", () => {
  it("a 3-server cluster replicates a stream three ways and takes writes with one server stopped", { timeout: 60_000 }, async () => {
    const cluster = await start(3);
    const connection = await connect({ servers: cluster.urls.split(",") });
    try {
      const manager = await jetstreamManager(connection);
      await manager.streams.add({ name: "harness", subjects: ["harness.>"], num_replicas: 3 });
      const stream = jetstream(connection);
      expect((await stream.publish("harness.a", "one")).seq).toBe(1);
      const info = await manager.streams.info("harness");
      expect(info.config.num_replicas).toBe(3);
      expect(info.cluster?.replicas ?? []).toHaveLength(2);

      const leader = cluster.servers.findIndex((server) => server.name === info.cluster?.leader);
      expect(leader).toBeGreaterThanOrEqual(0);
      // The stream's leader, the hardest one to lose: the other two elect a new one.
      await cluster.stopServer(leader);
      expect(cluster.servers[leader]!.running).toBe(false);
      const deadline = Date.now() + 20_000;
      let seq = 0;
      while (seq === 0 && Date.now() < deadline) {
        try {
          seq = (await stream.publish("harness.a", "two", { timeout: 2_000 })).seq;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
      expect(seq).toBe(2);
      expect((await manager.streams.info("harness")).state.messages).toBe(2);
    } finally {
      await connection.close();
    }
  });

  it("a single server has JetStream; stop() ends its process and removes its dir", async () => {
    const cluster = await start(1);
    const connection = await connect({ servers: cluster.urls });
    const manager = await jetstreamManager(connection);
    expect((await manager.getAccountInfo()).streams).toBe(0);
    await connection.close();
    expect(existsSync(cluster.servers[0]!.dir)).toBe(true);
    await cluster.stop();
    started.length = 0;
    expect(cluster.servers[0]!.running).toBe(false);
    expect(existsSync(cluster.servers[0]!.dir)).toBe(false);
    await expect(connect({ servers: cluster.urls, timeout: 500, reconnect: false })).rejects.toThrow();
  });
});
