#!/usr/bin/env python3
"""Query benchmark (run on demand, not in CI): realmsh query against SQLite on the same rows.

  python3 Benchmarks/query_bench.py [--rows 1000000] [--runs 5]

The read workloads of ../shared/bench/workloads.md (2–6, 8) on N `Person` rows (§2): the Realm
file is built with `realmsh create` + `import`, the SQLite database with the same rows. Each
query runs as `realmsh query FILE Person PRED --format count` (a new process: start-up, open and
parse included), against SQLite in-process on an open connection — without an index, and with
an index on the compared column. Results are checked against §5's expected values when N is
1,000,000. Reports medians and ratios (SQLite time / realmsh time: above 1 means realmsh is
faster). The figure `realmsh open` is the cost of an empty query (start-up and open only).
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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import people  # noqa: E402
from write_bench import SCHEMA  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REALMSH = os.path.join(ROOT, '.build', 'release', 'realmsh')

WORKLOADS = [
    ('2 age > 50', 'age > 50', 'SELECT count(*) FROM Person WHERE age > 50', 'age', 490543),
    ('3 age == 42', 'age == 42', 'SELECT count(*) FROM Person WHERE age = 42', 'age', 10059),
    ("4 name BEGINSWITH 'B'", "name BEGINSWITH 'B'", "SELECT count(*) FROM Person WHERE name >= 'B' AND name < 'C'", 'name', 50247),
    ("5 name CONTAINS[c] 'ar'", "name CONTAINS[c] 'ar'", "SELECT count(*) FROM Person WHERE name LIKE '%ar%'", None, 306985),
    ('6 conjunction', 'age > 30 AND active == true AND score < 50.0',
     'SELECT count(*) FROM Person WHERE age > 30 AND active = 1 AND score < 50.0', None, 173464),
    ('8 sort + limit', 'age > 50 SORT(name ASC, id ASC) LIMIT(100)',
     'SELECT count(*) FROM (SELECT id FROM Person WHERE age > 50 ORDER BY name, id LIMIT 100)', None, 100),
]


def timed(fn, runs):
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--rows', type=int, default=1000000)
    ap.add_argument('--runs', type=int, default=5)
    args = ap.parse_args()
    subprocess.run(['swift', 'build', '-c', 'release'], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    rows = people.rows(args.rows)
    with tempfile.TemporaryDirectory() as tmp:
        schema, data = os.path.join(tmp, 'schema.json'), os.path.join(tmp, 'people.json')
        realm, db = os.path.join(tmp, 'people.realm'), os.path.join(tmp, 'people.sqlite')
        with open(schema, 'w') as f:
            json.dump(SCHEMA, f)
        with open(data, 'w') as f:
            json.dump([{"id": r[0], "name": r[1], "age": r[2], "score": r[3], "active": r[4],
                        "created": {"$date": time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(r[5]))}, "email": r[6]}
                       for r in rows], f)
        subprocess.run([REALMSH, 'create', '--schema', schema, realm], check=True, stderr=subprocess.DEVNULL)
        subprocess.run([REALMSH, 'import', realm, 'Person', data], check=True, stderr=subprocess.DEVNULL)
        con = sqlite3.connect(db)
        con.execute('CREATE TABLE Person(id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER NOT NULL, '
                    'score REAL NOT NULL, active INTEGER NOT NULL, created INTEGER NOT NULL, email TEXT)')
        con.executemany('INSERT INTO Person VALUES(?,?,?,?,?,?,?)', [(r[0], r[1], r[2], r[3], int(r[4]), r[5], r[6]) for r in rows])
        con.commit()

        def realm_count(pred):
            return lambda: int(subprocess.run([REALMSH, 'query', realm, 'Person', pred, '--format', 'count'],
                                              stdout=subprocess.PIPE, check=True, text=True).stdout)

        base, _ = timed(realm_count('FALSEPREDICATE'), args.runs)
        print(f'{args.rows} Person rows, median of {args.runs} runs; realmsh open (start-up + open + empty query) = {base * 1000:.1f} ms')
        print(f'{"workload":30} {"realmsh":>9} {"sqlite scan":>12} {"ratio":>7} {"sqlite idx":>11} {"ratio":>7}')
        for name, rql, sql, column, expected in WORKLOADS:
            rt, rc = timed(realm_count(rql), args.runs)
            st, (sc,) = timed(lambda: con.execute(sql).fetchone(), args.runs)
            line = f'{name:30} {rt * 1000:8.1f}ms {st * 1000:11.1f}ms {st / rt:6.2f}x'
            if column:
                con.execute(f'CREATE INDEX i_{column} ON Person({column})')
                it, _ = timed(lambda: con.execute(sql).fetchone(), args.runs)
                con.execute(f'DROP INDEX i_{column}')
                line += f' {it * 1000:10.1f}ms {it / rt:6.2f}x'
            check = '' if args.rows != 1000000 else ('' if rc == expected and sc == expected else f'  MISMATCH realm {rc} sqlite {sc} expected {expected}')
            print(line + check)


if __name__ == '__main__':
    sys.exit(main())
