#!/usr/bin/env python3
"""Migration benchmark (run on demand, not in CI): `realmsh migrate` adding one computed
property, against `realmsh compact` of the same file in the same run.

  python3 Benchmarks/migrate_bench.py [--rows N] [--runs N] [--fixture large] [--keep DIR]

Input (one of):
  --rows N (default 1,000,000): the `Person` rows of ../shared/bench/workloads.md (its
      deterministic generator, seed 42), written to a new file with `realmsh create` and
      `realmsh import`. The file is kept in --keep DIR (default: a temporary directory) and
      reused when it is already there.
  --fixture large: ../shared/fixtures/realm-core/large.realm (150,000 Item + 1,000 Bucket).

Each run writes to a new output file (-o), so the input is the same every time:
  migrate: version N+1 { class Person { add label: string = name + " (" + string(age) + ")" } }
           (for large: class Item { add label: string = name + " #" + string(id) })
  compact: realmsh compact -o OUT FILE
Figures: median wall time of --runs runs, objects of the whole file per second, and the output
sizes. Both commands are checked once with `realmsh verify`.

Needs: swift (builds release), python3.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(os.path.dirname(ROOT), 'shared', 'fixtures', 'realm-core')
REALMSH = os.path.join(ROOT, '.build', 'release', 'realmsh')

FIRST_PREFIX = 'Ar Be Ca Da El Fe Gi Ha Is Jo Ka Le Mi No Ol Pe Ro Sa Te Vi'.split()
FIRST_SUFFIX = 'bert dan lia mon na ric sie tor vin xia'.split()
LAST_PREFIX = 'Ash Black Brad Carl Dal Ed Fair Gar Hart King Lang Mar North Park Ray Stan Thorn Wal West York'.split()
LAST_SUFFIX = 'by field ford ley more son ton well wood worth'.split()
FIRST = [FIRST_PREFIX[k // 10] + FIRST_SUFFIX[k % 10] for k in range(200)]
LAST = [LAST_PREFIX[k // 10] + LAST_SUFFIX[k % 10] for k in range(200)]

SCHEMA = [{'name': 'Person', 'primaryKey': 'id', 'embedded': False, 'properties': [
    {'name': n, 'type': t, 'optional': o, 'indexed': n == 'id', 'primaryKey': n == 'id', 'collection': None, 'objectType': None}
    for n, t, o in [('id', 'int', False), ('name', 'string', False), ('age', 'int', False), ('score', 'double', False),
                    ('active', 'bool', False), ('created', 'date', False), ('email', 'string', True)]]}]


def iso(seconds):
    return time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(seconds))


def person_rows(n):
    """workloads.md §2: a 64-bit LCG (MMIX constants), six draws per row."""
    state = 42
    mask = (1 << 64) - 1
    for i in range(n):
        r = []
        for _ in range(6):
            state = (state * 6364136223846793005 + 1442695040888963407) & mask
            r.append(state >> 33)
        first, last = FIRST[r[0] % 200], LAST[r[1] % 200]
        yield {'id': i, 'name': first + ' ' + last, 'age': r[2] % 100, 'score': (r[3] % 100000) / 1000.0,
               'active': r[4] % 2 == 1, 'created': {'$date': iso(1500000000 + r[5] % 200000000)},
               'email': None if i % 10 == 0 else f'{first.lower()}.{last.lower()}{i}@example.com'}


def check_generator():
    rows = list(person_rows(11))
    expected = {0: ('Nona Bradton', 38, 69.503, False), 1: ('Roxia Marby', 66, 56.125, False), 10: ('Viric Edson', 61, 5.578, True)}
    for i, (name, age, score, active) in expected.items():
        r = rows[i]
        assert (r['name'], r['age'], r['score'], r['active']) == (name, age, score, active), (i, r)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def make_person_file(path, n):
    check_generator()
    work = os.path.dirname(path)
    schema = os.path.join(work, 'schema.json')
    data = os.path.join(work, 'people.json')
    with open(schema, 'w') as f:
        json.dump(SCHEMA, f)
    with open(data, 'w') as f:
        f.write('[\n')
        for i, row in enumerate(person_rows(n)):
            f.write((',\n' if i else '') + json.dumps(row, separators=(',', ':')))
        f.write('\n]\n')
    tmp = path + '.partial'
    if os.path.exists(tmp):
        os.remove(tmp)
    run([REALMSH, 'create', '--schema', schema, '--schema-version', '0', tmp])
    start = time.perf_counter()
    run([REALMSH, 'import', tmp, 'Person', data], stderr=subprocess.DEVNULL)
    print(f'  generated {n:,} Person rows with realmsh import in {time.perf_counter() - start:.1f} s')
    os.remove(data)
    os.rename(tmp, path)


def timed(cmd, runs, out):
    times = []
    for _ in range(runs):
        if os.path.exists(out):
            os.remove(out)
        start = time.perf_counter()
        run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def info(path):
    return json.loads(run([REALMSH, 'info', '--format', 'json', path], stdout=subprocess.PIPE).stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--rows', type=int, default=1_000_000)
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--fixture', choices=['large'])
    ap.add_argument('--keep', help='directory for the generated input (reused when present)')
    args = ap.parse_args()

    run(['swift', 'build', '-c', 'release', '--product', 'realmsh'], cwd=ROOT, stdout=subprocess.DEVNULL)
    work = args.keep or tempfile.mkdtemp(prefix='realmsh-migrate-bench-')
    os.makedirs(work, exist_ok=True)
    if args.fixture == 'large':
        source = os.path.join(FIXTURES, 'large.realm')
        class_name, expression = 'Item', 'name + " #" + string(id)'
    else:
        source = os.path.join(work, f'person-{args.rows}.realm')
        if not os.path.exists(source):
            make_person_file(source, args.rows)
        class_name, expression = 'Person', 'name + " (" + string(age) + ")"'
    facts = info(source)
    objects = sum(c['objects'] for c in facts['classes'])
    version = (facts.get('schemaVersion') or 0) + 1
    script = os.path.join(work, 'add-label.migration')
    with open(script, 'w') as f:
        f.write(f'version {version} {{\n  class {class_name} {{ add label: string = {expression} }}\n}}\n')

    migrated, compacted = os.path.join(work, 'migrated.realm'), os.path.join(work, 'compacted.realm')
    t_migrate = timed([REALMSH, 'migrate', '-o', migrated, source, script], args.runs, migrated)
    t_compact = timed([REALMSH, 'compact', '-o', compacted, source], args.runs, compacted)
    for path in (migrated, compacted):
        run([REALMSH, 'verify', '--quiet', path])
    size = os.path.getsize(source)
    print(f'input: {os.path.basename(source)}, {size:,} bytes, {objects:,} objects ({class_name} gets the new property)')
    print(f'  migrate (add one computed property): {t_migrate:7.2f} s  {objects / t_migrate:12,.0f} objects/s'
          f'  → {os.path.getsize(migrated):,} bytes')
    print(f'  compact (same file, same run):       {t_compact:7.2f} s  {objects / t_compact:12,.0f} objects/s'
          f'  → {os.path.getsize(compacted):,} bytes')
    print(f'  migration / compaction time: {t_migrate / t_compact:.1f}×   (median of {args.runs} runs each)')
    if not args.keep:
        for name in os.listdir(work):
            os.remove(os.path.join(work, name))
        os.rmdir(work)


if __name__ == '__main__':
    sys.exit(main())
