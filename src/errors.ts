// The one error catalogue: every client-visible failure has a code, a status and
// a message, rendered in one place (src/http/respond.ts).

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
  unsupported_media_type: { status: 415, message: "Unsupported content type" },
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
