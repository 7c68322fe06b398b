// A custom data source: rules a merchant writes, each an IF over the request's
// context and a RETURN of products. The fields, operators, RETURN kinds and
// built-in sources are described once here: validation, compilation, the admin
// documentation and the README's rule format all read these tables.

/** What a condition's field yields: texts compare without case, ids and numbers as numbers, money in cents. */
export type FieldKind = "text" | "id" | "number" | "money";

export interface FieldDef {
  kind: FieldKind;
  /** Text compared by substring for the contains operators (a title), instead of whole values. */
  substring?: boolean;
  description: string;
}

/** Every field a condition can test; each yields a set of values (a scalar is a set of one, an unknown customer none). */
export const FIELDS = {
  "product.tags": { kind: "text", description: "Tags of the input products." },
  "product.vendor": { kind: "text", description: "Vendors of the input products." },
  "product.product_type": { kind: "text", description: "Types of the input products." },
  "product.handle": { kind: "text", description: "Handles of the input products." },
  "product.title": {
    kind: "text",
    substring: true,
    description: "Titles of the input products; the contains operators look for the values inside the titles.",
  },
  "product.collection_ids": { kind: "id", description: "Collections the input products belong to." },
  "product.price": { kind: "money", description: "Prices of the input products' variants." },
  "cart.product_ids": { kind: "id", description: "Products in the cart." },
  "cart.variant_ids": { kind: "id", description: "Variants in the cart." },
  "cart.quantities": { kind: "number", description: "Quantity of each cart line." },
  "cart.subtotal": { kind: "money", description: "The cart's subtotal: each line's variant price (the shop's own) times its quantity." },
  "cart.product_type": { kind: "text", description: "Types of the products in the cart." },
  "cart.tags": { kind: "text", description: "Tags of the products in the cart." },
  "customer.tags": { kind: "text", description: "Tags of the customer (none for an unknown customer)." },
  "customer.orders_count": { kind: "number", description: "Orders of the customer, cancelled ones left out." },
  "customer.total_spent": { kind: "money", description: "What the customer spent, cancelled orders left out." },
  country_code: { kind: "text", description: "The request's country_code." },
} as const satisfies Record<string, FieldDef>;

export type FieldName = keyof typeof FIELDS;
export const FIELD_NAMES = Object.keys(FIELDS) as FieldName[];

export const OPERATORS = [
  "equals",
  "does_not_equal",
  "contains_any",
  "contains_all",
  "does_not_contain_any",
  "does_not_contain_all",
  "greater_than",
  "less_than",
] as const;
export type Operator = (typeof OPERATORS)[number];

/** Operators that compare one number with each value of the field: only numeric fields take them. */
export const NUMERIC_OPERATORS: readonly Operator[] = ["greater_than", "less_than"];

export const BUILT_IN_SOURCES = ["recommended", "similar", "top_sellers", "trending", "purchased", "viewed", "viewed_related"] as const;
export type BuiltInSource = (typeof BUILT_IN_SOURCES)[number];

/** recommended's two models, as its endpoint's context parameter names them. */
export const RECOMMENDED_CONTEXTS = ["default", "similar"] as const;
export type RecommendedContextName = (typeof RECOMMENDED_CONTEXTS)[number];

/** A condition's values, normalised: texts lower case, money in cents. */
export type ConditionValue = string | number;

export interface Condition {
  field: FieldName;
  operator: Operator;
  values: ConditionValue[];
}

export interface RuleIf {
  /** and: every condition holds; or: at least one does. */
  join: "and" | "or";
  conditions: Condition[];
}

export type RuleReturn =
  | { kind: "products"; product_ids: number[] }
  | { kind: "collection"; collection_id: number }
  | { kind: "tags"; tags: string[] }
  | { kind: "vendors"; vendors: string[] }
  | { kind: "product_types"; product_types: string[] }
  | { kind: "input_products" }
  | { kind: "nothing" }
  | { kind: "source"; source: BuiltInSource; context?: RecommendedContextName };

export type ReturnKind = RuleReturn["kind"];
export const RETURN_KINDS: readonly ReturnKind[] = [
  "products",
  "collection",
  "tags",
  "vendors",
  "product_types",
  "input_products",
  "nothing",
  "source",
];

/** A product held at a place of the answer, 1 being the first. */
export interface Pin {
  product_id: number;
  position: number;
}

/** Products carrying any of the tags or belonging to any of the collections. */
export interface ProductMarks {
  tags: string[];
  collection_ids: number[];
}

export interface Rule {
  /** null: the rule always matches. */
  if: RuleIf | null;
  return: RuleReturn;
  /** When the rule matches, the rules below it do not run. */
  exit_if_matched: boolean;
  pin: Pin[];
  /** Of this rule's products, those marked come first. */
  boost: ProductMarks;
  /** Of this rule's products, those marked come last. */
  bury: ProductMarks;
  /** Never shown in the answer once the rule matched. */
  exclude: { product_ids: number[]; collection_ids: number[] };
}

export interface CustomSource {
  id: string;
  name: string;
  description: string;
  rules: Rule[];
  /** Answers when the rules fill nothing; null: such an answer is empty. */
  fallback: BuiltInSource | null;
}

/** A source as stored: `version` changes with every write, so compiled rules and cached answers follow it. */
export interface StoredSource {
  source: CustomSource;
  version: number;
}

/** Source ids are URL path segments. */
export const SOURCE_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export const MAX_RULES = 100;
export const MAX_CONDITIONS = 50;
export const MAX_VALUES = 250;
export const MAX_PINS = 50;

/** Where a storefront reads a custom source. */
export const customSourcePath = (id: string) => `/api/v1/custom/id/${id}`;
