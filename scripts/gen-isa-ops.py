#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Regenerates sim/isa/gfx11_ops.c or gfx12_ops.c: disassembles every opcode of every format
with llvm-mc-19/llvm-objdump-19 for the chip, and names for each the gfx9 operation of the
same meaning (rename rules below; the decoder resolves those names at run time).
  python3 scripts/gen-isa-ops.py gfx1100 g11 > sim/isa/gfx11_ops.c
  python3 scripts/gen-isa-ops.py gfx1201 g12 > sim/isa/gfx12_ops.c   (run from the top)"""
import os
import re
import struct
import subprocess
import sys
import tempfile

cpu, tag = sys.argv[1], sys.argv[2]
TOP = os.getcwd()
os.chdir(tempfile.mkdtemp())
NOP = 0xbf800000
def dis(cands):
    # cands: list of word lists; returns list of (mnemonic, size, text)
    blob = b''; offs = []
    for ws in cands:
        offs.append(len(blob))
        for w in ws + [NOP, NOP, NOP]:
            blob += struct.pack('<I', w)
    open('b.bin','wb').write(blob)
    open('b.s','w').write('.text\n.incbin "b.bin"\n')
    subprocess.check_call(['llvm-mc-19','-arch=amdgcn','-mcpu='+cpu,'-filetype=obj','-o','b.o','b.s'])
    out = subprocess.run(['llvm-objdump-19','-d','--mcpu='+cpu,'b.o'],capture_output=True,text=True).stdout
    res = {}
    for line in out.splitlines():
        m = re.match(r'^\s+(\S+)(.*?)//\s*([0-9A-Fa-f]+):((?:\s[0-9A-Fa-f]{8})+)', line)
        if m:
            res[int(m.group(3),16)] = (m.group(1), 4*len(m.group(4).split()), (m.group(1)+m.group(2)).strip())
    return [res.get(o, ('?',0,'')) for o in offs]

def v3(pref, op, opsh):
    out=[]
    for s0,s1,s2 in [(257,258,259),(257,258,0),(257,0,0),(0,0,0),(257,258,106),(257,258,2)]:
        out.append([pref | op<<opsh, s0 | s1<<9 | s2<<18])
    return out
def dsv(op):
    return [[0xd8000000 | op<<18, a | b<<8 | c<<16 | d<<24] for a,b,c,d in [(1,2,3,4),(1,2,0,4),(1,0,0,4),(1,2,3,0),(1,2,0,0),(0,0,0,4),(0,0,0,0),(1,0,0,0)]]
def flv(op, seg):
    r=[]
    for a,d,s,v in [(2,3,0x7c,4),(2,0,0x7c,4),(2,3,0x7c,0),(0,0,0x7c,0),(2,3,4,4),(2,0,4,4),(2,3,4,0),(2,3,0x7c,0)]:
        r.append([0xdc000000 | op<<18 | seg<<16, a | d<<8 | s<<16 | v<<24 | (1<<23 if seg==1 else 0)])
    return r
def vfl(op, seg):
    r=[]
    for s_,w1,w2 in [(0x7c, 1 | 3<<23, 2), (0x7c, 1, 2), (0x7c, 3<<23, 2), (0x7c, 0, 0), (4, 1 | 3<<23, 2), (4, 1, 2), (4, 3<<23, 2), (0x7c, 1|3<<23|1<<17, 2), (0x7c, 1|1<<17, 2), (0x7c, 3<<23|1<<17, 2), (0x7c,0,2),(4,0,2)]:
        r.append([0xec000000 | seg<<24 | op<<14 | s_, w1, w2])
    return r
FMTS11 = {
 'sop2': (128, lambda op: [[0x80000000 | op<<23 | 0<<16 | 1<<8 | 2]]),
 'sopk': (32, lambda op: [[0xb0000000 | op<<23 | 0<<16 | 0x10, 0]]),
 'sop1': (256, lambda op: [[0xbe800000 | 0<<16 | op<<8 | 2],[0xbe800000 | op<<8 ]]),
 'sopc': (128, lambda op: [[0xbf000000 | op<<16 | 1<<8 | 2]]),
 'sopp': (128, lambda op: [[0xbf800000 | op<<16 | 1],[0xbf800000 | op<<16]]),
 'smem': (256, lambda op: [[0xf4000000 | op<<18 | 2<<6 | 2, 0xf8000010],[0xf4000000 | op<<18, 0xf8000000]]),
 'vop1': (256, lambda op: [[0x7e000000 | 0<<17 | op<<9 | 257],[0x7e000000 | op<<9]]),
 'vop2': (64, lambda op: [[0x00000000 | op<<25 | 0<<17 | 2<<9 | 257]]),
 'vopc': (256, lambda op: [[0x7c000000 | op<<17 | 2<<9 | 257]]),
 'vop3': (1024, lambda op: v3(0xd4000000, op, 16)),
 'vop3p': (128, lambda op: [[w[0]|1<<14, w[1]|3<<27] for w in v3(0xcc000000, op, 16)]),
 'ds': (256, dsv),
 'flat': (128, lambda op: flv(op,0)),
 'global': (128, lambda op: flv(op,2)),
 'scratch': (128, lambda op: flv(op,1)),
 'mubuf': (256, lambda op: [[0xe0000000 | op<<18, a | d<<8 | 1<<16 | 1<<22 | 4<<24] for a,d in [(2,3),(2,0)]] + [[0xe0000000 | op<<18, 0]]),
 'mtbuf': (16, lambda op: [[0xe8000000 | op<<15 | 1<<19, 2 | 3<<8 | 1<<16 | 1<<22 | 4<<24]]),
}
FMTS12 = {
 'sop2': (128, lambda op: [[0x80000000 | op<<23 | 0<<16 | 1<<8 | 2]]),
 'sopk': (32, lambda op: [[0xb0000000 | op<<23 | 0<<16 | 0x10, 0]]),
 'sop1': (256, lambda op: [[0xbe800000 | 0<<16 | op<<8 | 2],[0xbe800000 | op<<8 ]]),
 'sopc': (128, lambda op: [[0xbf000000 | op<<16 | 1<<8 | 2]]),
 'sopp': (128, lambda op: [[0xbf800000 | op<<16 | 1],[0xbf800000 | op<<16]]),
 'smem': (64, lambda op: [[0xf4000000 | op<<13 | 2<<6 | 2, 0xf8000010],[0xf4000000 | op<<13, 0xf8000000]]),
 'vop1': (256, lambda op: [[0x7e000000 | 0<<17 | op<<9 | 257],[0x7e000000 | op<<9]]),
 'vop2': (64, lambda op: [[0x00000000 | op<<25 | 0<<17 | 2<<9 | 257]]),
 'vopc': (256, lambda op: [[0x7c000000 | op<<17 | 2<<9 | 257]]),
 'vop3': (1024, lambda op: v3(0xd4000000, op, 16)),
 'vop3p': (128, lambda op: [[w[0]|1<<14, w[1]|3<<27] for w in v3(0xcc000000, op, 16)]),
 'ds': (256, dsv),
 'flat': (256, lambda op: vfl(op, 0)),
 'global': (256, lambda op: vfl(op, 2)),
 'scratch': (256, lambda op: vfl(op, 1)),
 'mubuf': (256, lambda op: [[0xc4000000 | op<<14 | 3, 0x40800801 | d<<0, 2] for d in (1, 0)]),
 'mtbuf': (16, lambda op: [[0xc4000000 | op<<14 | 3 | 1<<21, 0x4b000801, 2]]),
}
def mem_ren(n):
    # global/flat/scratch/buffer: gfx11 -> gfx9 names
    pre, _, rest = n.partition('_')
    r = rest
    if r.startswith('atomic_'):
        a = r[7:]
        m = {'swap_b32':'swap','cmpswap_b32':'cmpswap','add_u32':'add','sub_u32':'sub','min_i32':'smin',
             'min_u32':'umin','max_i32':'smax','max_u32':'umax','and_b32':'and','or_b32':'or','xor_b32':'xor',
             'inc_u32':'inc','dec_u32':'dec','swap_b64':'swap_x2','cmpswap_b64':'cmpswap_x2','add_u64':'add_x2',
             'sub_u64':'sub_x2','min_i64':'smin_x2','min_u64':'umin_x2','max_i64':'smax_x2','max_u64':'umax_x2',
             'and_b64':'and_x2','or_b64':'or_x2','xor_b64':'xor_x2','inc_u64':'inc_x2','dec_u64':'dec_x2',
             'add_f32':'add_f32','pk_add_f16':'pk_add_f16','add_f64':'add_f64','min_f64':'min_f64','max_f64':'max_f64'}
        return pre + '_atomic_' + m[a] if a in m else None
    if r in ('load_block','store_block'): return None
    m = {'load_b32':'load_dword','load_b64':'load_dwordx2','load_b96':'load_dwordx3','load_b128':'load_dwordx4',
         'store_b32':'store_dword','store_b64':'store_dwordx2','store_b96':'store_dwordx3','store_b128':'store_dwordx4',
         'load_u8':'load_ubyte','load_i8':'load_sbyte','load_u16':'load_ushort','load_i16':'load_sshort',
         'store_b8':'store_byte','store_b16':'store_short','load_d16_u8':'load_ubyte_d16','load_d16_i8':'load_sbyte_d16',
         'load_d16_b16':'load_short_d16','load_d16_hi_u8':'load_ubyte_d16_hi','load_d16_hi_i8':'load_sbyte_d16_hi',
         'load_d16_hi_b16':'load_short_d16_hi','store_d16_hi_b8':'store_byte_d16_hi','store_d16_hi_b16':'store_short_d16_hi',
         'load_lds_b32':None,'load_addtid_b32':'load_dword_addtid','store_addtid_b32':'store_dword_addtid'}
    if r in m:
        return pre + '_' + m[r] if m[r] else None
    return d16_format_ren(n)
def d16_format_ren(n):
    # buffer_load_d16_format_x / _d16_hi_format_x -> gfx9's buffer_load_format_d16_x / _d16_hi_x
    d = re.match(r'(t?buffer_(?:load|store))_d16(_hi)?_format_(\w+)$', n)
    return '%s_format_d16%s_%s' % (d.group(1), d.group(2) or '', d.group(3)) if d else n
def ds_ren(n):
    r = n[3:]
    if r.startswith('cmpstore'):
        r = r.replace('cmpstore', 'cmpst')
    r = r.replace('storexchg_2addr_stride64', 'wrxchg2st64').replace('storexchg_2addr', 'wrxchg2').replace('storexchg', 'wrxchg')
    r = r.replace('load_2addr_stride64', 'read2st64').replace('load_2addr', 'read2').replace('store_2addr_stride64', 'write2st64').replace('store_2addr', 'write2')
    r = r.replace('load_addtid', 'read_addtid').replace('store_addtid', 'write_addtid')
    if r.startswith('load_'): r = 'read_' + r[5:]
    if r.startswith('store_'): r = 'write_' + r[6:]
    r = r.replace('_u8_d16_hi', '_u8_d16_hi')
    return 'ds_' + r
SOPR = [('s_and_not1_saveexec', 's_andn2_saveexec'), ('s_or_not1_saveexec', 's_orn2_saveexec'),
        ('s_and_not0_saveexec', 's_andn1_saveexec'), ('s_or_not0_saveexec', 's_orn1_saveexec'),
        ('s_and_not0_wrexec', 's_andn1_wrexec'), ('s_and_not1_wrexec', 's_andn2_wrexec'),
        ('s_and_not1_', 's_andn2_'), ('s_or_not1_', 's_orn2_')]
SOPX = {'s_add_co_u32':'s_add_u32','s_add_co_ci_u32':'s_addc_u32','s_sub_co_u32':'s_sub_u32','s_sub_co_ci_u32':'s_subb_u32','s_add_co_i32':'s_add_i32','s_sub_co_i32':'s_sub_i32','s_addk_co_i32':'s_addk_i32','s_ctz_i32_b32':'s_ff1_i32_b32','s_ctz_i32_b64':'s_ff1_i32_b64','s_clz_i32_u32':'s_flbit_i32_b32',
        's_clz_i32_u64':'s_flbit_i32_b64','s_cls_i32':'s_flbit_i32','s_cls_i32_i64':'s_flbit_i32_i64'}
def sop_ren(n):
    if n in SOPX: return SOPX[n]
    for a,b in SOPR:
        if n.startswith(a): n = b + n[len(a):]; break
    if 'saveexec_b32' in n or 'wrexec_b32' in n: n = n[:-3] + 'b64'
    return n
def smem_ren(n):
    for a,b in [('_b32','_dword'),('_b64','_dwordx2'),('_b128','_dwordx4'),('_b256','_dwordx8'),('_b512','_dwordx16')]:
        if n.endswith(a) and 'load' in n: return n[:-len(a)] + b
    return n
VR = {'v_add_nc_u32':'v_add_u32','v_sub_nc_u32':'v_sub_u32','v_subrev_nc_u32':'v_subrev_u32',
      'v_add_co_ci_u32':'v_addc_co_u32','v_sub_co_ci_u32':'v_subb_co_u32','v_subrev_co_ci_u32':'v_subbrev_co_u32',
      'v_add_nc_u16':'v_add_u16','v_sub_nc_u16':'v_sub_u16','v_mul_dx9_zero_f32':'v_mul_legacy_f32',
      'v_add_nc_i32':'v_add_i32','v_sub_nc_i32':'v_sub_i32','v_add_nc_i16':'v_add_i16','v_sub_nc_i16':'v_sub_i16',
      'v_cvt_floor_i32_f32':'v_cvt_flr_i32_f32','v_cvt_nearest_i32_f32':'v_cvt_rpi_i32_f32',
      'v_cvt_pk_rtz_f16_f32':'v_cvt_pkrtz_f16_f32','v_cvt_pk_norm_i16_f32':'v_cvt_pknorm_i16_f32',
      'v_cvt_pk_norm_u16_f32':'v_cvt_pknorm_u16_f32','v_cvt_pk_norm_i16_f16':'v_cvt_pknorm_i16_f16',
      'v_cvt_pk_norm_u16_f16':'v_cvt_pknorm_u16_f16','v_dot2acc_f32_f16':'v_dot2c_f32_f16',
      'v_fma_dx9_zero_f32':'v_fma_legacy_f32','v_cvt_pk_u16_u32':'v_cvt_pk_u16_u32',
      'v_cvt_pk_i16_i32':'v_cvt_pk_i16_i32','v_dot2_f32_f16':'v_dot2_f32_f16',
      'v_mad_u32_u16':'v_mad_u32_u16', 'v_mad_co_u64_u32':'v_mad_u64_u32', 'v_mad_co_i64_i32':'v_mad_i64_i32', 'v_clz_i32_u32':'v_ffbh_u32', 'v_ctz_i32_b32':'v_ffbl_b32', 'v_cls_i32':'v_ffbh_i32', 'v_mad_i32_i16':'v_mad_i32_i16'}
def valu_ren(n):
    for suf in ('_e32','_e64'):
        if n.endswith(suf): n = n[:-4]
    n = n.replace('_num_', '_')
    # gfx12's fp8/bf8 are OCP's E4M3/E5M2, gfx942's (same names) the FNUZ formats: never shared
    if 'fp8' in n or 'bf8' in n: return None
    if n in VR: return VR[n]
    m = re.match(r'v_cmpx?_t_(.*)', n)
    if m and n.split('_')[-1][0] == 'f': return n.replace('_t_', '_tru_')
    return n

fmts = FMTS12 if cpu.startswith('gfx12') else FMTS11
rows = []
for f, (n, enc) in fmts.items():
    cands, idx = [], []
    for op in range(n):
        for v in enc(op):
            idx.append(op)
            cands.append(v)
    seen = set()
    for op, (mn, sz, txt) in zip(idx, dis(cands)):
        if op in seen or mn in ('?', '<unknown>') or mn.startswith('.long') or 'Invalid' in txt:
            continue
        seen.add(op)
        rows.append([f, hex(op), mn, str(sz)])
src = open(os.path.join(TOP, 'sim/isa/opnames.c')).read()
g9 = set(re.findall(r'"([a-z0-9_]+)"', src))
for p in os.listdir(os.path.join(TOP, 'sim/isa')):
    if p.startswith('exec_v') and p.endswith('.c'):
        t = open(os.path.join(TOP, 'sim/isa', p)).read()
        g9 |= set(re.findall(r'"(v_[a-z0-9_]+)"', t))
        g9 |= set(re.findall(r'E\([^()]*, *(v_[a-z0-9_]+)\)', t))
# gfx9 VOPC names generated by macros
for c in 'f lt eq le gt lg ge o u nge nlg ngt nle neq nlt tru'.split():
    for t in ('f16','f32','f64'):
        g9.add('v_cmp_%s_%s'%(c,t)); g9.add('v_cmpx_%s_%s'%(c,t))
for c in 'f lt eq le gt ne ge t'.split():
    for t in ('i16','u16','i32','u32','i64','u64'):
        g9.add('v_cmp_%s_%s'%(c,t)); g9.add('v_cmpx_%s_%s'%(c,t))
fn = {'sop2':sop_ren,'sopk':sop_ren,'sop1':sop_ren,'sopc':sop_ren,'sopp':sop_ren,'smem':smem_ren,
      'vop1':valu_ren,'vop2':valu_ren,'vopc':valu_ren,'vop3':valu_ren,'vop3p':valu_ren,'ds':ds_ren,
      'flat':mem_ren,'global':mem_ren,'scratch':mem_ren,'mubuf':mem_ren,'mtbuf':d16_format_ren}
out = {}
miss = []
for f, op, mn, sz in rows:
    g = fn[f](mn)
    if f == 'vop3' and int(op,16) < 0x200: continue  # promoted VOP1/2/C: from their tables
    if g and g not in g9: miss.append((f, mn, g)); g = None
    out.setdefault(f, []).append((int(op,16), mn, g))
print('/* SPDX-License-Identifier: MIT */')
fam = 'gfx' + tag[1:]
print('/* %s_ops.c — %s opcode numbers and mnemonics (as llvm-objdump-19 --mcpu=%s spells them),' % (fam, fam, cpu))
print(' * each with the name of the gfx9 operation that has its semantics (NULL: none, or its own in')
print(' * exec_gfx11.c). Generated by disassembling every opcode (scripts/gen-isa-ops.py); the decoder')
print(' * resolves the gfx9 names. */')
print('#include "isa/gfx11.h"\n')
for f, l in out.items():
    print('const struct g11_op %s_%s[] = {' % (tag, f))
    for op, mn, g in l:
        print('  { 0x%x, "%s", %s },' % (op, mn, '"%s"' % g if g else 'NULL'))
    print('};')
    print('const unsigned %s_%s_count = sizeof %s_%s / sizeof %s_%s[0];\n' % (tag, f, tag, f, tag, f))
for m in miss: print(m, file=sys.stderr)
