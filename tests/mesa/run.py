#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Run the GL scenes on llvmpipe (the reference) and on Mesa r300 over the
emulated chip (through the DRM shim), compare the images, check the
captures with r500-replay, and write the scene table.

Usage:
  run.py --scenes BIN --shim LIB --replay BIN --out DIR [options]

Options:
  --only a,b,c      run these scenes only
  --model NAME      chip model for the shim (rv515, rv530, r520, r580)
  --jobs N          scenes run in parallel (default: CPUs)
  --table FILE      write the markdown scene table and work list there
  --expect FILE     scenes that must pass (one name per line, # comments)
  --expect-reject FILE
                    scenes whose streams the kernel's checker rejects, with
                    a piece of the message ("scene message", # comments)
  --threads N       the card renders the scenes on N soft-renderer threads
                    (R500_RENDER_THREADS); replays run on one, so their
                    bit-exact check compares N threads with one
  --renderer WORD   the card's renderer (R500_RENDERER: soft, gl, auto);
                    the replays use the same.  With gl, --check also
                    wants gl to have drawn (the shim's gl_draws)
  --expect-differ FILE
                    scenes known not to pass on this renderer yet (name
                    # reason): taken out of the expected lists; one that
                    passes is a problem (the list must shrink)
  --replay-threads N
                    the replays' threads (default 1; the tsan suite replays
                    on 2 under ThreadSanitizer)
  --check           exit 1 unless everything that works today still works:
                    r300 initializes on the shim, every stream passes the
                    checker, every capture round-trips and replays
                    bit-exactly on a fresh core, expected scenes pass

Image comparison (docs/mesa-harness.md): a pixel matches when every
channel is within the scene's tolerance (3/255 by default: R500 shades in
fp32 and blends in fixed point, llvmpipe in 8-bit unorm); a scene passes
when at most 1% of the pixels it draws do not match (edge pixels of a
primitive may round differently at sub-pixel precision).  The pixels a
scene draws are those where either image differs from the reference's
background (its most frequent colour); a scene drawing nothing must match
everywhere.  Filtering, compressed-format and transcendental scenes have
wider tolerances, listed in TOLERANCE with the reason.  The scenes of
expected-exact.txt must match bit for bit.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)),
                                '..', '..', 'scripts'))
import image  # noqa: E402

# scene -> (per-channel tolerance, fraction of the drawn pixels allowed
# beyond it)
TOLERANCE_DEFAULT = (3, 0.01)
TOLERANCE = {
    # bilinear/trilinear weights: 8-bit fixed point on the R500 (3d.md)
    'tex_linear_mag': (6, 0.01), 'tex_linear_min': (6, 0.01),
    'tex_mipmap_linear': (8, 0.01), 'tex_generate_mipmap': (6, 0.01),
    # compressed-format endpoint interpolation rounds differently
    'tex_dxt1': (8, 0.01), 'tex_dxt1a': (8, 0.01), 'tex_dxt3': (8, 0.01),
    'tex_dxt5': (8, 0.01), 'tex_rgtc1': (8, 0.01), 'tex_rgtc2': (8, 0.01),
    # sRGB decode and half floats: one or two steps of rounding
    'tex_srgb8_a8': (4, 0.01), 'tex_rgba16f': (4, 0.01),
    # transcendental approximations, fog interpolation
    'fs_exp_log': (8, 0.01), 'fs_trig': (8, 0.01), 'vs_math': (8, 0.03),
    'fog_linear': (4, 0.01), 'msaa_resolve': (16, 0.05),
    # lines and points: edge pixels at 1/12 vs 1/256 subpixel precision
    'wide_lines': (3, 0.03), 'points': (3, 0.02), 'lines': (3, 0.03),
    'point_sprite': (3, 0.02),
    # GL_POINT polygons put 3-pixel points centred on pixel corners: the
    # square's edges fall on pixel centres, which the model gives to the
    # left/top (its top-left rule) and llvmpipe to the right/bottom; the
    # R500's rule for points is not documented (reference open question
    # 9).  27 of the ~180 drawn pixels are those points' edges.
    'polygon_mode': (3, 0.2),
}

