import type { OperationDoc } from "../../core/api/openapi.js";
import { isPlainObject, parseId } from "../../core/ingest/fields.js";
import { normaliseRateLimits } from "../../core/ingest/records.js";
import { RATE_CLASSES, type RateLimit, type RateLimits } from "../../core/rate-limit.js";
import type { Merchant } from "../../core/types.js";
import { ApiError } from "../../errors.js";
import { INGEST_KINDS, isIngestKind, type IngestKind } from "../../ingest/ingest.js";
import { isPatchable, PATCHABLE_KINDS } from "../../ingest/patch.js";
import { MAX_PAGE, readPage, readRecord } from "../../ingest/read-back.js";
import { parseObjects } from "../../ingest/payload.js";
import {
  createMerchantCommand,
  deleteCommand,
  rateLimitsCommand,
  patchCommand,
  upsertCommand,
  type WriteCommand,
  type Writes,
} from "../../ingest/write-commands.js";
import { WriteNotApplied } from "../../ingest/write-not-applied.js";
import { forgetVerifiedKeys } from "../auth.js";
import { bodyJson, bodyText, quoted } from "../request.js";
import { jsonReply } from "../respond.js";
import type { RequestInfo, Route } from "../router.js";
import type { Services } from "../services.js";
import { adminOperation, adminRouteOf, merchantOfPath } from "../admin-routes.js";
import { withSeq } from "../stream-sequence.js";
import { SEARCH_SETTINGS_OPERATIONS } from "./search-settings-admin.js";
import { SOURCE_ADMIN_OPERATIONS } from "./source-admin.js";

/** A listing's page: `after` a cursor (an id), `limit` up to MAX_PAGE. */
function pageOf(request: RequestInfo): { after: number | null; limit: number } {
  const rawAfter = request.query.get("after");
  const after = rawAfter === null || rawAfter === "" ? null : parseId(rawAfter);
  if (after === null && rawAfter !== null && rawAfter !== "")
    throw new ApiError("invalid_params", `Invalid after: "${quoted(rawAfter)}" is not an id`);
  const rawLimit = request.query.get("limit");
  const limit = rawLimit === null ? DEFAULT_PAGE : /^\d{1,4}$/.test(rawLimit) ? Number(rawLimit) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_PAGE))
    throw new ApiError("invalid_params", `Invalid limit: must be a whole number from 1 to ${MAX_PAGE}`);
  return { after, limit };
}

const DEFAULT_PAGE = 50;

/** The merchant as the admin API shows it: everything but its secrets (the key and webhook secret are shown once, at creation). */
function merchantRecord(merchant: Merchant) {
  const { api_key: _key, webhook_secret: _secret, ...shown } = merchant;
  return shown;
}

/** The merchant's own limits and the ones in force, per class (null: no limit), in the admin API's spelling. */
function rateLimitsOf(merchant: Merchant, defaults: RateLimits) {
  const spelt = (limit: RateLimit | null) => (limit === null ? null : { per_second: limit.perSecond, burst: limit.burst });
  const own = merchant.rate_limits ?? {};
  return {
    own: Object.fromEntries(Object.entries(own).map(([name, limit]) => [name, spelt(limit)])),
    effective: Object.fromEntries(RATE_CLASSES.map((name) => [name, spelt(own[name] === undefined ? defaults[name] : own[name])])),
  };
}

function publicMerchant(merchant: Merchant): Record<string, string> {
  const { id, name, domain, currency } = merchant;
  return { id, name, domain, currency };
}

/** "products" → "Products"; singular: "Product". */
const titled = (kind: string) => `${kind[0]!.toUpperCase()}${kind.slice(1)}`;
const oneOf = (kind: string) => titled(kind).slice(0, -1);

