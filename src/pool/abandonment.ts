// "Every client waiting for this has gone": the one-way signal a request, a
// task it shares with other requests, and the pool pass along so that work
// nobody will read is dropped before it starts. Node's AbortController did this
// job, at a cost the HTTP thread paid on every request the pool answered: making
// one took about 3 µs and each listener about 1 µs more (EventTarget's
// machinery), and such a request made two and listened three times.

/**
 * Unlike an EventTarget, a listener that throws stops the ones after it (the
 * error reaches whoever abandoned), and one stopped while abandon() runs is
 * still told: none of this service's listeners throws or stops another.
 */
export class Abandonment {
  private listeners: (() => void)[] | null = [];

  get abandoned(): boolean {
    return this.listeners === null;
  }

  /** Tells every listener, once; later calls do nothing. */
  abandon(): void {
    const listeners = this.listeners;
    if (listeners === null) return;
    this.listeners = null;
    for (const listener of listeners) listener();
  }

  /** Calls `listener` once this is abandoned (at once if it already is); returns what stops that. */
  onAbandon(listener: () => void): () => void {
    if (this.listeners === null) {
      listener();
      return ignore;
    }
    this.listeners.push(listener);
    return () => {
      const at = this.listeners?.indexOf(listener) ?? -1;
      if (at !== -1) this.listeners!.splice(at, 1);
    };
  }
}

function ignore(): void {}
