// The Lua scripts the bench hands wrk. Each ends with RESULT: wrk's summary as
// one JSON line the bench parses. None defines a response() callback: with one,
// wrk parses every answer in Lua and slows down several times. Inputs come from
// the environment and from files, so one script serves every run of its kind.

/** wrk's summary; non-2xx/3xx answers are summary.errors.status, so 2xx = requests minus those. */
const RESULT = `
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_RESULT {"requests":%d,"durationUs":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"meanUs":%f,"p50Us":%d,"p90Us":%d,"p99Us":%d,"p999Us":%d,"maxUs":%d}\\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout, latency.mean,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9), latency.max))
end
`;

/**
 * Sends the paths of the file $AISLE_PATHS in turn with method $AISLE_METHOD,
 * built once in init; one thread, so one rotation shared by every connection.
 * A line may carry a body and headers after its path, tab-separated:
 * "path<TAB>body<TAB>Name: value<TAB>…" (a webhook's signed order).
 * With $AISLE_PAUSE_MS, each connection waits that long after an answer before
 * sending its next request: a closed loop at a bounded rate (wrk times a
 * request from its sending, so the pause is not in the latency).
 */
export const ROTATION_SCRIPT = `
local requests = {}
local next = 0
local method = os.getenv("AISLE_METHOD")
local pause = tonumber(os.getenv("AISLE_PAUSE_MS") or "0")
function init(args)
  for line in io.lines(os.getenv("AISLE_PATHS")) do
    if #line > 0 then
      local fields = {}
      for field in string.gmatch(line, "[^\t]+") do fields[#fields + 1] = field end
      local headers = {}
      for i = 3, #fields do
        local name, value = string.match(fields[i], "^([^:]+): (.*)$")
        headers[name] = value
      end
      requests[#requests + 1] = wrk.format(method, fields[1], headers, fields[2])
    end
  end
  if #requests == 0 then error("no paths in " .. os.getenv("AISLE_PATHS")) end
end
function request()
  next = next % #requests + 1
  return requests[next]
end
-- wrk looks for delay() once, after running this file: only a paced run defines it.
if pause > 0 then
  function delay()
    return pause
  end
end
${RESULT}`;

/**
 * What a counted run sends; request k (from 0) is path_of(k), built from
 * $AISLE_BASE and the lines of $AISLE_VALUES:
 * - "session-events": an event of a session no request used before (the uuid
 *   ends in k as 12 hex digits after the run's own prefix in the base), about
 *   the product handle k mod the handles;
 * - "cache-keys": a static list of three distinct ids (the values), a
 *   different ordered triple for every k below n(n-1)(n-2), so each request
 *   has cache key of its own;
 * - "pool-tasks": the paths of the values file in turn (bust_cache URLs).
 */
export type CountedLoad = "session-events" | "cache-keys" | "pool-tasks";

const PATH_OF: Record<CountedLoad, string> = {
  "session-events": `
function path_of(k)
  return base .. string.format("%012x", k) .. "&platform_product_handle=" .. values[k % #values + 1]
end`,
  "cache-keys": `
function path_of(k)
  local n = #values
  local a = k % n
  k = math.floor(k / n)
  local b = k % (n - 1)
  k = math.floor(k / (n - 1))
  local c = k % (n - 2)
  -- b skips a's index, c skips a's and b's: three distinct indexes.
  if b >= a then b = b + 1 end
  local low, high = math.min(a, b), math.max(a, b)
  if c >= low then c = c + 1 end
  if c >= high then c = c + 1 end
  return base .. values[a + 1] .. "," .. values[b + 1] .. "," .. values[c + 1]
end`,
  "pool-tasks": `
function path_of(k)
  return values[k % #values + 1]
end`,
};

/**
 * A run of $AISLE_TOTAL requests with method $AISLE_METHOD, requests
 * $AISLE_FIRST, $AISLE_FIRST + 1, … of its kind: every $AISLE_REPORT_EVERY
 * requests sent it prints "WRK_SENT <n>" at once (the bench samples the server
 * then), and after the last one it stops its thread; the bench then interrupts
 * wrk, which otherwise sleeps out its -d duration.
 */
export function countedScript(load: CountedLoad): string {
  return `
local values = {}
local base = os.getenv("AISLE_BASE")
local method = os.getenv("AISLE_METHOD")
local total = tonumber(os.getenv("AISLE_TOTAL"))
local every = tonumber(os.getenv("AISLE_REPORT_EVERY"))
local first = tonumber(os.getenv("AISLE_FIRST"))
local sent = 0
function init(args)
  for line in io.lines(os.getenv("AISLE_VALUES")) do
    if #line > 0 then values[#values + 1] = line end
  end
  if #values == 0 then error("no values in " .. os.getenv("AISLE_VALUES")) end
end
${PATH_OF[load]}
function request()
  local built = wrk.format(method, path_of(first + sent))
  sent = sent + 1
  if sent % every == 0 then
    io.write("WRK_SENT " .. sent .. "\\n")
    io.flush()
  end
  if sent == total then wrk.thread:stop() end
  return built
end
${RESULT}`;
}
