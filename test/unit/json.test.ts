import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ByteBuilder } from "../../src/core/byte-builder.js";
import { jsonBytes, withTopLevelField } from "../../src/core/json.js";

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("withTopLevelField", () => {
  it("gives the same JSON as serializing the object with the field, compact or pretty, in its own buffer or a reused one", () => {
    const reused = new ByteBuilder();
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 4 }), fc.jsonValue(), fc.boolean(), (data, value, pretty) => {
        const body = jsonBytes({ data }, pretty);
        const stamped = decode(withTopLevelField(body, "metadata", value, pretty));
        expect(JSON.parse(stamped)).toEqual(JSON.parse(JSON.stringify({ data, metadata: value })));
        if (pretty) expect(stamped).toBe(decode(jsonBytes({ data, metadata: value }, true)));
        expect(decode(withTopLevelField(body, "metadata", value, pretty, reused))).toBe(stamped);
      }),
    );
  });
});
