// Kept apart from the stream's client, so the error catalogue can name it without loading NATS.

/** A write no message of these nats-servers can carry: sent again it fails again, so it is the client's to split. */
export class WriteTooLargeForStream extends Error {
  constructor(bytes: number, maxPayloadBytes: number) {
    super(
      `The write is ${bytes} bytes as a stream message, more than the ${maxPayloadBytes} the cluster's nats-servers carry (max_payload): send fewer or smaller objects per request`,
    );
  }
}
