#!/usr/bin/env python3
"""Write benchmark (run on demand, not in CI): realmsh against SQLite on the same rows.

  python3 Benchmarks/write_bench.py [--rows 1000000] [--runs 3]

Workloads of ../shared/bench/workloads.md (Person rows, §2): 1 bulk insert of all rows in one
durable transaction (file created from the schema first, then `realmsh import`), 9' upsert of
100,000 objects by primary key (the §2.4 keys, each setting age = 7), 10 update of `age < 10`
(score + 1 → here score = 1.5, a literal), 11a delete `age < 50` — each one transaction, fsynced.
SQLite (Python's sqlite3, libsqlite3) gets the same rows: one prepared statement reused in one
transaction, PRAGMA synchronous=FULL, journal_mode=WAL. realmsh is timed as the command a user
runs (process start and JSON parsing included); SQLite in-process. Reports medians, ratios
(SQLite time / realmsh time: above 1 means realmsh is faster) and file sizes.
"""
import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import people  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REALMSH = os.path.join(ROOT, '.build', 'release', 'realmsh')
SCHEMA = [{"name": "Person", "primaryKey": "id", "embedded": False, "properties": [
    {"name": n, "type": t, "optional": o, "indexed": n == "id", "primaryKey": n == "id", "collection": None,
     "objectType": None, "linkOrigin": None}
    for n, t, o in [("id", "int", False), ("name", "string", False), ("age", "int", False), ("score", "double", False),
                    ("active", "bool", False), ("created", "date", False), ("email", "string", True)]]}]


def realm(args):
    start = time.perf_counter()
    subprocess.run([REALMSH] + args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def count(path, predicate):
    return int(subprocess.run([REALMSH, 'query', path, 'Person', predicate, '--format', 'count'],
                              stdout=subprocess.PIPE, check=True, text=True).stdout)


def sqlite_connect(path):
    con = sqlite3.connect(path, isolation_level=None)
    con.execute('PRAGMA journal_mode=WAL')
    con.execute('PRAGMA synchronous=FULL')
    return con


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--rows', type=int, default=1000000)
    ap.add_argument('--runs', type=int, default=3)
    args = ap.parse_args()
    subprocess.run(['swift', 'build', '-c', 'release'], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    rows = people.rows(args.rows)
    keys = [k % args.rows for k in people.upsert_keys()]
    with tempfile.TemporaryDirectory() as tmp:
        schema = os.path.join(tmp, 'schema.json')
        data = os.path.join(tmp, 'people.json')
        upserts = os.path.join(tmp, 'upserts.json')
        with open(schema, 'w') as f:
            json.dump(SCHEMA, f)
        with open(data, 'w') as f:
            json.dump([{"id": r[0], "name": r[1], "age": r[2], "score": r[3], "active": r[4],
                        "created": {"$date": time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(r[5]))}, "email": r[6]}
                       for r in rows], f)
        with open(upserts, 'w') as f:
            json.dump([{"id": k, "age": 7} for k in keys], f)
        results = {}

        def run(name, realm_fn, sqlite_fn):
            rt, st = [], []
            for _ in range(args.runs):
                rt.append(realm_fn())
                st.append(sqlite_fn())
            results[name] = (statistics.median(rt), statistics.median(st))

        realm_file = os.path.join(tmp, 'people.realm')
        sqlite_file = os.path.join(tmp, 'people.sqlite')

        def realm_insert():
            for p in (realm_file, realm_file + '.lock'):
                if os.path.exists(p):
                    os.remove(p)
            start = time.perf_counter()
            realm(['create', '--schema', schema, realm_file])
            realm(['import', realm_file, 'Person', data])
            return time.perf_counter() - start

        def sqlite_insert():
            for p in (sqlite_file, sqlite_file + '-wal', sqlite_file + '-shm'):
                if os.path.exists(p):
                    os.remove(p)
            start = time.perf_counter()
            con = sqlite_connect(sqlite_file)
            con.execute('CREATE TABLE Person(id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER NOT NULL, '
                        'score REAL NOT NULL, active INTEGER NOT NULL, created INTEGER NOT NULL, email TEXT)')
            con.execute('BEGIN')
            con.executemany('INSERT INTO Person(id,name,age,score,active,created,email) VALUES(?,?,?,?,?,?,?)',
                            [(r[0], r[1], r[2], r[3], int(r[4]), r[5], r[6]) for r in rows])
            con.execute('COMMIT')
            con.execute('PRAGMA wal_checkpoint(TRUNCATE)')
            con.close()
            return time.perf_counter() - start

        run('1 insert all rows', realm_insert, sqlite_insert)
        assert count(realm_file, 'TRUEPREDICATE') == args.rows
        sizes = {'insert': (os.path.getsize(realm_file), os.path.getsize(sqlite_file))}
        base_realm, base_sqlite = realm_file + '.base', sqlite_file + '.base'
        shutil.copy(realm_file, base_realm)
        shutil.copy(sqlite_file, base_sqlite)

        def realm_timed(argv):
            def f():
                shutil.copy(base_realm, realm_file)
                return realm(argv)
            return f

        def sqlite_timed(sql, params=None):
            def f():
                shutil.copy(base_sqlite, sqlite_file)
                con = sqlite_connect(sqlite_file)
                start = time.perf_counter()
                con.execute('BEGIN')
                if params is None:
                    con.execute(sql)
                else:
                    con.executemany(sql, params)
                con.execute('COMMIT')
                elapsed = time.perf_counter() - start
                con.close()
                return elapsed
            return f

        run("9' upsert 100,000 by primary key", realm_timed(['upsert', realm_file, 'Person', '--file', upserts]),
            sqlite_timed('INSERT INTO Person(id, name, age, score, active, created) VALUES(?, \'\', 7, 0, 0, 0) '
                         'ON CONFLICT(id) DO UPDATE SET age = 7', [(k,) for k in keys]))
        run('10 update age < 10', realm_timed(['update', realm_file, 'Person', '--where', 'age < 10', '--set', 'score=1.5']),
            sqlite_timed('UPDATE Person SET score = 1.5 WHERE age < 10'))
        updated = count(realm_file, 'score == 1.5')
        run('11a delete age < 50', realm_timed(['delete', realm_file, 'Person', '--where', 'age < 50']),
            sqlite_timed('DELETE FROM Person WHERE age < 50'))
        sizes['delete'] = (os.path.getsize(realm_file), os.path.getsize(sqlite_file))
        remaining = count(realm_file, 'TRUEPREDICATE')

        print(f'{args.rows} Person rows, median of {args.runs} runs')
        print(f'{"workload":36} {"realmsh":>10} {"sqlite":>10} {"sqlite/realmsh":>15}')
        for name, (r, s) in results.items():
            print(f'{name:36} {r:9.3f}s {s:9.3f}s {s / r:14.2f}x')
        for name, (r, s) in sizes.items():
            print(f'file size after {name:20} realm {r / 1e6:8.1f} MB   sqlite {s / 1e6:8.1f} MB')
        print(f'objects with score 1.5 after update: {updated}; objects after delete: {remaining}')


if __name__ == '__main__':
    sys.exit(main())
