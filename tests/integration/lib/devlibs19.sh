# SPDX-License-Identifier: MIT
# devlibs19.sh — sourced by the tests that build OpenCL C with clang-19 for chips Debian's
# rocm-device-libs 5.2 has no ISA-version library for (gfx942, gfx1100, gfx1201; DESIGN.md
# section 4). devlibs19_make DIR FROM TARGET... fills DIR with links to every library of FROM
# (Debian's bitcode directory) and an oclc_isa_version_<N>.bc for each target: one constant,
# in the data layout clang-19 uses for amdgcn, holding what Debian's own files hold (major *
# 1000 + minor * 100 + stepping: 9000 for gfx900, 10300 for gfx1030, 9402 for gfx942), the
# value ockl compares to choose its code (below 8000 it takes gfx7's). Needs llvm-as-19 and a
# fail() of the caller's.
devlibs19_layout="e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"

devlibs19_make() { # dir from target...
  _dir=$1 _from=$2; shift 2
  mkdir -p "$_dir"
  for _f in "$_from"/*.bc; do ln -sf "$_f" "$_dir/"; done
  for _t in "$@"; do
    _n=${_t#gfx}
    printf 'target datalayout = "%s"\ntarget triple = "amdgcn-amd-amdhsa"\n@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 %s, align 4\n' \
      "$devlibs19_layout" "$(( _n / 100 * 1000 + _n / 10 % 10 * 100 + _n % 10 ))" > "$_dir/isa$_n.ll"
    rm -f "$_dir/oclc_isa_version_$_n.bc"   # never write through a link to the system's
    # from standard input: the module names no path, so the file is the same wherever made
    llvm-as-19 - -o "$_dir/oclc_isa_version_$_n.bc" < "$_dir/isa$_n.ll" || fail "llvm-as-19 $_t"
  done
}
