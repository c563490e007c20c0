-- wrk script for scripts/load and scripts/robustness: POSTs one archive with a tenant's key, and at
-- the end prints one machine-readable line (LOADJSON {...}) that the Python harness parses.
--   LG_BODY   file whose bytes are the request body
--   LG_KEY    the tenant's API key (Authorization: Bearer)
--   LG_PATH   request path (default /v1/validate)
-- wrk counts a response with status > 399 in errors.status ("non-2xx or 3xx"), and connect, read,
-- write and timeout socket errors separately; latencies are in microseconds.
local file = assert(io.open(assert(os.getenv("LG_BODY"), "LG_BODY not set"), "rb"))
local body = file:read("*a")
file:close()

wrk.method = "POST"
wrk.path = os.getenv("LG_PATH") or "/v1/validate"
wrk.body = body
wrk.headers["Content-Type"] = "application/octet-stream"
wrk.headers["Authorization"] = "Bearer " .. assert(os.getenv("LG_KEY"), "LG_KEY not set")

function done(summary, latency, requests)
    local e = summary.errors
    io.write(string.format(
        'LOADJSON {"requests": %d, "duration_us": %d, "bytes": %d, ' ..
        '"connect": %d, "read": %d, "write": %d, "timeout": %d, "status": %d, ' ..
        '"p50_us": %d, "p90_us": %d, "p99_us": %d, "p999_us": %d, "max_us": %d, "mean_us": %.1f}\n',
        summary.requests, summary.duration, summary.bytes,
        e.connect, e.read, e.write, e.timeout, e.status,
        latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
        latency.max, latency.mean))
end
