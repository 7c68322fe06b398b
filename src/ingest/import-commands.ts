// `aisle import` on a cluster: the files' objects as the write commands a
// node's admin API publishes for them (an upsert of one kind's objects, a
// file's custom sources, its search settings), every file validated before
// any command is made, and each command small enough for one message.
import { InvalidInput } from "../core/ingest/fields.js";
import { formatTimestamp } from "../core/timestamps.js";
import type { MerchantId } from "../core/types.js";
import { countsOf, readImportFiles, WRITE_CHUNK, type ImportKind } from "./import-files.js";
import { isIngestKind, type IngestKind } from "./ingest.js";
import { searchSettingsCommand, sourcesCommand, upsertCommand, type WriteCommand } from "./write-commands.js";

/** A command and the objects it carries (for progress). */
export interface ImportCommand {
  write: WriteCommand;
  objects: number;
}

export interface ImportCommands {
  commands: ImportCommand[];
  counts: Record<ImportKind, number>;
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** An object or file that no message could carry is refused before anything is published. */
function checkFits(where: string, bytes: number, maxPayloadBytes: number): void {
  if (bytes > maxPayloadBytes) {
    throw new InvalidInput(
      where,
      `is ${bytes} bytes as a message, more than the ${maxPayloadBytes} one may carry on these nats-servers (max_payload)`,
    );
  }
}

/**
 * The import as commands in write order, none with a payload over
 * `maxPayloadBytes`. Objects are validated as the admin API validates them,
 * so every command would pass its `checkWrite`, which is not run again.
 */
export function importCommands(
  merchant: MerchantId,
  files: string[],
  type: ImportKind | undefined,
  maxPayloadBytes: number,
): ImportCommands {
  const now = formatTimestamp(new Date());
  const batches = readImportFiles(files, type, now, "read");
  const commands = batches.flatMap(({ file, kind, items }): ImportCommand[] => {
    if (isIngestKind(kind)) return upserts(merchant, file, kind, items, now, maxPayloadBytes);
    // A file's sources are one write, as on a single box: they replace each other's ids in one transaction.
    const write = kind === "sources" ? sourcesCommand(merchant, items) : searchSettingsCommand(merchant, items[0]);
    checkFits(file, bytesOf(write.payload), maxPayloadBytes);
    return [{ write, objects: items.length }];
  });
  return { commands, counts: countsOf(batches) };
}

/** A file's records as upserts of up to WRITE_CHUNK objects each, each payload within `maxPayloadBytes`. */
function upserts(
  merchant: MerchantId,
  file: string,
  kind: IngestKind,
  records: unknown[],
  now: string,
  maxPayloadBytes: number,
): ImportCommand[] {
  // The payload around its items, {"items":[],"now":"…"}: each item adds its bytes and a comma.
  const envelope = bytesOf(upsertCommand(merchant, kind, [], now).payload);
  const commands: ImportCommand[] = [];
  let items: unknown[] = [];
  let bytes = envelope;
  const flush = () => {
    if (items.length > 0) commands.push({ write: upsertCommand(merchant, kind, items, now), objects: items.length });
    items = [];
    bytes = envelope;
  };
  records.forEach((record, index) => {
    const recordBytes = bytesOf(record) + 1;
    checkFits(`${file}: ${kind}[${index}]`, envelope + recordBytes, maxPayloadBytes);
    if (items.length === WRITE_CHUNK || bytes + recordBytes > maxPayloadBytes) flush();
    items.push(record);
    bytes += recordBytes;
  });
  flush();
  return commands;
}
