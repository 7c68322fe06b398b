// Rule evaluation against a naive reading of the rule format, over random
// rules and random request facts: the compiled tests must match the same rules.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileSource, matchRules, type Facts } from "../../src/core/sources/compile.js";
import {
  FIELD_NAMES,
  FIELDS,
  NUMERIC_OPERATORS,
  OPERATORS,
  type Condition,
  type ConditionValue,
  type CustomSource,
  type FieldDef,
  type FieldName,
} from "../../src/core/sources/definition.js";
import { placePins } from "../../src/core/sources/plan.js";
import { validateSource } from "../../src/core/sources/validate.js";

/** Small universes, so that random values often meet. */
const TEXTS = ["a", "b", "ab", "ba", "c"];
const valueOf = (field: FieldName): fc.Arbitrary<ConditionValue> => {
  switch (FIELDS[field].kind) {
    case "text":
      return fc.constantFrom(...TEXTS);
    case "id":
      return fc.integer({ min: 1, max: 4 });
    case "number":
      return fc.integer({ min: 0, max: 5 });
    case "money":
      // Cents, as facts hold them; conditions are written in the decimal amounts merchants type.
      return fc.integer({ min: 0, max: 4 }).map((units) => units * 125);
  }
};

const factsArbitrary: fc.Arbitrary<Facts> = fc.record(
  Object.fromEntries(FIELD_NAMES.map((field) => [field, fc.uniqueArray(valueOf(field), { maxLength: 3 })])) as Record<
    FieldName,
    fc.Arbitrary<ConditionValue[]>
  >,
);

const conditionArbitrary = fc.constantFrom(...FIELD_NAMES).chain((field) => {
  const numeric = FIELDS[field].kind === "number" || FIELDS[field].kind === "money";
  const operators = OPERATORS.filter((operator) => numeric || !NUMERIC_OPERATORS.includes(operator));
  return fc.constantFrom(...operators).chain((operator) =>
    fc.array(valueOf(field), { minLength: 1, maxLength: NUMERIC_OPERATORS.includes(operator) ? 1 : 3 }).map((values) => ({
      field,
      operator,
      values: FIELDS[field].kind === "money" ? values.map((cents) => (cents as number) / 100) : values,
    })),
  );
});

const ruleArbitrary = fc.record({
  if: fc.option(
    fc.record({ join: fc.constantFrom("and", "or"), conditions: fc.array(conditionArbitrary, { minLength: 1, maxLength: 3 }) }),
    {
      nil: undefined,
    },
  ),
  return: fc.constant({ kind: "nothing" }),
  exit_if_matched: fc.boolean(),
});

const sourceArbitrary = fc.array(ruleArbitrary, { maxLength: 20 }).map((rules) => validateSource({ id: "random", name: "Random", rules }));

/** The rule format read literally: a field's values against the condition's, one operator at a time. */
function naiveHolds(condition: Condition, facts: Facts): boolean {
  const values = facts[condition.field];
  const operands = condition.values;
  const substring = (FIELDS[condition.field] as FieldDef).substring === true;
  const meets = (value: ConditionValue, operand: ConditionValue) =>
    substring ? String(value).includes(String(operand)) : value === operand;
  const containsAny = operands.some((operand) => values.some((value) => meets(value, operand)));
  const containsAll = operands.every((operand) => values.some((value) => meets(value, operand)));
  const equals = values.every((value) => operands.includes(value)) && operands.every((operand) => values.includes(operand));
  switch (condition.operator) {
    case "equals":
      return equals;
    case "does_not_equal":
      return !equals;
    case "contains_any":
      return containsAny;
    case "contains_all":
      return containsAll;
    case "does_not_contain_any":
      return !containsAny;
    case "does_not_contain_all":
      return !containsAll;
    case "greater_than":
      return values.some((value) => value > operands[0]!);
    case "less_than":
      return values.some((value) => value < operands[0]!);
  }
}

function naiveMatched(source: CustomSource, facts: Facts): number[] {
  const matched: number[] = [];
  for (const [index, rule] of source.rules.entries()) {
    const holds =
      rule.if === null ||
      (rule.if.join === "and"
        ? rule.if.conditions.every((condition) => naiveHolds(condition, facts))
        : rule.if.conditions.some((condition) => naiveHolds(condition, facts)));
    if (!holds) continue;
    matched.push(index);
    if (rule.exit_if_matched) break;
  }
  return matched;
}

describe("custom source rules", () => {
  it("match the rules a naive reading of the format matches", () => {
    fc.assert(
      fc.property(sourceArbitrary, factsArbitrary, (source, facts) => {
        const compiled = compileSource(source);
        expect(matchRules(compiled, facts).map((rule) => rule.index)).toEqual(naiveMatched(source, facts));
      }),
      { numRuns: 2_000 },
    );
  });

  it("place each pin at its position while the filling lasts, and close up behind it after", () => {
    const pinsArbitrary = fc
      .uniqueArray(fc.integer({ min: 1, max: 8 }), { maxLength: 4 })
      .map((positions) => positions.sort((a, b) => a - b).map((position, i) => ({ productId: 100 + i, position })));
    fc.assert(
      fc.property(
        pinsArbitrary,
        fc.uniqueArray(fc.integer({ min: 1, max: 50 }), { maxLength: 8 }),
        fc.integer({ min: 1, max: 8 }),
        (pins, fill, limit) => {
          const placed = placePins(pins, fill, limit);
          expect(placed.length).toBe(Math.min(limit, pins.length + fill.length));
          expect(new Set(placed).size).toBe(placed.length);
          // Pins keep their order, and so do the filling products.
          expect(placed.filter((id) => id >= 100)).toEqual(
            pins.map((pin) => pin.productId).slice(0, placed.filter((id) => id >= 100).length),
          );
          expect(placed.filter((id) => id < 100)).toEqual(fill.slice(0, placed.filter((id) => id < 100).length));
          for (const pin of pins) {
            const before = placed.indexOf(pin.productId);
            // A pin whose place the filling reaches is at it.
            if (pin.position <= limit && fill.length + pins.filter((p) => p.position < pin.position).length >= pin.position - 1)
              expect(before + 1).toBe(pin.position);
          }
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
