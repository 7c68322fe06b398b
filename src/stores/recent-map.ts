/**
 * A map that remembers about the last `capacity` keys it was told or asked
 * about, for memos in front of LMDB reads on hot paths. Two generations
 * instead of a true LRU: a full young generation becomes the old one and the
 * old one is dropped, so bookkeeping is two Map operations, not a reorder per
 * read; a key read from the old generation moves to the young one.
 */
export class RecentMap<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.young.get(key);
    if (value !== undefined) return value;
    const aged = this.old.get(key);
    if (aged !== undefined) this.set(key, aged);
    return aged;
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
  }

  set(key: K, value: V): void {
    if (this.young.size >= this.capacity) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }
}
