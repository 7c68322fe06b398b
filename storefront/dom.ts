// Elements from plain data, without a framework: h("a", { href }, "text").

type Child = Node | string | null | undefined | false;
type Props = Record<string, string | number | boolean | ((event: Event) => void) | undefined>;

/** An element with attributes (a boolean sets or leaves out the attribute, a function listens to the event named after "on"). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) if (child) element.append(child);
  return element;
}

export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren(...children.filter((child): child is Node | string => Boolean(child)));
}
