// What a custom source's answers read besides the catalogue and the source
// itself: the response cache keys them by those data's versions, and does not
// cache answers that follow each behaviour event.
import type { BuiltInSource, CustomSource } from "./definition.js";

export interface SourceNeeds {
  /** recommended with its default context: the inputs' bought-together lists. */
  boughtTogether: boolean;
  /** The similar-products model. */
  similar: boolean;
  /** The stored shop-wide rankings (top sellers, trending, and the fallbacks of every recommendation). */
  rankings: boolean;
  /** The customer's orders and record. */
  customer: boolean;
  /** The shopper's views, which change with each event: such answers are computed for every request. */
  history: boolean;
}

export function sourceNeeds(source: CustomSource): SourceNeeds {
  const builtIns: { source: BuiltInSource; context?: string }[] = source.rules.flatMap((rule) =>
    rule.return.kind === "source" ? [rule.return] : [],
  );
  if (source.fallback !== null) builtIns.push({ source: source.fallback });
  const uses = (...names: BuiltInSource[]) => builtIns.some((builtIn) => names.includes(builtIn.source));
  const conditionFields = source.rules.flatMap((rule) => rule.if?.conditions.map((condition) => condition.field) ?? []);
  // Rules that return tags, vendors or types rank them by best sellers.
  const ranksBySales = source.rules.some((rule) => ["tags", "vendors", "product_types"].includes(rule.return.kind));
  return {
    boughtTogether: builtIns.some((builtIn) => builtIn.source === "recommended" && builtIn.context !== "similar"),
    similar: uses("similar") || builtIns.some((builtIn) => builtIn.source === "recommended" && builtIn.context === "similar"),
    rankings: ranksBySales || uses("recommended", "similar", "top_sellers", "trending", "viewed_related"),
    customer: uses("purchased") || conditionFields.some((field) => field.startsWith("customer.")),
    history: uses("viewed", "viewed_related"),
  };
}
