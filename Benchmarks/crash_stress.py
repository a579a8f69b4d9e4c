#!/usr/bin/env python3
"""Crash-safety stress (run on demand, not in CI): SIGKILL a writer at random moments.

  python3 Benchmarks/crash_stress.py [--trials 50] [--mode update|delete]

Each trial copies the `large` fixture (150,000 Item objects), starts
`realmsh update COPY Item --all --set quantity=-7` (one commit that rewrites the `quantity` array of
every cluster leaf), kills it after a random delay within the time an uninterrupted run takes, then
checks that the file verifies and holds either the old version (no object changed) or the new one
(all changed), and that a further commit on top succeeds. Prints how many trials ended in each state.
`--mode delete` runs `realmsh delete COPY Item --all` instead (a commit that drops every leaf and
rebuilds the indexes empty): the file must hold all objects or none.
"""
import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LARGE = os.path.join(os.path.dirname(ROOT), 'shared', 'fixtures', 'realm-core', 'large.realm')
REALMSH = os.path.join(ROOT, '.build', 'release', 'realmsh')


def count(path, predicate):
    out = subprocess.run([REALMSH, 'query', path, 'Item', predicate, '--format', 'count'],
                         stdout=subprocess.PIPE, check=True, text=True).stdout
    return int(out.strip())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--trials', type=int, default=50)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--mode', choices=['update', 'delete', 'rename'], default='update',
                    help='rename: every Item.category set to a new value, on a copy of large whose '
                         'string properties are enumerated (compact --enumerate-strings 100), so the '
                         'value list grows and every position leaf is rewritten')
    args = ap.parse_args()
    subprocess.run(['swift', 'build', '-c', 'release'], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    rng = random.Random(args.seed)
    if args.mode == 'update':
        command = ['update', None, 'Item', '--all', '--set', 'quantity=-7']
    elif args.mode == 'rename':
        command = ['update', None, 'Item', '--all', '--set', "category='renamed'"]
    else:
        command = ['delete', None, 'Item', '--all']
    with tempfile.TemporaryDirectory() as tmp:
        base = LARGE
        if args.mode == 'rename':
            base = os.path.join(tmp, 'enumerated.realm')
            subprocess.run([REALMSH, 'compact', '--enumerate-strings', '100', '-o', base, LARGE],
                           check=True, stderr=subprocess.DEVNULL)
        probe = os.path.join(tmp, 'probe.realm')
        shutil.copy(base, probe)
        os.chmod(probe, 0o644)
        start = time.perf_counter()
        subprocess.run([REALMSH] + [probe if a is None else a for a in command], check=True, stderr=subprocess.DEVNULL)
        duration = time.perf_counter() - start
        total = count(LARGE, 'TRUEPREDICATE')
        print(f'an uninterrupted run takes {duration:.2f} s; kills land at random in [0, {duration:.2f}] s')
        states = {'old': 0, 'new': 0, 'finished': 0}
        failures = 0
        for trial in range(args.trials):
            path = os.path.join(tmp, f'trial-{trial}.realm')
            shutil.copy(base, path)
            os.chmod(path, 0o644)
            writer = subprocess.Popen([REALMSH] + [path if a is None else a for a in command],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(0, duration))
            writer.send_signal(signal.SIGKILL)
            writer.wait()
            verify = subprocess.run([REALMSH, 'verify', '-q', path])
            # Objects the command changed: updated ones, or deleted ones.
            if args.mode == 'update':
                changed = count(path, 'quantity == -7')
            elif args.mode == 'rename':
                changed = count(path, "category == 'renamed'")
            else:
                changed = total - count(path, 'TRUEPREDICATE')
            if writer.returncode == 0:
                states['finished'] += 1
            if verify.returncode != 0 or changed not in (0, total):
                failures += 1
                print(f'trial {trial}: verify exit {verify.returncode}, {changed} of {total} changed: FAILED')
                continue
            states['old' if changed == 0 else 'new'] += 1
            again = subprocess.run([REALMSH, 'update', path, 'Item', '--where', 'id == 1', '--set', 'quantity=1'],
                                   stderr=subprocess.DEVNULL)
            if again.returncode != 0 or subprocess.run([REALMSH, 'verify', '-q', path]).returncode != 0:
                failures += 1
                print(f'trial {trial}: a commit on top failed')
            os.remove(path)
        print(f'{args.trials} trials: {states["old"]} old version, {states["new"]} new version '
              f'({states["finished"]} finished before the kill), {failures} failures')
        return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
