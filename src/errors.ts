// The one error catalogue: every client-visible failure has a code, a status and
// a message. Domain errors are turned into catalogue codes by toApiError, called
// from one place (the server's failure handler), and rendered by src/http/respond.ts.
import { InvalidInput } from "./core/ingest/fields.js";
import { BadSearchRequest } from "./core/search/request.js";
import { StreamUnavailable } from "./cluster/stream-unavailable.js";
import { WriteTooLargeForStream } from "./cluster/write-too-large.js";
import { EventBacklogFull } from "./ingest/event-writer.js";
import { WriteNotApplied } from "./ingest/write-not-applied.js";
import { PoolSaturatedError, TaskFailedError } from "./pool/protocol.js";
import { AlreadyExistsError } from "./stores/catalogue-store.js";
import { SourceExistsError } from "./stores/custom-sources.js";

export const ERRORS = {
  invalid_key: { status: 400, message: "Invalid key" },
  invalid_params: { status: 400, message: "Invalid request parameters" },
  invalid_body: { status: 400, message: "Invalid request body" },
  unauthorized: { status: 401, message: "Missing or invalid admin token" },
  bad_signature: { status: 401, message: "Webhook signature does not match" },
  not_found: { status: 404, message: "Not found" },
  method_not_allowed: { status: 405, message: "Method not allowed" },
  conflict: { status: 409, message: "Conflict" },
  payload_too_large: { status: 413, message: "Request body too large" },
  uri_too_long: { status: 414, message: "Request URL too long" },
  too_many_requests: { status: 429, message: "Too many requests, retry later" },
  overloaded: { status: 503, message: "Server busy, retry shortly" },
  shutting_down: { status: 503, message: "Server is shutting down" },
  internal: { status: 500, message: "Internal error" },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** A failure to report to the client; `detail` replaces the catalogue message when it says more. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
  ) {
    super(detail ?? ERRORS[code].message);
  }

  get status(): number {
    return ERRORS[this.code].status;
  }
}

/**
 * The client-visible form of any failure. Anything not listed is a fault of
 * the service, not of the request: `internal`, and the caller logs it.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  // Validation names the object and field; nothing was written.
  if (error instanceof InvalidInput) return new ApiError("invalid_body", error.message);
  if (error instanceof BadSearchRequest) return new ApiError("invalid_params", `Invalid request: ${error.message}`);
  if (error instanceof AlreadyExistsError || error instanceof SourceExistsError) return new ApiError("conflict", error.message);
  if (error instanceof PoolSaturatedError) return new ApiError("overloaded");
  if (error instanceof EventBacklogFull) return new ApiError("overloaded", error.message);
  if (error instanceof StreamUnavailable) return new ApiError("overloaded", error.message);
  if (error instanceof WriteNotApplied) return new ApiError("overloaded", error.message);
  if (error instanceof WriteTooLargeForStream) return new ApiError("payload_too_large", error.message);
  if (error instanceof TaskFailedError && (error.code === "merchant_not_found" || error.code === "source_not_found"))
    return new ApiError("not_found", error.message);
  return new ApiError("internal");
}
