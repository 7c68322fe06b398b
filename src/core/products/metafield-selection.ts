import type { Metafield } from "../types.js";

/** Which metafields one owner kind (product or variant) is returned with. */
export interface MetafieldSelector {
  all: boolean;
  nsKeys: string[];
  namespaces: string[];
}

export interface MetafieldSelection {
  product: MetafieldSelector | null;
  variant: MetafieldSelector | null;
}

/**
 * `metafields=yes` asks for all of them; `metafield_ns_key` / `metafield_ns`
 * name the ones wanted. Naming some without `yes` still returns those: asking
 * for a namespace is asking for the property.
 */
export function metafieldSelector(all: boolean, nsKeys: string[], namespaces: string[]): MetafieldSelector | null {
  if (!all && nsKeys.length === 0 && namespaces.length === 0) return null;
  return { all: all && nsKeys.length === 0 && namespaces.length === 0, nsKeys, namespaces };
}

export function selectMetafields(metafields: Metafield[], selector: MetafieldSelector): Metafield[] {
  if (selector.all) return metafields;
  return metafields.filter((m) => selector.namespaces.includes(m.namespace) || selector.nsKeys.includes(`${m.namespace}.${m.key}`));
}
