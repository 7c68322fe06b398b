// Global ids in the platform's `gid://<platform>/<Type>/<id>` shape.
export type GidType = "Product" | "ProductVariant" | "ProductImage" | "Customer" | "Metafield";

export function gid(type: GidType, id: number): string {
  return `gid://platform/${type}/${id}`;
}
