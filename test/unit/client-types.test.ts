// The typed client's types are generated from /openapi.json into a file git
// ignores; this keeps the file a unit run (no build) compiles against current.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { API_TYPES_FILE, apiTypesSource } from "../../client/codegen/write-api-types.js";
import { createClient, OPERATIONS } from "../../client/src/index.js";
import { STOREFRONT_ENDPOINTS } from "../../src/core/api/endpoints.js";

it(`${API_TYPES_FILE} is what the generator writes from the current /openapi.json (npm run build writes it again)`, async () => {
  expect(readFileSync(API_TYPES_FILE, "utf8")).toBe(await apiTypesSource());
});

it("gives the client one method per storefront operation of /openapi.json", () => {
  const documented = STOREFRONT_ENDPOINTS.map((endpoint) => endpoint.operationId);
  expect(Object.keys(OPERATIONS)).toEqual(documented);
  const client = createClient({ baseUrl: "http://127.0.0.1:9", key: "pk_test" }) as unknown as Record<string, unknown>;
  for (const id of documented) expect(typeof client[id], id).toBe("function");
});
