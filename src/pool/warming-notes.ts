// What the answer a worker is computing may lack because an in-memory index
// was still being read after a start. Deep parts of a task (a ranking reached
// only as a fallback) note it here; the worker takes the notes when the task
// is done and sends them with the answer (TaskResult.warming). A worker runs
// one task at a time, so the notes are the current task's.
const notes = new Set<string>();

export function noteWarming(what: string): void {
  notes.add(what);
}

/** The current task's notes, joined, and clears them; undefined when there are none. */
export function takeWarmingNotes(): string | undefined {
  if (notes.size === 0) return undefined;
  const joined = [...notes].join("; ");
  notes.clear();
  return joined;
}