export const ADMIN_OPERATIONS: OperationDoc[] = [
  adminOperation({ method: "GET", path: "/admin/v1/merchants", operationId: "listMerchants", summary: "List merchants" }),
  adminOperation({
    method: "POST",
    path: "/admin/v1/merchants",
    operationId: "createMerchant",
    summary: "Create a merchant: {id, name, domain, currency} → {id, api_key, webhook_secret}",
    requestBody: "{id, name, domain, currency}",
    successStatus: 201,
  }),
  ...INGEST_KINDS.map((kind) =>
    adminOperation({
      method: "POST",
      path: `/admin/v1/merchants/:merchant/${kind}`,
      operationId: `upsert${titled(kind)}`,
      summary: `Upsert ${kind} by id (JSON array, one object, or NDJSON); all or nothing`,
      requestBody: `${kind} in the platform's Admin REST shape`,
    }),
  ),
  adminOperation({
    method: "GET",
    path: "/admin/v1/merchants/:merchant/rate-limits",
    operationId: "getRateLimits",
    summary: "A merchant's own rate limits and those in force",
  }),
  adminOperation({
    method: "PUT",
    path: "/admin/v1/merchants/:merchant/rate-limits",
    operationId: "setRateLimits",
    summary: "Replace a merchant's own rate limits: per class {per_second, burst?} or null (no limit); classes left out follow the service",
    requestBody: `{${RATE_CLASSES.join("?, ")}?}`,
  }),
  adminOperation({
    method: "GET",
    path: "/admin/v1/merchants/:merchant",
    operationId: "getMerchant",
    summary: "A merchant, without its secrets",
  }),
  ...INGEST_KINDS.flatMap((kind) => [
    adminOperation({
      method: "GET",
      path: `/admin/v1/merchants/:merchant/${kind}`,
      operationId: `list${titled(kind)}`,
      summary: `List ${kind} in id order, as the admin API takes them: ?limit (1 to ${MAX_PAGE}, default 50) and ?after (the next cursor of the page before) → {data, next}`,
    }),
    adminOperation({
      method: "GET",
      path: `/admin/v1/merchants/:merchant/${kind}/:id`,
      operationId: `get${oneOf(kind)}`,
      summary: `One of the ${kind}, as the admin API takes it`,
    }),
  ]),
  ...PATCHABLE_KINDS.map((kind) =>
    adminOperation({
      method: "PATCH",
      path: `/admin/v1/merchants/:merchant/${kind}/:id`,
      operationId: `patch${oneOf(kind)}`,
      summary: `Update some fields of one of the ${kind}: top-level fields replace, lists of objects with ids merge by id; validated and written as every write`,
      requestBody: "the fields to change",
    }),
  ),
  adminOperation({
    method: "DELETE",
    path: "/admin/v1/merchants/:merchant/products/:id",
    operationId: "deleteProduct",
    summary: "Delete a product",
  }),
  adminOperation({
    method: "DELETE",
    path: "/admin/v1/merchants/:merchant/collections/:id",
    operationId: "deleteCollection",
    summary: "Delete a collection",
  }),
  ...SOURCE_ADMIN_OPERATIONS,
  ...SEARCH_SETTINGS_OPERATIONS,
];

