// The in-run ceiling: a bare uWebSockets.js server answering every request with
// one fixed body and the headers aisle sends with a cache hit. It runs as its own
// process under the same load client, so aisle's figures can be quoted as a
// share of what uWS itself reaches on this machine at this moment.
//
// usage: node dist/bench/load/raw-uws.js <body-file> [port]   (port 0 or absent: any free port; env PORT also works)
//        node dist/bench/load/raw-uws.js --replay <replay.json> [port]   (a body per URL)
//        --no-age: without the Age header (an event's receipt has none)
// prints: "raw-uws ready on <port>" once listening.
import { readFileSync } from "node:fs";
import uWS from "uWebSockets.js";
import { CONTENT_TYPE, CORS_HEADER_PAIRS, JSON_TYPE, REQUEST_ID } from "../../src/http/respond.js";

const replay = process.argv.includes("--replay");
const withAge = !process.argv.includes("--no-age");
const [bodyFile, portArg] = process.argv.slice(2).filter((arg) => arg !== "--replay" && arg !== "--no-age");
if (!bodyFile) {
  console.error("usage: raw-uws <body-file> [port]  |  raw-uws --replay <replay.json> [port]");
  process.exit(2);
}
const port = Number(portArg ?? process.env.PORT ?? 0);
// --replay: a JSON object of "path?query" → the exact body aisle answered for that
// request, so a scenario rotating over many URLs meets a ceiling writing the same bytes.
const bodies = new Map<string, Buffer>(
  replay
    ? Object.entries(JSON.parse(readFileSync(bodyFile, "utf8")) as Record<string, string>).map(([url, text]) => [url, Buffer.from(text)])
    : [],
);
const single = replay ? (bodies.values().next().value ?? Buffer.alloc(0)) : readFileSync(bodyFile);

/** Age as bytes: aisle writes it as a string (its value varies), which only makes aisle's write the costlier. */
const AGE = [Buffer.from("Age"), Buffer.from("0")] as const;
/**
 * aisle's request ids (src/http/server.ts): a random prefix and a counter in
 * base 36, so the header takes the bytes aisle's does, give or take one (each
 * process counts its own answers).
 */
const REQUEST_ID_PREFIX = Math.random().toString(36).slice(2, 8);
let answered = 0;

const app = uWS.App();
app.any("/*", (res, req) => {
  let body = single;
  if (replay) {
    const query = req.getQuery();
    body = bodies.get(query ? `${req.getUrl()}?${query}` : req.getUrl()) ?? single;
  }
  // The status line and headers aisle's writeReply writes for a cache hit (or an event's receipt, without Age), in its
  // order, so both servers put the same bytes on the wire and the comparison is fair.
  res.cork(() => {
    res.writeStatus("200 OK");
    res.writeHeader(CONTENT_TYPE, JSON_TYPE);
    res.writeHeader(REQUEST_ID, `${REQUEST_ID_PREFIX}-${(++answered).toString(36)}`);
    for (const [name, value] of CORS_HEADER_PAIRS) res.writeHeader(name, value);
    if (withAge) res.writeHeader(...AGE);
    res.end(body);
  });
});

app.listen("127.0.0.1", port, (socket) => {
  if (!socket) {
    console.error(`raw-uws: cannot listen on 127.0.0.1:${port}`);
    process.exit(1);
  }
  console.log(`raw-uws ready on ${uWS.us_socket_local_port(socket)}`);
});

// Started with an IPC channel by the bench: when the bench goes away, so does this server.
process.on("disconnect", () => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
