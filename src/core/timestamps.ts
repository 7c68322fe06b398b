// The spec shows timestamps "with UTC offset, ISO 8601 style" (2024-05-01T10:00:00-04:00).
// Inputs keep their own offset; a trailing Z becomes +00:00 so every output has one shape.

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export function normaliseTimestamp(value: string): string | null {
  if (!ISO_WITH_OFFSET.test(value) || Number.isNaN(Date.parse(value))) return null;
  return value.endsWith("Z") ? `${value.slice(0, -1)}+00:00` : value;
}

export function formatTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, 19)}+00:00`;
}
