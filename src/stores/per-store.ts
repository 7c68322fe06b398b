// A worker thread opens one store; tests and evaluations open several in one
// thread, with the same merchant ids. State a thread keeps in memory beside a
// store (indexes, histories, memos) is therefore kept per store instance, and
// goes with it.
import type { Store } from "./store.js";

export class PerStore<K, V> {
  private readonly maps = new WeakMap<Store, Map<K, V>>();

  /** This store's entries. */
  of(store: Store): Map<K, V> {
    let map = this.maps.get(store);
    if (!map) this.maps.set(store, (map = new Map()));
    return map;
  }
}
