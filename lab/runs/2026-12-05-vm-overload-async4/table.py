# The README's table from each run's raw CSV and limit series: python3 table.py DIR...
import csv, sys, collections
for d in sys.argv[1:]:
    import glob
    raw = glob.glob(d + "/raw-*.csv")[0]; ser = glob.glob(d + "/series-*.csv")[0]
    rows = list(csv.DictReader(open(raw)))
    series = collections.defaultdict(list)
    for r in csv.DictReader(open(ser)):
        series[r["level"]].append(int(r["limit"]))
    def f(k): return " / ".join(r[k] for r in rows)
    def share4(l):
        s = series[l]; return "%.0f%%" % (100 * sum(1 for x in s if x <= 4) / len(s)) if s else "-"
    def pct(l):
        s = sorted(series[l]); return "%d/%d/%d" % (s[len(s)//10], s[len(s)//2], s[9*len(s)//10]) if s else "-"
    print("|", d, "|", rows[0]["gateway"], "| goodput", f("goodput"), "| vs app", f("goodput_app"),
          "| p99", f("served_p99_ms"), "| limit", f("limit_median"), "(", f("limit_max"), ") | at <=4",
          " / ".join(share4(r["level"]) for r in rows), "| p10/50/90", " ; ".join(pct(r["level"]) for r in rows),
          "| app alone", rows[0]["app_rps"], "| backlog max", f("backlog_max"), "| app most", f("app_most_at_once"), "|")
