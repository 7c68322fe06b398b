// The cart, kept in the browser: aisle learns of it from the add and remove events.

export interface CartLine {
  productId: number;
  variantId: number;
  handle: string;
  quantity: number;
}

const KEY = "aisle.demo.cart";

export class Cart {
  private readonly listeners: ((cart: Cart) => void)[] = [];

  constructor(private readonly storage: Storage) {}

  lines(): CartLine[] {
    try {
      const lines: unknown = JSON.parse(this.storage.getItem(KEY) ?? "[]");
      return Array.isArray(lines) ? (lines as CartLine[]) : [];
    } catch {
      return [];
    }
  }

  count(): number {
    return this.lines().reduce((sum, line) => sum + line.quantity, 0);
  }

  add(line: Omit<CartLine, "quantity">): void {
    const lines = this.lines();
    const same = lines.find((existing) => existing.variantId === line.variantId);
    if (same) same.quantity += 1;
    else lines.push({ ...line, quantity: 1 });
    this.save(lines);
  }

  remove(variantId: number): void {
    this.save(this.lines().filter((line) => line.variantId !== variantId));
  }

  onChange(listener: (cart: Cart) => void): void {
    this.listeners.push(listener);
  }

  private save(lines: CartLine[]): void {
    this.storage.setItem(KEY, JSON.stringify(lines));
    for (const listener of this.listeners) listener(this);
  }
}
