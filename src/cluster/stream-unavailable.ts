/** The write stream did not acknowledge a write (no server answered in time): nothing is acknowledged to the client. */
export class StreamUnavailable extends Error {
  constructor(cause: unknown) {
    super(`The write stream did not acknowledge the write, retry shortly (${String((cause as Error)?.message ?? cause)})`);
  }
}