# scene -> environment of its llvmpipe reference run, with the reason
SCENE_ENV = {
    # llvmpipe takes an explicit LOD or bias once per quad in fragment
    # shaders unless told otherwise; the R500 (and GL) take it per pixel
    'fs_tex_bias_pixel': {'GALLIVM_PERF': 'no_quad_lod'},
}

# scene -> why llvmpipe cannot be its reference where it crashes: then
# softpipe, Mesa's other software rasteriser, is (said in the table).
LLVMPIPE_CRASHES = {
    # Debian 13: Mesa 25.0.7 with LLVM 19 faults in the fragment shader's
    # JIT code (texture lookups in a loop, their offsets from a local
    # array indexed by the counter); Mesa 22.3 draws it
    'fs_loop_tex': 'llvmpipe of Mesa 25.0 crashes in its JIT code',
}

NO_CP = 'IB not executed (the CP did not reach the fence)'


def read_pam(path):
    with open(path, 'rb') as f:
        data = f.read()
    head, _, body = data.partition(b'ENDHDR\n')
    fields = dict(line.split(b' ', 1) for line in head.split(b'\n')[1:]
                  if b' ' in line)
    w, h = int(fields[b'WIDTH']), int(fields[b'HEIGHT'])
    if int(fields[b'DEPTH']) != 4 or len(body) != w * h * 4:
        raise ValueError(path + ': not a 4-channel PAM')
    return w, h, body


def write_png(path, w, h, rgba):
    image.write_png_bytes(path, w, h, rgba, 4)


def compare(ref, got, tol):
    """Returns (bad pixel count, max channel delta, diff image bytes,
    drawn pixel count)."""
    bad, worst, diff = 0, 0, bytearray(len(ref))
    counts = {}
    for i in range(0, len(ref), 4):
        px = ref[i:i + 4]
        counts[px] = counts.get(px, 0) + 1
    bg = max(counts, key=counts.get) if counts else b''
    drawn = 0
    for i in range(0, len(ref), 4):
        if ref[i:i + 4] != bg or got[i:i + 4] != bg:
            drawn += 1
        d = max(abs(ref[i + k] - got[i + k]) for k in range(4))
        worst = max(worst, d)
        if d > tol:
            bad += 1
            diff[i:i + 4] = bytes((255, min(255, 64 + d), 255, 255))
        else:
            g = ref[i] // 4 + ref[i + 1] // 4 + ref[i + 2] // 8
            diff[i:i + 4] = bytes((g, g, g, 255))
    return bad, worst, bytes(diff), drawn


def run(cmd, env, timeout=120):
    try:
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, p.stdout.decode(errors='replace'), \
            p.stderr.decode(errors='replace')
    except subprocess.TimeoutExpired:
        return -1000, '', 'timed out after %d s' % timeout


def field(text, name):
    m = re.search(r'^%s: (.*)$' % name, text, re.M)
    return m.group(1).strip() if m else None


def read_stats(path):
    st = {'reg': {}, 'pkt3': {}}
    if not os.path.exists(path):
        return None
    with open(path) as f:
        for line in f:
            parts = line.split()
            if parts[0] in ('reg', 'pkt3', 'pkt2'):
                key = 'pkt3' if parts[0] == 'pkt2' else parts[0]
                st[key][(parts[1], parts[2])] = int(parts[3])
            elif len(parts) == 2:
                st[parts[0]] = parts[1]
    return st


def env_clean():
    """The environment without what picks a driver or changes its run
    (also used by bench/run.py)."""
    env = dict(os.environ)
    # the shim's settings come from the harness, never from the caller
    for k in ('LD_PRELOAD', 'LIBGL_ALWAYS_SOFTWARE', 'GALLIUM_DRIVER',
              'R500_CAPTURE', 'R500_SHIM_STATS', 'MESA_LOADER_DRIVER_OVERRIDE',
              'LP_NUM_THREADS', 'GALLIVM_PERF', 'R500_MODEL', 'R500_VRAM_MB',
              'R500_SHIM_DEBUG', 'R500_SHIM_LOG', 'R500_RENDER_THREADS',
              'R500_RENDERER', 'R500_GL_DEVICE'):
        env.pop(k, None)
    # no shader cache files outside the build tree
    env['MESA_SHADER_CACHE_DISABLE'] = 'true'
    return env


