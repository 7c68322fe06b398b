// Prices travel as two-decimal strings (the platform's format) and are compared
// as integer cents: float comparison would make `price_equal_to=19.99` flaky.

/** A decimal amount as text: what toCents accepts. */
export const DECIMAL = /^-?\d{1,13}(\.\d{1,2})?$/;

/** The largest amount DECIMAL writes, in cents: 9,999,999,999,999.99, below 2⁵³, so whole cents up to it are exact. */
export const MAX_CENTS = 999_999_999_999_999;

/** Cents of a decimal amount like "19.9" or 19.99, or null when it is not one. */
export function toCents(value: unknown): number | null {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    return toCents(value.toFixed(2));
  }
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (!DECIMAL.test(text)) return null;
  const negative = text.startsWith("-");
  const [whole = "0", fraction = ""] = text.replace("-", "").split(".");
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return negative ? -cents : cents;
}

/** "1999" cents → "19.99". */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const fraction = String(abs % 100).padStart(2, "0");
  return `${sign}${Math.floor(abs / 100)}.${fraction}`;
}
