#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Instructions one wave executes in a kernel when every lane takes the same path.

Walks the kernel's disassembly (llvm-objdump) from its entry: s_cbranch_execz is not taken
(every lane active), s_cbranch_execnz is. A backward branch closes a loop: a conditional one
is taken TRIPS-1 times per entry. A forward conditional branch from inside a loop to beyond
its end is the loop's exit, taken on the TRIPS-th visit; other forward conditional branches
are not taken (guards that are false). ISA_COUNT_MCPU names the chip (default gfx900). Prints the count (and, with -v, how often each
opcode ran). Only for the benchmark kernels, which are written
so that this holds (bench/README.md)."""
import os
import re
import subprocess
import sys


def main():
    verbose = len(sys.argv) > 1 and sys.argv[1] == "-v"
    argv = sys.argv[2:] if verbose else sys.argv[1:]
    if len(argv) != 4:
        sys.exit("usage: isa_count.py [-v] OBJDUMP CODE_OBJECT KERNEL TRIPS")
    objdump, co, kernel, trips = argv[0], argv[1], argv[2], int(argv[3])
    mcpu = os.environ.get("ISA_COUNT_MCPU", "gfx900")
    text = subprocess.run([objdump, "-d", "--mcpu=" + mcpu, "--no-show-raw-insn", co],
                          check=True, capture_output=True, text=True).stdout
    insts, order, inside = {}, [], False
    for line in text.splitlines():
        m = re.match(r"^([0-9a-f]+) <(.+)>:$", line)
        if m:
            inside = m.group(2) == kernel
            continue
        m = re.match(r"^\s+(\S+)\s*(.*?)\s*// ([0-9A-F]+):", line)
        if inside and m:
            addr = int(m.group(3), 16)
            insts[addr] = (m.group(1), m.group(2))
            order.append(addr)
    if not order:
        sys.exit(f"no kernel {kernel} in {co}")
    nxt = {a: b for a, b in zip(order, order[1:])}

    def target_of(pc):
        imm = int(insts[pc][1].split()[0].rstrip(","), 0)
        if imm >= 0x8000:
            imm -= 0x10000
        return pc + 4 + imm * 4

    def is_branch(op):
        return op.startswith("s_branch") or op.startswith("s_cbranch")

    loops = [(target_of(a), a) for a in order  # (head, latch) of every backward branch
             if is_branch(insts[a][0]) and "exec" not in insts[a][0] and target_of(a) <= a]
    hist = {}
    pc, count, back, visits = order[0], 0, {}, {}
    while True:
        op, args = insts[pc]
        count += 1
        hist[op] = hist.get(op, 0) + 1
        if count > 10**8:
            sys.exit("runaway path")
        if op == "s_endpgm":
            break
        if op in ("s_setpc_b64", "s_swappc_b64"):
            sys.exit(f"{kernel}: calls are not counted ({op})")
        if op.startswith("s_branch") or op.startswith("s_cbranch"):
            target = target_of(pc)
            if op == "s_branch":
                taken = True
            elif "execz" in op:
                taken = False
            elif "execnz" in op:
                taken = True
            elif target <= pc:
                c = back.get(pc, 0) + 1
                taken = c < trips
                back[pc] = c if taken else 0
            elif any(h <= pc < l < target for h, l in loops):
                v = visits.get(pc, 0) + 1
                taken = v >= trips
                visits[pc] = 0 if taken else v
            else:
                taken = False
            pc = target if taken else nxt[pc]
        else:
            pc = nxt[pc]
    print(count)
    if verbose:
        for op, n in sorted(hist.items(), key=lambda x: -x[1]):
            print(f"{n:8d} {op}", file=sys.stderr)


if __name__ == "__main__":
    main()