def scene_job(args, name):
    out = args.out
    res = {'name': name}
    ref_pam = os.path.join(out, 'ref', name + '.pam')
    r300_pam = os.path.join(out, 'r300', name + '.pam')
    cap = os.path.join(out, 'capture', name + '.r5c')
    stats_path = os.path.join(out, 'stats', name + '.txt')
    for p in (ref_pam, r300_pam, cap, stats_path):
        if os.path.exists(p):
            os.unlink(p)

    env = env_clean()
    env['LIBGL_ALWAYS_SOFTWARE'] = '1'
    env['GALLIUM_DRIVER'] = 'llvmpipe'
    env.update(SCENE_ENV.get(name, {}))
    rc, so, se = run([args.scenes, name, ref_pam], env)
    res['ref_fallback'] = None
    if rc < 0 and rc != -1000 and name in LLVMPIPE_CRASHES:
        # llvmpipe died by a signal where it is known to: softpipe draws
        env['GALLIUM_DRIVER'] = 'softpipe'
        rc, so, se = run([args.scenes, name, ref_pam], env)
        res['ref_fallback'] = LLVMPIPE_CRASHES[name]
    res['ref_rc'], res['ref_renderer'] = rc, field(so, 'renderer')
    res['ref_msg'] = field(so, 'unsupported') or field(so, 'failed') or \
        (se.strip().splitlines() or [''])[-1]

    env = env_clean()
    env['LD_PRELOAD'] = args.shim
    env['R500_CAPTURE'] = cap
    env['R500_SHIM_STATS'] = stats_path
    env['R500_MODEL'] = args.model
    env['R500_RENDER_THREADS'] = str(args.threads)
    env['R500_RENDERER'] = args.renderer
    rc, so, se = run([args.scenes, name, r300_pam], env)
    res['rc'], res['renderer'] = rc, field(so, 'renderer')
    res['msg'] = field(so, 'unsupported') or field(so, 'failed') or ''
    res['stderr'] = se
    res['stats'] = read_stats(stats_path)

    if os.path.exists(cap):
        # parse, re-check, re-encode, and run the streams on a fresh core:
        # every buffer must come out bit-identical to the recording
        # on one thread: captures drawn on --threads must match it
        renv = env_clean()
        renv['R500_RENDER_THREADS'] = str(args.replay_threads)
        # gl on gl: the same draws on the same host GL give the same bytes
        renv['R500_RENDERER'] = args.renderer
        rrc, rso, rse = run([args.replay, '--roundtrip', '--execute', cap],
                            renv)
        res['replay_ok'] = rrc == 0 and 'round trip: identical' in rso and \
            '; 0 differ from the recording' in rso and \
            re.search(r'^execution: .* 0 differ, 0 did not finish$', rso,
                      re.M) is not None
        res['replay_out'] = (rso + rse).strip().splitlines()[-3:]
    else:
        res['replay_ok'] = None

    tol, frac = TOLERANCE.get(name, TOLERANCE_DEFAULT)[:2]
    if name in args.exact:
        tol, frac = 0, 0.0
    res['tolerance'] = (tol, frac)
    if res['ref_rc'] == 0 and rc == 0:
        w, h, ref = read_pam(ref_pam)
        rw, rh, got = read_pam(r300_pam)
        if (rw, rh) != (w, h):
            raise ValueError('%s: image sizes differ' % name)
        bad, worst, diff, drawn = compare(ref, got, tol)
        res['bad'], res['worst'], res['pixels'] = bad, worst, w * h
        res['drawn'] = drawn
        res['match'] = bad <= frac * drawn
        for sub, img in (('ref', ref), ('r300', got)):
            write_png(os.path.join(out, sub, name + '.png'), w, h, img)
        if not res['match']:
            write_png(os.path.join(out, 'diff', name + '.png'), w, h, diff)
    res['status'] = status(res)
    return res


def first_reject(stderr):
    for line in stderr.splitlines():
        if 'r500-drm-shim:' in line and ('Forbidden' in line or 'rejected' in
                                         line or 'Invalid' in line or
                                         'No reloc' in line):
            return line.split('r500-drm-shim:', 1)[1].strip()
    return 'see the shim log'


