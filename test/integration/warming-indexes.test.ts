import { describe, expect, it } from "vitest";
import { ResponseCache } from "../../src/cache/response-cache.js";
import { loadConfig } from "../../src/config.js";
import { VIEWED_RELATED } from "../../src/core/api/endpoints.js";
import { parseQuery } from "../../src/core/params/query.js";
import { storefrontRoutes } from "../../src/http/routes/storefront.js";
import type { Services } from "../../src/http/services.js";
import { NO_PENDING } from "../../src/ingest/pending-events.js";
import type { TaskResult } from "../../src/pool/protocol.js";
import { storeWithMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-warming-");

describe("answers from an index still warming up after a start", () => {
  it("viewed-related route: an answer from the session index still being read carries X-Aisle-Partial; a complete one does not", async () => {
    const dataDir = tempDir();
    const store = await storeWithMerchant(dataDir);
    try {
      const answers: TaskResult[] = [
        {
          ok: true,
          body: new TextEncoder().encode('{"partial":true}'),
          warming: "session index warming up: related products come from the sessions read so far",
        },
        { ok: true, body: new TextEncoder().encode('{"partial":false}') },
      ];
      let runs = 0;
      const pool = { run: async () => answers[Math.min(runs++, answers.length - 1)]!, queueSize: 0 };
      const services = {
        store,
        cache: new ResponseCache(1 << 20),
        pool,
        pendingEvents: { pendingFor: () => NO_PENDING },
        now: () => Date.now(),
        config: loadConfig({}, { dataDir }),
      } as unknown as Services;
      const route = storefrontRoutes(services).find((candidate) => candidate.pattern === VIEWED_RELATED.path)!;
      const ask = async () =>
        route.handle({
          method: "GET",
          path: route.pattern,
          query: parseQuery("key=pk_shop&uuid=5b0e7c2a-8f1d-4e3b-9a6c-2d4f8e1b7a90"),
          headers: {},
          body: null,
          params: {},
        });
      const partial = await ask();
      expect(partial.headers?.["X-Aisle-Partial"]).toMatch(/session index warming up/);
      const complete = await ask();
      expect(complete.headers?.["X-Aisle-Partial"]).toBeUndefined();
      expect(new TextDecoder().decode(complete.body as Uint8Array)).toBe('{"partial":false}');
    } finally {
      await store.close();
    }
  });
});
