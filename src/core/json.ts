import type { ByteBuilder } from "./byte-builder.js";

const encoder = new TextEncoder();

/**
 * A response body as bytes, the form cached and written to sockets. TextEncoder
 * gives the bytes their own buffer (Buffer.from may share a pooled one), so they
 * can be transferred between threads without detaching anything else.
 */
export function jsonBytes(body: unknown, pretty = false): Uint8Array {
  return encoder.encode(pretty ? `${JSON.stringify(body, null, 2)}\n` : JSON.stringify(body));
}

const CLOSING_BRACE = 0x7d;

/**
 * Adds one top-level field to a serialized JSON object without parsing it: the
 * uWS thread uses this to stamp cache metadata onto a worker's bytes, which
 * costs a copy instead of a parse and a stringify. Into `out` when given (a
 * view of it is returned, valid until its next use), else into a buffer of its own.
 */
export function withTopLevelField(body: Uint8Array, name: string, value: unknown, pretty: boolean, out?: ByteBuilder): Uint8Array {
  let end = body.length - 1;
  while (end >= 0 && body[end] !== CLOSING_BRACE) end--;
  if (end < 0) throw new Error("withTopLevelField: body is not a JSON object");
  const field = pretty
    ? `,\n  ${JSON.stringify(name)}: ${JSON.stringify(value, null, 2).replace(/\n/g, "\n  ")}\n}\n`
    : `,${JSON.stringify(name)}:${JSON.stringify(value)}}`;
  // Pretty bodies end "\n}\n": the field goes before the newline that precedes the brace.
  const cut = pretty && body[end - 1] === 0x0a ? end - 1 : end;
  if (out !== undefined) {
    out.reset();
    out.append(body.subarray(0, cut));
    out.appendText(field);
    return out.view();
  }
  const tail = encoder.encode(field);
  const own = new Uint8Array(cut + tail.length);
  own.set(body.subarray(0, cut), 0);
  own.set(tail, cut);
  return own;
}

/**
 * How deeply a client's JSON may nest arrays and objects (the top level is 1).
 * JSON.parse takes any depth, but what is stored or sent on cannot: msgpackr's
 * encoder ran out of stack on a variant's selling_plan_allocations 3,000 levels
 * deep, and JSON.stringify does by 10,000. A product is under ten levels.
 */
export const MAX_JSON_NESTING = 64;

/** Whether a parsed JSON value nests arrays and objects more than `max` levels deep; walked without recursion. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const pending: unknown[] = [value];
  const depths: number[] = [1];
  while (pending.length > 0) {
    const node = pending.pop();
    const depth = depths.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === "object" && child !== null) {
        pending.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
