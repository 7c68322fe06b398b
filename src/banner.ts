import type { Config } from "./config.js";
import type { DemoInfo } from "./demo/seed.js";
import type { AdminTokenSource, RunningService } from "./main.js";

/** The token itself only on the start that created it: every later start's output may end up in a log collector. */
function adminTokenLines(token: string, source: AdminTokenSource): { line: string; header: string } {
  switch (source.kind) {
    case "created":
      return { line: `  admin token:   ${token}   (created now, kept in ${source.file})`, header: `Bearer $(cat ${source.file})` };
    case "kept":
      return { line: `  admin token:   kept in ${source.file}`, header: `Bearer $(cat ${source.file})` };
    case "environment":
      return { line: "  admin token:   AISLE_ADMIN_TOKEN", header: "Bearer $AISLE_ADMIN_TOKEN" };
  }
}

/** A curl line per demo custom source, with a request its rules answer: a T-shirt in the cart, a price cap, a customer with orders. */
function customSourceLines(base: string, demo: DemoInfo): string[] {
  const { apiKey, sample, customSourceIds } = demo;
  const queries: Record<string, string | null> = {
    "complete-the-look": sample.tShirtId === null ? null : `cart_product_ids=${sample.tShirtId}&limit=4`,
    "gifts-under-30": "any_variant_price_less_than=30.00&limit=6",
    "buy-it-again": sample.customerId === null ? null : `platform_customer_id=${sample.customerId}`,
  };
  return customSourceIds.flatMap((id) => {
    const query = queries[id];
    return query ? [`  curl '${base}/api/v1/custom/id/${id}?key=${apiKey}&${query}&format=pretty'`] : [];
  });
}

/** A curl line per search the demo's search settings answer, and one reading the settings. */
function searchSettingsLines(base: string, demo: DemoInfo, adminHeader: string): string[] {
  if (demo.searchQueries.length === 0) return [];
  const search = `${base}/api/v1/smart-search/search/quick-view?Service-Api-Key=${demo.apiKey}`;
  return [
    ...demo.searchQueries.map((query) => `  curl -X POST '${search}&query=${encodeURIComponent(query)}&limit=4&format=pretty'`),
    `  curl -H "Authorization: ${adminHeader}" '${base}/admin/v1/merchants/${demo.merchantId}/search-settings'`,
  ];
}

/** What a newcomer needs after `npm start`: where it listens, the keys, and curl lines to paste. */
export function printBanner(config: Config, service: RunningService, startMs: number): void {
  const base = `http://localhost:${service.port}`;
  const out: string[] = [];
  const demo = service.demo;
  const admin = adminTokenLines(service.adminToken, service.adminTokenSource);
  if (demo) {
    const { seeded, sample } = demo;
    out.push(
      seeded
        ? `Seeded the demo merchant "${demo.merchantId}" (${seeded.counts.products} products, ${seeded.counts.collections} collections, ${seeded.counts.customers} customers, ${seeded.counts.orders} orders, ${seeded.counts.events} events) in ${Math.round(seeded.generateMs + seeded.importMs)} ms`
        : `Demo merchant "${demo.merchantId}" is in this data dir`,
      `  demo API key:  ${demo.apiKey}`,
      `  storefront:    ${base}/demo   (the demo shop in a browser, on the typed client)`,
      admin.line,
      "",
      "Try:",
      `  curl '${base}/api/v1/products/static?key=${demo.apiKey}&ids=${sample.productIds.join(",")}&format=pretty'`,
      `  curl '${base}/api/v1/products/static?key=${demo.apiKey}&handles=${sample.handles.join(",")}&country_code=CA&metafield_ns=reviews'`,
      ...(sample.collectionId
        ? [`  curl '${base}/api/v1/products/static?key=${demo.apiKey}&platform_collection_id=${sample.collectionId}&limit=10'`]
        : []),
      `  curl '${base}/api/v1/products/similar_products?key=${demo.apiKey}&platform_product_ids=${sample.productIds[0]}&limit=5&format=pretty'`,
      ...(sample.customerId !== null
        ? [`  curl '${base}/api/v1/products/purchased?key=${demo.apiKey}&platform_customer_id=${sample.customerId}&format=pretty'`]
        : []),
      ...(sample.sessionUuid !== null ? [`  curl '${base}/api/v1/products/viewed?uuid=${sample.sessionUuid}&format=pretty'`] : []),
      ...customSourceLines(base, demo),
      ...searchSettingsLines(base, demo, admin.header),
      `  curl '${base}/api/v1/sources?key=${demo.apiKey}&format=pretty'`,
      `  curl -H "Authorization: ${admin.header}" '${base}/admin/v1/merchants'`,
      "",
    );
  }
  if (!demo) out.push(admin.line);
  console.log(out.join("\n"));
  console.log(
    JSON.stringify({
      time: new Date().toISOString(),
      level: "info",
      message: `aisle listening on ${base}`,
      port: service.port,
      dataDir: config.dataDir,
      workers: config.workers,
      startMs: Math.round(startMs),
    }),
  );
}
