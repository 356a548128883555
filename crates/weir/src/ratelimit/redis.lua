-- weir's GCRA for one key, run atomically by Redis (EVALSHA). The same arithmetic as gcra.rs, in
-- microseconds, on the Redis server's clock (TIME) so that every weir instance sees one clock.
--
-- KEYS[1]  the key, already prefixed with the limit's name.
-- ARGV[1]  the period T in microseconds (may carry a fraction: 3r/s is 333333.333...).
-- ARGV[2]  the capacity, burst + 1.
-- ARGV[3]  the cost: 1 charges one request, 0 peeks, -1 gives one charge back.
--
-- Returns {allowed, ahead}: allowed is 1 or 0; ahead is how far the key's TAT was ahead of now
-- before this call, in microseconds, as a string so its fraction survives the reply. The stored
-- value is the absolute TAT in microseconds since 2025-01-01, which keeps doubles exact to well
-- under a nanosecond; the key expires when its TAT passes, since an idle key reads as absent.

if redis.replicate_commands then
  -- Redis before 5 needs this to allow writes after TIME; later versions always replicate effects.
  redis.replicate_commands()
end

local time = redis.call('TIME')
local now = (tonumber(time[1]) - 1735689600) * 1000000 + tonumber(time[2])
local period = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])

local ahead = 0
local stored = redis.call('GET', KEYS[1])
if stored then
  ahead = math.max((tonumber(stored) or now) - now, 0)
end

local charged = ahead + cost * period
-- A thousandth of a microsecond absorbs the rounding of a fractional period times the capacity.
if charged > capacity * period + 0.001 then
  return {0, string.format('%.17g', ahead)}
end

if cost ~= 0 then
  if charged <= 0 then
    redis.call('DEL', KEYS[1])
  else
    redis.call('SET', KEYS[1], string.format('%.17g', now + charged), 'PX', math.ceil(charged / 1000))
  end
end
return {1, string.format('%.17g', ahead)}
