/**
 * A bounded cache of recently used values in two generations. The young
 * generation takes every insertion, and every hit found in the old one; once
 * the young generation holds `generationBytes`, it becomes the old one and the
 * old one is dropped. So it holds at most about twice that, a value used again
 * within a generation stays, and a hit costs a lookup or two: close to
 * least-recently-used, without a list to keep in order on every hit.
 *
 * Values are keyed by a group (a string the caller keeps and passes again, so
 * its hash is computed once) and a number within it: a lookup builds no key.
 */
export class GenerationalCache<V> {
  private young = new Map<string, Map<number, V>>();
  private old = new Map<string, Map<number, V>>();
  private youngBytes = 0;

  /**
   * @param generationBytes what one generation may hold
   * @param bytesOf what a value costs, its entry included
   */
  constructor(
    private readonly generationBytes: number,
    private readonly bytesOf: (value: V) => number,
  ) {}

  get(group: string, id: number): V | undefined {
    const young = this.young.get(group)?.get(id);
    if (young !== undefined) return young;
    const old = this.old.get(group)?.get(id);
    // Used again: it moves to the young generation, so the next turn keeps it.
    if (old !== undefined) this.set(group, id, old);
    return old;
  }

  /** After a miss: a value set again while young is counted again (its generation just ends sooner). */
  set(group: string, id: number, value: V): void {
    let values = this.young.get(group);
    if (values === undefined) this.young.set(group, (values = new Map()));
    values.set(id, value);
    this.youngBytes += this.bytesOf(value);
    if (this.youngBytes >= this.generationBytes) {
      this.old = this.young;
      this.young = new Map();
      this.youngBytes = 0;
    }
  }

  clear(): void {
    this.young = new Map();
    this.old = new Map();
    this.youngBytes = 0;
  }

  /** Values held, both generations (a value in both counts twice). */
  get size(): number {
    let size = 0;
    for (const generation of [this.young, this.old]) for (const values of generation.values()) size += values.size;
    return size;
  }
}
