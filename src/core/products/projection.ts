import type { Metafield, Product, ProductImage, ProductOption, Variant } from "../types.js";
import { selectMetafields, type MetafieldSelection } from "./metafield-selection.js";

/** Full spec fields (static, viewed, purchased) or the reduced set (trending, recommended). */
export type Projection = "full" | "reduced";

// What each projection writes: the answers' types, which /openapi.json's schemas are held to.

/** Present only when a metafield selector asks for them. */
interface WithMetafields {
  metafields?: Metafield[];
}

export type FullVariantJson = Omit<Variant, "selling_plan_allocations"> &
  WithMetafields & {
    /** Only with selling_plans=yes. */
    selling_plan_allocations?: unknown[];
  };

export type FullProductJson = Omit<Product, "variants"> & WithMetafields & { variants: FullVariantJson[] };

export type ReducedVariantJson = Pick<
  Variant,
  "id" | "product_id" | "title" | "price" | "sku" | "compare_at_price" | "inventory_quantity" | "option1"
> &
  WithMetafields;
export type ReducedOptionJson = Pick<ProductOption, "id" | "name" | "values">;
export type ReducedImageJson = Pick<ProductImage, "id" | "src" | "width" | "height">;
export type ReducedPrimaryImageJson = Pick<ProductImage, "id" | "src">;

export type ReducedProductJson = Pick<Product, "id" | "title" | "body_html" | "vendor" | "product_type" | "handle" | "status" | "tags"> &
  WithMetafields & {
    variants: ReducedVariantJson[];
    options: ReducedOptionJson[];
    images: ReducedImageJson[];
    image: ReducedPrimaryImageJson | null;
  };

export interface ProjectionOptions {
  projection: Projection;
  metafields: MetafieldSelection;
  sellingPlans: boolean;
  /** Metafields of an owner, read only when a selector asks for them. */
  loadMetafields: (owner: Metafield["owner_resource"], ownerId: number) => Metafield[];
}

export type OutputObject = Record<string, unknown>;

export function projectProduct(product: Product, options: ProjectionOptions): FullProductJson | ReducedProductJson {
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
  const output: FullProductJson | ReducedProductJson =
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

function projectVariant(variant: Variant, options: ProjectionOptions): FullVariantJson | ReducedVariantJson {
  let output: FullVariantJson | ReducedVariantJson;
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

function reducedImage(image: ProductImage): ReducedImageJson {
  return { id: image.id, src: image.src, width: image.width, height: image.height };
}
