-- wrk script for the bench scripts (wrk -s bench/wrk.lua).
-- WRK_ITEMS=N in the environment: every request asks for /bench/items/<1..N>, picked at random with a
-- fixed seed (the same sequence in every run), instead of the URL's path.
-- At the end it prints one line that bench/compare.sh reads:
--   RESULT rps=<req/s> p50_us=<µs> p99_us=<µs> requests=<n> connect=<n> read=<n> write=<n>
--          timeout=<n> status=<answers other than 2xx and 3xx>
local items = tonumber(os.getenv("WRK_ITEMS") or "")

if items then
  math.randomseed(20261124)
  request = function()
    return wrk.format("GET", "/bench/items/" .. math.random(1, items))
  end
end

done = function(summary, latency, _)
  local errors = summary.errors
  print(string.format(
    "RESULT rps=%.1f p50_us=%d p99_us=%d requests=%d connect=%d read=%d write=%d timeout=%d status=%d",
    summary.requests * 1e6 / summary.duration, latency:percentile(50), latency:percentile(99),
    summary.requests, errors.connect, errors.read, errors.write, errors.timeout, errors.status))
end
