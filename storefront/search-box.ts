// The header's search box: results as you type (aisle's quick-view search,
// answers to older keystrokes dropped), moved through with the arrow keys,
// opened with Enter, closed with Escape, as the ARIA combobox pattern has it.
import { searchAsYouType, type QuickViewResult } from "../client/src/index.js";
import { collectionPath, handleOf, imageUrl, productPath } from "./catalogue.js";
import { h, replaceChildren } from "./dom.js";
import type { Shop } from "./shop.js";
import { correctedQuery } from "./typo.js";

const SUGGESTIONS = 6;

interface Option {
  element: HTMLElement;
  href: string;
}

export function searchBox(shop: Shop): void {
  const input = document.getElementById("search-input") as HTMLInputElement;
  const panel = document.getElementById("search-panel")!;
  const listbox = document.getElementById("search-listbox")!;
  const note = document.getElementById("search-note")!;
  const keystrokes = searchAsYouType(shop.client, { limit: SUGGESTIONS });
  let options: Option[] = [];
  let active = -1;

  const setOpen = (open: boolean) => {
    panel.hidden = !open;
    input.setAttribute("aria-expanded", String(open));
    if (!open) setActive(-1);
  };

  const setActive = (index: number) => {
    options[active]?.element.setAttribute("aria-selected", "false");
    active = index;
    const option = options[active];
    if (!option) return input.removeAttribute("aria-activedescendant");
    option.element.setAttribute("aria-selected", "true");
    input.setAttribute("aria-activedescendant", option.element.id);
    option.element.scrollIntoView({ block: "nearest" });
  };

  const option = (href: string, ...content: (Node | string)[]): HTMLElement => {
    const element = h(
      "li",
      { role: "option", id: `search-option-${options.length}`, "aria-selected": "false", class: "option" },
      ...content,
    );
    // mousedown, not click: the input keeps its focus, so the box does not close before the click lands.
    element.addEventListener("mousedown", (event) => {
      event.preventDefault();
      location.assign(href);
    });
    options.push({ element, href });
    return element;
  };

  // Grouped as the ARIA practices' grouped listbox: each group labelled by its first, presentational item.
  const group = (label: string, items: HTMLElement[]) =>
    items.length === 0
      ? null
      : h(
          "ul",
          { role: "group", "aria-labelledby": `search-group-${label}` },
          h("li", { role: "presentation", class: "group-label", id: `search-group-${label}` }, label),
          ...items,
        );

  const show = (text: string, answer: QuickViewResult) => {
    options = [];
    active = -1;
    const { productSuggestions, collections } = answer.data;
    const products = productSuggestions.map((suggestion) =>
      option(
        productPath(handleOf(suggestion.url)),
        suggestion.images[0] ? h("img", { src: imageUrl(suggestion.images[0].url), alt: "", width: 40, height: 50 }) : "",
        h("span", { class: "option-name" }, suggestion.name),
        h("span", { class: "option-price" }, shop.money(suggestion.price)),
      ),
    );
    const found = collections.map((collection) =>
      option(collectionPath(collection.id, collection.title), h("span", { class: "option-name" }, collection.title)),
    );
    replaceChildren(listbox, group("Products", products), group("Collections", found));
    const corrected = correctedQuery(
      text,
      productSuggestions.map((suggestion) => suggestion.name),
    );
    note.textContent =
      productSuggestions.length + collections.length === 0
        ? `Nothing matches “${text}”`
        : corrected
          ? `Showing results for “${corrected}”`
          : `${productSuggestions.length} products`;
    note.dataset.corrected = corrected ?? "";
    setOpen(true);
  };

  input.addEventListener("input", () => {
    const text = input.value;
    if (text.trim() === "") {
      keystrokes.cancel();
      return setOpen(false);
    }
    keystrokes.search(text).then(
      (answer) => {
        // null: a later keystroke's answer is already shown; the box may also have been emptied since.
        if (answer && input.value === text) show(text, answer);
      },
      (error: unknown) => {
        if (error instanceof Error && error.name === "AbortError") return;
        note.textContent = `Search failed: ${error instanceof Error ? error.message : String(error)}`;
      },
    );
  });

  input.addEventListener("keydown", (event) => {
    const open = !panel.hidden;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!open) return options.length > 0 ? setOpen(true) : undefined;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive(active === -1 && step < 0 ? options.length - 1 : (active + step + options.length) % options.length);
    } else if (event.key === "Enter" && open) {
      const chosen = options[active] ?? options[0];
      if (chosen) {
        event.preventDefault();
        location.assign(chosen.href);
      }
    } else if (event.key === "Escape") {
      setOpen(false);
    }
  });

  input.addEventListener("blur", () => setOpen(false));
  input.addEventListener("focus", () => options.length > 0 && input.value.trim() !== "" && setOpen(true));
}
