import type { Metafield, Product, ProductImage, Variant } from "../types.js";
import { selectMetafields, type MetafieldSelection } from "./metafield-selection.js";

/** Full spec fields (static, viewed, purchased) or the reduced set (trending, recommended). */
export type Projection = "full" | "reduced";

export interface ProjectionOptions {
  projection: Projection;
  metafields: MetafieldSelection;
  sellingPlans: boolean;
  /** Metafields of an owner, read only when a selector asks for them. */
  loadMetafields: (owner: Metafield["owner_resource"], ownerId: number) => Metafield[];
}

export type OutputObject = Record<string, unknown>;

export function projectProduct(product: Product, options: ProjectionOptions): OutputObject {
  const variants = product.variants.map((variant) => projectVariant(variant, options));
  // The fields both projections share, in the spec's order.
  const head = {
    id: product.id,
    title: product.title,
    body_html: product.body_html,
    vendor: product.vendor,
    product_type: product.product_type,
    handle: product.handle,
    status: product.status,
    tags: product.tags,
  };
  const output: OutputObject =
    options.projection === "full"
      ? {
          ...head,
          created_at: product.created_at,
          updated_at: product.updated_at,
          published_at: product.published_at,
          template_suffix: product.template_suffix,
          published_scope: product.published_scope,
          admin_graphql_api_id: product.admin_graphql_api_id,
          variants,
          options: product.options,
          images: product.images,
          image: product.image,
        }
      : {
          ...head,
          variants,
          options: product.options.map(({ id, name, values }) => ({ id, name, values })),
          images: product.images.map(reducedImage),
          image: product.image ? { id: product.image.id, src: product.image.src } : null,
        };
  if (options.metafields.product) {
    output.metafields = selectMetafields(options.loadMetafields("product", product.id), options.metafields.product);
  }
  return output;
}

function projectVariant(variant: Variant, options: ProjectionOptions): OutputObject {
  let output: OutputObject;
  if (options.projection === "full") {
    const { selling_plan_allocations: allocations, ...fields } = variant;
    output = options.sellingPlans ? { ...fields, selling_plan_allocations: allocations } : fields;
  } else {
    output = {
      id: variant.id,
      product_id: variant.product_id,
      title: variant.title,
      price: variant.price,
      sku: variant.sku,
      compare_at_price: variant.compare_at_price,
      inventory_quantity: variant.inventory_quantity,
      option1: variant.option1,
    };
  }
  if (options.metafields.variant) {
    output.metafields = selectMetafields(options.loadMetafields("variant", variant.id), options.metafields.variant);
  }
  return output;
}

function reducedImage(image: ProductImage): OutputObject {
  return { id: image.id, src: image.src, width: image.width, height: image.height };
}
