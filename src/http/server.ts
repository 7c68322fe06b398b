// The uWS front end: one catch-all handler that copies the request, answers
// preflights, routes, reads bodies with a size limit and writes the reply.
// Handlers may answer synchronously (cache hits) so the hot path never awaits.
import uWS, { type HttpRequest, type HttpResponse, type TemplatedApp, type us_listen_socket } from "uWebSockets.js";
import { parseQuery } from "../core/params/query.js";
import { ApiError, toApiError } from "../errors.js";
import { Abandonment } from "../pool/abandonment.js";
import { TaskAbandonedError } from "../pool/protocol.js";
import { HeldReplies } from "./held-replies.js";
import { AFTER_SEQ_HEADER, parseAfterSeq, seqOfFailure, withSeq } from "./stream-sequence.js";
import type { RateLimiting } from "./rate-limiting.js";
import { CORS_HEADERS, errorReply, writeReply, type ConnectionState, type Reply } from "./respond.js";
import type { RequestInfo, Route, Router } from "./router.js";

export interface HttpServerOptions {
  host: string;
  port: number;
  /** The largest body a route reads, unless the route sets its own (Route.maxBodyBytes). */
  maxBodyBytes: number;
  maxUrlBytes: number;
  /** Checked before a route does any work; absent: no limits (tools and benchmarks). */
  rateLimiting?: RateLimiting;
  /** How long a rate-limit refusal is held before it is written (see held-replies.ts); 0: at once. */
  refusalDelayMs?: number;
  /** Reports a handler's unexpected failure (a bug, never a client mistake). */
  onInternalError: (error: unknown, request: RequestInfo, requestId: string) => void;
  /** Every answer written: for metrics and the access log. `route` is the route's pattern (or "unmatched"). */
  onResponse?: (answer: AnswerInfo) => void;
  /**
   * A cluster node's wait for a stream sequence (X-Aisle-After-Seq): null when
   * applied already, else a promise that resolves once it is or when the wait
   * is over, applied or not. Absent on a single box, which ignores the header.
   */
  appliedSeq?: (seq: number) => Promise<void> | null;
}

export interface AnswerInfo {
  route: string;
  method: string;
  path: string;
  status: number;
  seconds: number;
  requestId: string;
}

/** A request id unique within this process and across restarts: a random prefix and a counter. */
const REQUEST_ID_PREFIX = Math.random().toString(36).slice(2, 8);
let requestCounter = 0;

/** The caller's own id (a proxy's X-Request-Id) when it is sane, else a fresh one. */
function requestIdOf(given: string): string {
  if (given !== "" && /^[\w.:-]{1,128}$/.test(given)) return given;
  return `${REQUEST_ID_PREFIX}-${(++requestCounter).toString(36)}`;
}

