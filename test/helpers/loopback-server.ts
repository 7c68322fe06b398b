import { afterAll, beforeAll } from "vitest";
import { HttpServer, type HttpServerOptions } from "../../src/http/server.js";
import { Router, type Route } from "../../src/http/router.js";

/**
 * A real uWS server answering `routes` on an ephemeral loopback port for one
 * test file: listening before its tests, drained after them. `origin()` is
 * valid once the tests run.
 */
export function loopbackServer(
  routes: Route[],
  options: Omit<HttpServerOptions, "host" | "port" | "maxBodyBytes" | "maxUrlBytes">,
): { origin: () => string } {
  let server: HttpServer;
  let origin = "";
  beforeAll(async () => {
    server = new HttpServer(new Router(routes), { host: "127.0.0.1", port: 0, maxBodyBytes: 1024, maxUrlBytes: 1024, ...options });
    origin = `http://127.0.0.1:${await server.listen()}`;
  });
  afterAll(() => server.drain(1_000));
  return { origin: () => origin };
}
