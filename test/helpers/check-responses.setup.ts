// Setup of every integration test file: each response a test receives through
// fetch is checked against /openapi.json (see OpenApiChecker). A response the
// document does not describe makes that fetch fail, and so the test that made it.
import { OpenApiChecker, servedOpenApi } from "./openapi-checker.js";

const checker = new OpenApiChecker(servedOpenApi());
const unchecked = globalThis.fetch;

function requestOf(input: string | URL | Request, init: RequestInit | undefined): { url: URL; method: string; body: string | null } {
  const url = new URL(input instanceof Request ? input.url : input);
  const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
  return { url, method, body: typeof init?.body === "string" ? init.body : null };
}

globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const response = await unchecked(input, init);
  const request = requestOf(input, init);
  if (!checker.operation(request.method, request.url.pathname)) return response;
  const problems = checker.problems({
    method: request.method,
    url: request.url,
    status: response.status,
    body: await response.clone().text(),
    requestBody: request.body,
  });
  if (problems.length > 0) throw new Error(`The answer does not match /openapi.json:\n${problems.slice(0, 20).join("\n")}`);
  return response;
};
