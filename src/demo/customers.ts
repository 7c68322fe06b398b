// Customer accounts, and the per-customer index the order and session
// simulators read instead of the accounts themselves.

import type { Rng } from "../core/random.js";
import { COMPANIES, COUNTRIES, FIRST_NAMES, LAST_NAMES, STREETS, type CountrySpec } from "./customer-vocabulary.js";
import { DAY_S, iso, type Config } from "./options.js";
import { at, IdSequence, Sampler, stream, zipfWeights } from "./random.js";
import type { DemoAddress, DemoCustomer } from "./shapes.js";

/** What the simulators need to know about each customer, by index: no customer object (see Catalogue). */
export interface CustomerPool {
  ids: Float64Array;
  /** Preferred department, so a customer's orders lean one way. */
  dept: number[];
  /** Repeat-purchase skew: a minority of customers place most orders. */
  activity: Sampler;
}

export function buildCustomers(cfg: Config): { records: DemoCustomer[]; pool: CustomerPool } {
  const rng = stream(cfg.seed, "customers");
  const ids = new IdSequence(6_800_000_000_000, 50_000, rng);
  const addressIds = new IdSequence(8_900_000_000_000, 20_000, rng);
  const emails = new Map<string, number>();
  // Accounts predate the order window so no order precedes its customer.
  const newest = cfg.windowStartS - DAY_S;
  const oldest = Math.min(cfg.nowS - 3 * 365 * DAY_S, newest - 365 * DAY_S);
  const created = Array.from(new Float64Array(cfg.customers).map(() => oldest + Math.floor(rng.next() * (newest - oldest))).sort());

  const records: DemoCustomer[] = [];
  const dept: number[] = [];
  for (let i = 0; i < cfg.customers; i++) {
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const country = at(COUNTRIES, rng.weighted(COUNTRIES.map((c) => c.share)));
    const addresses = [address(rng, addressIds, first, last, country, true)];
    if (rng.chance(0.25)) {
      const other = rng.chance(0.8) ? country : rng.pick(COUNTRIES);
      addresses.push(address(rng, addressIds, first, last, other, false));
    }
    const createdS = at(created, i);
    records.push({
      id: ids.take(),
      email: uniqueEmail(emails, first, last, rng),
      first_name: first,
      last_name: last,
      accepts_marketing: rng.chance(0.45),
      created_at: iso(createdS),
      updated_at: iso(createdS + Math.floor(rng.next() * (cfg.nowS - createdS))),
      state: "enabled",
      verified_email: rng.chance(0.92),
      phone: rng.chance(0.35) ? (at(addresses, 0).phone ?? fictionalPhone(rng, country)) : null,
      tags: rng.pick(["", "", "", "", "", "", "vip", "newsletter", "wholesale", "vip, newsletter"]),
      currency: country.currency,
      note: null,
      tax_exempt: false,
      addresses,
    });
    dept.push(rng.weighted([0.45, 0.3, 0.25]));
  }
  const activity = zipfWeights(cfg.customers, 0.6, 20, rng);
  const pool = {
    ids: Float64Array.from(records, (c) => c.id),
    dept,
    activity: new Sampler(
      records.map((_, i) => i),
      (i) => at(activity, i),
    ),
  };
  return { records, pool };
}

function address(rng: Rng, ids: IdSequence, first: string, last: string, country: CountrySpec, isDefault: boolean): DemoAddress {
  const [city, province, provinceCode, prefixes, phonePrefix] = rng.pick(country.cities);
  const unit = rng.next();
  return {
    id: ids.take(),
    first_name: first,
    last_name: last,
    company: rng.chance(0.08) ? rng.pick(COMPANIES) : null,
    address1: `${rng.int(1, 9899)} ${rng.pick(STREETS)} ${rng.pick(country.suffixes)}`,
    address2: unit < 0.12 ? `Apt ${rng.int(1, 30)}${rng.pick(["A", "B", "C", ""])}` : unit < 0.18 ? `Unit ${rng.int(1, 400)}` : "",
    city,
    province,
    country: country.name,
    zip: postcode(rng, country.code, rng.pick(prefixes)),
    phone: rng.chance(0.6) ? phoneNumber(rng, country, phonePrefix) : null,
    province_code: provinceCode,
    country_code: country.code,
    country_name: country.name,
    default: isDefault,
  };
}

/** A phone number on a customer without one on their address: a city of their country's prefix. */
function fictionalPhone(rng: Rng, country: CountrySpec): string {
  return phoneNumber(rng, country, rng.pick(country.cities)[4]);
}

/** The prefix's fictional range filled in: the UK's leave three digits, NANP's 555-01xx two. */
function phoneNumber(rng: Rng, country: CountrySpec, prefix: string): string {
  const digits = country.code === "GB" ? 3 : 2;
  return `${prefix}${String(rng.int(0, 10 ** digits - 1)).padStart(digits, "0")}`;
}

const POSTCODE_LETTERS = "ABDEFGHJLNPQRSTUWXYZ";

/** Postcodes in each country's real shape: 97214, M5V 2T6, EC1A 4BB. */
function postcode(rng: Rng, countryCode: string, prefix: string): string {
  const letter = (): string => POSTCODE_LETTERS.charAt(rng.int(0, POSTCODE_LETTERS.length - 1));
  if (countryCode === "US") return `${prefix}${String(rng.int(0, 99)).padStart(2, "0")}`;
  if (countryCode === "CA") return `${prefix} ${rng.int(0, 9)}${letter()}${rng.int(0, 9)}`;
  return `${prefix} ${rng.int(1, 9)}${letter()}${letter()}`;
}

/** Reserved example domains; a number is added when two customers share a name. */
function uniqueEmail(seen: Map<string, number>, first: string, last: string, rng: Rng): string {
  const local = `${asciiFold(first)}.${asciiFold(last)}`;
  const n = (seen.get(local) ?? 0) + 1;
  seen.set(local, n);
  const domain = rng.pick(["example.com", "example.com", "example.net", "example.org"]);
  return n === 1 ? `${local}@${domain}` : `${local}${n}@${domain}`;
}

function asciiFold(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z]/g, "");
}
