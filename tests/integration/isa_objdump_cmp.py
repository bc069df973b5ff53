#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compares llvm-objdump -d output with sim/isa's decoding (isa_decode_elf) of the same
object: every instruction must have the same offset, size and mnemonic; operands must
match where sim/isa says it spells them like llvm-objdump (flag E)."""
import re
import sys

LINE = re.compile(r'^\s+(\S+)(.*?)//\s*([0-9A-Fa-f]+):((?:\s[0-9A-Fa-f]{8})+)')


def norm(ops):
    return re.sub(r'\s+', ' ', ops.strip())


def compare(ref, ours, name):
    """Prints the mismatches and a summary line; 0 when every instruction matches."""
    want = []
    for line in open(ref):
        m = LINE.match(line)
        if m:
            words = m.group(4).split()
            ops = m.group(2)
            want.append((int(m.group(3), 16), 4 * len(words), m.group(1), norm(ops), line.strip()))
    got = {}
    for line in open(ours):
        parts = line.rstrip('\n').split(' ', 3)
        if len(parts) < 4:
            continue
        mn, _, ops = parts[3].partition(' ')
        got[int(parts[0], 16)] = (int(parts[1]), mn, norm(ops), parts[2] == 'E')
    bad = 0
    for off, size, mn, ops, line in want:
        g = got.get(off)
        why = None
        if g is None:
            why = 'no instruction decoded at this offset'
        elif g[0] != size:
            why = 'size %d, llvm-objdump %d' % (g[0], size)
        elif g[1] != mn:
            why = 'mnemonic %s' % g[1]
        elif g[3] and g[2] != ops:
            why = 'operands "%s"' % g[2]
        if why:
            bad += 1
            if bad <= 40:
                print('%s: 0x%x: %s: %s' % (name, off, line.split('//')[0].strip(), why))
    print('%s: %d instructions, %d mismatches' % (name, len(want), bad))
    return 1 if bad or not want else 0


if __name__ == '__main__':
    sys.exit(compare(sys.argv[1], sys.argv[2], sys.argv[3]))
