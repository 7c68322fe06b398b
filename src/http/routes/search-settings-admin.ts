// The admin API of search merchandising, /admin/v1/merchants/:merchant/search-settings:
// read, replace whole, reset. Keyed by the merchant in the path only, so no
// request reaches another merchant's settings. The spec's own quick-view
// settings endpoint (GET /api/v1/smart-search/settings/quick-view) stays the
// deprecated 404 it is: settings are the merchant's, written with the admin
// token, never read with a storefront's public key.
import type { OperationDoc } from "../../core/api/openapi.js";
import { readSearchSettings, type SearchSettingsAnswer } from "../../ingest/search-settings.js";
import { resetSearchSettingsCommand, searchSettingsCommand, type Writes } from "../../ingest/write-commands.js";
import { adminOperation, adminRouteOf, merchantOfPath } from "../admin-routes.js";
import { bodyJson } from "../request.js";
import { jsonReply } from "../respond.js";
import type { Route } from "../router.js";
import type { Services } from "../services.js";
import { withSeq } from "../stream-sequence.js";

const SETTINGS_PATH = "/admin/v1/merchants/:merchant/search-settings";

const SETTINGS_FORMAT =
  "{keyword_groups?: [{id, queries: [text], match?: exact|prefix, promoted?: [product id], promote_mode?: pin|boost, redirect?: url or /path, hidden?: [product id]}], " +
  "excluded_terms?: [text], excluded_products?: [id], excluded_collections?: [id], excluded_tags?: [tag], " +
  'synonyms?: [{type: "one_way", root, synonyms: [text]} | {type: "two_way", synonyms: [text]}]} (the README\'s settings format)';

export const SEARCH_SETTINGS_OPERATIONS: OperationDoc[] = [
  adminOperation({
    method: "GET",
    path: SETTINGS_PATH,
    operationId: "getSearchSettings",
    summary:
      "A merchant's quick-view search merchandising, as stored (the empty settings when none were written) → {data, metadata: {version, warnings}} (warnings: products and collections it names that the shop lacks)",
  }),
  adminOperation({
    method: "PUT",
    path: SETTINGS_PATH,
    operationId: "putSearchSettings",
    requestBody: SETTINGS_FORMAT,
    summary:
      "Replace the search settings whole; an invalid body is a 400 naming the field (keyword_groups[1].queries[0]: …), and nothing is written. The next search answers by the new settings.",
  }),
  adminOperation({
    method: "DELETE",
    path: SETTINGS_PATH,
    operationId: "resetSearchSettings",
    summary: "Reset to no merchandising: search answers as it does without settings → {data: the empty settings, metadata}",
  }),
];

const answer = ({ settings, version, warnings }: SearchSettingsAnswer) =>
  jsonReply(200, { data: settings, metadata: { version, warnings } });

/** Every write goes through `writes` (at once on a single box, through the stream on a cluster node). */
export function searchSettingsAdminRoutes(services: Services, writes: Writes): Route[] {
  const { store } = services;
  const route = adminRouteOf(services);
  return [
    route("GET", SETTINGS_PATH, false, (request) => answer(readSearchSettings(store, merchantOfPath(services, request).id))),
    route("PUT", SETTINGS_PATH, true, async (request) => {
      const merchant = merchantOfPath(services, request);
      const { result, seq } = await writes.submit(searchSettingsCommand(merchant.id, bodyJson(request, "search settings")));
      return withSeq(answer(result), seq);
    }),
    route("DELETE", SETTINGS_PATH, false, async (request) => {
      const merchant = merchantOfPath(services, request);
      const { result, seq } = await writes.submit(resetSearchSettingsCommand(merchant.id));
      return withSeq(answer(result), seq);
    }),
  ];
}
