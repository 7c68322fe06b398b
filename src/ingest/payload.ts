import { InvalidInput } from "../core/ingest/fields.js";
import { MAX_JSON_NESTING, nestedDeeperThan } from "../core/json.js";

/**
 * Objects of an ingest body or file: a JSON array, one JSON object, or NDJSON
 * (one object per line). A parse error names the line it is on.
 */
export function parseObjects(text: string, what: string): unknown[] {
  return parseObjectsWithLines(text, what).items;
}

/** parseObjects, with each object's line when the text is NDJSON (null otherwise): errors can name the line an operator finds. */
export function parseObjectsWithLines(text: string, what: string): { items: unknown[]; lines: number[] | null } {
  const parsed = parseAnyObjects(text, what);
  parsed.items.forEach((item, index) => {
    if (!nestedDeeperThan(item, MAX_JSON_NESTING)) return;
    const where = parsed.lines === null ? `${what}[${index}]` : `${what} line ${parsed.lines[index]}`;
    throw new InvalidInput(where, `nests arrays and objects more than ${MAX_JSON_NESTING} levels deep`);
  });
  return parsed;
}

function parseAnyObjects(text: string, what: string): { items: unknown[]; lines: number[] | null } {
  const trimmed = text.trim();
  if (trimmed === "") throw new InvalidInput(what, "is empty");
  if (trimmed.startsWith("[")) return { items: parseWhole(trimmed, what) as unknown[], lines: null };
  try {
    return { items: [JSON.parse(trimmed)], lines: null };
  } catch {
    // Not a single document: read it as NDJSON below.
  }
  const items: unknown[] = [];
  const lines: number[] = [];
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    try {
      items.push(JSON.parse(line));
      lines.push(index + 1);
    } catch (error) {
      throw new InvalidInput(`${what} line ${index + 1}`, `is not valid JSON (${(error as Error).message})`);
    }
  });
  return { items, lines };
}

function parseWhole(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidInput(what, `is not valid JSON (${(error as Error).message})`);
  }
}
