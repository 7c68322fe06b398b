// The catalogue, the code and the docs stay in step: every code is used, every
// code is documented in the README's error table, and the responder knows
// every status the catalogue answers with.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ApiError, ERRORS, toApiError, type ErrorCode } from "../../src/errors.js";
import { STATUS_TEXT } from "../../src/http/respond.js";
import { InvalidInput } from "../../src/core/ingest/fields.js";
import { BadSearchRequest } from "../../src/core/search/request.js";
import { PoolSaturatedError, TaskFailedError } from "../../src/pool/protocol.js";
import { AlreadyExistsError } from "../../src/stores/catalogue-store.js";
import { EventBacklogFull } from "../../src/ingest/event-writer.js";
import { StreamUnavailable } from "../../src/cluster/stream-unavailable.js";
import { WriteNotApplied } from "../../src/ingest/write-not-applied.js";

const CODES = Object.keys(ERRORS) as ErrorCode[];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The README's error table: its code column. */
function documentedCodes(): string[] {
  const readme = readFileSync("README.md", "utf8");
  const section = readme.split(/^## Errors$/m)[1]?.split(/^## /m)[0] ?? "";
  return [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1]!);
}

describe("the error catalogue", () => {
  it("has no code that nothing raises", () => {
    // The catalogue declares its codes as bare keys; a use names one as a string.
    const source = sourceFiles("src")
      .map((file) => readFileSync(file, "utf8"))
      .join("\n");
    const unused = CODES.filter((code) => !source.includes(`"${code}"`));
    expect(unused).toEqual([]);
  });

  it("is documented, code for code and status for status, in the README's error table", () => {
    expect(documentedCodes().sort()).toEqual([...CODES].sort());
    const readme = readFileSync("README.md", "utf8");
    for (const code of CODES) expect(readme).toContain(`| \`${code}\` | ${ERRORS[code].status} | ${ERRORS[code].message} |`);
  });

  it("answers only with statuses the responder has a status line for", () => {
    for (const code of CODES) expect(STATUS_TEXT[ERRORS[code].status], code).toBeDefined();
  });

  it("maps every domain error to its code, and anything else to internal", () => {
    const cases: [unknown, ErrorCode][] = [
      [new ApiError("not_found", "No product 1"), "not_found"],
      [new InvalidInput("products[0].title", "must be a string"), "invalid_body"],
      [new BadSearchRequest("limit must be a whole number from 1 to 50"), "invalid_params"],
      [new AlreadyExistsError("Merchant shop already exists"), "conflict"],
      [new PoolSaturatedError("worker pool queue is full"), "overloaded"],
      [new EventBacklogFull(), "overloaded"],
      [new StreamUnavailable(new Error("timeout")), "overloaded"],
      [new WriteNotApplied(42, 30_000), "overloaded"],
      [new TaskFailedError("quick_view", "merchant_not_found", "no merchant shop"), "not_found"],
      [new TaskFailedError("ping", "bad_task", "unknown task"), "internal"],
      [new TypeError("x is undefined"), "internal"],
      ["a thrown string", "internal"],
    ];
    for (const [error, code] of cases) expect(toApiError(error).code, String(error)).toBe(code);
  });

  it("keeps the message that names the problem", () => {
    expect(toApiError(new InvalidInput("products[2].variants[0].price", "is not a decimal amount")).message).toBe(
      "products[2].variants[0].price: is not a decimal amount",
    );
    expect(toApiError(new BadSearchRequest("query is required")).message).toBe("Invalid request: query is required");
  });
});
