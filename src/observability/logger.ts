// Structured JSON logs, one object per line (pino): `time`, `level` as a word,
// `message`, then fields. Per-request lines are at debug level, so the default
// (info) costs the hot path one level check.
import pino from "pino";

export const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Writes to `destination` (default stdout, synchronously, so lines keep their order with other output). */
export function jsonLogger(level: LogLevel, destination: pino.DestinationStream = pino.destination({ dest: 1, sync: true })): Logger {
  const logger = pino(
    {
      level,
      messageKey: "message",
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  return {
    debug: (message, fields) => logger.debug(fields ?? {}, message),
    info: (message, fields) => logger.info(fields ?? {}, message),
    warn: (message, fields) => logger.warn(fields ?? {}, message),
    error: (message, fields) => logger.error(fields ?? {}, message),
  };
}
