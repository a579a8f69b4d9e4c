#!/usr/bin/env python3
"""Reader benchmark (run on demand, not in CI): lazy open and export throughput.

  python3 Benchmarks/reader_bench.py [--runs N]

1. `info` and `schema` on `large` (15 MB, 151,000 objects) against `basic` (4 KB): a lazy open
   reads only the header, top array and table catalogue, so both take the same time.
2. `export --format json` of `large` in MB/s, against `sqlite3 -json` exporting the same rows
   from a SQLite database built from them (Item: 150,000 rows; Bucket: 1,000 rows with its list
   of item ids as JSON text), in the same run. Output goes to /dev/null; the figure is output
   bytes per second of wall time, median of N runs.

Needs: swift (builds release), sqlite3 (apt-get install sqlite3), python3.
"""
import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(os.path.dirname(ROOT), 'shared', 'fixtures', 'realm-core')
REALMSH = os.path.join(ROOT, '.build', 'release', 'realmsh')


def timed(cmd, runs, stdout=subprocess.DEVNULL):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=stdout, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def output_size(cmd):
    return len(subprocess.run(cmd, stdout=subprocess.PIPE, check=True).stdout)


def build_sqlite(db_path, large):
    """The same rows in SQLite: one table per class, from realmsh's JSON Lines export."""
    lines = subprocess.run([REALMSH, 'export', '--format', 'jsonl', large], stdout=subprocess.PIPE,
                           check=True).stdout.splitlines()
    con = sqlite3.connect(db_path)
    con.execute('CREATE TABLE Item(id INTEGER PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL, '
                'score REAL NOT NULL, active INTEGER NOT NULL, created TEXT, quantity INTEGER NOT NULL, '
                'optInt INTEGER, optString TEXT)')
    con.execute('CREATE TABLE Bucket(name TEXT PRIMARY KEY, items TEXT NOT NULL, weight INTEGER NOT NULL)')
    items, buckets = [], []
    for line in lines:
        o = json.loads(line)
        if o['_class'] == 'Item':
            items.append((o['id'], o['name'], o['category'], o['score'], int(o['active']),
                          o['created']['$date'] if o['created'] else None, o['quantity'], o['optInt'], o['optString']))
        else:
            buckets.append((o['name'], json.dumps(o['items']), o['weight']))
    con.executemany('INSERT INTO Item VALUES (?,?,?,?,?,?,?,?,?)', items)
    con.executemany('INSERT INTO Bucket VALUES (?,?,?)', buckets)
    con.commit()
    con.close()
    return len(items), len(buckets)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--runs', type=int, default=5)
    args = ap.parse_args()
    subprocess.run(['swift', 'build', '-c', 'release'], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    large, basic = os.path.join(FIXTURES, 'large.realm'), os.path.join(FIXTURES, 'basic.realm')

    print(f'lazy open (median of {args.runs * 4} runs, process start included)')
    for cmd in ('info', 'schema'):
        t_basic = timed([REALMSH, cmd, basic], args.runs * 4)
        t_large = timed([REALMSH, cmd, large], args.runs * 4)
        print(f'  {cmd:7} basic {t_basic * 1000:7.2f} ms   large {t_large * 1000:7.2f} ms   ratio {t_large / t_basic:5.2f}')

    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, 'large.sqlite')
        n_items, n_buckets = build_sqlite(db, large)
        print(f'\nexport of {n_items} Item + {n_buckets} Bucket rows (median of {args.runs} runs)')
        rows = []
        for label, cmd in (
                ('realmsh export --format json', [REALMSH, 'export', large]),
                ('realmsh export --format jsonl', [REALMSH, 'export', '--format', 'jsonl', large]),
                ('sqlite3 -json (Item, Bucket)', ['sqlite3', '-json', db, 'SELECT * FROM Item; SELECT * FROM Bucket;'])):
            size = output_size(cmd)
            t = timed(cmd, args.runs)
            rows.append((label, size, t))
            print(f'  {label:32} {size / 1e6:7.1f} MB in {t:6.3f} s = {size / 1e6 / t:7.1f} MB/s')
        sqlite_rate = rows[2][1] / rows[2][2]
        for label, size, t in rows[:2]:
            print(f'  {label:32} throughput ratio vs sqlite3 -json: {size / t / sqlite_rate:5.2f}x;'
                  f' wall-time ratio: {rows[2][2] / t:5.2f}x')


if __name__ == '__main__':
    sys.exit(main())
