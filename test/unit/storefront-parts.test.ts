// Pure parts of the demo storefront: the images aisle draws for the demo
// catalogue, and the typo note of the search box.
import { describe, expect, it } from "vitest";
import { imageColour, knownColour, placeholderSvg } from "../../src/core/placeholder-image.js";
import { STYLES } from "../../src/demo/catalogue-vocabulary.js";
import { generateDemo } from "../../src/demo/generator.js";
import { correctedQuery } from "../../storefront/typo.js";

describe("placeholder images", () => {
  it("have a tone for every colour the demo catalogue uses", () => {
    const colours = [...new Set(STYLES.flatMap((style) => style.colors))];
    expect(colours.filter((colour) => !knownColour(colour))).toEqual([]);
  });

  it("show each image's own colour: the colour of the variants it is linked to", () => {
    const { products } = generateDemo({ seed: 3, products: 200, customers: 10 });
    const coloured = products.find((product) => product.options.some((option) => option.name === "Color") && product.images.length > 1)!;
    const colours = coloured.options.find((option) => option.name === "Color")!.values;
    const linked = coloured.images.filter((image) => image.variant_ids.length > 0);
    expect(linked.map((image) => imageColour(coloured, image.position))).toEqual(colours.slice(0, linked.length));
    const plain = products.find((product) => !product.options.some((option) => option.name === "Color"))!;
    expect(imageColour(plain, 1)).toBeNull();
  });

  it("draw the product type in the colour, escaped, at the image's size", () => {
    const svg = placeholderSvg({ productType: "Mugs & <Cups>", colour: "Navy", width: 800, height: 1000 });
    expect(svg).toContain('viewBox="0 0 800 1000"');
    expect(svg).toContain('fill="#1d2b4f"');
    expect(svg).toContain("Mugs &#38; &#60;Cups&#62;");
    expect(svg).not.toContain("<Cups>");
    // Light text on a dark colour, dark text on a light one.
    expect(svg).toContain('<g fill="#ffffff"');
    expect(placeholderSvg({ productType: "Mug", colour: "Cream", width: 0, height: 0 })).toContain('<g fill="#1f1f1f"');
  });

  it("give a colour named like what every object has a tone of its own, not the object's", () => {
    for (const colour of ["constructor", "toString", "__proto__"]) {
      expect(knownColour(colour), colour).toBe(false);
      expect(placeholderSvg({ productType: "Mug", colour, width: 10, height: 10 }), colour).toMatch(
        /<rect width="100%" height="100%" fill="hsl\(/,
      );
    }
  });
});

describe("the search box's typo note", () => {
  const titles = ["Ember LED Lantern", "Ember Brass Lantern"];

  it("names the words the shop spells otherwise, within the edits aisle forgives", () => {
    expect(correctedQuery("ember lantren", titles)).toBe("ember lantern");
    expect(correctedQuery("Embr lantern", titles)).toBe("ember lantern");
  });

  it("says nothing when every word is found, the last one as a word being typed", () => {
    expect(correctedQuery("ember lant", titles)).toBeNull();
    expect(correctedQuery("ember lantern", titles)).toBeNull();
    // Three letters are never corrected, as aisle does not; nor a word too far from any title word.
    expect(correctedQuery("emb lamp", titles)).toBeNull();
  });
});
