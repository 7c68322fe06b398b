import { describe, expect, it } from "vitest";
import type { ViewedTask } from "../../src/core/products/query.js";
import type { SyncListTask } from "../../src/lists/list-task.js";

describe("SyncListTask", () => {
  it("leaves viewed-related out: its answer may await the re-ranker, which the HTTP thread must never do", () => {
    const related = { kind: "viewed_related" } as ViewedTask;
    // @ts-expect-error a viewed_related task is not one the HTTP thread may answer inline
    const inline: SyncListTask = related;
    const viewed: SyncListTask = { ...related, kind: "viewed" };
    expect([inline.kind, viewed.kind]).toEqual(["viewed_related", "viewed"]);
  });
});
