// /openapi.json: clean under a recommended OpenAPI lint, complete enough to
// drive a client, and its schemas held to what the serializers write.
import { createConfig, lintFromString } from "@redocly/openapi-core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { STOREFRONT_ENDPOINTS } from "../../src/core/api/endpoints.js";
import { normaliseProduct } from "../../src/core/ingest/product.js";
import type { CatalogReader } from "../../src/core/products/catalog.js";
import { metafieldSelector } from "../../src/core/products/metafield-selection.js";
import type { Projection } from "../../src/core/products/projection.js";
import type { ListOptions } from "../../src/core/products/query.js";
import { productListBody } from "../../src/core/products/render.js";
import { renderDataOnRead } from "../../src/core/products/render-data-on-read.js";
import type { Metafield, Product } from "../../src/core/types.js";
import { OpenApiChecker, servedOpenApi } from "../helpers/openapi-checker.js";

const doc = servedOpenApi();
const checker = new OpenApiChecker(doc);
const storefrontOperations = STOREFRONT_ENDPOINTS.map((endpoint) => ({
  endpoint,
  operation: doc.paths[endpoint.path][endpoint.method.toLowerCase()],
}));

describe("/openapi.json", () => {
  it("passes the recommended rules of Redocly's linter (run in process, offline) with one known warning", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: "openapi.json", config });
    const found = problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    // The project has no license to name (package.json says UNLICENSED), and the document must not invent one.
    expect(found).toEqual(["warn info-license at #/info: Info object should contain `license` field."]);
  });

  it("names each storefront operation, secures it with the key it takes, and documents its answer as a named schema", () => {
    for (const { endpoint, operation } of storefrontOperations) {
      expect(operation.operationId, endpoint.path).toBe(endpoint.operationId);
      expect(operation.tags, endpoint.path).toEqual([endpoint.tag]);
      const success = operation.responses["200"] ?? operation.responses["404"];
      expect(success.content["application/json"].schema.$ref, endpoint.path).toMatch(/^#\/components\/schemas\/\w+$/);
      expect(operation.responses.default, endpoint.path).toBeDefined();
    }
    const securityOf = (path: string, method = "get") => doc.paths[path][method].security;
    expect(securityOf("/api/v1/products/recommended")).toEqual([{ storefrontKey: [] }]);
    // viewed finds the merchant from the session when the key is left out.
    expect(securityOf("/api/v1/products/viewed")).toEqual([{ storefrontKey: [] }, {}]);
    expect(securityOf("/api/v1/smart-search/search/quick-view", "post")).toEqual([{ serviceApiKeyQuery: [] }, { serviceApiKeyHeader: [] }]);
    expect(doc.servers).toEqual([{ url: "/", description: "The host that serves this document" }]);
    for (const name of [
      "Product",
      "Variant",
      "Option",
      "Image",
      "Metafield",
      "Customer",
      "Address",
      "Source",
      "Suggestion",
      "QuickViewRequest",
    ]) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
  });

  it("documents each endpoint's error shape as the spec shows it", () => {
    const errorOf = (path: string, status: string, method = "get") =>
      doc.paths[path][method].responses[status].content["application/json"].schema;
    expect(errorOf("/api/v1/products/recommended", "400")).toEqual({ $ref: "#/components/schemas/ErrorMessage" });
    expect(errorOf("/api/v1/products/trending_products", "400")).toEqual({ $ref: "#/components/schemas/EmptyError" });
    expect(errorOf("/api/v1/smart-search/search/quick-view", "400", "post")).toEqual({ $ref: "#/components/schemas/EmptyError" });
    expect(errorOf("/api/v1/smart-search/settings/quick-view", "404")).toEqual({ $ref: "#/components/schemas/DeprecatedEndpoint" });
  });

  it("finds answers that differ from the document", () => {
    const url = new URL("http://127.0.0.1/api/v1/products/static?key=k&ids=1");
    const exchange = { method: "GET", url, status: 200, requestBody: null };
    expect(checker.problems({ ...exchange, body: '{"data":[]}' })).toEqual([]);
    expect(checker.problems({ ...exchange, body: '{"data":[{"id":1}]}' })).toContain(
      `GET /api/v1/products/static → 200 body: /data/0 must have required property 'title' {"missingProperty":"title"}`,
    );
    expect(checker.problems({ ...exchange, body: '{"data":[],"extra":1}' })).toHaveLength(1);
    // trending's 400 is the spec's empty object.
    const trending = { ...exchange, url: new URL("http://127.0.0.1/api/v1/products/trending_products"), status: 400 };
    expect(checker.problems({ ...trending, body: "{}" })).toEqual([]);
    expect(checker.problems({ ...trending, body: '{"error":"Invalid key"}' })).toHaveLength(1);
    expect(checker.problems({ ...exchange, url: new URL("http://127.0.0.1/healthz"), body: "ok" })).toEqual([]);
  });
});

