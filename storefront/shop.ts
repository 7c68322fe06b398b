// What every page of the demo storefront works with: the typed client, the
// shopper's session, the cart, and how the shop writes money.
import { createClient, createTracker, type Client, type Tracker } from "../client/src/index.js";
import { Cart } from "./cart.js";

export interface Shop {
  name: string;
  client: Client;
  tracker: Tracker;
  cart: Cart;
  money(amount: number | string): string;
  /** Tells assistive technology what just happened (e.g. added to cart). */
  announce(text: string): void;
}

function meta(name: string): string {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? "";
}

/** The shop the page was served for: aisle writes its key and currency into the page. */
export function openShop(): Shop {
  const client = createClient({ baseUrl: "", key: meta("aisle-key") });
  const format = new Intl.NumberFormat(document.documentElement.lang || undefined, {
    style: "currency",
    currency: meta("aisle-currency") || "USD",
  });
  const announcer = document.getElementById("announcer");
  return {
    name: meta("aisle-shop"),
    client,
    tracker: createTracker(client),
    cart: new Cart(localStorage),
    money: (amount) => format.format(Number(amount)),
    announce(text) {
      if (!announcer) return;
      // Emptied first: the same message twice is announced twice.
      announcer.textContent = "";
      requestAnimationFrame(() => (announcer.textContent = text));
    },
  };
}
