import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration suites each start a real server and worker pool; on two cores,
    // running files two at a time keeps them from starving each other.
    maxWorkers: 2,
  },
});
