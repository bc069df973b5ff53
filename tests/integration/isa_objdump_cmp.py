#!/usr/bin/env python3
"""Compares llvm-objdump -d output with sim/isa's decoding (isa_decode_elf) of the same
object: every instruction must have the same offset, size and mnemonic; operands must
match for the formats whose operands sim/isa spells like llvm-objdump."""
import re
import sys

# formats whose operands describe.c prints in llvm-objdump's spelling
OPERANDS = re.compile(r'^(s_(load|store|buffer_load|buffer_store|atomic|buffer_atomic)|ds_|global_|'
                      r'scratch_|flat_|buffer_|s_cbranch|s_branch|s_waitcnt|s_and|s_or|s_xor|'
                      r's_andn2|s_orn2|s_mov|s_add|s_sub|s_lshl|s_lshr|s_ashr|s_cmp|s_cselect|'
                      r's_bfe|s_mul|s_min|s_max|s_not|s_movk|s_cmpk|s_addk|s_mulk|s_bcnt|s_ff|'
                      r's_flbit|s_brev|s_getpc|s_setpc|s_swappc|s_sext|s_bitset|s_bfm|s_abs|'
                      r's_nand|s_nor|s_xnor|s_pack|s_cmov|s_getreg|s_setreg|s_sleep|s_memtime|s_memrealtime|'
                      r's_getpc|s_trap|s_nop|s_barrier|s_endpgm|s_setprio)')
LINE = re.compile(r'^\s+(\S+)(.*?)//\s*([0-9A-Fa-f]+):((?:\s[0-9A-Fa-f]{8})+)')


def norm(ops):
    return re.sub(r'\s+', ' ', ops.strip())


def main():
    ref, ours, name = sys.argv[1], sys.argv[2], sys.argv[3]
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
        if len(parts) < 3:
            continue
        text = parts[2] + (' ' + parts[3] if len(parts) > 3 else '')
        mn, _, ops = text.partition(' ')
        got[int(parts[0], 16)] = (int(parts[1]), mn, norm(ops))
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
        elif OPERANDS.match(mn) and g[2] != ops:
            why = 'operands "%s"' % g[2]
        if why:
            bad += 1
            if bad <= 40:
                print('%s: 0x%x: %s: %s' % (name, off, line.split('//')[0].strip(), why))
    print('%s: %d instructions, %d mismatches' % (name, len(want), bad))
    return 1 if bad or not want else 0


sys.exit(main())
