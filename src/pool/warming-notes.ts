// What the answer a worker is computing may lack because an in-memory index
// was still being read after a start. Deep parts of a task (the session index,
// read only when a list reaches it) note it here; the worker takes the notes
// when the task is done and sends them with the answer (TaskResult.warming). A
// thread runs one task at a time on a store, so a store's notes are the
// current task's.
import { PerStore } from "../stores/per-store.js";
import type { Store } from "../stores/store.js";

const notesByStore = new PerStore<string, true>();

export function noteWarming(store: Store, what: string): void {
  notesByStore.of(store).set(what, true);
}

/** The current task's notes on this store, joined, and clears them; undefined when there are none. */
export function takeWarmingNotes(store: Store): string | undefined {
  const notes = notesByStore.of(store);
  if (notes.size === 0) return undefined;
  const joined = [...notes.keys()].join("; ");
  notes.clear();
  return joined;
}
