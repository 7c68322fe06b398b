// A custom source's rules compiled into tests over the request's facts, once per
// stored version of the source: the operands become sets and each operator a
// closure, so matching a request allocates nothing but the list of matched rules.
import { FIELDS, type Condition, type ConditionValue, type CustomSource, type FieldName, type Rule } from "./definition.js";

/**
 * What a request tells about each field: its distinct values, normalised as
 * conditions store theirs (texts trimmed and lower case, money in cents).
 */
export type Facts = Readonly<Record<FieldName, readonly ConditionValue[]>>;

type Test = (facts: Facts) => boolean;

export interface CompiledRule {
  index: number;
  rule: Rule;
  matches: Test;
}

export interface CompiledSource {
  source: CustomSource;
  rules: CompiledRule[];
}

/** How many distinct operands the field's values hold (values are distinct, as Facts are). */
function operandsHeld(condition: Condition): (values: readonly ConditionValue[]) => number {
  const operands = new Set(condition.values);
  if (FIELDS[condition.field].kind === "text" && "substring" in FIELDS[condition.field]) {
    const words = [...operands] as string[];
    return (values) => words.filter((word) => values.some((value) => (value as string).includes(word))).length;
  }
  return (values) => {
    let held = 0;
    for (const value of values) if (operands.has(value)) held++;
    return held;
  };
}

function compileCondition(condition: Condition): Test {
  const { field, operator } = condition;
  const operandCount = new Set(condition.values).size;
  const bound = condition.values[0]!;
  const held = operandsHeld(condition);
  const containsAny: Test = (facts) => held(facts[field]) > 0;
  const containsAll: Test = (facts) => held(facts[field]) === operandCount;
  // Equal sets: every value is an operand and every operand a value (whole values, titles too).
  const exact = new Set(condition.values);
  const equals: Test = (facts) => {
    const values = facts[field];
    return values.length === operandCount && values.every((value) => exact.has(value));
  };
  switch (operator) {
    case "equals":
      return equals;
    case "does_not_equal":
      return (facts) => !equals(facts);
    case "contains_any":
      return containsAny;
    case "contains_all":
      return containsAll;
    case "does_not_contain_any":
      return (facts) => !containsAny(facts);
    case "does_not_contain_all":
      return (facts) => !containsAll(facts);
    case "greater_than":
      return (facts) => facts[field].some((value) => value > bound);
    case "less_than":
      return (facts) => facts[field].some((value) => value < bound);
  }
}

function compileRule(rule: Rule, index: number): CompiledRule {
  if (rule.if === null) return { index, rule, matches: () => true };
  const tests = rule.if.conditions.map(compileCondition);
  const matches: Test =
    rule.if.join === "and" ? (facts) => tests.every((test) => test(facts)) : (facts) => tests.some((test) => test(facts));
  return { index, rule, matches };
}

export function compileSource(source: CustomSource): CompiledSource {
  return { source, rules: source.rules.map(compileRule) };
}

/** The rules that match, top to bottom, up to and including the first matching one with exit_if_matched. */
export function matchRules(compiled: CompiledSource, facts: Facts): CompiledRule[] {
  const matched: CompiledRule[] = [];
  for (const rule of compiled.rules) {
    if (!rule.matches(facts)) continue;
    matched.push(rule);
    if (rule.rule.exit_if_matched) break;
  }
  return matched;
}
