// A line of a request rotation: a path with its query, optionally preceded by
// its method ("POST /api/…"), so one rotation can mix a storefront's GETs and
// POSTs. Its own module: the load client runs on import, so nothing the bench
// process needs may live there.

export function methodAndPath(line: string, fallback: "GET" | "POST"): { method: "GET" | "POST"; path: string } {
  const match = /^(GET|POST) (\/.*)$/.exec(line);
  return match ? { method: match[1] as "GET" | "POST", path: match[2]! } : { method: fallback, path: line };
}