/** Copies the headers a route reads out of uWS's request (which is gone after the handler returns). */
function headersFor(req: HttpRequest, names: readonly string[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (names) {
    for (const name of names) {
      const value = req.getHeader(name);
      // uWS answers "" for a header the request lacks.
      if (value !== "") headers[name] = value;
    }
  }
  return headers;
}

const PREFLIGHT_HEADERS: Record<string, string> = {
  ...CORS_HEADERS,
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Service-Api-Key, X-Aisle-After-Seq",
  "Access-Control-Max-Age": "86400",
};

/**
 * uWebSockets.js falls back to a JavaScript imitation over Node's http module
 * when its native binary does not load (or UWS_USE_FALLBACK asks for it). That
 * one does not copy what it writes, and answers are written from buffers that
 * are reused once written (the cache's slabs, the inline answer's builder), so
 * it could send one answer's bytes in another's place: aisle does not start on it.
 */
function requireNativeUws(): void {
  if (!String(uWS.App).includes("[native code]"))
    throw new Error(
      "uWebSockets.js's native binary did not load (its JavaScript fallback is in use, or UWS_USE_FALLBACK is set): aisle needs the native server",
    );
}

/** The server could not take its address: an operator's to change, not a crash. */
export class ListenError extends Error {}

/** uWS's ListenOptions.LIBUS_LISTEN_EXCLUSIVE_PORT: no SO_REUSEPORT. */
const LISTEN_EXCLUSIVE_PORT = 1;

/** listen(host, port, options, cb): the native addon takes it, though its typings list options only beside a port alone. */
type ListenWithOptions = (host: string, port: number, options: number, cb: (socket: us_listen_socket | false) => void) => void;

function listenExclusive(app: TemplatedApp, host: string, port: number, cb: (socket: us_listen_socket | false) => void): void {
  (app.listen as unknown as ListenWithOptions).call(app, host, port, LISTEN_EXCLUSIVE_PORT, cb);
}

export class HttpServer {
  private readonly app: TemplatedApp;
  private listenSocket: us_listen_socket | null = null;
  private inFlight = 0;
  private draining = false;
  private readonly heldRefusals: HeldReplies;
  boundPort = 0;

  constructor(
    private readonly router: Router,
    private readonly options: HttpServerOptions,
  ) {
    this.heldRefusals = new HeldReplies(options.refusalDelayMs ?? 0);
    requireNativeUws();
    this.app = uWS.App();
    this.app.any("/*", (res, req) => this.dispatch(res, req));
  }

  /**
   * Listens with the port to itself: uWS otherwise sets SO_REUSEPORT, and a
   * second aisle started on a port in use listened beside the first, the
   * kernel splitting connections between two data dirs.
   */
  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      listenExclusive(this.app, this.options.host, this.options.port, (socket) => {
        if (!socket)
          return reject(
            new ListenError(
              `cannot listen on ${this.options.host}:${this.options.port}: the port is in use, not permitted (below 1024), or the address is not this machine's`,
            ),
          );
        this.listenSocket = socket;
        this.boundPort = uWS.us_socket_local_port(socket);
        resolve(this.boundPort);
      });
    });
  }

  /** Stops accepting connections, then waits (bounded) for requests under way. */
  async drain(graceMs: number): Promise<void> {
    this.draining = true;
    if (this.listenSocket) uWS.us_listen_socket_close(this.listenSocket);
    this.listenSocket = null;
    this.heldRefusals.flush();
    const deadline = Date.now() + graceMs;
    while (this.inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  }

  private dispatch(res: HttpResponse, req: HttpRequest): void {
    const started = performance.now();
    const state: ConnectionState = { aborted: false };
    /** Set once the body is being read: the client going away ends the read. */
    let abortBodyRead: (() => void) | null = null;
    // Called before this handler returns without an answer, as uWS requires; an
    // answer written at once (a cache hit, a refusal) saves the registration.
    const answerLater = () =>
      res.onAborted(() => {
        state.aborted = true;
        abortBodyRead?.();
        // Made here if no route has asked yet: a task handed to the pool later is dropped at once.
        (request.abandonment ??= new Abandonment()).abandon();
      });
    const method = req.getMethod().toUpperCase();
    const path = req.getUrl();
    const rawQuery = req.getQuery() ?? "";
    const requestId = requestIdOf(req.getHeader("x-request-id"));
    const answer = (routeLabel: string, reply: Reply, cors: boolean) => {
      // Draining: the client is told to go elsewhere for its next request, rather than finding the connection reset.
      if (this.draining) reply = { ...reply, closeConnection: true };
      // A client that went away is written nothing, and onResponse reports answers written.
      if (!writeReply(res, state, reply, cors, requestId)) return;
      this.options.onResponse?.({
        route: routeLabel,
        method,
        path,
        status: reply.status,
        seconds: (performance.now() - started) / 1000,
        requestId,
      });
    };
    const fail = (error: ApiError, headers?: Record<string, string>) =>
      answer("unmatched", errorReply(error, "message", false, headers), true);

    if (method === "OPTIONS") return answer("preflight", { status: 204, headers: PREFLIGHT_HEADERS, body: "" }, false);
    if (this.draining) return fail(new ApiError("shutting_down"));
    // Behind a proxy that reads the other one, the body would be read as another request (request smuggling).
    if (req.getHeader("content-length") !== "" && hasConflictingLengths(req)) {
      return answer(
        "unmatched",
        { ...errorReply(new ApiError("invalid_body", "Conflicting Content-Length headers"), "message"), closeConnection: true },
        true,
      );
    }
    if (path.length + rawQuery.length > this.options.maxUrlBytes) {
      return fail(new ApiError("uri_too_long", `Request URL longer than ${this.options.maxUrlBytes} bytes`));
    }

    const match = this.router.match(method, path);
    if (match === null) return fail(new ApiError("not_found", `No endpoint at ${path}`));
    if ("allowed" in match) {
      const detail = `Method ${method} is not allowed on ${path}; use ${match.allowed.join(" or ")}`;
      return fail(new ApiError("method_not_allowed", detail), { Allow: match.allowed.join(", ") });
    }

    const { route, params } = match;
    const request: RequestInfo = {
      method,
      path,
      rawQuery,
      query: parseQuery(rawQuery),
      headers: headersFor(req, route.readsHeaders),
      body: null,
      params,
      abandonment: null,
    };
    const finish = (reply: Reply) => answer(route.pattern, reply, route.cors);
    const maxBodyBytes = route.maxBodyBytes ?? this.options.maxBodyBytes;
    const declared = route.readsBody ? Number(req.getHeader("content-length") || 0) : 0;
    // uWS's parser frames every body (by Content-Length or chunks) and skips what no
    // handler reads, so an unread body is never taken for the next request. But
    // a body of unknown length (chunked) or declared over the route's limit would
    // keep the connection receiving bytes only to drop them: a request refused
    // before reading such a body ends its connection with the answer. Any other
    // answer keeps the connection, so a refusal costs the client no reconnect
    // and this thread no accept and close.
    const unboundedBody = route.readsBody && (declared > maxBodyBytes || req.getHeader("transfer-encoding") !== "");
    const closesUnread = (reply: Reply): Reply => (unboundedBody && request.body === null ? { ...reply, closeConnection: true } : reply);
    // The one place a failure becomes an answer; a fault of the service (not of the request) is also reported.
    const failure = (error: unknown) => {
      // Dropped because its client went away: there is no one to answer, and nothing went wrong.
      if (error instanceof TaskAbandonedError) return;
      const apiError = toApiError(error);
      if (apiError.code === "internal") this.options.onInternalError(error, request, requestId);
      const reply = errorReply(apiError, route.errorStyle, request.query.get("format") === "pretty");
      finish(closesUnread(withSeq(reply, seqOfFailure(error))));
    };

    // Limits (and the authentication they need) come before any other work, a body's read included.
    try {
      const limited = this.options.rateLimiting?.check(route, request);
      if (limited) {
        const refuse = () => {
          try {
            finish(closesUnread(limited));
          } catch (error) {
            // Held, it is written from a timer: a fault must be reported, not end the process.
            this.options.onInternalError(error, request, requestId);
          }
        };
        // A refusal that ends its connection is not held: the client would go on sending a body nobody reads.
        if (this.draining || unboundedBody || !this.heldRefusals.hold(refuse)) return refuse();
        answerLater();
        return;
      }
    } catch (error) {
      return failure(error);
    }

    // Read-your-writes across nodes: the route runs once this node has applied the sequence, or the wait is over.
    let applied: Promise<void> | null = null;
    if (this.options.appliedSeq !== undefined) {
      const raw = req.getHeader(AFTER_SEQ_HEADER);
      try {
        if (raw !== "") applied = this.options.appliedSeq(parseAfterSeq(raw));
      } catch (error) {
        return failure(error);
      }
    }
    if (!route.readsBody && applied === null) {
      try {
        const reply = route.handle(request);
        if (!(reply instanceof Promise)) return finish(reply);
        answerLater();
        this.track(reply, finish, failure);
      } catch (error) {
        failure(error);
      }
      return;
    }
    if (!route.readsBody) {
      answerLater();
      this.afterWait(applied!, () => handleAfterWait(state, route, request), finish, failure);
      return;
    }

    if (declared > maxBodyBytes) return failure(new ApiError("payload_too_large", `Request body larger than ${maxBodyBytes} bytes`));
    answerLater();
    const read = readBody(res, maxBodyBytes);
    abortBodyRead = read.abort;
    const bodyRead = read.body.then((body) => {
      request.body = body;
      return applied;
    });
    const handle = applied === null ? () => route.handle(request) : () => handleAfterWait(state, route, request);
    this.afterWait(bodyRead, handle, finish, failure);
  }

  /**
   * Runs the handler once `ready` settles, the request counting as under way
   * meanwhile. A reply it gives synchronously is written in the same turn, as
   * on the synchronous path: its body may be a view of a buffer this thread's
   * next answer overwrites (see cachedTask), so nothing may run in between.
   */
  private afterWait(
    ready: Promise<unknown>,
    handle: () => Reply | Promise<Reply>,
    finish: (reply: Reply) => void,
    failure: (error: unknown) => void,
  ): void {
    this.inFlight++;
    ready.then(
      () => {
        this.inFlight--;
        try {
          const reply = handle();
          if (reply instanceof Promise) this.track(reply, finish, failure);
          else finish(reply);
        } catch (error) {
          failure(error);
        }
      },
      (error: unknown) => {
        this.inFlight--;
        failure(error);
      },
    );
  }

  /** Answers when `reply` settles; until then the request counts as under way (drain waits for it). */
  private track(reply: Promise<Reply>, finish: (reply: Reply) => void, failure: (error: unknown) => void): void {
    this.inFlight++;
    reply.then(
      (settled) => {
        this.inFlight--;
        finish(settled);
      },
      (error: unknown) => {
        this.inFlight--;
        failure(error);
      },
    );
  }
}

