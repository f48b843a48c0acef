"""Print the kill rate and the surviving mutants of the last ``mutmut run`` (``make mutation``).

Reads ``mutmut results --all true``; a mutant counts as killed when a test failed on it or it
timed out, as survived when every test passed. Exit status 1 when the kill rate is under the
issue 17 target (0.90).
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

TARGET = 0.90
KILLED = {"killed", "timeout"}


def main() -> int:
    mutmut = Path(sys.executable).with_name("mutmut")
    out = subprocess.run([str(mutmut), "results", "--all", "true"], capture_output=True, text=True, check=True).stdout
    status_by_mutant = dict(line.strip().rsplit(": ", 1) for line in out.splitlines() if ": " in line)
    counts = Counter(status_by_mutant.values())
    checked = sum(n for status, n in counts.items() if status in KILLED | {"survived"})
    if not checked:
        print("No checked mutants: run `make mutation` first.")
        return 1
    killed = sum(counts[status] for status in KILLED)
    rate = killed / checked
    by_module = Counter(name.split("x_")[0].rsplit(".", 1)[0] for name, s in status_by_mutant.items() if s in KILLED)
    print(f"mutants: {sum(counts.values())} ({', '.join(f'{s} {n}' for s, n in sorted(counts.items()))})")
    print(f"kill rate: {rate:.3f} ({killed} of {checked} checked; target {TARGET:.2f})")
    print("killed per module: " + ", ".join(f"{module} {n}" for module, n in sorted(by_module.items())))
    survivors = sorted(name for name, status in status_by_mutant.items() if status == "survived")
    print(f"survivors ({len(survivors)}; `mutmut show NAME` prints the diff):")
    for name in survivors:
        print(f"  {name}")
    return 0 if rate >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
