// Search as you type: one quick-view search per keystroke, answers shown in
// the order the keystrokes were typed. Answers can arrive out of order (a
// later keystroke's may come from the cache while an earlier one is still
// ranked), so an answer to a keystroke older than the one last shown is
// dropped. aisle echoes the query in data.query, which ties each answer to
// the text it was asked for.
import type { QuickViewRequest, QuickViewResult } from "./api.js";
import type { Client } from "./client.js";

export interface Keystrokes {
  /**
   * Searches `text`. Resolves with the answer, or null when it came after the
   * answer to a later keystroke (then show nothing for it); rejects with an
   * AbortError after cancel().
   */
  search(text: string): Promise<QuickViewResult | null>;
  /** Aborts every search under way, e.g. when the box closes. */
  cancel(): void;
}

/** `request` is sent with every keystroke (limit, filters, country_code …); the text is each keystroke's. */
export function searchAsYouType(client: Pick<Client, "quickViewSearch">, request: Omit<QuickViewRequest, "query"> = {}): Keystrokes {
  let typed = 0;
  let shown = 0;
  let controller = new AbortController();
  return {
    async search(text) {
      const keystroke = ++typed;
      const answer = await client.quickViewSearch({ ...request, query: text }, { signal: controller.signal });
      if (keystroke < shown || answer.data.query !== text) return null;
      shown = keystroke;
      return answer;
    },
    cancel() {
      controller.abort();
      controller = new AbortController();
    },
  };
}
