import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration suites each start a real server and worker pool; on two cores,
    // running files two at a time keeps them from starving each other.
    maxWorkers: 2,
    projects: [
      // Pure code and in-process parts: no build needed (`npm run test:unit`).
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"] } },
      // Real LMDB, worker threads running the compiled workers, real servers: after `npm run build`.
      // Every response a test receives through fetch is checked against /openapi.json.
      {
        extends: true,
        test: { name: "integration", include: ["test/integration/**/*.test.ts"], setupFiles: ["test/helpers/check-responses.setup.ts"] },
      },
      // The demo storefront in Debian's chromium (playwright-core), against a real service: after `npm run build`.
      {
        extends: true,
        test: { name: "browser", include: ["test/browser/**/*.test.ts"], setupFiles: ["test/helpers/check-responses.setup.ts"] },
      },
    ],
  },
});
