#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""report.py SRCDIR BUILD — the one table of `make bench` (see report.sh).

Reads what each benchmark left in bench/out (its JSON; for a benchmark that writes none, the
table it printed, kept in NAME.log), turns each into rows
    benchmark, metric, unit, ours, ROCR, ratio = ours / ROCR, goal, met?
prints them, and writes bench/out/summary.json (rows + machine + build flags + commit) and
bench/out/summary.png (a chart; needs matplotlib). Nothing here measures anything: a figure
that is missing stays missing ("-"), and the reason is listed under the table.
The goals are those of issue 10; "better" says which way a ratio is good for us."""
import datetime
import json
import os
import platform
import re
import subprocess
import sys

SRC, BUILD = sys.argv[1], sys.argv[2]
OUT = os.path.join(SRC, "bench", "out")
rows, notes = [], []


def row(bench, metric, unit, ours, rocr, better, goal=None, factor=None, met=None, note="",
        met_text=None):
    """goal: text; factor: the goal as a bound on ours/ROCR (<= for "lower", >= for "higher"),
    used for met when met is not given."""
    ratio = ours / rocr if ours is not None and rocr else None
    if met is None and factor is not None and ratio is not None:
        met = ratio <= factor if better == "lower" else ratio >= factor
    rows.append({"benchmark": bench, "metric": metric, "unit": unit, "ours": ours, "rocr": rocr,
                 "ratio": ratio, "better": better, "goal": goal, "goal_factor": factor,
                 "met": met, "met_text": met_text, "note": note})


def load_json(name):
    p = os.path.join(OUT, name + ".json")
    if not os.path.exists(p):
        return None
    try:
        with open(p) as f:
            return json.load(f)
    except ValueError as e:
        notes.append("%s: %s.json does not parse (%s)" % (name, name, e))
        return None


def log_lines(name):
    p = os.path.join(OUT, name + ".log")
    return open(p, errors="replace").read().splitlines() if os.path.exists(p) else None


def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def missing(name):
    notes.append("%s: no result (neither bench/out/%s.json nor a table in %s.log)" % (name, name, name))


# ---- init_shutdown (JSON: metrics) ----------------------------------------------------------
def init_shutdown():
    j = load_json("init_shutdown")
    if not j:
        return missing("init_shutdown")
    keep = {"init_plus_shutdown_us", "init_us", "shutdown_us", "process_over_floor_ms",
            "hwm_over_floor_kib", "hwm_kib"}
    for m in j["metrics"]:
        if m["key"] not in keep:
            continue
        goal = None
        factor = None
        if m.get("goal"):
            factor = float(m["goal"].split()[-1])
            goal = "<= %gx ROCR" % factor
        row("init_shutdown", m["metric"], m["unit"], m["ours"], m["rocr"], "lower", goal, factor)
    for who, e in j.get("errors", {}).items():
        notes.append("init_shutdown: %s: %s" % (who, e))


# ---- queue_create (JSON: metrics) -----------------------------------------------------------
def queue_create():
    j = load_json("queue_create")
    if not j:
        return missing("queue_create")
    for m in j["metrics"]:
        factor = float(m["goal"].split()[-1]) if m.get("goal") else None
        goal = "<= %gx ROCR" % factor if factor else None
        row("queue_create", m["metric"], m["unit"], m["ours"], m["rocr"], "lower", goal, factor)


# ---- dispatch_roundtrip (its table: wait ours_med ours_p90 rocr_med rocr_p90 ratio) ---------
def dispatch_roundtrip():
    j = load_json("dispatch_roundtrip")
    got = {}
    if j and isinstance(j.get("waits"), list):   # a JSON of the same figures, if it comes
        for w in j["waits"]:
            got[w.get("wait")] = (num(w.get("ours_median_us")), num(w.get("rocr_median_us")))
    else:
        for ln in log_lines("dispatch_roundtrip") or []:
            f = ln.split()
            if len(f) >= 4 and f[0] in ("busy", "interrupt") and num(f[1]) is not None:
                got[f[0]] = (num(f[1]), num(f[3]))
        if got:
            notes.append("dispatch_roundtrip: writes no JSON; figures read from its printed table")
    if not got:
        return missing("dispatch_roundtrip")
    for w in ("busy", "interrupt"):
        if w in got:
            row("dispatch_roundtrip", "empty kernel round trip, %s wait (median)" % w, "us",
                got[w][0], got[w][1], "lower", "<= 0.5x ROCR", 0.5)


# ---- signal_ops (JSON: ops) -----------------------------------------------------------------
def signal_ops():
    j = load_json("signal_ops")
    if not j:
        return missing("signal_ops")
    for o in j["ops"]:
        ours, rocr, raw = num(o.get("ours")), num(o.get("rocr")), num(o.get("c11_atomic"))
        ratio = ours / rocr if ours and rocr else None
        of_raw = ours / raw if ours and raw else None
        met, text = None, None
        if ratio is not None and of_raw is not None:
            met = ratio >= 1 and of_raw >= 0.9
            if ratio >= 1 and not met:
                text = "part"   # faster than ROCR, not within 10 % of the atomic
        row("signal_ops", "%s %s" % (o["signal"], o["op"]), "ops/s", ours, rocr, "higher",
            ">= 1x ROCR; >= 0.9x C11 atomic", 1.0, met,
            "ours = %.3gx C11 atomic" % of_raw if of_raw else "", text)


# ---- loader_load (JSON: phases) -------------------------------------------------------------
def loader_load():
    j = load_json("loader_load")
    if not j:
        return missing("loader_load")
    ph = {p["phase"]: p for p in j["phases"]}
    n = j.get("kernels", "?")
    if "load" in ph and "freeze" in ph:
        note = "" if j.get("freeze_included", True) else "freeze left out for both (ROCR's did not run)"
        row("loader_load", "load+freeze, %s kernels" % n, "us",
            ph["load"]["ours_us"] + ph["freeze"]["ours_us"],
            ph["load"]["rocr_us"] + ph["freeze"]["rocr_us"], "lower", "<= 1/3x ROCR", 1 / 3, note=note)
    for name in ("load", "freeze", "lookup", "destroy"):
        if name in ph:
            row("loader_load", "%s (%s kernels)" % (name, n), "us", ph[name]["ours_us"],
                ph[name]["rocr_us"], "lower")


# ---- mem_alloc (its table: pool KiB ours ROCR ratio) ----------------------------------------
def mem_alloc():
    j = load_json("mem_alloc")
    got = []
    if j and isinstance(j.get("allocs"), list):
        got = [(a.get("pool"), a.get("kib"), num(a.get("ours")), num(a.get("rocr"))) for a in j["allocs"]]
    else:
        for ln in log_lines("mem_alloc") or []:
            f = ln.split()
            if len(f) >= 4 and f[0] in ("fine", "device") and num(f[1]) is not None:
                got.append((f[0], f[1], num(f[2]), num(f[3])))
        if got:
            notes.append("mem_alloc: writes no JSON; figures read from its printed table")
    if not got:
        return missing("mem_alloc")
    for pool, kib, ours, rocr in got:
        row("mem_alloc", "%s pool, %s KiB alloc+free" % (pool, kib), "pairs/s", ours, rocr,
            "higher", ">= 3x ROCR", 3.0)


# ---- copy_bandwidth (JSON: copies) ----------------------------------------------------------
def copy_bandwidth():
    j = load_json("copy_bandwidth")
    if not j:
        return missing("copy_bandwidth")
    for c in j["copies"]:
        of = c.get("ours_over_memcpy")
        note = "memcpy %.3g GB/s" % c["memcpy_gbps"]
        if c.get("rocr_blit_gbps"):
            note += ", ROCR blit %.3g" % c["rocr_blit_gbps"]
        if of is not None:
            note += ", ours = %.2fx memcpy" % of
        row("copy_bandwidth", "async copy %s %d MiB" % (c["copy"], c["mib"]), "GB/s",
            c.get("ours_gbps"), c.get("rocr_sdma_gbps"), "higher", ">= 0.9x host memcpy", None,
            None if of is None else of >= 0.9, note)
        for who in ("ours", "rocr", "rocr_blit"):
            if c.get(who + "_error"):
                notes.append("copy_bandwidth %s %d MiB %s: %s" % (c["copy"], c["mib"], who, c[who + "_error"]))
    for e in j.get("errors", []):
        if " run " in e or e.split()[1] == "run":
            notes.append("copy_bandwidth: " + e)


# ---- isa_throughput (JSON: kernels; ROCR dispatches, the figure is the simulator's) ---------
def isa_throughput():
    j = load_json("isa_throughput")
    if not j:
        return missing("isa_throughput")
    for k in j["kernels"]:
        t = k.get("threads", 1)
        rt = k.get("runtime", j.get("runtime", "ROCR"))
        name = k["kernel"] + ("" if t == 1 else ", %d threads" % t) + \
            (", our runtime" if rt == "ours" else "")
        row("isa_throughput", "hsa-sim interpreter, %s" % name, "lane-instr/s", None, None,
            "higher", None, None, None,
            "the simulator's figure (dispatched by %s; the 'ours' column): %.3g lane-instr/s, %.0fx the host C time"
            % (rt if rt != "ours" else "our runtime", k["lane_instructions_per_s"], k["sim_over_host"]))
        rows[-1]["sim"] = k["lane_instructions_per_s"]


# ---- sim_cp_latency (JSON lines per runtime) ------------------------------------------------
def sim_cp_latency():
    per = {}
    for who in ("ours", "rocr"):
        p = os.path.join(OUT, "sim_cp_latency.%s.json" % who)
        if not os.path.exists(p):
            continue
        for ln in open(p):
            try:
                d = json.loads(ln)
            except ValueError:
                continue
            per.setdefault(who, {})[d.get("mode")] = d
    if not per:
        return missing("sim_cp_latency")
    notes.append("sim_cp_latency: these are the simulator's figures, measured under each runtime")
    if "ours" not in per:
        notes.append("sim_cp_latency: no figures with our runtime")
    o, r = per.get("ours", {}), per.get("rocr", {})
    g = lambda d, m, k: num(d.get(m, {}).get(k))
    for mode, goal, bound in (("hot", "<= 50 us (simulator)", 50.0), ("cold", None, None),
                              ("futex_wake_floor", None, None)):
        ov, rv = g(o, mode, "median_us"), g(r, mode, "median_us")
        met = None
        if bound is not None and ov is not None:
            met = ov <= bound and (rv is None or rv <= bound)
        row("sim_cp_latency", "CP start latency %s (median)" % mode, "us", ov, rv, "lower", goal,
            None, met)
    ov, rv = g(o, "idle", "cpu_ms"), g(r, "idle", "cpu_ms")
    met = None if ov is None else ov <= 10 and (rv is None or rv <= 10)
    row("sim_cp_latency", "idle queue CPU per second", "ms", ov, rv, "lower",
        "near zero (<= 10 ms/s, 1 %)", None, met)


# ---- rocprim_probe (JSON: runs; a HIP program's whole wall time, before/after the fast engine)
def rocprim_probe():
    j = load_json("rocprim_probe")
    if not j:
        return missing("rocprim_probe")
    get = {(r["runtime"], r["engine"], r["threads"]): r["best_ms"] for r in j["runs"]}
    for t in sorted({k[2] for k in get}):
        for e in ("interp", "fast"):
            ours, rocr = get.get(("ours", e, t)), get.get(("rocr", e, t))
            if ours is None and rocr is None:
                continue
            goal, met = None, None
            if e == "fast":   # the default engine: faster than before, and on more threads
                goal = "< the reference interpreter's (before)"
                than = [(w, "interp", t) for w in ("ours", "rocr")]
                if t != 1:
                    goal += ", < 1 thread's"
                    than += [(w, e, 1) for w in ("ours", "rocr")]
                now = [ours, rocr] * (len(than) // 2)
                ref = [get.get(k) for k in than]
                if all(x is not None for x in ref + now):
                    met = all(a < b for a, b in zip(now, ref))
            row("rocprim_probe", "HIP rocPRIM scan+sort+reduce, n=%d, %s, %d thread%s" % (
                j["n"], "reference interpreter" if e == "interp" else "fast engine", t,
                "" if t == 1 else "s"), "ms", ours, rocr, "lower", goal, None, met)
    notes.append("rocprim_probe: the whole program's wall time (HIP start included), best of %d"
                 " run(s); reference interpreter = before the fast engine" % j["rounds"])
    for e in j.get("errors", []):
        notes.append("rocprim_probe: " + e)


BENCHES = [("init_shutdown", init_shutdown), ("queue_create", queue_create), ("dispatch_roundtrip", dispatch_roundtrip),
           ("signal_ops", signal_ops), ("loader_load", loader_load), ("mem_alloc", mem_alloc),
           ("copy_bandwidth", copy_bandwidth), ("isa_throughput", isa_throughput),
           ("sim_cp_latency", sim_cp_latency), ("rocprim_probe", rocprim_probe)]


def status_of(name):
    p = os.path.join(OUT, name + ".status")
    if not os.path.exists(p):
        return None
    rc, secs = open(p).read().split()[:2]
    return {"exit": int(rc), "seconds": int(secs)}


# ---- the machine, the build, the commit -----------------------------------------------------
def sh(*cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, cwd=SRC, timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""


def config_value(key):
    p = os.path.join(BUILD, "config.mk")
    if os.path.exists(p):
        for ln in open(p):
            m = re.match(r"\s*%s\s*:?=\s*(.*)$" % key, ln)
            if m:
                return m.group(1).strip()
    return None


def machine():
    cpu = ""
    for ln in open("/proc/cpuinfo"):
        if ln.startswith("model name"):
            cpu = ln.split(":", 1)[1].strip()
            break
    load = {}
    for w in ("start", "end"):
        p = os.path.join(OUT, "loadavg." + w)
        if os.path.exists(p):
            load[w] = open(p).read().strip()
    return {"cpu": cpu, "cores": os.cpu_count(), "kernel": platform.release(),
            "loadavg": load}


def fmt(v):
    if v is None:
        return "-"
    a = abs(v)
    for div, suf in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if a >= div and (div > 1e3 or a >= 1e5):
            return "%.3g%s" % (v / div, suf)
    return "%.3g" % v if a < 100 else "%.0f" % v


def main():
    for name, fn in BENCHES:
        fn()
        st = status_of(name)
        if st and st["exit"] != 0:
            notes.append("%s: the benchmark exited %d (see bench/out/%s.log)" % (name, st["exit"], name))
    known = {n for n, _ in BENCHES}
    for f in sorted(os.listdir(OUT)):
        if f.endswith(".status") and f[:-7] not in known:
            notes.append("%s: a benchmark this report does not know; see bench/out/%s.log" % (f[:-7], f[:-7]))

    dirty = sh("git", "status", "--porcelain", "--untracked-files=no") != ""
    info = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "build": {"dir": BUILD, "CC": config_value("CC"), "CFLAGS": config_value("CFLAGS")},
        "commit": sh("git", "rev-parse", "HEAD"), "dirty": dirty,
        "rocr": "Debian ROCR 5.2.3 (/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1)",
        "gpu": "hsa-sim gfx900 (default board)",
        "quick": os.environ.get("QUICK") == "1",
        "benchmarks": {n: status_of(n) for n, _ in BENCHES},
    }
    m = info["machine"]
    print("machine: %s, %s cores, Linux %s; load average %s" % (
        m["cpu"], m["cores"], m["kernel"], " -> ".join(m["loadavg"].get(w, "?") for w in ("start", "end"))))
    print("build: %s, CC=%s CFLAGS=%s; commit %s%s; %s" % (
        BUILD, info["build"]["CC"], info["build"]["CFLAGS"], info["commit"][:12],
        " (dirty)" if dirty else "", info["date"]))
    print("ratio = ours / ROCR of the metric itself (lower is better for time and memory, higher for"
          " rates)\n")
    hdr = ("benchmark", "metric", "unit", "ours", "ROCR", "ratio", "goal", "met?")
    table = [hdr] + [(r["benchmark"], r["metric"], r["unit"],
                      fmt(r["ours"] if r["ours"] is not None else r.get("sim")), fmt(r["rocr"]),
                      "-" if r["ratio"] is None else "%.3g" % r["ratio"], r["goal"] or "-",
                      r["met_text"] or ("-" if r["met"] is None else ("yes" if r["met"] else "NO")))
                     for r in rows]
    w = [max(len(t[i]) for t in table) for i in range(len(hdr))]
    for i, t in enumerate(table):
        print("  ".join(c.ljust(w[k]) if k < 3 or k > 5 else c.rjust(w[k]) for k, c in enumerate(t)))
        if i == 0:
            print("  ".join("-" * x for x in w))
    goals = [r for r in rows if r["met"] is not None]
    print("\ngoals met: %d of %d (part: faster than ROCR, but not within 10 %% of a C11 atomic: %d)" % (
        sum(1 for r in goals if r["met"]), len(goals), sum(1 for r in goals if r["met_text"] == "part")))
    extra = [r for r in rows if r["note"]]
    if extra:
        print("\nnotes per row:")
        for r in extra:
            print("  %s / %s: %s" % (r["benchmark"], r["metric"], r["note"]))
    if notes:
        print("\nmissing or partial:")
        for n in notes:
            print("  " + n)
    summary = dict(info, rows=rows, notes=notes)
    with open(os.path.join(OUT, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
    print("\nwrote %s" % os.path.join(OUT, "summary.json"))
    chart(summary)


def chart(s):
    """One bar per row that has both figures: how many times better ours is than ROCR (log
    scale, right of 1 = ours better), green where the row's goal is met, red where it is not,
    orange for part of it, grey without a goal; a tick marks the goal where it is a factor of ROCR's figure."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no summary.png: matplotlib is missing (Debian: python3-matplotlib)")
        return
    rs = [r for r in s["rows"] if r["ratio"]]
    if not rs:
        print("no summary.png: no row has both figures")
        return
    adv = lambda r, q: q if r["better"] == "higher" else 1 / q
    fig, ax = plt.subplots(figsize=(10, 0.32 * len(rs) + 1.8))
    ys = range(len(rs))[::-1]
    colors = ["#3a3" if r["met"] else "#e90" if r["met_text"] == "part" else
              "#c33" if r["met"] is False else "#999" for r in rs]
    ax.barh(list(ys), [adv(r, r["ratio"]) - 1 for r in rs], color=colors, left=1)
    for y, r in zip(ys, rs):
        if r["goal_factor"]:
            g = adv(r, r["goal_factor"])
            ax.plot([g, g], [y - 0.4, y + 0.4], color="black", linewidth=1.5)
    ax.set_xscale("log")
    ax.axvline(1, color="black", linewidth=0.8)
    ax.set_yticks(list(ys))
    ax.set_yticklabels(["%s: %s" % (r["benchmark"], r["metric"]) for r in rs], fontsize=7)
    ax.set_xlabel("ours better than ROCR 5.2.3 by (x, log); black tick: the goal\n"
                  "green: goal met, orange: part, red: not met (copies: vs host memcpy), grey: no goal",
                  fontsize=8)
    ax.set_title("hsa runtime vs ROCR 5.2.3 on hsa-sim — %s%s, %s" % (
        s["commit"][:10], " dirty" if s["dirty"] else "", s["date"]), fontsize=9)
    fig.tight_layout()
    p = os.path.join(OUT, "summary.png")
    fig.savefig(p, dpi=110)
    print("wrote %s" % p)


main()