/** Every write goes through `writes` (at once on a single box, through the stream on a cluster node). */
export function adminRoutes(services: Services, writes: Writes): Route[] {
  const { store } = services;
  const route = adminRouteOf(services);
  const merchantOf = (request: RequestInfo): Merchant => merchantOfPath(services, request);
  const idOf = (request: RequestInfo): number => {
    const id = parseId(request.params.id);
    if (id === null) throw new ApiError("invalid_params", `"${quoted(request.params.id ?? "")}" is not an id`);
    return id;
  };
  const kindOf = (request: RequestInfo): IngestKind => {
    const kind = request.params.kind ?? "";
    if (!isIngestKind(kind)) throw new ApiError("not_found", `No endpoint for ${quoted(kind)}; use one of ${INGEST_KINDS.join(", ")}`);
    return kind;
  };
  /** `what`, singular, for messages: "No product 7". */
  const singular = (kind: IngestKind) => kind.slice(0, -1);

  return [
    route("GET", "/admin/v1/merchants", false, () => jsonReply(200, { data: store.catalogue.listMerchants().map(publicMerchant) })),
    route("POST", "/admin/v1/merchants", true, async (request) => {
      const [input] = parseObjects(bodyText(request), "merchant");
      const write = createMerchantCommand(input);
      const seq = await submittedSeq(writes, write);
      const merchant = write.payload;
      return withSeq(jsonReply(201, { id: merchant.id, api_key: merchant.api_key, webhook_secret: merchant.webhook_secret }), seq);
    }),
    route("GET", "/admin/v1/merchants/:merchant/rate-limits", false, (request) =>
      jsonReply(200, rateLimitsOf(merchantOf(request), services.config.rateLimits)),
    ),
    route("PUT", "/admin/v1/merchants/:merchant/rate-limits", true, async (request) => {
      const merchant = merchantOf(request);
      const limits = normaliseRateLimits(bodyJson(request, "rate limits"));
      const { result, seq } = await writes.submit(rateLimitsCommand(merchant.id, limits));
      forgetVerifiedKeys(store);
      return withSeq(jsonReply(200, rateLimitsOf(result ?? merchant, services.config.rateLimits)), seq);
    }),
    route("GET", "/admin/v1/merchants/:merchant", false, (request) => jsonReply(200, merchantRecord(merchantOf(request)))),
    route("POST", "/admin/v1/merchants/:merchant/:kind", true, async (request) => {
      const merchant = merchantOf(request);
      const kind = kindOf(request);
      const { result: written, seq } = await writes.submit(upsertCommand(merchant.id, kind, parseObjects(bodyText(request), kind)));
      return withSeq(jsonReply(200, { written }), seq);
    }),
    route("GET", "/admin/v1/merchants/:merchant/:kind", false, (request) => {
      const merchant = merchantOf(request);
      const kind = kindOf(request);
      const { after, limit } = pageOf(request);
      return jsonReply(200, readPage(store, merchant.id, kind, after, limit));
    }),
    route("GET", "/admin/v1/merchants/:merchant/:kind/:id", false, (request) => {
      const merchant = merchantOf(request);
      const kind = kindOf(request);
      const id = idOf(request);
      const record = readRecord(store, merchant.id, kind, id);
      if (!record) throw new ApiError("not_found", `No ${singular(kind)} ${id}`);
      return jsonReply(200, record);
    }),
    route("PATCH", "/admin/v1/merchants/:merchant/:kind/:id", true, async (request) => {
      const merchant = merchantOf(request);
      const kind = kindOf(request);
      if (!isPatchable(kind))
        throw new ApiError("method_not_allowed", `${kind} are written whole: POST them; PATCH takes ${PATCHABLE_KINDS.join(", ")}`);
      const id = idOf(request);
      const patch = bodyJson(request, singular(kind));
      if (!isPlainObject(patch)) throw new ApiError("invalid_body", `A ${singular(kind)} patch must be a JSON object`);
      if (patch.id !== undefined && String(patch.id) !== String(id))
        throw new ApiError("invalid_body", `${singular(kind)}.id: must be ${id}, the id in the path`);
      // Merged into the record as stored when applied, not as read here: a write queued meanwhile is kept,
      // and a node behind the stream does not refuse a record it has not applied yet.
      const { result: written, seq } = await writes.submit(patchCommand(merchant.id, kind, id, patch));
      if (written === null) throw new ApiError("not_found", `No ${singular(kind)} ${id}`);
      return withSeq(jsonReply(200, written), seq);
    }),
    route("DELETE", "/admin/v1/merchants/:merchant/products/:id", false, async (request) => {
      const id = idOf(request);
      const { result: deleted, seq } = await writes.submit(deleteCommand(merchantOf(request).id, "products", id));
      if (!deleted) throw new ApiError("not_found", `No product ${id}`);
      return withSeq(jsonReply(200, { deleted: id }), seq);
    }),
    route("DELETE", "/admin/v1/merchants/:merchant/collections/:id", false, async (request) => {
      const id = idOf(request);
      const { result: deleted, seq } = await writes.submit(deleteCommand(merchantOf(request).id, "collections", id));
      if (!deleted) throw new ApiError("not_found", `No collection ${id}`);
      return withSeq(jsonReply(200, { deleted: id }), seq);
    }),
  ];
}

/**
 * The stream sequence of a merchant's creation (null on a single box), also when this node has not
 * applied it in time: it is stored and will be, and the keys drawn for it are
 * answered now or never (a retry would be refused as a conflict).
 */
async function submittedSeq(writes: Writes, write: WriteCommand<"merchant">): Promise<number | null> {
  try {
    return (await writes.submit(write)).seq;
  } catch (error) {
    if (error instanceof WriteNotApplied) return error.seq;
    throw error;
  }
}
