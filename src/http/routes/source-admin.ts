// The admin API of custom sources, under /admin/v1/merchants/:merchant/sources:
// create, replace, read, list and delete. Everything is keyed by the merchant
// in the path: a source id of another merchant is a 404, as an unknown one is.
import type { OperationDoc } from "../../core/api/openapi.js";
import type { CustomSource } from "../../core/sources/definition.js";
import type { Merchant } from "../../core/types.js";
import { ApiError } from "../../errors.js";
import { catalogueWarnings } from "../../ingest/custom-sources.js";
import { deleteSourceCommand, sourcesCommand, type Writes } from "../../ingest/write-commands.js";
import { bodyJson, quoted } from "../request.js";
import { jsonReply } from "../respond.js";
import type { RequestInfo, Route } from "../router.js";
import type { Services } from "../services.js";
import { adminOperation, adminRouteOf, merchantOfPath } from "../admin-routes.js";
import { withSeq } from "../stream-sequence.js";

const SOURCES_PATH = "/admin/v1/merchants/:merchant/sources";
const SOURCE_PATH = `${SOURCES_PATH}/:source_id`;

const RULE_FORMAT =
  "{id, name, description?, rules: [{if?: {join?: and|or, conditions: [{field, operator, values}]}, return: {kind, …}, exit_if_matched?, pin?, boost?, bury?, exclude?}], fallback?} (the README's rule format)";

export const SOURCE_ADMIN_OPERATIONS: OperationDoc[] = [
  adminOperation({
    method: "POST",
    path: SOURCES_PATH,
    operationId: "createSource",
    summary:
      "Create a custom source; an invalid rule is a 400 naming the rule and the field, and nothing is written. → {data: source, metadata: {version, warnings}} (warnings: products and collections it names that the shop lacks)",
    requestBody: RULE_FORMAT,
    successStatus: 201,
  }),
  adminOperation({
    method: "GET",
    path: SOURCES_PATH,
    operationId: "listCustomSources",
    summary: "A merchant's custom sources, in id order → {data}",
  }),
  adminOperation({
    method: "GET",
    path: SOURCE_PATH,
    operationId: "getSource",
    summary: "One custom source, as stored → {data, metadata: {version, warnings}}",
  }),
  adminOperation({
    method: "PUT",
    path: SOURCE_PATH,
    operationId: "putSource",
    summary: "Create or replace a custom source; validated as a create. The next storefront request answers from the new rules.",
    requestBody: RULE_FORMAT,
  }),
  adminOperation({ method: "DELETE", path: SOURCE_PATH, operationId: "deleteSource", summary: "Delete a custom source → {deleted: id}" }),
];

/** Every write goes through `writes` (at once on a single box, through the stream on a cluster node). */
export function sourceAdminRoutes(services: Services, writes: Writes): Route[] {
  const { store } = services;
  const route = adminRouteOf(services);
  const merchantOf = (request: RequestInfo): Merchant => merchantOfPath(services, request);
  const answer = (status: number, source: CustomSource, version: number, warnings: string[]) =>
    jsonReply(status, { data: source, metadata: { version, warnings } });

  return [
    route("POST", SOURCES_PATH, true, async (request) => {
      const merchant = merchantOf(request);
      const { result, seq } = await writes.submit(sourcesCommand(merchant.id, [bodyJson(request, "source")], { onlyNew: true }));
      return withSeq(answer(201, result.sources[0]!, result.version, result.warnings), seq);
    }),
    route("GET", SOURCES_PATH, false, (request) => {
      const merchant = merchantOf(request);
      return jsonReply(200, { data: store.customSources.list(merchant.id).map(({ source }) => source) });
    }),
    route("GET", SOURCE_PATH, false, (request) => {
      const merchant = merchantOf(request);
      const id = request.params.source_id ?? "";
      const stored = store.customSources.get(merchant.id, id);
      if (!stored) throw new ApiError("not_found", `No source ${quoted(id)}`);
      return answer(200, stored.source, stored.version, catalogueWarnings(store, merchant.id, stored.source));
    }),
    route("PUT", SOURCE_PATH, true, async (request) => {
      const merchant = merchantOf(request);
      const pathId = request.params.source_id ?? "";
      const { result, seq } = await writes.submit(sourcesCommand(merchant.id, [bodyJson(request, "source")], { pathId }));
      return withSeq(answer(200, result.sources[0]!, result.version, result.warnings), seq);
    }),
    route("DELETE", SOURCE_PATH, false, async (request) => {
      const merchant = merchantOf(request);
      const id = request.params.source_id ?? "";
      const { result: removed, seq } = await writes.submit(deleteSourceCommand(merchant.id, id));
      if (!removed) throw new ApiError("not_found", `No source ${quoted(id)}`);
      return withSeq(jsonReply(200, { deleted: id }), seq);
    }),
  ];
}
