"""Mutation testing (``make mutation``): a seeded sample of mutants, and the kill rate.

``sample``: generate the mutants (mutmut's own generator, into ``mutants/``) and print a
seeded random sample of mutant names, at most ``--per-module`` from each module, for
``mutmut run NAME ...``. The core modules have about 9,000 mutants, hours on this machine;
a sample of a few hundred gives each module's kill rate with an interval.

``report`` (the default): read ``mutmut results --all true``; a mutant counts as killed when
a test failed on it or it timed out, as survived when every test passed or no test ran it. Prints each
module's kill rate with the number checked, its mutant count and a 95% Wilson interval, the
overall rate weighted by each module's mutant count (stratified, with its 95% interval), and
the survivors. Exit status 1 when the overall rate is under the issue 17 target (0.90).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import os
import random
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

TARGET = 0.90
KILLED = {"killed", "timeout"}
# A mutant no selected test runs is a survivor too: nothing would notice it.
NOT_KILLED = {"survived", "no tests"}
Z95 = 1.96
_MODULE = re.compile(r"^(.*?)\.x[_\u01c1]")


def module_of(name: str) -> str:
    """``memory.gate.forget.x_cosine__mutmut_3`` -> ``memory.gate.forget`` (methods: ``.xǁClassǁ``)."""
    found = _MODULE.match(name)
    return found.group(1) if found else name.rsplit(".", 1)[0]


def wilson(killed: int, n: int) -> tuple[float, float]:
    if not n:
        return 0.0, 1.0
    p = killed / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def stratified(rows: list[tuple[int, int, int]]) -> tuple[float, float, float]:
    """(estimate, low, high) over modules given (mutants, checked, killed) per module;
    a stratified mean with the finite-population correction (modules checked in full add no
    variance). A module with no checked mutant is left out of the weights."""
    rows = [r for r in rows if r[1]]
    total = sum(r[0] for r in rows)
    estimate = sum(m / total * (k / n) for m, n, k in rows)
    variance = 0.0
    for m, n, k in rows:
        p = k / n
        if n > 1:
            variance += (m / total) ** 2 * (p * (1 - p) / (n - 1)) * (1 - n / m)
    half = Z95 * math.sqrt(variance)
    return estimate, max(0.0, estimate - half), min(1.0, estimate + half)


def generate_mutants() -> list[str]:
    """Every mutant name of the configured modules (``[tool.mutmut]``), generated if needed."""
    from mutmut import __main__ as mm

    mm.set_mutant_under_test("mutant_generation")
    os.makedirs("mutants", exist_ok=True)
    with contextlib.redirect_stdout(io.StringIO()):
        mm.copy_src_dir()
        mm.copy_also_copy_files()
        mm.setup_source_paths()
        mm.create_mutants(os.cpu_count() or 1)
    mutants, _ = mm.collect_source_file_mutation_data(mutant_names=())
    return sorted(name.replace("__init__.", "") for _, name, _ in mutants)


def sample(per_module: int, seed: int) -> list[str]:
    by_module: dict[str, list[str]] = defaultdict(list)
    for name in generate_mutants():
        by_module[module_of(name)].append(name)
    rng = random.Random(seed)
    chosen = []
    for module in sorted(by_module):
        names = by_module[module]
        chosen.extend(names if len(names) <= per_module else rng.sample(names, per_module))
    return chosen


def report() -> int:
    mutmut = Path(sys.executable).with_name("mutmut")
    out = subprocess.run([str(mutmut), "results", "--all", "true"], capture_output=True, text=True, check=True).stdout
    status_by_mutant = dict(line.strip().rsplit(": ", 1) for line in out.splitlines() if ": " in line)
    counts = Counter(status_by_mutant.values())
    modules: dict[str, Counter] = defaultdict(Counter)
    for name, status in status_by_mutant.items():
        modules[module_of(name)][status] += 1
    rows = []
    print(f"mutants: {sum(counts.values())} ({', '.join(f'{s} {n}' for s, n in sorted(counts.items()))})")
    print(f"{'module':32} {'mutants':>7} {'checked':>7} {'killed':>6} {'rate':>6}  95% interval")
    for module in sorted(modules):
        c = modules[module]
        checked = sum(n for s, n in c.items() if s in KILLED | NOT_KILLED)
        killed = sum(c[s] for s in KILLED)
        rows.append((sum(c.values()), checked, killed))
        if checked:
            low, high = wilson(killed, checked)
            rate = f"{killed / checked:6.3f}  {low:.2f}-{high:.2f}"
        else:
            rate = "     -"
        print(f"{module:32} {sum(c.values()):7} {checked:7} {killed:6} {rate}")
    checked = sum(r[1] for r in rows)
    if not checked:
        print("No checked mutants: run `make mutation` first.")
        return 1
    killed = sum(r[2] for r in rows)
    estimate, low, high = stratified(rows)
    print(f"checked: {checked}, killed {killed} (unweighted {killed / checked:.3f})")
    print(f"kill rate: {estimate:.3f} (95% interval {low:.3f}-{high:.3f}; modules weighted by their mutants)")
    print(f"target: {TARGET:.2f}")
    survivors = sorted((status, name) for name, status in status_by_mutant.items() if status in NOT_KILLED)
    print(f"survivors ({len(survivors)}; `mutmut show NAME` prints the diff):")
    for status, name in survivors:
        print(f"  {name}" + (" (no test runs it)" if status == "no tests" else ""))
    return 0 if estimate >= TARGET else 1


def reset_database() -> None:
    """Drop the kept test database (``ATLAS_TEST_DB_SUFFIX``): a run stopped mid-test leaves
    committed rows behind (a transactional test flushes only when it finishes), and the next
    run's first test pass would fail on them. The test set-up creates it again."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "atlas.settings")
    import django

    django.setup()
    from django.db import connection
    from psycopg import sql

    from atlas.db import as_owner, start_database

    start_database()
    suffix = os.environ.get("ATLAS_TEST_DB_SUFFIX", "mutation")
    name = (connection.settings_dict["TEST"]["NAME"] or "test_" + connection.settings_dict["NAME"]) + "_" + suffix
    with as_owner(connection), connection.cursor() as cur:
        cur.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)).as_string(None))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    pick = sub.add_parser("sample", help="print a seeded sample of mutant names")
    pick.add_argument("--per-module", type=int, required=True)
    pick.add_argument("--seed", type=int, default=17)
    sub.add_parser("report", help="the kill rate of the last run (the default)")
    sub.add_parser("reset", help="drop the kept test database before a run")
    args = parser.parse_args()
    if args.command == "sample":
        print(" ".join(sample(args.per_module, args.seed)))
        return 0
    if args.command == "reset":
        reset_database()
        return 0
    return report()


if __name__ == "__main__":
    sys.exit(main())
