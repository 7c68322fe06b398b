// The only module that writes to a uWS response: status, headers, body, all
// corked, and never after the client went away.
import type { HttpResponse } from "uWebSockets.js";
import type { ErrorStyle } from "../core/api/endpoints.js";
import { jsonBytes } from "../core/json.js";
import { ApiError, ERRORS } from "../errors.js";

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Headers already as bytes (see encodeReply), written after `headers`. */
  encodedHeaders?: readonly EncodedHeader[];
  /**
   * A view of bytes that are reused later (a cached body's slab, the inline
   * answer's builder) is written within the turn of the event loop it was
   * made in: uWS copies what it writes. Only refusals, bodies of their own, are held longer.
   */
  body: Uint8Array | string;
  /** Default: JSON. */
  contentType?: string;
  /** Close the connection after this answer (uWS then sends Connection: close): when draining, or after a body left unread. */
  closeConnection?: boolean;
}

/** A header's name and value as bytes: what uWS writes without converting. */
export type EncodedHeader = readonly [name: Uint8Array, value: Uint8Array];

/** Set by the onAborted handler registered before any asynchronous work. */
export interface ConnectionState {
  aborted: boolean;
}

/** Every status this service answers with, and its reason phrase. */
export const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: "OK",
  201: "Created",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Payload Too Large",
  414: "URI Too Long",
  429: "Too Many Requests",
  415: "Unsupported Media Type",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/**
 * Status lines and constant headers built once, as bytes: uWS copies bytes as
 * they are, while a string is measured and converted to UTF-8 on every call.
 * An event's answer wrote its headers in 0.7-0.9 µs this way, 1.1-1.2 µs as
 * strings.
 */
const bytes = (text: string) => Buffer.from(text, "latin1");
const STATUS_LINES = new Map(Object.entries(STATUS_TEXT).map(([code, text]) => [Number(code), bytes(`${code} ${text}`)]));

export const CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "Age, X-Aisle-Error, X-Aisle-Seq, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset",
};
// Exported for the bench's raw-uWS ceiling (bench/load/raw-uws.ts), which writes the bytes a cache hit's answer writes.
export const CORS_HEADER_PAIRS = Object.entries(CORS_HEADERS).map(([name, value]) => [bytes(name), bytes(value)] as const);
export const CONTENT_TYPE = bytes("Content-Type");
export const JSON_TYPE = bytes("application/json; charset=utf-8");
export const REQUEST_ID = bytes("X-Request-Id");

/** Writes `reply`, unless the client went away; whether it did. */
export function writeReply(res: HttpResponse, state: ConnectionState, reply: Reply, cors: boolean, requestId: string): boolean {
  if (state.aborted) return false;
  res.cork(() => {
    res.writeStatus(STATUS_LINES.get(reply.status) ?? `${reply.status} `);
    if (reply.body !== "" || reply.status !== 204) res.writeHeader(CONTENT_TYPE, reply.contentType ?? JSON_TYPE);
    res.writeHeader(REQUEST_ID, requestId);
    if (cors) for (const [name, value] of CORS_HEADER_PAIRS) res.writeHeader(name, value);
    if (reply.headers) for (const name in reply.headers) res.writeHeader(name, reply.headers[name]!);
    if (reply.encodedHeaders) for (const [name, value] of reply.encodedHeaders) res.writeHeader(name, value);
    res.end(reply.body, reply.closeConnection === true);
  });
  return true;
}

/**
 * The same reply with its body and headers as bytes, for an answer built once
 * and written many times (a refusal): writing it converts no string.
 */
export function encodeReply(reply: Reply): Reply {
  const { headers = {}, body, ...rest } = reply;
  return {
    ...rest,
    body: typeof body === "string" ? Buffer.from(body, "utf8") : body,
    encodedHeaders: [
      ...Object.entries(headers).map(([name, value]) => [bytes(name), bytes(value)] as const),
      ...(reply.encodedHeaders ?? []),
    ],
  };
}

export function jsonReply(status: number, body: unknown, pretty = false, headers?: Record<string, string>): Reply {
  return { status, body: jsonBytes(body, pretty), ...(headers ? { headers } : {}) };
}

/**
 * The spec's error bodies: `{error: <message>}`, or an empty object where the
 * spec shows one — then the message still travels, in the X-Aisle-Error header.
 */
export function errorReply(error: ApiError, style: ErrorStyle, pretty = false, headers: Record<string, string> = {}): Reply {
  const message = error.detail ?? ERRORS[error.code].message;
  if (style === "empty") {
    return jsonReply(error.status, {}, pretty, { ...headers, "X-Aisle-Error": headerSafe(message) });
  }
  return jsonReply(error.status, { error: message }, pretty, headers);
}

function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, "?").slice(0, 500);
}
