"""The lab's own arrivals (weir-lab-overload's xorshift draw) and service times (access log)."""
import json, math

MASK = (1 << 64) - 1

def lab_arrivals(level_index, level_rate, seconds=15, tail=3, capacity=80.0, round_=3):
    """The scheduled offsets (s) of weir-lab-overload's `offer` for weir-workers' level."""
    state = (0x9E3779B97F4A7C15 ^ (round_ * 16 + level_index)) | 1
    def unit():
        nonlocal state
        state ^= (state << 13) & MASK
        state ^= state >> 7
        state ^= (state << 17) & MASK
        return ((state >> 11) + 0.5) / float(1 << 53)
    out = []; nxt = 0.0; end = 0.0
    for rate, secs in ((level_rate, seconds), (capacity, tail)):
        end += secs
        while True:
            nxt += round(-math.log(unit()) / rate * 1e9) / 1e9
            if nxt >= end:
                nxt = end
                break
            out.append(nxt)
    return out

def lab_levels(access_log, seconds=15):
    """The access log's /work lines of each level (after the 100 unloaded), completion order:
    a list of three lists of dicts."""
    lines = [json.loads(l) for l in open(access_log)]
    work = [e for e in lines if (e.get('request_uri') or '').startswith('/work')]
    levels = []; at = 100
    for index, lvl in enumerate((1, 2, 10)):
        n = len(lab_arrivals(index, 80.0 * lvl, seconds))
        levels.append(work[at:at + n]); at += n
    assert at == len(work), (at, len(work))
    return levels

def services(entries):
    """The served requests' upstream_response_time, completion order."""
    return [e['upstream_response_time'] for e in entries if e['status'] == 200 and e['upstream_response_time']]

def run_services(run_dir):
    """Each level's service times of a run (upstream_response_time - upstream_queue_time of each
    2xx, completion order): from RUN_DIR/services.csv (`level,service_ms`, what this folder keeps
    of each run) if there is one, else from its access log (written there too)."""
    import os
    path = os.path.join(run_dir, 'services.csv')
    if not os.path.exists(path):
        levels = lab_levels(os.path.join(run_dir, 'weir-workers-access.jsonl'))
        with open(path, 'w') as out:
            out.write('level,service_ms\n')
            for lvl, entries in zip((1, 2, 10), levels):
                for e in entries:
                    if e['status'] == 200:
                        out.write('%d,%.3f\n' % (lvl, (e['upstream_response_time'] - (e['upstream_queue_time'] or 0)) * 1000))
    out = {1: [], 2: [], 10: []}
    for line in open(path).read().splitlines()[1:]:
        lvl, ms = line.split(',')
        out[int(lvl)].append(float(ms) / 1000)
    return [out[1], out[2], out[10]]
