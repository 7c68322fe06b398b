// Behaviour events from a storefront: a session uuid made once and kept, and
// view / add / remove events sent with it. An event sent as a shopper leaves
// the page (an add-to-cart button that navigates) must not be lost with the
// page: navigator.sendBeacon, where there is one, hands it to the browser.
import type { LogEventParams } from "./api.js";
import type { CallOptions, Client } from "./client.js";

/** What the tracker keeps the session uuid in: localStorage has this shape. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface TrackerOptions {
  /** Default: the page's localStorage when it has a usable one, else memory (a new session per tracker). */
  storage?: KeyValueStorage;
  /** Default: "aisle.session". */
  storageKey?: string;
  /** Default: navigator.sendBeacon where the environment has it. */
  sendBeacon?: (url: string) => boolean;
  /** A signed-in shopper: events count for the customer too. */
  customerId?: number;
}

export interface SendOptions extends CallOptions {
  /** Wait until aisle has stored the event (e.g. before reading viewed lists); no beacon then. */
  acknowledged?: boolean;
}

export type EventVerb = LogEventParams["verb"];

export interface Tracker {
  /** The session's uuid: pass it to viewedProducts and viewedRelatedProducts. */
  readonly uuid: string;
  viewed(handle: string, options?: SendOptions): Promise<void>;
  added(handle: string, options?: SendOptions): Promise<void>;
  removed(handle: string, options?: SendOptions): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A random version 4 UUID. crypto.randomUUID exists only in secure contexts (not on a plain-HTTP shop); getRandomValues everywhere. */
export function randomUuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** What the tracker looks for in a browser; Node 20 has neither. */
interface BrowserGlobals {
  localStorage?: KeyValueStorage;
  navigator?: { sendBeacon?(url: string): boolean };
}
const browser = globalThis as BrowserGlobals;

function memoryStorage(): KeyValueStorage {
  const values = new Map<string, string>();
  return { getItem: (key) => values.get(key) ?? null, setItem: (key, value) => void values.set(key, value) };
}

/** The page's localStorage, unless reading it throws (storage disabled, some private modes). */
function pageStorage(): KeyValueStorage | null {
  try {
    const storage = browser.localStorage;
    storage?.getItem("aisle.probe");
    return storage ?? null;
  } catch {
    return null;
  }
}

function sessionUuid(storage: KeyValueStorage, key: string): string {
  try {
    const kept = storage.getItem(key);
    if (kept !== null && UUID.test(kept)) return kept;
    const uuid = randomUuid();
    storage.setItem(key, uuid);
    return uuid;
  } catch {
    // A storage that refuses writes (quota, private mode): the session lasts as long as this tracker.
    return randomUuid();
  }
}

export function createTracker(client: Pick<Client, "logEvent" | "url">, options: TrackerOptions = {}): Tracker {
  const uuid = sessionUuid(options.storage ?? pageStorage() ?? memoryStorage(), options.storageKey ?? "aisle.session");
  const beacon = options.sendBeacon ?? (browser.navigator?.sendBeacon ? (url: string) => browser.navigator!.sendBeacon!(url) : null);

  async function send(verb: EventVerb, handle: string, { acknowledged = false, signal }: SendOptions = {}): Promise<void> {
    const params: LogEventParams = {
      verb,
      platform_product_handle: handle,
      uuid,
      ...(options.customerId === undefined ? {} : { platform_customer_id: options.customerId }),
    };
    // The browser queues a beacon and sends it even after the page is gone; false: its queue is full.
    if (!acknowledged && beacon !== null && beacon(client.url("logEvent", params))) return;
    await client.logEvent(params, signal ? { signal } : {});
  }

  return {
    uuid,
    viewed: (handle, sendOptions) => send("viewed", handle, sendOptions),
    added: (handle, sendOptions) => send("added", handle, sendOptions),
    removed: (handle, sendOptions) => send("removed", handle, sendOptions),
  };
}