/** A route run after its request waited (X-Aisle-After-Seq): a client gone meanwhile is answered nothing, and the route does not run. */
function handleAfterWait(state: ConnectionState, route: Route, request: RequestInfo): Reply | Promise<Reply> {
  return state.aborted ? Promise.reject(new TaskAbandonedError()) : route.handle(request);
}

/** Whether the request carries Content-Length more than once with different values. */
function hasConflictingLengths(req: HttpRequest): boolean {
  let first: string | null = null;
  let conflict = false;
  req.forEach((name, value) => {
    if (name !== "content-length") return;
    if (first === null) first = value;
    else if (value !== first) conflict = true;
  });
  return conflict;
}

/**
 * Collects the body, copying each chunk: uWS reuses the chunk's memory after the
 * callback. `abort` ends the read when the client goes away: the rest of the
 * body never comes, and a read left pending would count as a request under way
 * until the process ends (drain would wait for it).
 */
function readBody(res: HttpResponse, maxBytes: number): { body: Promise<Uint8Array>; abort: () => void } {
  let abort!: () => void;
  const body = new Promise<Uint8Array>((resolve, reject) => {
    abort = () => reject(new ApiError("invalid_body", "The client went away before the end of the request body"));
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    res.onData((chunk, isLast) => {
      if (!tooLarge) {
        size += chunk.byteLength;
        if (size > maxBytes) {
          tooLarge = true;
          chunks.length = 0;
          reject(new ApiError("payload_too_large", `Request body larger than ${maxBytes} bytes`));
        } else {
          chunks.push(Buffer.from(chunk.slice(0)));
        }
      }
      if (isLast && !tooLarge) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
  });
  return { body, abort };
}
