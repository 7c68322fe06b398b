// bench/RESULTS.md holds the last full figures of this machine: one section
// for `npm run bench` and one per opt-in run (the scale curve, the capped
// curve, a kept shop served again, the abuse and memory suites, the cluster bench). Each run replaces only its own section,
// so they are committed together without one run erasing another's figures.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The source tree's bench/RESULTS.md (this module runs from dist/bench/report/). */
const RESULTS = fileURLToPath(new URL("../../../bench/RESULTS.md", import.meta.url));

export type ResultsSection = "default" | "scale" | "scale-capped" | "scale-reused" | "abuse" | "memory" | "cluster";

const TITLES: Record<ResultsSection, string> = {
  default: "## `npm run bench`",
  scale: "## Scale curve (`npm run bench -- --scale`)",
  "scale-capped": "## Scale curve with behaviour capped (`npm run bench -- --scale --max-customers N`)",
  "scale-reused": "## A kept scale shop served again (`npm run bench -- --scale --reuse-shop DIR`)",
  abuse: "## One abusive key beside another (`npm run bench -- --abuse`)",
  memory: "## Memory under a million distinct requests (`npm run bench -- --memory`)",
  cluster: "## Three nodes on one machine (`npm run bench -- --cluster`)",
};

const HEADER = `# Benchmark results

Written by \`npm run bench\` (and its opt-in runs: \`--scale\`, \`--abuse\`, \`--memory\`, \`--cluster\`) on the
machine named in each section; budgets live in \`bench/report/budgets.ts\`. Benchmarks are not tests:
figures over budget are reported here, not failed. Compare ratios to the in-run ceiling across
machines, not absolute figures.
`;

const begin = (section: ResultsSection) => `<!-- bench:${section} -->`;
const end = (section: ResultsSection) => `<!-- /bench:${section} -->`;

function sectionOf(text: string, section: ResultsSection): string | null {
  const from = text.indexOf(begin(section));
  const to = text.indexOf(end(section));
  return from === -1 || to === -1 ? null : text.slice(from, to + end(section).length);
}

/** Replaces one section of RESULTS.md with `body` (a plain-text report, kept as printed). */
export function writeResultsSection(section: ResultsSection, body: string, appendix = ""): string {
  const old = existsSync(RESULTS) ? readFileSync(RESULTS, "utf8") : "";
  const lines = [begin(section), TITLES[section], "", "```text", body.trim(), "```"];
  if (appendix.trim() !== "") lines.push("", appendix.trim());
  const fresh = [...lines, end(section)].join("\n");
  const sections = (Object.keys(TITLES) as ResultsSection[]).map((name) => (name === section ? fresh : (sectionOf(old, name) ?? "")));
  writeFileSync(RESULTS, `${HEADER}\n${sections.filter((s) => s !== "").join("\n\n")}\n`);
  return RESULTS;
}
