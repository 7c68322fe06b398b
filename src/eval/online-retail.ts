// The Online Retail protocol of the data README ("Bought together"): which lines
// count as sales, how invoices become baskets, the time split and the test cases.
import { asyncBufferFromFile, parquetReadObjects } from "hyparquet";
import { InvalidInput } from "../core/ingest/fields.js";

export interface Invoice {
  id: string;
  /** Epoch ms of the invoice's first line. */
  at: number;
  customerId: number | null;
  /** Distinct stock codes in line order (first occurrence). */
  items: string[];
  /** Units and unit price per item, summed over the invoice's lines. */
  lines: Map<string, { quantity: number; price: number }>;
}

export interface RetailData {
  invoices: Invoice[];
  descriptions: Map<string, string>;
}

export interface FbtCase {
  query: string[];
  target: string;
  invoice: Invoice;
}

const STOCK_CODE = /^[0-9]{5}[A-Z]{0,2}$/;
const INVOICE_NO = /^[0-9]{6}$/;

interface RetailRow {
  InvoiceNo: string;
  StockCode: string;
  Description: string | null;
  Quantity: bigint | number;
  InvoiceDate: string;
  UnitPrice: number;
  CustomerID: number | null;
}

/** Dates in the file are wall-clock times of the shop; read them as UTC consistently. */
function parseDate(text: string): number {
  return Date.parse(`${text.replace(" ", "T")}Z`);
}

export async function loadOnlineRetail(path: string): Promise<RetailData> {
  let rows: RetailRow[];
  try {
    rows = (await parquetReadObjects({ file: await asyncBufferFromFile(path) })) as unknown as RetailRow[];
  } catch (error) {
    // Missing, a directory, or not parquet: the operator's file to fix, named in one line.
    throw new InvalidInput(path, `cannot be read as the Online Retail parquet file (${(error as Error).message})`);
  }
  const byId = new Map<string, Invoice>();
  const descriptions = new Map<string, string>();
  for (const row of rows) {
    const quantity = Number(row.Quantity);
    const code = String(row.StockCode).toUpperCase();
    if (!(quantity > 0) || !(row.UnitPrice > 0) || !INVOICE_NO.test(String(row.InvoiceNo)) || !STOCK_CODE.test(code)) continue;
    let invoice = byId.get(row.InvoiceNo);
    if (!invoice) {
      invoice = { id: row.InvoiceNo, at: parseDate(row.InvoiceDate), customerId: row.CustomerID ?? null, items: [], lines: new Map() };
      byId.set(row.InvoiceNo, invoice);
    }
    const line = invoice.lines.get(code);
    if (line) line.quantity += quantity;
    else {
      invoice.items.push(code);
      invoice.lines.set(code, { quantity, price: row.UnitPrice });
    }
    if (row.Description && !descriptions.has(code)) descriptions.set(code, row.Description.trim());
  }
  const invoices = [...byId.values()].sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
  return { invoices, descriptions };
}

export const TEST_START = Date.parse("2011-11-01T00:00:00Z");
export const VALIDATION_START = Date.parse("2011-10-01T00:00:00Z");

export function splitAt(invoices: Invoice[], boundary: number): { train: Invoice[]; test: Invoice[] } {
  return { train: invoices.filter((i) => i.at < boundary), test: invoices.filter((i) => i.at >= boundary) };
}

export type RetailSplit = "test" | "validation";

/**
 * The protocol's time split: test = train before November 2011, evaluate on
 * the rest; validation (for tuning) = train before October, evaluate on October.
 */
export function protocolSplit(invoices: Invoice[], split: RetailSplit): { train: Invoice[]; test: Invoice[]; boundary: number } {
  const boundary = split === "test" ? TEST_START : VALIDATION_START;
  const end = split === "test" ? Number.POSITIVE_INFINITY : TEST_START;
  return {
    ...splitAt(
      invoices.filter((invoice) => invoice.at < end),
      boundary,
    ),
    boundary,
  };
}

/** One case per test invoice with at least two items seen in train: the last is the target. */
export function fbtCases(train: Invoice[], test: Invoice[]): FbtCase[] {
  const known = new Set(train.flatMap((invoice) => invoice.items));
  const cases: FbtCase[] = [];
  for (const invoice of test) {
    const items = invoice.items.filter((item) => known.has(item));
    if (items.length < 2) continue;
    cases.push({ query: items.slice(0, Math.min(5, items.length - 1)), target: items[items.length - 1]!, invoice });
  }
  return cases;
}
