// Every write other than a behaviour event, as a command: which merchant, what
// kind of write, and a payload of plain JSON. `applyWrite` is the one function
// that carries a command out against the store: a single box calls it at once,
// a cluster node calls it for each command the stream delivers (src/cluster/).
// Whatever a write draws at random or from the clock (a merchant's keys, the
// time products are stamped with) is drawn before the command is made, so
// every node that applies it writes the same bytes.
import type { RateLimits } from "../core/rate-limit.js";
import { validateSource } from "../core/sources/validate.js";
import { validateSearchSettings } from "../core/search/merchandising/validate.js";
import { formatTimestamp } from "../core/timestamps.js";
import type { Merchant, MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";
import { writeSources, type SourcesWritten } from "./custom-sources.js";
import { checkBatch, ingest, type IngestKind } from "./ingest.js";
import { newMerchant } from "./merchants.js";
import { checkPatch, patchRecord, type PatchableKind, type RecordJson } from "./patch.js";
import { readSearchSettings, writeSearchSettings, type SearchSettingsAnswer } from "./search-settings.js";

/** Each kind of write: its payload and what applying it answers. */
interface WriteKinds {
  merchant: { payload: Merchant; result: void };
  "rate-limits": { payload: Partial<RateLimits>; result: Merchant | undefined };
  products: { payload: Upsert; result: number };
  collections: { payload: Upsert; result: number };
  customers: { payload: Upsert; result: number };
  orders: { payload: Upsert; result: number };
  markets: { payload: Upsert; result: number };
  patch: { payload: Patch; result: RecordJson | null };
  "product-delete": { payload: { id: number }; result: boolean };
  "collection-delete": { payload: { id: number }; result: boolean };
  sources: { payload: { inputs: unknown[]; pathId?: string; onlyNew: boolean }; result: SourcesWritten };
  "source-delete": { payload: { id: string }; result: boolean };
  "search-settings": { payload: { input: unknown }; result: SearchSettingsAnswer };
  "search-settings-reset": { payload: Record<string, never>; result: SearchSettingsAnswer };
}

/** Records of an ingest kind as received, and the time they are stamped with. */
export interface Upsert {
  items: unknown[];
  now: string;
}

/** A partial record merged into the stored one when the write is applied (patch.ts), and the time it is stamped with. */
export interface Patch {
  kind: PatchableKind;
  id: number;
  patch: Record<string, unknown>;
  now: string;
}

export type WriteKind = keyof WriteKinds;
export type WriteResult<K extends WriteKind> = WriteKinds[K]["result"];

export interface WriteCommand<K extends WriteKind = WriteKind> {
  merchant: MerchantId;
  kind: K;
  payload: WriteKinds[K]["payload"];
}

export const WRITE_KINDS: readonly WriteKind[] = [
  "merchant",
  "rate-limits",
  "products",
  "collections",
  "customers",
  "orders",
  "markets",
  "patch",
  "product-delete",
  "collection-delete",
  "sources",
  "source-delete",
  "search-settings",
  "search-settings-reset",
];

export function isWriteKind(value: string): value is WriteKind {
  return (WRITE_KINDS as readonly string[]).includes(value);
}

const command = <K extends WriteKind>(merchant: MerchantId, kind: K, payload: WriteKinds[K]["payload"]): WriteCommand<K> => ({
  merchant,
  kind,
  payload,
});

/** A new merchant from the admin API's input (an InvalidInput names a bad field), its keys drawn now. */
export function createMerchantCommand(input: unknown): WriteCommand<"merchant"> {
  const merchant = newMerchant(input);
  return command(merchant.id, "merchant", merchant);
}

export function upsertCommand(merchant: MerchantId, kind: IngestKind, items: unknown[], now = formatTimestamp(new Date())): WriteCommand {
  return command(merchant, kind, { items, now });
}

export function patchCommand(merchant: MerchantId, kind: PatchableKind, id: number, patch: Record<string, unknown>): WriteCommand<"patch"> {
  return command(merchant, "patch", { kind, id, patch, now: formatTimestamp(new Date()) });
}

export const rateLimitsCommand = (merchant: MerchantId, limits: Partial<RateLimits>) => command(merchant, "rate-limits", limits);
export const deleteCommand = (merchant: MerchantId, kind: "products" | "collections", id: number) =>
  kind === "products" ? command(merchant, "product-delete", { id }) : command(merchant, "collection-delete", { id });
export const sourcesCommand = (merchant: MerchantId, inputs: unknown[], options: { pathId?: string; onlyNew?: boolean } = {}) =>
  command(merchant, "sources", {
    inputs,
    ...(options.pathId === undefined ? {} : { pathId: options.pathId }),
    onlyNew: options.onlyNew ?? false,
  });
export const deleteSourceCommand = (merchant: MerchantId, id: string) => command(merchant, "source-delete", { id });
export const searchSettingsCommand = (merchant: MerchantId, input: unknown) => command(merchant, "search-settings", { input });
export const resetSearchSettingsCommand = (merchant: MerchantId) => command(merchant, "search-settings-reset", {});

/**
 * Throws what applying the command would throw for its input alone (an
 * InvalidInput naming the first bad field), writing nothing: a cluster node
 * checks a command before publishing it, so a 400 reaches no node's store.
 * What depends on the store (an id that already exists) is found when applied.
 * A patch is checked against the record as `current` holds it, when given: a
 * node that has applied all the stream holds; one behind it (whose copy may be
 * older than the one the patch will meet) passes null, and the apply, on the
 * record as the stream leaves it, decides alone.
 */
export function checkWrite(write: WriteCommand, current: Store | null): void {
  switch (write.kind) {
    case "patch": {
      const { kind, id, patch, now } = (write as WriteCommand<"patch">).payload;
      if (current !== null) checkPatch(current, write.merchant, kind, id, patch, now);
      return;
    }
    case "products":
    case "collections":
    case "customers":
    case "orders":
    case "markets": {
      const { items, now } = write.payload as Upsert;
      checkBatch(write.kind as IngestKind, items, now);
      return;
    }
    case "sources": {
      const { inputs, pathId } = (write as WriteCommand<"sources">).payload;
      for (const input of inputs) validateSource(input, pathId);
      return;
    }
    case "search-settings":
      validateSearchSettings((write as WriteCommand<"search-settings">).payload.input);
      return;
    default:
      // The others are normalised before the command is made, or have nothing to check.
      return;
  }
}

/** Carries the command out against the store; what the write answers. Each write is one transaction, begun before this returns. */
export function applyWrite<K extends WriteKind>(store: Store, write: WriteCommand<K>): Promise<WriteResult<K>> {
  return apply(store, write) as Promise<WriteResult<K>>;
}

function apply(store: Store, write: WriteCommand): Promise<unknown> {
  const { merchant } = write;
  switch (write.kind) {
    case "merchant":
      return store.catalogue.createMerchant((write as WriteCommand<"merchant">).payload);
    case "rate-limits":
      return store.catalogue.setMerchantRateLimits(merchant, (write as WriteCommand<"rate-limits">).payload);
    case "products":
    case "collections":
    case "customers":
    case "orders":
    case "markets": {
      const { items, now } = write.payload as Upsert;
      return ingest(store, merchant, write.kind as IngestKind, items, now);
    }
    case "patch": {
      const { kind, id, patch, now } = (write as WriteCommand<"patch">).payload;
      return patchRecord(store, merchant, kind, id, patch, now);
    }
    case "product-delete":
      return store.catalogue.deleteProduct(merchant, (write as WriteCommand<"product-delete">).payload.id);
    case "collection-delete":
      return store.catalogue.deleteCollection(merchant, (write as WriteCommand<"collection-delete">).payload.id);
    case "sources": {
      const { inputs, pathId, onlyNew } = (write as WriteCommand<"sources">).payload;
      return writeSources(store, merchant, inputs, { ...(pathId === undefined ? {} : { pathId }), onlyNew });
    }
    case "source-delete":
      return store.customSources.remove(merchant, (write as WriteCommand<"source-delete">).payload.id);
    case "search-settings":
      return writeSearchSettings(store, merchant, (write as WriteCommand<"search-settings">).payload.input);
    case "search-settings-reset":
      return store.searchSettings.reset(merchant).then(() => readSearchSettings(store, merchant));
  }
}

/** How a service carries writes out: at once on a single box; through the stream, then applied, on a cluster node. */
export interface Writes {
  /** The write's answer and, on a cluster node, its stream sequence (null on a single box). */
  submit<K extends WriteKind>(write: WriteCommand<K>): Promise<Written<WriteResult<K>>>;
}

export interface Written<R> {
  result: R;
  seq: number | null;
}

/** A single box's writes: applied at once, as the admin API and webhooks have always written. */
export function localWrites(store: Store): Writes {
  return {
    submit: (write) => applyWrite(store, write).then((result) => ({ result, seq: null })),
  };
}
