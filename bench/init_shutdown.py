#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""init_shutdown.py — drives bench/init_shutdown.c (see init_shutdown.sh): runs the floor
program, ours and ROCR alternately under the same hsa-sim, N times each, and reports medians.

Figures per runtime:
  init_us, shutdown_us    inside the process, around hsa_init / hsa_shut_down (clock_gettime)
  process_ms              the program's whole process, fork to exit (timed by the floor program
                          run under hsa-sim: the launcher's own set-up is left out)
  launcher_ms             the whole `hsa-sim -- ...` command from outside, launcher included
  process_over_floor_ms   process_ms minus the floor program's (no runtime linked at all)
  hwm_kib, maxrss_kib     peak resident memory (VmHWM; getrusage ru_maxrss after shut-down)
  hwm_over_floor_kib      hwm minus the floor's: what loading and running the runtime added
Usage: init_shutdown.py SIM OURS_LIBDIR ROCR_LIBDIR PROGRAM FLOOR_PROGRAM N JSON
"""
import json
import os
import statistics
import subprocess
import sys
import time


def run(sim, libdir, prog, timer):
    env = dict(os.environ)
    env.pop("LD_LIBRARY_PATH", None)
    if libdir:
        env["LD_LIBRARY_PATH"] = libdir
    t0 = time.perf_counter()
    p = subprocess.run([sim, "--", timer, "--time", prog], env=env, capture_output=True, text=True, timeout=120)
    t1 = time.perf_counter()
    if p.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (prog, p.returncode, p.stderr.strip()[-300:]))
    line = [ln for ln in p.stdout.splitlines() if ln.startswith("init_us=")][-1]
    r = {k: float(v) for k, v in (kv.split("=") for kv in line.split())}
    r["process_ms"] = float(p.stdout.split("process_us=")[1].split()[0]) / 1e3
    r["launcher_ms"] = (t1 - t0) * 1e3
    return r


def main():
    sim, ours, rocr, prog, floor_prog, n, out = sys.argv[1:8]
    n = int(n)
    runs = {"floor": [], "ours": [], "rocr": []}
    errors = {}
    for _ in range(n):  # alternate, so the machine's drift hits all three alike
        for name, lib, p in (("floor", None, floor_prog), ("ours", ours, prog), ("rocr", rocr, prog)):
            if name in errors:
                continue
            try:
                runs[name].append(run(sim, lib, p, floor_prog))
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                errors[name] = str(e)
    med = {}
    for name, rs in runs.items():
        if not rs:
            continue
        m = {k: statistics.median(r[k] for r in rs) for k in rs[0]}
        med[name] = m
    for name in ("ours", "rocr"):
        if name in med and "floor" in med:
            med[name]["process_over_floor_ms"] = statistics.median(
                r["process_ms"] for r in runs[name]) - med["floor"]["process_ms"]
            med[name]["hwm_over_floor_kib"] = med[name]["hwm_kib"] - med["floor"]["hwm_kib"]
            med[name]["init_plus_shutdown_us"] = statistics.median(
                r["init_us"] + r["shutdown_us"] for r in runs[name])

    def ratio(k):
        if "ours" in med and "rocr" in med and med["rocr"].get(k):
            return med["ours"][k] / med["rocr"][k]
        return None

    rows = [  # metric, key, unit, goal (ours/ROCR at most), shown only
        ("init+shutdown time (in process)", "init_plus_shutdown_us", "us", 0.2),
        ("hsa_init time", "init_us", "us", None),
        ("hsa_shut_down time", "shutdown_us", "us", None),
        ("whole process over floor", "process_over_floor_ms", "ms", None),
        ("whole process", "process_ms", "ms", None),
        ("hsa-sim command (launcher incl.)", "launcher_ms", "ms", None),
        ("peak RSS over floor (VmHWM)", "hwm_over_floor_kib", "KiB", 0.5),
        ("peak RSS (VmHWM)", "hwm_kib", "KiB", None),
        ("ru_maxrss after shut-down", "maxrss_kib", "KiB", None),
    ]
    metrics = []
    print("init_shutdown: medians of %d runs each (floor = hsa-sim + a program linking no runtime:"
          " %s)" % (n, ", ".join("%s %.4g" % (k, v) for k, v in med.get("floor", {}).items()
                                  if k in ("process_ms", "hwm_kib"))))
    print("%-40s %12s %12s %8s %8s %5s" % ("metric", "ours", "ROCR", "ours/ROCR", "goal", "met"))
    for label, key, unit, goal in rows:
        o = med.get("ours", {}).get(key)
        r = med.get("rocr", {}).get(key)
        q = ratio(key)
        met = None if goal is None or q is None else q <= goal
        metrics.append({"metric": label, "key": key, "unit": unit, "ours": o, "rocr": r,
                        "ratio": q, "goal": None if goal is None else "<= %g" % goal,
                        "met": met, "better": "lower"})
        f = lambda v: "-" if v is None else "%.1f" % v
        print("%-40s %12s %12s %8s %8s %5s" % (label + " " + unit, f(o), f(r),
              "-" if q is None else "%.3f" % q, "-" if goal is None else "<= %g" % goal,
              "-" if met is None else ("yes" if met else "NO")))
    for name, e in errors.items():
        print("%s: %s" % (name, e))
    with open(out, "w") as fp:
        json.dump({"benchmark": "init_shutdown", "runs": n, "gpu": "gfx900 (hsa-sim default)",
                   "medians": med, "errors": errors, "metrics": metrics}, fp, indent=2)
    print("wrote %s" % out)
    return 1 if "ours" in errors else 0


if __name__ == "__main__":
    sys.exit(main())
