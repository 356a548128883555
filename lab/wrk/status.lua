-- Counts responses by status in each wrk thread and prints the totals at the end, one line per
-- status ("weir-lab status 429 12345"), so the lab can tell expected 429s from unexpected errors.
-- Only scenarios that expect 429s use it: a `response` callback costs wrk time on every response.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    local counts = thread:get("statuses")
    for status, count in pairs(counts) do
      total[status] = (total[status] or 0) + count
    end
  end
  for status, count in pairs(total) do
    io.write(string.format("weir-lab status %d %d\n", status, count))
  end
end
