#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""compare.py REF.txt OURS.txt MAY_GROW.txt — compares two outputs of the layout probe.

Every fact of the reference must be in ours with the same value, except those listed
in MAY_GROW (see that file), whose first number may only be larger (or, for a `field`
pattern ending in `.*`, whose offsets may follow a grown table). Exit 1 on a mismatch."""
import sys


def facts(path):
    out = {}
    for line in open(path):
        kind, name, value = (line.rstrip("\n").split(" ", 2) + [""])[:3]
        out[(kind, name)] = value
    return out


def main():
    ref, ours = facts(sys.argv[1]), facts(sys.argv[2])
    grow = []
    for line in open(sys.argv[3]):
        line = line.split("#", 1)[0].split()
        if len(line) == 2:
            grow.append(tuple(line))

    def may_grow(kind, name):
        for k, pattern in grow:
            if k == kind and (pattern == name or
                              (pattern.endswith(".*") and name.startswith(pattern[:-1]))):
                return pattern
        return None

    bad = grown = 0
    for (kind, name), value in ref.items():
        mine = ours.get((kind, name))
        if mine == value:
            continue
        pattern = may_grow(kind, name)
        if mine is not None and pattern is not None:
            if pattern.endswith(".*") or int(mine.split()[0]) >= int(value.split()[0]):
                grown += 1
                continue
        bad += 1
        print("MISMATCH %s %s: ROCR 5.2.3 %s, ours %s" %
              (kind, name, value, "missing" if mine is None else mine))
    print("compared %d facts: %d equal, %d grown as allowed, %d mismatched" %
          (len(ref), len(ref) - grown - bad, grown, bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
