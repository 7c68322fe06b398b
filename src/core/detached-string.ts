/**
 * The text as a string of its own. V8 makes a substring of 13 characters or
 * more a view of the string it came from, so a value cut from a query string
 * keeps the whole query alive for as long as the value is kept: a session id
 * while its events are pending and in the session memo, a handle while it is
 * remembered. For ASCII text (what validation lets through for those), which
 * latin1 copies exactly.
 */
export function detached(text: string): string {
  return Buffer.from(text, "latin1").toString("latin1");
}
