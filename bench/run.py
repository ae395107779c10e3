#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The r500 benchmark: one command, one table (docs/bench.md).

    bench/run.py [--build DIR] [--out DIR] [--size WxH] [--frames N]
                 [--threads N] [--only a,b] [--renderer soft|gl|auto]
                 [--display-seconds S] [--smoke]

3D: every workload of r500-bench-gl is rendered, at each thread count N
of --threads (default 1,2), by llvmpipe (LP_NUM_THREADS=N) and by Mesa
r300 on the chip core through the DRM shim (R500_RENDER_THREADS=N: the
soft renderer's workers), each in its own process, every frame ending in
glFinish.  The r300 run is repeated on one thread with a capture, which
r500-replay --execute runs on a fresh core with N threads: that is the
core's own time, without Mesa, and the replay checks that N threads
reproduce the results one thread recorded, bit for bit.

  llvmpipe ms   wall time per frame on llvmpipe (best of --repeat runs)
  r300 ms       wall time per frame of Mesa r300 + the shim + the core
  core ms       the chip core alone (replay, best of --repeat; over the
                captured frames, warm-up included)
  core/lp       core ms / llvmpipe ms: how many times slower the core is
  match         pixels of the last r300 frame within 3/255 of llvmpipe's
  RSS           peak resident set of each process (MiB)

Core: r500-bench-core (CP packet throughput, 2D fill/copy bandwidth, the
chip's footprint).  Display: bench/display-idle.py (needs the QEMU build),
with --display-seconds per case (0 skips it).

Results: stdout, and OUT/results.md and OUT/results.json.
"""
import argparse
import datetime
import importlib.util
import json
import os
import platform
import re
import selectors
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)


def run(cmd, env=None):
    """Run cmd; returns (rc, stdout, stderr)."""
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    return (p.returncode, p.stdout.decode(errors='replace'),
            p.stderr.decode(errors='replace'))


def popen_rss(cmd, env=None, timeout=1800):
    """Run cmd; (rc, stdout, stderr, peak RSS KiB) through wait4."""
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    # read both pipes without deadlock, then reap with wait4 for rusage
    sel = selectors.DefaultSelector()
    sel.register(p.stdout, selectors.EVENT_READ)
    sel.register(p.stderr, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    bufs = {p.stdout: [], p.stderr: []}
    while sel.get_map():
        for key, _ in sel.select(max(0.0, deadline - time.monotonic())):
            chunk = os.read(key.fileobj.fileno(), 65536)
            if not chunk:
                sel.unregister(key.fileobj)
            else:
                bufs[key.fileobj].append(chunk)
        if time.monotonic() > deadline:
            p.kill()
            break
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    out = b''.join(bufs[p.stdout]).decode(errors='replace')
    err = b''.join(bufs[p.stderr]).decode(errors='replace')
    return p.returncode, out, err, ru.ru_maxrss


def fields(text):
    d = {}
    for line in text.splitlines():
        k, sep, v = line.partition(': ')
        if sep:
            d[k.strip()] = v.strip()
    return d


def env_base():
    """A clean environment, as the Mesa harness makes it."""
    spec = importlib.util.spec_from_file_location(
        'mesa_run', os.path.join(SRC, 'tests', 'mesa', 'run.py'))
    mesa_run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mesa_run)
    return mesa_run.env_clean()


def read_pam(path):
    with open(path, 'rb') as f:
        data = f.read()
    return data.partition(b'ENDHDR\n')[2]


def match_fraction(a, b, tol=3):
    if len(a) != len(b) or not a:
        return 0.0
    good = 0
    for i in range(0, len(a), 4):
        if max(abs(a[i + k] - b[i + k]) for k in range(4)) <= tol:
            good += 1
    return good / (len(a) // 4)


def machine_info(build):
    cpu = 'unknown'
    try:
        for line in open('/proc/cpuinfo'):
            if line.startswith('model name'):
                cpu = line.split(':', 1)[1].strip()
                break
    except OSError:
        pass
    mem = 0
    try:
        for line in open('/proc/meminfo'):
            if line.startswith('MemTotal:'):
                mem = int(line.split()[1]) // 1024
    except OSError:
        pass
    rc, so, _ = run(['git', '-C', SRC, 'describe', '--always',
                           '--dirty'])
    buildtype = '?'
    try:
        opts = json.load(open(os.path.join(build, 'meson-info',
                                           'intro-buildoptions.json')))
        buildtype = next(o['value'] for o in opts if o['name'] == 'buildtype')
    except (OSError, StopIteration, ValueError):
        pass
    return {
        'date': datetime.datetime.now().strftime('%Y-%m-%d %H:%M'),
        'cpu': cpu, 'cpus': os.cpu_count(), 'mem_mib': mem,
        'kernel': platform.release(), 'python': platform.python_version(),
        'commit': so.strip() if rc == 0 else '?', 'buildtype': buildtype,
    }


def calibrate(args, gl, name, env):
    """
    Timed frames for workload name: --frames, or more where llvmpipe
    takes them in under --min-ms (a clear's ten frames are a millisecond,
    within the noise of starting a thread), at most 20 times as many.
    """
    rc, so, _, _ = popen_rss([gl, name, '-s', args.size, '-n',
                              str(args.frames), '-w', str(args.warmup)], env)
    f = fields(so)
    if rc != 0 or 'wall_ms' not in f or args.min_ms <= 0:
        return args.frames
    wall = max(float(f['wall_ms']), 1e-3)
    want = int(args.frames * args.min_ms / wall) + 1
    return max(args.frames, min(want, 20 * args.frames))


def best_of(args, cmd, env, row, side, info):
    """
    Run the GL bench cmd --repeat times; row[side + '_ms'] and '_cpu_ms'
    per frame of the best (the run least disturbed by other load), '_rss'
    the largest; row['error'] on a failed run.
    """
    for _ in range(args.repeat):
        rc, so, se, rss = popen_rss(cmd, env)
        f = fields(so)
        if rc != 0 or 'wall_ms' not in f:
            row['error'] = '%s: %s' % ('llvmpipe' if side == 'lp' else side,
                                       f.get('failed') or se.strip()[-200:])
            return
        info.setdefault('llvmpipe' if side == 'lp' else side,
                        f.get('renderer'))
        ms = float(f['wall_ms']) / row['frames']
        if ms < row.get(side + '_ms', float('inf')):
            row[side + '_ms'] = ms
            row[side + '_cpu_ms'] = float(f['cpu_ms']) / row['frames']
        row[side + '_rss'] = max(row.get(side + '_rss', 0), rss / 1024)


def bench_3d(args, names, info):
    gl = os.path.join(args.build, 'bench', 'r500-bench-gl')
    shim = os.path.join(args.build, 'tools', 'libr500-drm-shim.so')
    replay = os.path.join(args.build, 'tools', 'r500-replay')
    os.makedirs(args.out, exist_ok=True)
    rows = []
    frames_of = {}
    for name, threads in [(n, k) for n in names for k in args.threads]:
        # llvmpipe
        env = env_base()
        env.update(LIBGL_ALWAYS_SOFTWARE='1', GALLIUM_DRIVER='llvmpipe',
                   LP_NUM_THREADS=str(threads))
        ref = os.path.join(args.out, name + '-llvmpipe.pam')
        if name not in frames_of:
            frames_of[name] = calibrate(args, gl, name, env)
        frames = frames_of[name]
        common = [gl, name, '-s', args.size, '-n', str(frames),
                  '-w', str(args.warmup)]
        row = {'workload': name, 'threads': threads, 'frames': frames}
        best_of(args, common + ['-o', ref], env, row, 'lp', info)
        if 'error' in row:
            rows.append(row)
            continue
        # r300 on the chip, through the shim
        env = env_base()
        env['LD_PRELOAD'] = os.path.abspath(shim)
        env['R500_RENDER_THREADS'] = str(threads)
        env['R500_RENDERER'] = args.renderer
        # the host-GL renderer's llvmpipe gets the reference's threads
        env['LP_NUM_THREADS'] = str(threads)
        got = os.path.join(args.out, name + '-r300.pam')
        best_of(args, common + ['-o', got], env, row, 'r300', info)
        if 'error' in row:
            rows.append(row)
            continue
        row['match'] = match_fraction(read_pam(ref), read_pam(got))
        # the same again on one thread with a capture, replayed on a
        # fresh core with the row's threads
        cap = os.path.join(args.out, name + '.r5c')
        env['R500_CAPTURE'] = cap
        env['R500_RENDER_THREADS'] = '1'
        rc, so, se, _ = popen_rss(common, env)
        if rc != 0 or not os.path.exists(cap):
            # no capture, no core figure: an error, not a quiet blank
            row['error'] = 'capture run failed (%d): %s' % (
                rc, se.strip()[-200:])
        for _ in range(args.repeat if 'error' not in row else 0):
            renv = env_base()
            renv['R500_RENDER_THREADS'] = str(threads)
            renv['R500_RENDERER'] = args.renderer
            renv['LP_NUM_THREADS'] = str(threads)
            rc, so, se, rss = popen_rss([replay, '--execute', cap], renv)
            m = re.search(r'execution time: ([0-9.]+) ms', so)
            if not m:
                row['error'] = 'replay: ' + (so + se).strip()[-200:]
                break
            ms = float(m.group(1)) / (frames + args.warmup)
            row['core_ms'] = min(row.get('core_ms', ms), ms)
            row['core_rss'] = rss / 1024
            # bit-exact: exit 0 and every checked buffer as recorded
            exact = rc == 0 and re.search(
                r'^execution: .* 0 differ, 0 did not finish$', so,
                re.M) is not None
            row['replay_exact'] = row.get('replay_exact', True) and exact
            if not exact:
                row['error'] = 'replay not bit-exact: ' + \
                    (so + se).strip()[-200:]
                break
        if not args.keep_captures and os.path.exists(cap):
            os.unlink(cap)
        rows.append(row)
    return rows


def bench_core(args):
    exe = os.path.join(args.build, 'bench', 'r500-bench-core')
    rc, so, se, rss = popen_rss([exe] + (['--quick'] if args.smoke else []))
    res = {'rc': rc, 'rss_mib': rss / 1024, 'cases': [], 'sizes': []}
    for line in so.splitlines():
        m = re.match(r'size (.*): (\d+)$', line)
        if m:
            res['sizes'].append((m.group(1), int(m.group(2))))
            continue
        m = re.match(r'((?:cp|2d) [^:]*): ([0-9.]+) MB/s \((.*)\)$', line)
        if m:
            res['cases'].append((m.group(1), float(m.group(2)), m.group(3)))
    if rc != 0:
        res['error'] = se.strip()[-300:]
    return res


def bench_display(args):
    qemu = os.path.join(args.build, 'qemu', 'build', 'qemu-system-x86_64')
    if args.display_seconds <= 0:
        return {'skipped': '--display-seconds 0'}
    if not os.path.exists(qemu):
        return {'skipped': 'no QEMU build in ' + args.build}
    rc, so, se, _ = popen_rss([sys.executable,
                               os.path.join(HERE, 'display-idle.py'),
                               args.build, str(args.display_seconds)])
    res = {'rc': rc, 'cases': []}
    for line in so.splitlines():
        m = re.match(r'(\S+)\s+([0-9.]+) % of one host CPU .*?([0-9.]+) VNC '
                     r'updates/s(?:, RSS ([0-9.]+) MiB)?', line)
        if m:
            res['cases'].append({'case': m.group(1), 'cpu_pct':
                                 float(m.group(2)), 'updates':
                                 float(m.group(3)), 'rss_mib':
                                 float(m.group(4)) if m.group(4) else None})
    if rc != 0:
        res['error'] = se.strip()[-300:]
    return res


def geomean(vals):
    vals = [v for v in vals if v > 0]
    if not vals:
        return None
    prod = 1.0
    for v in vals:
        prod *= v
    return prod ** (1.0 / len(vals))


def fmt(v, spec='%.2f'):
    return spec % v if isinstance(v, (int, float)) else '-'


def report(info, rows, core, disp, args):
    out = []
    out.append('# r500 benchmark')
    out.append('')
    out.append('| machine | |')
    out.append('|---|---|')
    for k in ('date', 'cpu', 'cpus', 'mem_mib', 'kernel', 'commit',
              'buildtype', 'llvmpipe', 'r300'):
        out.append('| %s | %s |' % (k, info.get(k, '-')))
    out.append('| 3D settings | %s, at least %d frames (more where '
               'llvmpipe takes them in under %g ms; the frames column) '
               'after %d warm-up, best of %d runs each, '
               'LP_NUM_THREADS = R500_RENDER_THREADS = threads |'
               % (args.size, args.frames, args.min_ms, args.warmup,
                  args.repeat))
    out.append('')
    if rows:
        out.append('## 3D (ms per frame; lower is better)')
        out.append('')
        out.append('| workload | threads | frames | llvmpipe | r300+shim | '
                   'core | lp/core | lp CPU | r300 CPU | match | RSS lp | '
                   'RSS r300 | RSS replay |')
        out.append('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|'
                   '---:|---:|')
        for r in rows:
            if 'error' in r and 'core_ms' not in r:
                out.append('| %s | %d | %s |' % (r['workload'],
                                                 r['threads'], r['error']))
                continue
            ratio = r['lp_ms'] / r['core_ms'] if r.get('core_ms') else None
            out.append('| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | '
                       '%s | %s | %s |'
                       % (r['workload'], r['threads'], r.get('frames', '-'),
                          fmt(r.get('lp_ms')),
                          fmt(r.get('r300_ms')), fmt(r.get('core_ms')),
                          fmt(ratio, '%.3f'), fmt(r.get('lp_cpu_ms')),
                          fmt(r.get('r300_cpu_ms')),
                          fmt(100 * r['match'], '%.1f%%')
                          if 'match' in r else '-',
                          fmt(r.get('lp_rss'), '%.0f'),
                          fmt(r.get('r300_rss'), '%.0f'),
                          fmt(r.get('core_rss'), '%.0f')))
        out.append('')
        out.append('lp/core: the core\'s speed as a fraction of llvmpipe\'s at '
                   'the same threads (1 = as fast); lp/r300: the card\'s, '
                   'Mesa r300 and all (the yardstick, docs/bench.md).')
        out.append('')
        out.append('| threads | geomean lp/r300 | geomean lp/core | core '
                   'speed-up over 1 thread (geomean) |')
        out.append('|---:|---:|---:|---:|')
        one = {r['workload']: r['core_ms'] for r in rows
               if r['threads'] == 1 and r.get('core_ms')}
        for k in args.threads:
            rs = [r for r in rows if r['threads'] == k and r.get('core_ms')
                  and r.get('lp_ms')]
            g = geomean([r['lp_ms'] / r['core_ms'] for r in rs])
            gr = geomean([r['lp_ms'] / r['r300_ms'] for r in rows
                          if r['threads'] == k and r.get('r300_ms')
                          and r.get('lp_ms')])
            su = geomean([one[r['workload']] / r['core_ms'] for r in rs
                          if r['workload'] in one])
            out.append('| %d | %s | %s | %s |' % (k, fmt(gr, '%.3f'),
                                                  fmt(g, '%.3f'),
                                                  fmt(su, '%.2fx')))
        bad = [r['workload'] for r in rows if r.get('replay_exact') is False]
        if bad:
            out.append('')
            out.append('Replay NOT bit-exact: ' + ', '.join(bad))
        out.append('')
    if core:
        out.append('## Core: command processor and 2D engine')
        out.append('')
        out.append('| case | MB/s | detail |')
        out.append('|---|---:|---|')
        for name, mbs, detail in core.get('cases', []):
            out.append('| %s | %.1f | %s |' % (name, mbs, detail))
        if 'error' in core:
            out.append('')
            out.append('r500-bench-core failed: ' + core['error'])
        out.append('')
        out.append('## Chip footprint (bytes)')
        out.append('')
        out.append('| part | bytes |')
        out.append('|---|---:|')
        for name, size in core.get('sizes', []):
            out.append('| %s | %d |' % (name, size))
        out.append('')
    if disp:
        out.append('## Display, idle 1024x768x32 (display-idle.py)')
        out.append('')
        if 'skipped' in disp:
            out.append('skipped: ' + disp['skipped'])
        else:
            out.append('| case | host CPU % | VNC updates/s | QEMU RSS MiB |')
            out.append('|---|---:|---:|---:|')
            for c in disp['cases']:
                out.append('| %s | %.2f | %.1f | %s |'
                           % (c['case'], c['cpu_pct'], c['updates'],
                              fmt(c['rss_mib'], '%.0f')))
            if 'error' in disp:
                out.append('')
                out.append('display-idle.py failed: ' + disp['error'])
        out.append('')
    return '\n'.join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--build', default=os.path.join(SRC, 'build'))
    ap.add_argument('--out')
    ap.add_argument('--size', default='512x512')
    ap.add_argument('--frames', type=int, default=10)
    ap.add_argument('--warmup', type=int, default=5)
    ap.add_argument('--min-ms', type=float, default=200,
                    help='raise a workload\'s frames until llvmpipe takes '
                         'at least this long over them (0: --frames)')
    ap.add_argument('--threads', default='1,2',
                    help='thread counts, comma-separated: LP_NUM_THREADS '
                         'for llvmpipe, R500_RENDER_THREADS for the core')
    ap.add_argument('--only', help='3D workloads to run, comma-separated')
    ap.add_argument('--renderer', default='auto',
                    help='the card\'s renderer for r300 and the replays '
                         '(the card\'s default, auto): '
                         'soft, gl, auto (R500_RENDERER)')
    ap.add_argument('--no-3d', action='store_true')
    ap.add_argument('--no-core', action='store_true')
    ap.add_argument('--display-seconds', type=float, default=10)
    ap.add_argument('--repeat', type=int, default=3,
                    help='llvmpipe and r300 runs and replays per workload '
                         '(best kept)')
    ap.add_argument('--keep-captures', action='store_true')
    ap.add_argument('--smoke', action='store_true',
                    help='a tiny run that only checks the benchmark works')
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    args.threads = [int(k) for k in str(args.threads).split(',') if k]
    if args.smoke:
        args.size, args.frames, args.warmup, args.repeat = '32x32', 1, 0, 1
        args.min_ms = 0
        args.display_seconds = 0
    args.out = os.path.abspath(args.out or os.path.join(args.build,
                                                        'bench-results'))
    os.makedirs(args.out, exist_ok=True)

    info = machine_info(args.build)
    rows, core, disp = [], None, None
    gl = os.path.join(args.build, 'bench', 'r500-bench-gl')
    if not args.no_3d:
        if os.path.exists(gl):
            rc, so, _ = run([gl, '--list'])
            names = [l.split('\t')[0] for l in so.splitlines() if l]
            if args.only:
                names = [n for n in names if n in args.only.split(',')]
            rows = bench_3d(args, names, info)
        else:
            print('3D skipped: no %s (the Mesa harness is not built)' % gl)
    if not args.no_core:
        core = bench_core(args)
    disp = bench_display(args)

    text = report(info, rows, core, disp, args)
    print(text)
    with open(os.path.join(args.out, 'results.md'), 'w') as f:
        f.write(text + '\n')
    with open(os.path.join(args.out, 'results.json'), 'w') as f:
        json.dump({'machine': info, 'settings': vars(args), '3d': rows,
                   'core': core, 'display': disp}, f, indent=1)
    failed = [r for r in rows if 'error' in r] or \
        (core and 'error' in core) or (disp and 'error' in disp)
    if failed:
        print('errors: see above', file=sys.stderr)
        sys.exit(1)


if __name__ == '__main__':
    main()