def status(r):
    if r['ref_rc'] == 77:
        return 'unsupported (on llvmpipe too): ' + r['ref_msg']
    if r['ref_rc'] != 0:
        return 'error: the llvmpipe reference failed: ' + r['ref_msg']
    if r['rc'] == 77:
        return 'unsupported: ' + r['msg']
    st = r['stats'] or {}
    if st and int(st.get('rejected', 0)):
        return 'fails: command stream rejected by the checker: ' + \
            first_reject(r['stderr'])
    if r['rc'] != 0:
        why = r['msg'] or (r['stderr'].strip().splitlines() or ['?'])[-1]
        return 'fails: the r300 run exited with %d: %s' % (r['rc'], why)
    # Without execution a matching image is an accident (a reused staging
    # buffer still holding uploaded data), never a pass.
    if st and int(st.get('not_executed', 0)):
        return 'fails: ' + NO_CP
    if r['match']:
        return 'passes'
    return 'fails: %d of %d drawn pixels differ (largest channel delta ' \
        '%d%s)' % (r['bad'], r['drawn'], r['worst'],
                   ', bit-exact expected' if r['tolerance'] == (0, 0.0)
                   else '')


def per_mesa_notes():
    """What differs with the host's Mesa (the table above is this host's
    run): the reference is llvmpipe of the same Mesa as r300, so no scene
    has a stored image per Mesa; these are the exceptions."""
    lines = ['## Per-Mesa differences', '',
             'The reference is llvmpipe of the host\'s own Mesa, the same '
             'Mesa whose r300 draws on the card (22.3 on Debian 12, 25.0 on '
             'Debian 13), so no scene keeps a reference image per Mesa. '
             'Where a Mesa itself changed:', '']
    for name, why in sorted(LLVMPIPE_CRASHES.items()):
        lines.append('* `%s`: %s; where it does, softpipe (Mesa\'s other '
                     'software rasteriser) is the reference, said in the '
                     'run\'s output.' % (name, why))
    lines += ['* `tex_ycbcr`, `tex_ycbcr_rev`: Mesa 25 has no '
              '`GL_MESA_ycbcr_texture` (llvmpipe does not offer it; r300 '
              'offers it and answers GL_INVALID_ENUM): where the reference '
              'cannot run, an expected scene is skipped, counted and said '
              'why (`SKIPPED:` lines), not failed.', '']
    return lines


