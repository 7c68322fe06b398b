// The typed client: one method per storefront operation of /openapi.json, on
// fetch alone, so the same code runs in browsers and in Node 20.
import { OPERATIONS, type OperationInfo, type Operations } from "./api.js";

export type OperationId = keyof Operations;

export interface ClientOptions {
  /** Where aisle answers, e.g. "https://recs.example.com"; "" in a page aisle serves itself (same origin). */
  baseUrl: string;
  /** The merchant's public API key. */
  key: string;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
}

export interface CallOptions {
  /** Aborts the call: its promise rejects with an AbortError. */
  signal?: AbortSignal;
}

/** A call answered with a failure status; `body` is the answer as sent (`{error}`, or the spec's empty object). */
export class AisleError extends Error {
  override readonly name = "AisleError";

  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

type Params<Id extends OperationId> = Operations[Id]["params"];
type Answer<Id extends OperationId> = Operations[Id]["answer"];

/** The parameters may be left out when none is required (when no parameters at all pass for them). */
type ParamsArgs<P> = Record<never, never> extends P ? [params?: P, options?: CallOptions] : [params: P, options?: CallOptions];

/** An operation with a body takes it first; its query parameters, rarely needed, come with the options. */
type Method<Id extends OperationId> = Operations[Id]["body"] extends undefined
  ? (...args: ParamsArgs<Params<Id>>) => Promise<Answer<Id>>
  : (body: Operations[Id]["body"], options?: CallOptions & { params?: Params<Id> }) => Promise<Answer<Id>>;

export type Client = { readonly [Id in OperationId]: Method<Id> } & {
  /** The address a call would fetch, key included: for navigator.sendBeacon, which takes a URL and no headers. */
  url<Id extends OperationId>(operation: Id, params: Params<Id>): string;
};

type QueryValue = string | number | boolean | readonly (string | number)[] | undefined;

/** Query parameters as aisle reads them: lists comma-separated, absent ones left out. */
function queryString(values: Record<string, QueryValue>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    query.set(name, Array.isArray(value) ? value.join(",") : String(value));
  }
  const text = query.toString();
  return text === "" ? "" : `?${text}`;
}

async function failure(response: Response): Promise<AisleError> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: kept as text.
  }
  const message =
    (typeof body === "object" && body !== null && "error" in body && typeof body.error === "string" ? body.error : null) ??
    response.headers.get("X-Aisle-Error") ??
    `HTTP ${response.status}`;
  return new AisleError(response.status, message, body);
}

export function createClient(options: ClientOptions): Client {
  const base = options.baseUrl.replace(/\/+$/, "");
  // Looked up per call: a page or test may replace the global fetch after the client is made.
  const fetchFn: typeof fetch = (input, init) => (options.fetch ?? globalThis.fetch)(input, init);

  const url = (info: OperationInfo, params: Record<string, QueryValue>): string =>
    `${base}${info.path}${queryString(info.key ? { [info.key.name]: options.key, ...params } : params)}`;

  async function call(info: OperationInfo, params: Record<string, QueryValue>, body: unknown, signal: AbortSignal | undefined) {
    const response = await fetchFn(url(info, params), {
      method: info.method,
      // A string body goes as text/plain: a simple request, so a browser sends no CORS preflight
      // before each keystroke's search. aisle reads the body as JSON whatever its type.
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal ? { signal } : {}),
    });
    if (!response.ok) throw await failure(response);
    return (await response.json()) as unknown;
  }

  const methods: Record<string, unknown> = {
    url: (operation: OperationId, params: Record<string, QueryValue>) => url(OPERATIONS[operation], params),
  };
  for (const [id, info] of Object.entries(OPERATIONS) as [OperationId, OperationInfo][]) {
    methods[id] = info.body
      ? (body: unknown, callOptions: CallOptions & { params?: Record<string, QueryValue> } = {}) =>
          call(info, callOptions.params ?? {}, body, callOptions.signal)
      : (params: Record<string, QueryValue> = {}, callOptions: CallOptions = {}) => call(info, params, undefined, callOptions.signal);
  }
  // Each method was made from the operation's own entry of the table the types were generated with.
  return methods as Client;
}
