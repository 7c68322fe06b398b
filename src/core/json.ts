const encoder = new TextEncoder();

/**
 * A response body as bytes, the form cached and written to sockets. TextEncoder
 * gives the bytes their own buffer (Buffer.from may share a pooled one), so they
 * can be transferred between threads without detaching anything else.
 */
export function jsonBytes(body: unknown, pretty = false): Uint8Array {
  return encoder.encode(pretty ? `${JSON.stringify(body, null, 2)}\n` : JSON.stringify(body));
}
