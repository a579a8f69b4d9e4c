#!/usr/bin/env python3
"""Compaction and encryption benchmark (run on demand, not in CI).

  python3 Benchmarks/compact_bench.py [--rows 1000000]

1. Builds a churned file of ≥ 100 MB: N `Person` rows (../shared/bench/workloads.md §2) imported,
   then updated and half deleted, so it carries a lot of free space.
2. Times `realmsh compact -o` on it (MB/s of the input read and of the output written) against
   the disk's sequential write speed measured in the same run (`dd … conv=fsync`, 256 MiB).
3. Encryption overhead: the compacted file encrypted with a new key; `export` and a full-scan
   `query` timed on the plain and on the encrypted file (Realm documents about 10%).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import people  # noqa: E402
from write_bench import SCHEMA  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REALMSH = os.path.join(ROOT, '.build', 'release', 'realmsh')


def run(args, runs=3):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([REALMSH] + args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--rows', type=int, default=1000000)
    args = ap.parse_args()
    subprocess.run(['swift', 'build', '-c', 'release'], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    with tempfile.TemporaryDirectory(dir=os.path.dirname(ROOT)) as tmp:
        schema, data, realm = (os.path.join(tmp, n) for n in ('schema.json', 'people.json', 'people.realm'))
        with open(schema, 'w') as f:
            json.dump(SCHEMA, f)
        with open(data, 'w') as f:
            json.dump([{"id": r[0], "name": r[1], "age": r[2], "score": r[3], "active": r[4],
                        "created": {"$date": time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(r[5]))}, "email": r[6]}
                       for r in people.rows(args.rows)], f)
        run(['create', '--schema', schema, realm], 1)
        run(['import', realm, 'Person', data], 1)
        run(['update', realm, 'Person', '--where', 'age < 30', '--set', 'score=2.5'], 1)
        run(['delete', realm, 'Person', '--where', 'age < 50'], 1)
        size = os.path.getsize(realm)
        print(f'churned file: {size / 1e6:.1f} MB')

        probe = os.path.join(tmp, 'dd.bin')
        start = time.perf_counter()
        subprocess.run(['dd', 'if=/dev/zero', f'of={probe}', 'bs=1M', 'count=256', 'conv=fsync'],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        disk = 256 * 1048576 / (time.perf_counter() - start) / 1e6
        os.remove(probe)

        out = os.path.join(tmp, 'compact.realm')
        t = run(['compact', '--force', '-o', out, realm])
        out_size = os.path.getsize(out)
        print(f'disk sequential write (dd, fsync): {disk:8.1f} MB/s')
        print(f'compact: {size / 1e6:.1f} MB -> {out_size / 1e6:.1f} MB in {t:.2f} s: '
              f'{size / 1e6 / t:.1f} MB/s read, {out_size / 1e6 / t:.1f} MB/s written '
              f'({out_size / 1e6 / t / disk * 100:.0f}% of the disk\'s write speed)')

        key, enc = os.path.join(tmp, 'k.key'), os.path.join(tmp, 'enc.realm')
        run(['keygen', '-o', key], 1)
        run(['encrypt', '--key-file', key, '-o', enc, out], 1)
        for label, plain, encrypted in (
                ('export', ['export', out], ['export', '--key-file', key, enc]),
                ('query age > 50 (count)', ['query', out, 'Person', 'age > 50', '--format', 'count'],
                 ['query', '--key-file', key, enc, 'Person', 'age > 50', '--format', 'count'])):
            tp, te = run(plain, 5), run(encrypted, 5)
            print(f'{label:24} plain {tp:6.3f} s  encrypted {te:6.3f} s  overhead {(te / tp - 1) * 100:5.1f}%')


if __name__ == '__main__':
    sys.exit(main())
