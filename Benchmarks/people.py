"""The `Person` rows of ../shared/bench/workloads.md §2 (deterministic generator)."""

FIRST_PREFIX = 'Ar Be Ca Da El Fe Gi Ha Is Jo Ka Le Mi No Ol Pe Ro Sa Te Vi'.split()
FIRST_SUFFIX = 'bert dan lia mon na ric sie tor vin xia'.split()
LAST_PREFIX = 'Ash Black Brad Carl Dal Ed Fair Gar Hart King Lang Mar North Park Ray Stan Thorn Wal West York'.split()
LAST_SUFFIX = 'by field ford ley more son ton well wood worth'.split()
FIRST = [FIRST_PREFIX[k // 10] + FIRST_SUFFIX[k % 10] for k in range(200)]
LAST = [LAST_PREFIX[k // 10] + LAST_SUFFIX[k % 10] for k in range(200)]
MASK = (1 << 64) - 1


class LCG:
    """§2.1: Knuth's MMIX constants; next() is the top 31 bits."""

    def __init__(self, seed):
        self.state = seed

    def next(self):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) & MASK
        return self.state >> 33


def rows(n):
    """(id, name, age, score, active, created, email) for i = 0 … n−1 (§2.3)."""
    g = LCG(42)
    out = []
    for i in range(n):
        r1, r2, r3, r4, r5, r6 = (g.next() for _ in range(6))
        first, last = FIRST[r1 % 200], LAST[r2 % 200]
        email = None if i % 10 == 0 else f'{first.lower()}.{last.lower()}{i}@example.com'
        out.append((i, f'{first} {last}', r3 % 100, (r4 % 100000) / 1000.0, r5 % 2 == 1,
                    1500000000 + (r6 % 200000000), email))
    return out


def upsert_keys(n=100000):
    """§2.4: primary keys for the lookup / upsert workloads (seed 7)."""
    g = LCG(7)
    return [g.next() % 1000000 for _ in range(n)]


assert rows(2)[1] == (1, 'Roxia Marby', 66, 56.125, False, 1635802390, 'roxia.marby1@example.com')
assert upsert_keys(3) == [165278, 263231, 856753]
