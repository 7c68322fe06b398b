// A cluster node's place in the write stream: the sequence of the last stream
// message applied, one per environment, each put in the write batch of the
// message's own writes. LMDB commits every write of one event-loop turn as one
// transaction (lmdb's event-turn batching), so the watermark moves if and only
// if the writes it stands for commit: each message is applied exactly once,
// across crashes too. A single box never writes them.
import type { Environment } from "./environment.js";

const STREAM_APPLIED = "stream_applied";
const STREAM_CREATED = "stream_created";

export class StreamWatermarks {
  constructor(private readonly env: Environment) {}

  /** The last stream sequence applied to the main environment (catalogue and every other write) and to the event log; 0: none. */
  applied(): { main: number; log: number } {
    return {
      main: (this.env.meta.get(STREAM_APPLIED) as number | undefined) ?? 0,
      log: (this.env.logMeta.get(STREAM_APPLIED) as number | undefined) ?? 0,
    };
  }

  /**
   * The write stream this store's places are in (its creation time), or
   * undefined before the node first joined one: a stream deleted and made
   * anew starts its sequences again, so a place means something only in it.
   */
  stream(): string | undefined {
    return this.env.meta.get(STREAM_CREATED) as string | undefined;
  }

  /** Records the stream (once, as the node first joins it). */
  async joinStream(created: string): Promise<void> {
    await this.env.meta.put(STREAM_CREATED, created);
  }

  /** Joins the main environment's write batch under way: call it in the same turn as the message's writes. */
  noteMain(seq: number): void {
    void this.env.meta.put(STREAM_APPLIED, seq);
  }

  /** Joins the event log's write batch under way: call it in the same turn as the message's events are logged. */
  noteLog(seq: number): Promise<boolean> {
    return this.env.logMeta.put(STREAM_APPLIED, seq);
  }
}
