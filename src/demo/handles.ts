// Handles as the platform makes them from titles: slugged, and numbered when taken.

/** Handles must be unique; collisions get -2, -3 … like the platform does. */
export class HandleRegistry {
  private readonly used = new Set<string>();
  private readonly nextSuffix = new Map<string, number>();

  claim(title: string): string {
    const base = slug(title);
    let handle = base;
    let n = this.nextSuffix.get(base) ?? 2;
    while (this.used.has(handle)) handle = `${base}-${n++}`;
    this.nextSuffix.set(base, n);
    this.used.add(handle);
    return handle;
  }
}

export function slug(text: string): string {
  const s = text
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return s === "" ? "item" : s;
}
