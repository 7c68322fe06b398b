// The Node settings a script's first line runs it with (`#!/usr/bin/env -S node <flags>`),
// so whatever starts the script with `node` itself can start it the same way.
import { readFileSync } from "node:fs";

export function nodeFlagsOfScript(path: string): string[] {
  const firstLine = readFileSync(path, "utf8").split("\n", 1)[0]!;
  const flags = /^#!\/usr\/bin\/env -S node(?<flags>.*)$/.exec(firstLine)?.groups?.flags ?? "";
  return flags.split(" ").filter((flag) => flag !== "");
}
