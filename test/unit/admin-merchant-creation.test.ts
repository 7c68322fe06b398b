import { describe, expect, it } from "vitest";
import type { WriteCommand, Writes } from "../../src/ingest/write-commands.js";
import { WriteNotApplied } from "../../src/ingest/write-not-applied.js";
import type { Reply } from "../../src/http/respond.js";
import type { RequestInfo } from "../../src/http/router.js";
import { adminRoutes } from "../../src/http/routes/admin.js";
import type { Services } from "../../src/http/services.js";

const TOKEN = "admin-token";
const encoder = new TextEncoder();

/** The merchant-creation route, over writes that answer as `submit` does. */
function createMerchant(submit: Writes["submit"]) {
  const services = { adminToken: TOKEN, store: {} } as unknown as Services;
  const route = adminRoutes(services, { submit }).find((r) => r.method === "POST" && r.pattern === "/admin/v1/merchants")!;
  const request = {
    headers: { authorization: `Bearer ${TOKEN}` },
    params: {},
    query: new URLSearchParams(),
    body: encoder.encode(JSON.stringify({ id: "west", name: "West", domain: "west.example.com" })),
  } as unknown as RequestInfo;
  return route.handle(request) as Promise<Reply>;
}

describe("POST /admin/v1/merchants on a cluster node", () => {
  it("answers the new merchant's keys when the stream stored the creation but this node has not applied it in time", async () => {
    let submitted: WriteCommand<"merchant"> | undefined;
    const reply = await createMerchant(async (write) => {
      submitted = write as WriteCommand<"merchant">;
      throw new WriteNotApplied(41, 30_000);
    });
    expect(reply.status).toBe(201);
    expect(reply.headers?.["X-Aisle-Seq"]).toBe("41");
    const body = JSON.parse(new TextDecoder().decode(reply.body as Uint8Array)) as Record<string, string>;
    expect(body.id).toBe("west");
    // The keys answered are the ones the stored write carries: no retry could give them again.
    expect(body.api_key).toBe(submitted!.payload.api_key);
    expect(body.webhook_secret).toBe(submitted!.payload.webhook_secret);
  });

  it("lets any other failure of the write through", async () => {
    await expect(
      createMerchant(async () => {
        throw new Error("stream down");
      }),
    ).rejects.toThrow("stream down");
  });
});
