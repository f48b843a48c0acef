"""The production stop check, repeated: start `make serve`, wait until it is healthy, send TERM
to its process group, and count the cycles that left anything behind 15 s later.

    .venv/bin/python scripts/stop_check.py --cycles 20

Each cycle records every process under `make serve` (make, serveatlas, gunicorn's master and
workers, runworker, the qcluster and its processes) and the embedded PostgreSQL's postmaster
before the TERM; a cycle fails if any of them is still running (zombies count as gone) after
``--within`` seconds. Runs on its own data folder (``.atlas/stop-check``, created and migrated
by the first cycle's `make serve`) and port, so a running `make run` is not touched. Prints one
line per cycle, then the count and a JSON line; exits 1 when any cycle left something behind.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psutil

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def postmaster(pgdata: Path) -> psutil.Process | None:
    try:
        return psutil.Process(int((pgdata / "postmaster.pid").read_text().split()[0]))
    except (OSError, ValueError, IndexError, psutil.Error):
        return None


def running(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def describe(process: psutil.Process) -> str:
    try:
        return f"{process.pid} {' '.join(process.cmdline())[:100]}"
    except psutil.Error:
        return str(process.pid)


def cycle(env: dict[str, str], url: str, pgdata: Path, *, within: float, log: Path) -> tuple[list[str], float]:
    """One start/stop; returns what was left running and the seconds until everything stopped."""
    with open(log, "a") as out:
        make = subprocess.Popen(
            ["make", "serve"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    deadline = time.monotonic() + 240
    while True:
        try:
            if httpx.get(f"{url}/healthz", timeout=5).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if make.poll() is not None or time.monotonic() > deadline:
            if make.poll() is None:
                os.killpg(make.pid, signal.SIGKILL)
            raise SystemExit(f"make serve did not become healthy; see {log}")
        time.sleep(0.5)
    watched = [psutil.Process(make.pid), *psutil.Process(make.pid).children(recursive=True)]
    server = postmaster(pgdata)
    if server is not None:
        watched = [p for p in watched if p.pid != server.pid] + [server]
    started = time.monotonic()
    os.killpg(make.pid, signal.SIGTERM)  # what a service manager or Ctrl-C does: the whole group
    while time.monotonic() - started < within and any(running(p) for p in watched):
        make.poll()
        time.sleep(0.1)
    elapsed = time.monotonic() - started
    make.poll()
    left = [describe(p) for p in watched if running(p)]
    for process in watched:  # clean up for the next cycle, so one failure does not cascade
        if running(process):
            process.kill()
    return left, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=20)
    parser.add_argument("--within", type=float, default=15.0, help="seconds everything has to stop in")
    parser.add_argument("--data", default=str(ROOT / ".atlas" / "stop-check"), help="data folder of the runs")
    args = parser.parse_args()

    data = Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    data.chmod(0o755)  # the embedded server may run as its own user
    pgdata = data / "pgdata"
    addr = f"127.0.0.1:{free_port()}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "PYTEST", "DJANGO_ALLOW"))}
    env |= {"ATLAS_ADDR": addr, "ATLAS_DATA_DIR": str(data), "ATLAS_PGDATA": str(pgdata)}
    log = data / "stop-check.log"
    failures = 0
    times: list[float] = []
    for number in range(1, args.cycles + 1):
        left, elapsed = cycle(env, f"http://{addr}", pgdata, within=args.within, log=log)
        times.append(elapsed)
        failures += bool(left)
        status = "clean" if not left else "LEFT BEHIND: " + "; ".join(left)
        print(f"cycle {number:>2}: everything stopped in {elapsed:4.1f} s, {status}", flush=True)
    print(
        f"cycles that left a process of the group or a postgres server behind after {args.within:.0f} s: "
        f"{failures} of {args.cycles}"
    )
    print(json.dumps({"cycles": args.cycles, "left_behind": failures, "slowest_stop_s": round(max(times), 1)}))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