def table(results, scenes, model):
    lines = [
        '<!-- Generated by tests/mesa/run.py (ninja -C build mesa-table); '
        'do not edit. -->',
        '# Mesa scene table',
        '',
        'Every scene of `tests/mesa`, rendered by Mesa r300 on the emulated '
        '%s through the DRM shim and compared with llvmpipe '
        '([mesa-harness.md](mesa-harness.md)).' % model,
        '',
        '| scene | API | what it draws | status |',
        '|---|---|---|---|',
    ]
    counts = {}
    for name, api, what in scenes:
        st = results[name]['status']
        counts[st.split(':')[0]] = counts.get(st.split(':')[0], 0) + 1
        lines.append('| `%s` | %s | %s | %s |' % (name, api, what,
                                                  st.replace('|', '/')))
    lines += ['', 'Totals: ' + ', '.join('%s %d' % kv for kv in
                                         sorted(counts.items())), '']
    lines += per_mesa_notes()
    # the hand-written piglit verdicts (issue 17), kept next to this script
    conf = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        'conformance.md')
    if os.path.exists(conf):
        with open(conf) as f:
            lines += f.read().rstrip('\n').split('\n') + ['']
    # the work list: what the accepted streams program
    regs, pkts = {}, {}
    for name, _, _ in scenes:
        st = results[name]['stats']
        if not st:
            continue
        for (rname, off), n in st['reg'].items():
            e = regs.setdefault((int(off, 16), rname), [0, set()])
            e[0] += n
            e[1].add(name)
        for (pname, op), n in st['pkt3'].items():
            e = pkts.setdefault((int(op, 16), pname), [0, set()])
            e[0] += n
            e[1].add(name)
    lines += [
        '## Work list for the 3D pipeline',
        '',
        'Registers written and packets sent by the command streams of all '
        'scenes (after the checker), with the number of scenes using each.',
        '',
        '| packet | opcode | count | scenes |', '|---|---|---|---|',
    ]
    for (op, pname), (n, s) in sorted(pkts.items()):
        lines.append('| %s | 0x%02x | %d | %d |' % (pname, op, n, len(s)))
    lines += ['', '| register | offset | writes | scenes |',
              '|---|---|---|---|']
    for (off, rname), (n, s) in sorted(regs.items()):
        lines.append('| %s | 0x%04x | %d | %d |' % (rname, off, n, len(s)))
    return '\n'.join(lines) + '\n'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--scenes', required=True)
    ap.add_argument('--shim', required=True)
    ap.add_argument('--replay', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--only')
    ap.add_argument('--model', default='rv515')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    ap.add_argument('--table')
    ap.add_argument('--expect')
    ap.add_argument('--expect-reject')
    ap.add_argument('--expect-exact')
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--expect-differ',
                    help='scenes known not to pass on --renderer yet')
    ap.add_argument('--renderer', default='soft',
                    help='the card renders on soft, gl or auto '
                         '(R500_RENDERER); replays on the same')
    ap.add_argument('--threads', type=int, default=1,
                    help='soft renderer threads of the scenes on the card '
                         '(R500_RENDER_THREADS); the replays run on one')
    ap.add_argument('--replay-threads', type=int, default=1,
                    help='threads of the replays (R500_RENDER_THREADS)')
    args = ap.parse_args()
    args.exact = set()
    if args.expect_exact:
        with open(args.expect_exact) as f:
            args.exact = {l.split('#')[0].strip() for l in f} - {''}
    args.shim = os.path.abspath(args.shim)
    for sub in ('ref', 'r300', 'diff', 'capture', 'stats'):
        os.makedirs(os.path.join(args.out, sub), exist_ok=True)

    rc, so, se = run([args.scenes, '--list'], env_clean())
    if rc != 0:
        sys.exit('cannot list scenes: ' + se)
    scenes = [tuple(l.split('\t')) for l in so.splitlines() if l]
    known = {s[0] for s in scenes}
    if args.only:
        want = set(args.only.split(','))
        scenes = [s for s in scenes if s[0] in want]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        results = {r['name']: r for r in
                   ex.map(lambda s: scene_job(args, s[0]), scenes)}

    problems = []
    skipped = []
    expect = set()
    if args.expect:
        with open(args.expect) as f:
            expect = {l.split('#')[0].strip() for l in f} - {''}
    differ = set()
    if args.expect_differ:
        # known not to pass on this renderer yet: not expected here, and
        # one that passes must leave the list
        with open(args.expect_differ) as f:
            differ = {l.split('#')[0].strip() for l in f} - {''}
        for name in sorted(differ - known):
            problems.append('%s: listed in %s but no scene has that name'
                            % (name, args.expect_differ))
        for name in sorted(differ & known):
            if results.get(name, {}).get('status') == 'passes':
                problems.append('%s: passes on %s now: remove it from %s'
                                % (name, args.renderer, args.expect_differ))
        expect -= differ
        args.exact -= differ
    rejects = {}
    if args.expect_reject:
        with open(args.expect_reject) as f:
            for line in f:
                line = line.split('#')[0].strip()
                if line:
                    name, _, msg = line.partition(' ')
                    rejects[name] = msg.strip()
    family = 'ATI ' + args.model.upper()
    # every name a list gives must be a scene (a typo or a removed scene
    # would otherwise stop being checked without a word)
    for what, names in (('expected-pass', expect),
                        ('expected-reject', set(rejects)),
                        ('expected-exact', args.exact)):
        for name in sorted(names - known):
            problems.append('%s: listed in %s but no scene has that '
                            'name' % (name, what))
    if args.expect:
        for name in sorted(args.exact - expect):
            problems.append('%s: in expected-exact but not expected-pass'
                            % name)
    for name, api, _ in scenes:
        r = results[name]
        print('%-24s %s' % (name, r['status']))
        if r['ref_rc'] != 0 and r['ref_rc'] != 77:
            problems.append('%s: llvmpipe reference failed: %s'
                            % (name, r['ref_msg']))
        if r['ref_rc'] == 0 and (r['ref_renderer'] or '').find('llvmpipe') < 0 \
                and not (r['ref_fallback'] and r['ref_renderer'] == 'softpipe'):
            problems.append('%s: reference ran on %s, not llvmpipe'
                            % (name, r['ref_renderer']))
        if r['ref_fallback']:
            print('%-24s   (reference: softpipe; %s)' % ('', r['ref_fallback']))
        if name in expect and r['status'].startswith(
                'unsupported (on llvmpipe too)'):
            # the host's Mesa has not the feature at all (Mesa 25 dropped
            # GL_MESA_ycbcr_texture): skipped, counted, said why
            skipped.append('%s: %s' % (name, r['status']))
        elif name in expect and r['status'] != 'passes':
            # an expected scene that llvmpipe (or r300) cannot run fails too
            problems.append('%s: expected to pass: %s' % (name, r['status']))
        if r['rc'] not in (0, 77) or r['ref_rc'] == 77:
            if r['ref_rc'] == 77 and skipped and \
                    skipped[-1].startswith(name + ':'):
                # no reference to compare with: what r300 did is said
                skipped[-1] += '; r300: %s' % (
                    'ran' if r['rc'] == 0 else 'unsupported' if r['rc'] == 77
                    else r['msg'] or 'exit %d' % r['rc'])
            elif r['rc'] not in (0, 77):
                problems.append('%s: r300 run failed (%d): %s' %
                                (name, r['rc'], r['status']))
            continue
        if r['rc'] == 77 and r['renderer'] is None:
            problems.append('%s: no r300 context' % name)
            continue
        if r['renderer'] != family:
            problems.append('%s: renderer is %r, not %r' %
                            (name, r['renderer'], family))
        st = r['stats']
        if r['rc'] == 0:
            if not st or int(st.get('cs_ioctls', 0)) == 0:
                problems.append('%s: no command stream reached the shim' % name)
            elif int(st.get('rejected', 0)):
                if name not in rejects or rejects[name] not in r['status']:
                    problems.append('%s: %s' % (name, r['status']))
            elif name in rejects:
                problems.append('%s: expected the checker to reject it (%s); '
                                'update the list' % (name, rejects[name]))
            if r['replay_ok'] is not True:
                problems.append('%s: capture does not round-trip or '
                                'replay bit-exactly: %s' %
                                (name, r.get('replay_out')))

    if args.table:
        with open(args.table, 'w') as f:
            f.write(table(results, scenes, family))
    n_pass = sum(1 for r in results.values() if r['status'] == 'passes')
    print('\n%d scenes: %d pass; outputs in %s' % (len(scenes), n_pass,
                                                   args.out))
    if args.renderer != 'soft':
        gl = sum(int((r['stats'] or {}).get('gl_draws', 0))
                 for r in results.values())
        soft = sum(int((r['stats'] or {}).get('gl_fallbacks', 0))
                   for r in results.values())
        vtx = sum(int((r['stats'] or {}).get('gl_vertex_draws', 0))
                  for r in results.values())
        print('renderer %s: %d draws on gl (%d with the vertex stage on the '
              'host), %d on soft' % (args.renderer, gl, vtx, soft))
        if args.renderer == 'gl' and gl == 0:
            problems.append('renderer gl drew nothing (no EGL context?)')
        # Mesa draws with hardware TCL: its triangles' vertices are
        # shaded on the host (gl/gl_vertex.c) unless that is switched
        # off; its clears and blits (points, rectangles) are not
        if (args.renderer == 'gl' and len(scenes) > 10 and
                os.environ.get('R500_GL_VERTEX') != 'cpu' and vtx == 0):
            problems.append('renderer gl: no draw had its vertex stage on '
                            'the host')
    for p in skipped:
        print('SKIPPED: ' + p)
    if skipped:
        print('%d expected scenes skipped: the host\'s Mesa lacks what they '
              'draw' % len(skipped))
    for p in problems:
        print('PROBLEM: ' + p)
    if args.check and problems:
        sys.exit(1)


if __name__ == '__main__':
    main()
