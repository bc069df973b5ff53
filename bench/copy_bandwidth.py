#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""copy_bandwidth.py RUNS JSON — the table of copy_bandwidth.sh from its collected lines
"<runtime> <kind> <MiB> <GB/s median> <GB/s best>" (or "<runtime> <kind> <MiB> error <why>").
Each figure is the best of its runs' medians. ratio = ours / ROCR (default: SDMA engine);
the goal is ours >= 0.9 x host memcpy of the same size (the memcpy column: best median)."""
import json
import sys

runs, out = sys.argv[1], sys.argv[2]
best, errors = {}, {}
for line in open(runs):
    f = line.split()
    if len(f) < 4:
        continue
    who, kind, mib = f[0], f[1], f[2]
    if who.endswith("-") or kind == "-":
        errors.setdefault((who, "run", "-"), " ".join(f[2:]))
        continue
    if f[3] == "error":
        errors[(who, kind, mib)] = " ".join(f[4:])
        continue
    key = (who, kind, int(mib))
    best[key] = max(best.get(key, 0.0), float(f[3]))

sizes = sorted({k[2] for k in best if k[1] == "memcpy"})
ref = {m: max(v for k, v in best.items() if k[1] == "memcpy" and k[2] == m) for m in sizes}
rows = []
print("%-4s %5s %10s %10s %10s %10s %9s %9s %4s" % ("copy", "MiB", "ours GB/s", "ROCR sdma",
      "ROCR blit", "memcpy", "ours/ROCR", "ours/mcpy", "met"))
for kind in ("h2d", "d2h", "d2d"):
    for m in sizes:
        o = best.get(("ours", kind, m))
        r = best.get(("rocr", kind, m))
        b = best.get(("rocr_blit", kind, m))
        q = o / r if o and r else None
        qm = o / ref[m] if o else None
        met = None if qm is None else qm >= 0.9
        rows.append({"copy": kind, "mib": m, "ours_gbps": o, "rocr_sdma_gbps": r,
                     "rocr_blit_gbps": b, "memcpy_gbps": ref[m], "ratio": q,
                     "ours_over_memcpy": qm, "goal": ">= 0.9x memcpy", "met": met,
                     "ours_error": errors.get(("ours", kind, m)),
                     "rocr_error": errors.get(("rocr", kind, m)),
                     "rocr_blit_error": errors.get(("rocr_blit", kind, m))})
        f = lambda v: "-" if v is None else "%.2f" % v
        print("%-4s %5d %10s %10s %10s %10s %9s %9s %4s" % (kind, m, f(o), f(r), f(b), f(ref[m]),
              f(q), f(qm), "-" if met is None else ("yes" if met else "NO")))
for (who, kind, mib), why in sorted(errors.items()):
    print("%s %s %s: %s" % (who, kind, mib, why))
with open(out, "w") as fp:
    json.dump({"benchmark": "copy_bandwidth", "unit": "GB/s", "gpu": "gfx900 (hsa-sim default)",
               "rocr_modes": {"rocr_sdma": "default (SDMA engine)",
                              "rocr_blit": "HSA_ENABLE_SDMA=0 (blit kernels)"},
               "copies": rows,
               "errors": ["%s %s %s: %s" % (k + (v,)) for k, v in sorted(errors.items())]},
              fp, indent=2)
print("wrote %s" % out)
