import { InvalidInput } from "../core/ingest/fields.js";

/**
 * Objects of an ingest body or file: a JSON array, one JSON object, or NDJSON
 * (one object per line). A parse error names the line it is on.
 */
export function parseObjects(text: string, what: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed === "") throw new InvalidInput(what, "is empty");
  if (trimmed.startsWith("[")) return parseWhole(trimmed, what) as unknown[];
  try {
    return [JSON.parse(trimmed)];
  } catch {
    // Not a single document: read it as NDJSON below.
  }
  const items: unknown[] = [];
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    try {
      items.push(JSON.parse(line));
    } catch (error) {
      throw new InvalidInput(`${what} line ${index + 1}`, `is not valid JSON (${(error as Error).message})`);
    }
  });
  return items;
}

function parseWhole(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidInput(what, `is not valid JSON (${(error as Error).message})`);
  }
}
