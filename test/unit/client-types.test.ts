// The typed client's types are generated from /openapi.json; this keeps the
// committed file equal to what the generator writes from the current document.
import { format, resolveConfig } from "prettier";
import { expect, it } from "vitest";
import { typescriptFromOpenApi, type OpenApiDocument } from "../../client/codegen/typescript-from-openapi.js";
import { createClient, OPERATIONS } from "../../client/src/index.js";
import { STOREFRONT_ENDPOINTS } from "../../src/core/api/endpoints.js";
import { servedOpenApi } from "../helpers/openapi-checker.js";

const FILE = "client/src/api.ts";
const HEADER = [
  "// Generated from /openapi.json by client/codegen/typescript-from-openapi.ts: do not edit.",
  "// After the document changes, write it again: npx vitest run test/unit/client-types.test.ts --update",
].join("\n");

it(`${FILE} is what the generator writes from the current /openapi.json`, async () => {
  const tags = [...new Set(STOREFRONT_ENDPOINTS.map((endpoint) => endpoint.tag))];
  const source = typescriptFromOpenApi(servedOpenApi() as OpenApiDocument, { tags, header: HEADER });
  const formatted = await format(source, { ...(await resolveConfig(FILE)), parser: "typescript" });
  await expect(formatted).toMatchFileSnapshot(`../../${FILE}`);
});

it("gives the client one method per storefront operation of /openapi.json", () => {
  const documented = STOREFRONT_ENDPOINTS.map((endpoint) => endpoint.operationId);
  expect(Object.keys(OPERATIONS)).toEqual(documented);
  const client = createClient({ baseUrl: "http://127.0.0.1:9", key: "pk_test" }) as unknown as Record<string, unknown>;
  for (const id of documented) expect(typeof client[id], id).toBe("function");
});
