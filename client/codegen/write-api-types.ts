// Writes the typed client's types (client/src/api.ts) from the storefront
// operations of /openapi.json. The file is a build output, not source: git
// ignores it, `npm run build` writes it before compiling the client, and
// `npm ci` builds (the prepare script), so a fresh clone has it before its
// first lint or typecheck. Paths are from the repository root, where npm runs
// scripts and vitest runs tests.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { format, resolveConfig } from "prettier";
import { STOREFRONT_ENDPOINTS } from "../../src/core/api/endpoints.js";
import { buildOpenApi } from "../../src/core/api/openapi.js";
import { VERSION } from "../../src/version.js";
import { typescriptFromOpenApi, type OpenApiDocument } from "./typescript-from-openapi.js";

export const API_TYPES_FILE = "client/src/api.ts";

const HEADER = "// Generated from /openapi.json by client/codegen/write-api-types.ts (npm run build): do not edit.";

/** The file as it follows from the current endpoint definitions, formatted as the repository formats TypeScript. */
export async function apiTypesSource(): Promise<string> {
  // Only storefront operations become client methods, so the admin and webhook routes are left out of the document.
  const document = buildOpenApi(STOREFRONT_ENDPOINTS, [], { version: VERSION, publicUrl: null }) as OpenApiDocument;
  const tags = [...new Set(STOREFRONT_ENDPOINTS.map((endpoint) => endpoint.tag))];
  const source = typescriptFromOpenApi(document, { tags, header: HEADER });
  return format(source, { ...(await resolveConfig(API_TYPES_FILE)), parser: "typescript" });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const source = await apiTypesSource();
  // An unchanged file keeps its time stamp: the client's incremental compile and `npm start`'s change check then skip it.
  if (!existsSync(API_TYPES_FILE) || readFileSync(API_TYPES_FILE, "utf8") !== source) writeFileSync(API_TYPES_FILE, source);
}
