// Reaching the nats-servers: the connection every part of a node opens the
// same way, and JetStream requests asked again while the servers are still
// coming up.
import { JetStreamApiError } from "@nats-io/jetstream";
import { connect, TimeoutError, type NatsConnection } from "@nats-io/transport-node";
import type { Logger } from "../observability/logger.js";

/** JetStream API requests (stream info and creation, object store requests) wait this long for an answer. */
export const API_TIMEOUT_MS = 10_000;

/**
 * A node starting while the servers are starting too, or electing a leader,
 * gets timeouts or "temporarily unavailable" for a while: it asks again for
 * this long before it gives up starting.
 */
const START_WITHIN_MS = 60_000;

/** A connection to the servers of `urls` (comma-separated) that keeps trying them for as long as the node runs. */
export function connectToServers(urls: string): Promise<NatsConnection> {
  return connect({
    servers: urls.split(","),
    name: "aisle",
    // Writes fail while no server answers; reads go on.
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
  });
}

/** `request`'s answer, asked again while JetStream does not answer (a timeout, or a 503 while it has no leader) until START_WITHIN_MS. */
/**
 * "No suitable peers for placement": just after the servers start, some have
 * not yet reported to the cluster's leader, and a replicated stream or bucket
 * cannot be placed for a moment (seen as 3-server test clusters start).
 * More replicas than servers gives it too: asking again then ends at the
 * start's deadline with this error.
 */
const NO_SUITABLE_PEERS_YET = 10005;

/** JetStream did not answer (a timeout, no leader for the moment, servers not all known yet): a moment to wait out, not a setting to fix. */
export function worthAskingAgain(error: unknown): boolean {
  return (
    error instanceof TimeoutError || (error instanceof JetStreamApiError && (error.status === 503 || error.code === NO_SUITABLE_PEERS_YET))
  );
}

export async function untilAnswered<T>(request: () => Promise<T>, log: Logger): Promise<T> {
  const deadline = Date.now() + START_WITHIN_MS;
  for (;;) {
    try {
      return await request();
    } catch (error) {
      if (!worthAskingAgain(error) || Date.now() > deadline) throw error;
      log.warn("JetStream did not answer yet; asking again", { error: String(error) });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
