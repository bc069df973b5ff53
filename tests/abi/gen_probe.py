#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gen_probe.py REF_INCLUDE_DIR OUT.cpp

Writes a C++ layout probe for every public definition of the reference HSA headers
(Debian's ROCR 5.2.3 in /usr/include/hsa): sizeof/alignof of each struct, union and
typedef; offsetof of each field (bit position and width for bitfields); the value of
each enum constant and of each integer or string macro; the type of each function.
Compiled once against the reference headers and once against ours, the two outputs
must be equal.

The list of items comes from clang's JSON AST and `-dM -E`; items the reference
headers themselves cannot compile (function-like macros, attribute macros) are pruned
by compiling the probe against the reference, so the probe holds only real facts.
"""
import json
import os
import re
import subprocess
import sys

HEADERS = ["hsa.h", "hsa_ext_amd.h", "hsa_ext_image.h", "hsa_ext_finalize.h",
           "hsa_ven_amd_loader.h", "hsa_ven_amd_aqlprofile.h", "hsa_api_trace.h",
           "amd_hsa_common.h", "amd_hsa_queue.h", "amd_hsa_signal.h",
           "amd_hsa_kernel_code.h", "amd_hsa_elf.h"]
CXX = os.environ.get("CXX_FOR_PROBE", "clang++")
FLAGS = ["-std=c++17", "-DAMD_INTERNAL_BUILD", "-w"]


def includes(headers):
    return "".join('#include "%s"\n' % h for h in headers)


def ast_of(ref, src):
    out = subprocess.run([CXX] + FLAGS + ["-I", ref, "-fsyntax-only", "-Xclang",
                          "-ast-dump=json", "-x", "c++", "-"], input=src.encode(),
                         stdout=subprocess.PIPE, check=True).stdout
    return json.loads(out)


class Walker:
    """Follows clang's JSON AST in document order. The dumper writes a location's file
    only when it changes, so the current file has to be carried along the walk."""

    def __init__(self, ref):
        self.ref = os.path.realpath(ref)
        self.cur = None

    def _see(self, loc):
        if not isinstance(loc, dict):
            return
        for key in ("spellingLoc", "expansionLoc"):
            self._see(loc.get(key))
        if "file" in loc:
            self.cur = loc["file"]

    def note(self, node):
        self._see(node.get("loc"))
        rng = node.get("range", {})
        begin_file = self.cur
        self._see(rng.get("begin"))
        begin_file = self.cur
        self._see(rng.get("end"))
        return begin_file

    def ours(self, path):
        return path is not None and os.path.realpath(path).startswith(self.ref + os.sep)


def record_items(rec, top, path, out):
    """Fields of a record; anonymous members are reached by name from the top record."""
    pending_anon = None
    for child in rec.get("inner", []):
        kind = child.get("kind")
        if kind in ("CXXRecordDecl", "RecordDecl") and child.get("completeDefinition"):
            pending_anon = child
            continue
        if kind != "FieldDecl":
            continue
        name = child.get("name")
        anon_record = pending_anon
        pending_anon = None
        if not name:
            if anon_record is not None:  # anonymous struct/union: members belong to us
                record_items(anon_record, top, path, out)
            continue
        full = path + name
        if child.get("isBitfield"):
            width = None
            for sub in child.get("inner", []):
                if "value" in sub:
                    width = int(sub["value"])
            if width:
                out.append('BITS(%s, %s, %d);' % (top, full, width))
            continue
        out.append('FIELD(%s, %s);' % (top, full))
        qual = child.get("type", {}).get("qualType", "")
        if anon_record is not None and ("unnamed" in qual or "anonymous" in qual):
            record_items(anon_record, top, full + ".", out)


def collect(ast, ref):
    walker = Walker(ref)
    items, anon_records = [], {}

    def visit(node, depth, scope=""):
        file = walker.note(node)
        kind = node.get("kind")
        mine = walker.ours(file)
        if depth == 1 and mine:
            name = node.get("name")
            qual = scope + name if name else name
            if kind in ("CXXRecordDecl", "RecordDecl") and node.get("completeDefinition"):
                if name:
                    items.append("SIZE(%s);" % qual)
                    record_items(node, qual, "", items)
                else:
                    anon_records[node["id"]] = node
            elif kind == "TypedefDecl" and name:
                items.append("SIZE(%s);" % qual)
                rec = find_record_ref(node)
                if rec in anon_records:
                    record_items(anon_records.pop(rec), qual, "", items)
            elif kind == "FunctionDecl" and name and not node.get("storageClass") == "static":
                items.append("FUNC(%s);" % qual)
            elif kind == "VarDecl" and name:
                items.append("FUNC(%s);" % qual)
        if kind == "EnumConstantDecl" and mine:
            items.append("ENUM(%s%s);" % (scope, node["name"]))
        # Only the translation unit's direct children (and those of extern "C" blocks) are
        # declarations we probe, but the walk must pass through everything to keep track
        # of the current file.
        # Namespaces (amd_hsa_elf.h's ELF) are transparent too; their names are qualified.
        inner_depth = depth if kind in ("LinkageSpecDecl", "NamespaceDecl") else depth + 1
        inner_scope = scope + node["name"] + "::" if kind == "NamespaceDecl" else scope
        for child in node.get("inner", []):
            visit(child, inner_depth, inner_scope)

    for node in ast.get("inner", []):
        visit(node, 1)
    return items


def find_record_ref(node):
    stack = [node]
    while stack:
        n = stack.pop()
        decl = n.get("decl")
        if isinstance(decl, dict) and decl.get("kind") in ("CXXRecordDecl", "RecordDecl"):
            return decl.get("id")
        stack.extend(n.get("inner", []))
    return None


def macros(ref):
    def defs(src):
        out = subprocess.run([CXX] + FLAGS + ["-I", ref, "-dM", "-E", "-x", "c++", "-"],
                             input=src.encode(), stdout=subprocess.PIPE, check=True).stdout
        found = {}
        for line in out.decode().splitlines():
            m = re.match(r"#define (\w+)(\(?)\s*(.*)", line)
            if m and not m.group(2):
                found[m.group(1)] = m.group(3)
        return found
    base = defs("#include <stddef.h>\n#include <stdint.h>\n#include <string.h>\n"
                "#include <assert.h>\n")
    full = defs(includes(HEADERS))
    return sorted((n, body) for n, body in full.items()
                  if n not in base and body and not n.startswith("__"))


PRELUDE = r'''// Generated by tests/abi/gen_probe.py; the same source is compiled against both header sets.
%s
#include <cstdio>
#include <cstring>
#include <typeinfo>
#define SIZE(T) std::printf("size %%s %%zu %%zu\n", #T, sizeof(T), alignof(T))
#define FIELD(T, F) std::printf("field %%s.%%s %%zu %%zu\n", #T, #F, offsetof(T, F), sizeof(((T *)0)->F))
#define BITS(T, F, W) do { T v; std::memset(&v, 0, sizeof v); \
    v.F = (decltype(v.F))((1ull << (W)) - 1); std::printf("bits %%s.%%s", #T, #F); \
    for (size_t i = 0; i < sizeof v; i++) std::printf(" %%02x", ((unsigned char *)&v)[i]); \
    std::printf("\n"); } while (0)
#define ENUM(E) std::printf("enum %%s %%lld\n", #E, (long long)(E))
#define MACRO(M) std::printf("macro %%s %%lld\n", #M, (long long)(M))
#define SMACRO(M) std::printf("macro %%s \"%%s\"\n", #M, (const char *)(M))
#define FUNC(F) std::printf("func %%s %%s\n", #F, typeid(&F).name())
int main() {
'''


def compile_errors(ref, src, out_bin=None):
    cmd = [CXX] + FLAGS + ["-I", ref, "-x", "c++", "-", "-o", out_bin or os.devnull]
    if out_bin is None:
        cmd = [CXX] + FLAGS + ["-I", ref, "-fsyntax-only", "-ferror-limit=0", "-x", "c++", "-"]
    res = subprocess.run(cmd, input=src.encode(), stderr=subprocess.PIPE)
    lines = set()
    for m in re.finditer(r"<stdin>:(\d+):\d+: error", res.stderr.decode()):
        lines.add(int(m.group(1)))
    return res.returncode, lines


def main():
    ref, out = sys.argv[1], sys.argv[2]
    ast = ast_of(ref, includes(HEADERS))
    items = collect(ast, ref)
    for name, body in macros(ref):
        items.append(("SMACRO(%s);" if body.startswith('"') else "MACRO(%s);") % name)
    seen, uniq = set(), []
    for it in items:
        if it not in seen:
            seen.add(it)
            uniq.append(it)
    items = uniq
    prelude = PRELUDE % includes(HEADERS)
    head = prelude.count("\n")
    for _ in range(20):
        src = prelude + "".join("  %s\n" % it for it in items) + "}\n"
        rc, bad = compile_errors(ref, src)
        if rc == 0:
            break
        bad_idx = {ln - head - 1 for ln in bad}
        if not bad_idx:
            sys.exit("gen_probe: the reference headers do not compile:\n")
        items = [it for i, it in enumerate(items) if i not in bad_idx]
    else:
        sys.exit("gen_probe: could not prune the probe to something the reference compiles")
    with open(out, "w") as f:
        f.write(src)
    counts = {}
    for it in items:
        counts[it.split("(")[0]] = counts.get(it.split("(")[0], 0) + 1
    print("gen_probe: %d items %s" % (len(items), counts))


if __name__ == "__main__":
    main()
