"""Capacity: the most simulated users a server holds with turn p95 <= 600 ms, no error, reconciled.

    .venv/bin/python scripts/capacity.py --start 25 --step 25 --max 200 --seconds 90 --servers 1

Runs scripts/load_test.py at 25, 50, 75, ... users (90 s each, fresh users and servers per
run) and stops after the first run that misses: turn p95 above ``--p95-ms``, any error, or a
reconciliation that fails. Prints one line per run (with the load average at its end) and the
capacity: the last step that held, with its turns per second. Exits 1 when none held.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load_test  # noqa: E402  (a sibling script)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=25)
    parser.add_argument("--step", type=int, default=25)
    parser.add_argument("--max", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=90)
    parser.add_argument("--servers", type=int, default=1, choices=[1, 2])
    parser.add_argument("--p95-ms", type=float, default=600.0)
    parser.add_argument("--base-port", type=int, default=18700)
    args = parser.parse_args()

    held: dict | None = None
    runs = []
    header = ("users", "turns/s", "p50 ms", "p95 ms", "p99 ms", "errors")
    print(" ".join(f"{h:>8}" for h in header) + "  reconciled  load average")
    for users in range(args.start, args.max + 1, args.step):
        run_args = argparse.Namespace(users=users, seconds=args.seconds, servers=args.servers, base_port=args.base_port)
        report = load_test.run(run_args)
        errors = sum(report["errors"].values())
        ok = report["turn_p95_ms"] <= args.p95_ms and errors == 0 and report["reconciled"] and report["clean"]
        row = {
            "users": users,
            "turns_per_second": report["turns_per_second"],
            "turn_p50_ms": report["turn_p50_ms"],
            "turn_p95_ms": report["turn_p95_ms"],
            "turn_p99_ms": report["turn_p99_ms"],
            "errors": errors,
            "reconciled": report["reconciled"],
            "load_average": report["load_average"],
            "held": ok,
        }
        runs.append(row)
        print(
            f"{users:>8} {row['turns_per_second']:>8} {row['turn_p50_ms']:>8} {row['turn_p95_ms']:>8} "
            f"{row['turn_p99_ms']:>8} {errors:>8}  {str(row['reconciled']):<10}  {row['load_average']}",
            flush=True,
        )
        if not ok:
            why = {k: v for k, v in report.items() if isinstance(v, int) and v and not isinstance(v, bool)}
            keys = (
                "answered_but_missing",
                "saved_under_another_user",
                "saved_without_2xx",
                "gate_runs_not_exactly_once",
                "gate_runs_failed",
                "duplicate_gate_decisions",
            )
            print("  stopped here:", {k: why[k] for k in keys if k in why} or "turn p95", report["errors"] or "")
            break
        held = row
    if held is None:
        print(f"capacity: none of the steps held turn p95 <= {args.p95_ms:.0f} ms with no error")
    else:
        print(
            f"capacity: {held['users']} users at {held['turns_per_second']} turns/s "
            f"(turn p95 {held['turn_p95_ms']} ms <= {args.p95_ms:.0f} ms, no error, reconciled)"
        )
    print(json.dumps({"capacity_users": held["users"] if held else 0, "runs": runs}))
    sys.exit(0 if held else 1)


if __name__ == "__main__":
    main()
