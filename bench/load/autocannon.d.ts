// The part of autocannon 8's API the load client uses. autocannon ships no
// types; declaring the few calls here keeps the bench strict without adding a
// dependency (@types/autocannon tracks v7 anyway).
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      /** Called each time the request is built (before every send); returns the request to send. */
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
    }

    interface Options {
      url: string;
      /** Method of `url` when no `requests` are given. */
      method?: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      pipelining?: number;
      /** Seconds before a request counts as timed out. */
      timeout?: number;
      headers?: Record<string, string>;
      /** Each connection cycles through these in order. */
      requests?: Request[];
    }

    /** Percentiles are keyed p0_001 … p99_999; only those read here are listed. */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
      [percentile: string]: number;
    }

    interface Result {
      url: string;
      connections: number;
      pipelining: number;
      /** Seconds. */
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      /** Responses by status class over the whole run (warm-up included): "1xx" … "5xx". */
      "2xx": number;
      resets: number;
      statusCodeStats: Record<string, { count: number }>;
      /** Milliseconds, recorded as whole milliseconds by autocannon's histogram. */
      latency: Histogram;
      /** Requests per second, one sample per second. */
      requests: Histogram & { sent: number };
      /** Bytes per second. */
      throughput: Histogram;
    }

    /** Emits "response" (client, statusCode, resBytes, responseTimeMs) for every response. */
    type Instance = EventEmitter;
  }

  function autocannon(options: autocannon.Options, callback: (error: Error | null, result: autocannon.Result) => void): autocannon.Instance;

  export = autocannon;
}
