// The demo storefront's entry: the header (search box, cart count), then the
// page the address names.
import { h } from "./dom.js";
import { cartPage, collectionPage, homePage, notFoundPage } from "./pages.js";
import { productPage } from "./product-page.js";
import { searchBox } from "./search-box.js";
import { openShop } from "./shop.js";

const shop = openShop();
const main = document.getElementById("main")!;
const cartCount = document.getElementById("cart-count")!;

const showCount = () => (cartCount.textContent = String(shop.cart.count()));
showCount();
shop.cart.onChange(showCount);
searchBox(shop);

const path = location.pathname.replace(/\/+$/, "");
const product = /^\/demo\/products\/([^/]+)$/.exec(path);
const collection = /^\/demo\/collections\/(\d+)$/.exec(path);
if (path === "/demo") homePage(shop, main);
else if (path === "/demo/cart") cartPage(shop, main);
else if (product) {
  productPage(shop, main, decodeURIComponent(product[1]!)).catch((error: unknown) => {
    main.replaceChildren(h("h1", {}, "Something went wrong"), h("p", {}, error instanceof Error ? error.message : String(error)));
  });
} else if (collection) collectionPage(shop, main, Number(collection[1]), new URLSearchParams(location.search).get("title") ?? "");
else notFoundPage(shop, main);
