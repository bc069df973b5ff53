#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs isa_objdump.sh's corpus jobs: JOBS has one shell-quoted line a job,
NAME CPU OBJDUMP BUILD-COMMAND... (the command writes W/NAME.o). Each object is built,
disassembled by OBJDUMP --mcpu=CPU, decoded by DECODE OBJECT CPU, and compared with
isa_objdump_cmp.compare; prints one line an object and exits 1 when any fails.

Speed, since a process costs much on CI's machines: the builds and the decoders run
NJOBS at a time, one llvm-objdump disassembles every object of a (tool, CPU) at once, and
the comparison runs here. The objects and their listings come from CACHE (when given) if an
earlier run or configuration built them from the same inputs with the same tools: only the
decoder depends on the build under test. The key: the command's words (W as a placeholder),
each program's size and time, and the bytes of every file a word names (with the headers
beside it) and of the files of a directory a word names (-I, --rocm-device-lib-path=)."""
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from isa_objdump_cmp import compare  # noqa: E402


def tool_id(prog):
    path = shutil.which(prog)
    if not path:
        return None
    st = os.stat(path)
    return '%s %d %d' % (path, st.st_size, int(st.st_mtime))


W_BYTES = [b'@W@']


def add_path(h, p):
    files = []
    if os.path.isfile(p):
        files.append(p)
        d = os.path.dirname(p)
        files += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith('.h'))
    elif os.path.isdir(p):
        files += sorted(os.path.join(p, f) for f in os.listdir(p))
    for f in files:
        if os.path.isfile(f):
            h.update(os.path.basename(f).encode() + b'\0')
            with open(f, 'rb') as fh:   # (an llvm-as output names its source: under W)
                h.update(fh.read().replace(W_BYTES[0], b'@W@'))


def build_key(argv, w, out):
    tid = tool_id(argv[0])
    if tid is None:
        return None
    h = hashlib.sha256(tid.encode() + b'\0')
    for a in argv:
        if a == out:
            h.update(b'@OUT@\0')
            continue
        h.update(a.replace(w, '@W@').encode() + b'\0')
        if a.startswith('-I') and len(a) > 2:
            add_path(h, a[2:])
        elif a.startswith('-') and '=/' in a:
            add_path(h, a.split('=', 1)[1])
        elif not a.startswith('-'):
            add_path(h, a)
    return h.hexdigest()[:40]


def run(argv, **kw):
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kw)


def main():
    jobs_file, w, decode, njobs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    W_BYTES[0] = w.encode()
    cache = sys.argv[5] if len(sys.argv) > 5 and sys.argv[5] != 'off' else None
    if cache:
        os.makedirs(cache, exist_ok=True)
    jobs = []
    for line in open(jobs_file):
        if line.strip():
            a = shlex.split(line)
            jobs.append({'name': a[0], 'cpu': a[1], 'od': a[2], 'cmd': a[3:],
                         'o': os.path.join(w, a[0] + '.o'), 'ref': os.path.join(w, a[0] + '.ref'),
                         'ok': True, 'why': ''})

    def put(src, key):
        if cache and key:
            tmp = os.path.join(cache, '%s.%d.%d' % (key, os.getpid(), id(src)))
            shutil.copyfile(src, tmp)
            os.replace(tmp, os.path.join(cache, key))

    def get(key, dst):
        if cache and key and os.path.isfile(os.path.join(cache, key)):
            shutil.copyfile(os.path.join(cache, key), dst)
            return True
        return False

    # 1. objects and listings from the cache, or built
    def build(j):
        j['key'] = build_key(j['cmd'], w, j['o'])
        odid = tool_id(j['od'])
        j['rkey'] = ('r' + hashlib.sha256((j['key'] + odid + j['cpu']).encode()).hexdigest()[:39]
                     if j['key'] and odid else None)
        if get(j['key'], j['o']) and get(j['rkey'], j['ref']):
            j['cached'] = True
            return
        j['cached'] = False
        r = run(j['cmd'])
        if r.returncode != 0 or not os.path.isfile(j['o']):
            j['ok'], j['why'] = False, 'build failed: ' + r.stdout.decode(errors='replace')[-2000:]
            return
        put(j['o'], j['key'])

    with ThreadPoolExecutor(njobs) as ex:
        list(ex.map(build, jobs))

    # 2. one llvm-objdump a (tool, CPU) for the objects not from the cache
    groups = {}
    for j in jobs:
        if j['ok'] and not j['cached']:
            groups.setdefault((j['od'], j['cpu']), []).append(j)

    head = re.compile(r'^(\S.*):\s+file format ', re.M)

    def disasm(item):
        (od, cpu), js = item
        r = subprocess.run([od, '-d', '--mcpu=' + cpu] + [j['o'] for j in js],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        text = r.stdout.decode(errors='replace')
        parts = {}
        marks = list(head.finditer(text))
        for i, m in enumerate(marks):
            end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
            parts[m.group(1)] = text[m.start():end]
        for j in js:
            if r.returncode != 0 or j['o'] not in parts:
                j['ok'], j['why'] = False, 'llvm-objdump failed: ' + r.stderr.decode(errors='replace')[-500:]
                continue
            with open(j['ref'], 'w') as f:
                f.write(parts[j['o']])
            put(j['ref'], j['rkey'])

    with ThreadPoolExecutor(njobs) as ex:
        list(ex.map(disasm, sorted(groups.items())))

    # 3. the decoder under test, then the comparison
    def dec(j):
        if not j['ok']:
            return
        with open(os.path.join(w, j['name'] + '.ours'), 'wb') as f:
            r = subprocess.run([decode, j['o'], j['cpu']], stdout=f, stderr=subprocess.PIPE)
        if r.returncode != 0:
            j['ok'], j['why'] = False, 'decoder failed: ' + r.stderr.decode(errors='replace')[-500:]

    with ThreadPoolExecutor(njobs) as ex:
        list(ex.map(dec, jobs))
    bad = []
    for j in jobs:
        if j['ok'] and compare(j['ref'], os.path.join(w, j['name'] + '.ours'), j['name']) != 0:
            j['ok'] = False
        if not j['ok']:
            if j['why']:
                print('%s: %s' % (j['name'], j['why']))
            bad.append(j['name'])
    hits = sum(1 for j in jobs if j.get('cached'))
    print('corpus: %d objects (%d from the cache), %d passed, %d failed%s'
          % (len(jobs), hits, len(jobs) - len(bad), len(bad),
             ': ' + ' '.join(bad) if bad else ''))
    return 1 if bad or not jobs else 0


sys.exit(main())