// Admin-shaped products with every optional part present or not, as ingest stores them.
const productInputArb = fc.record(
  {
    compare: fc.option(fc.constantFrom("19.00", "120.5"), { nil: null }),
    inventoryManagement: fc.option(fc.constant("platform"), { nil: null }),
    option2: fc.option(fc.constant("Large"), { nil: null }),
    alt: fc.option(fc.string(), { nil: null }),
    published: fc.boolean(),
    templateSuffix: fc.option(fc.constantFrom("", "wide"), { nil: null }),
    images: fc.nat({ max: 2 }),
    productMetafields: fc.boolean(),
    variantMetafields: fc.boolean(),
    sellingPlans: fc.boolean(),
    status: fc.constantFrom("active", "draft", "archived"),
  },
  { requiredKeys: [] },
);

type ProductInput = typeof productInputArb extends fc.Arbitrary<infer T> ? T : never;

function ingested(input: ProductInput): { product: Product; metafields: Metafield[] } {
  const id = 7100;
  return normaliseProduct(
    {
      id,
      title: "Canvas Camp Mug",
      status: input.status ?? "active",
      ...(input.published === false ? { published_at: null } : {}),
      ...(input.templateSuffix !== undefined ? { template_suffix: input.templateSuffix } : {}),
      variants: [
        {
          id: 71001,
          price: "12.50",
          ...(input.compare !== undefined ? { compare_at_price: input.compare } : {}),
          ...(input.inventoryManagement !== undefined ? { inventory_management: input.inventoryManagement } : {}),
          option1: "Small",
          ...(input.option2 !== undefined ? { option2: input.option2 } : {}),
          ...(input.sellingPlans ? { selling_plan_allocations: [{ selling_plan_id: 1, price: "11.00" }] } : {}),
          ...(input.variantMetafields ? { metafields: [{ id: 91, namespace: "custom", key: "fabric", value: "canvas" }] } : {}),
        },
      ],
      images: Array.from({ length: input.images ?? 0 }, (_, i) => ({
        id: 7200 + i,
        src: `https://cdn.example.com/mug-${i}.jpg`,
        alt: input.alt ?? null,
        variant_ids: i === 0 ? [71001] : [],
      })),
      ...(input.productMetafields ? { metafields: [{ id: 92, namespace: "reviews", key: "rating", value: { value: "4.5" } }] } : {}),
    },
    "products[0]",
    "2026-01-02T10:00:00+00:00",
  );
}

function listOptions(projection: Projection, metafields: boolean, sellingPlans: boolean): ListOptions {
  const selector = metafields ? metafieldSelector(true, [], []) : null;
  return {
    limit: 5,
    filterOos: false,
    filterUnpublished: false,
    excludedIds: [],
    restrictTo: null,
    countryCode: null,
    projection,
    metafields: { product: selector, variant: selector },
    sellingPlans,
    pretty: false,
    price: null,
    unsetVariants: false,
    honourExcludeServiceTag: false,
  };
}

describe("the product schemas", () => {
  it("describe whatever ingest stores, as either projection renders it, with or without metafields and selling plans", () => {
    fc.assert(
      fc.property(productInputArb, fc.boolean(), (input, withMetafields) => {
        const { product, metafields } = ingested(input);
        const reader: CatalogReader = {
          product: (id) => (id === product.id ? product : undefined),
          productIdByHandle: () => undefined,
          collection: () => undefined,
          metafields: (owner, ownerId) => metafields.filter((m) => m.owner_resource === owner && m.owner_id === ownerId),
          markets: () => [],
          marketPrice: () => undefined,
        };
        for (const [path, projection] of [
          ["/api/v1/products/static", "full"],
          ["/api/v1/products/trending_products", "reduced"],
        ] as const) {
          const body = productListBody(
            renderDataOnRead(reader),
            [product.id],
            listOptions(projection, withMetafields, input.sellingPlans ?? false),
          );
          const exchange = { method: "GET", url: new URL(`http://127.0.0.1${path}`), status: 200, requestBody: null };
          expect(checker.problems({ ...exchange, body: new TextDecoder().decode(body) })).toEqual([]);
        }
      }),
      { numRuns: 200 },
    );
  });
});
