// What every admin route shares: the admin token checked before anything
// else (and before the admin's own rate limit is used up), errors in the
// admin's message style, the merchant named in the path, and how
// /openapi.json documents it.
import type { OperationDoc } from "../core/api/openapi.js";
import type { Merchant } from "../core/types.js";
import { ApiError } from "../errors.js";
import { ADMIN_AUTH_HEADERS, requireAdmin } from "./auth.js";
import { merchantInPath, quoted } from "./request.js";
import type { Reply } from "./respond.js";
import type { RequestInfo, Route } from "./router.js";
import type { Services } from "./services.js";

export type AdminRoute = (
  method: Route["method"],
  pattern: string,
  readsBody: boolean,
  handle: (request: RequestInfo) => Reply | Promise<Reply>,
) => Route;

/** Builds admin routes for the service: each checks the token, then handles. */
export function adminRouteOf(services: Services): AdminRoute {
  // Authenticated first, so requests without the token never use up the admin's own limit.
  const adminSubject = (request: RequestInfo) => {
    requireAdmin(request.headers, services.adminToken);
    return { id: "admin" };
  };
  return (method, pattern, readsBody, handle) => ({
    method,
    pattern,
    cors: false,
    readsBody,
    readsHeaders: ADMIN_AUTH_HEADERS,
    errorStyle: "message",
    limit: { rateClass: "admin", subjectOf: adminSubject },
    handle(request) {
      requireAdmin(request.headers, services.adminToken);
      return handle(request);
    },
  });
}

/** An admin route's documentation: every one takes the admin token. */
export function adminOperation(operation: Omit<OperationDoc, "tag" | "security">): OperationDoc {
  return { ...operation, tag: "Admin", security: "admin" };
}

/** The merchant named in the path (`:merchant`); a 404 naming it when there is none. */
export function merchantOfPath(services: Services, request: RequestInfo): Merchant {
  const merchant = merchantInPath(services.store, request);
  if (!merchant) throw new ApiError("not_found", `No merchant ${quoted(request.params.merchant ?? "")}`);
  return merchant;
}
