"""Where the CPU goes under load: CPU milliseconds per answered turn, by stage.

    .venv/bin/python scripts/profile_load.py --users 50 --seconds 60 --servers 1

Runs scripts/load_test.py (same users, same actions, same reconciliation) with the servers'
stage timers on, and reads per-process CPU from /proc at the start and the end of the
measured window (the window ends when the gate queue has drained, so every answered turn's
gate run is inside it):

- web: the gunicorn workers (with those that exited, through the master's child times),
  split with the in-app timers (Server-Timing) into the turn, SQL outside the turn, the rest
  of Django (middleware, sessions, auth, templates) and what is left to gunicorn itself
  (HTTP parsing, threads, socket I/O);
- worker: the django-q2 task process, split into the gate task's own CPU (recorded in each
  task's result) and django-q2 around it (unpickling, saving results), and the cluster's
  other processes (pusher polling the queue, monitor, sentinel, supervisors);
- database: PostgreSQL client backends by application name (web, worker, the load test's
  own set-up queries), background processes, and backends that exited;
- the load generator (this process: 50-200 Python threads with httpx);
- the rest of the machine (other people's work), for context.

Prints a table and one JSON line, with the load average at the start and the end.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import load_test  # noqa: E402  (a sibling script)

TICKS = os.sysconf("SC_CLK_TCK")
OF_WHICH = "  of which "  # a part of the row above, not added again


def proc_times(pid: int) -> tuple[float, float] | None:
    """(own user+system, waited-for children's user+system) CPU seconds of ``pid``."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    utime, stime, cutime, cstime = (int(fields[i]) for i in (11, 12, 13, 14))
    return (utime + stime) / TICKS, (cutime + cstime) / TICKS


def machine_busy() -> float:
    """CPU seconds the whole machine spent busy since boot (all cores)."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    return (sum(values[:8]) - idle) / TICKS


def classify(process: psutil.Process, postmaster: int | None) -> str:
    try:
        title = " ".join(process.cmdline()).strip()  # setproctitle pads with empty arguments
        parent = process.ppid()
    except psutil.Error:
        return "gone"
    if postmaster is not None and (process.pid == postmaster or parent == postmaster):
        return "postgres"
    if "gunicorn" in title:
        return "web: gunicorn master" if "master" in title or "-m gunicorn" in title else "web: gunicorn worker"
    if title.startswith("qcluster"):
        if title.endswith(" pusher"):
            return "worker: qcluster pusher (polls the queue)"
        if title.endswith(" monitor"):
            return "worker: qcluster monitor (saves results)"
        if " idle" in title or " processing" in title:
            return "worker: qcluster task process"
        return "worker: qcluster sentinel and main"
    if "qcluster" in title or "runworker" in title:
        return "worker: qcluster sentinel and main"
    return "web: serveatlas supervisor"


class Profiler:
    """Samples the servers' process trees and PostgreSQL once a second."""

    def __init__(self, pgdata: Path) -> None:
        self.pgdata = pgdata
        self.backend_names: dict[int, str] = {}
        self.backend_cpu: dict[int, float] = {}  # last seen CPU of each client backend
        self.backend_start: dict[int, float] = {}
        self.stop = threading.Event()
        self.start_loadavg = self.end_loadavg = ""

    def postmaster(self) -> int | None:
        try:
            return int((self.pgdata / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def tree(self, procs: list) -> dict[int, str]:
        found: dict[int, str] = {}
        postmaster = self.postmaster()
        roots = [p.pid for p in procs] + ([postmaster] if postmaster else [])
        for pid in roots:
            try:
                root = psutil.Process(pid)
                members = [root, *root.children(recursive=True)]
            except psutil.Error:
                continue
            for member in members:
                found[member.pid] = classify(member, postmaster)
        return found

    def snapshot(self, procs: list) -> dict[str, float]:
        """CPU seconds so far per category (children that exited count with their parent)."""
        totals: Counter = Counter()
        for pid, category in self.tree(procs).items():
            times = proc_times(pid)
            if times is None:
                continue
            own, children = times
            if category == "postgres":
                name = self.backend_names.get(pid)
                if pid == self.postmaster():
                    totals["database: backends that exited, and the postmaster"] += own + children
                elif name:
                    totals[f"database: {name}"] += own + children
                else:
                    totals["database: background (checkpointer, walwriter, autovacuum)"] += own + children
            elif category == "web: gunicorn master":
                totals["web: gunicorn master"] += own
                totals["web: gunicorn workers"] += children  # workers that were recycled
            elif category == "web: gunicorn worker":
                totals["web: gunicorn workers"] += own + children
            elif category == "worker: qcluster sentinel and main":
                totals[category] += own
                totals["worker: qcluster task process"] += children  # task processes that were recycled
            else:
                totals[category] += own + children
        me = proc_times(os.getpid())
        totals["load generator (this process)"] += me[0] if me else 0.0
        totals["_machine"] = machine_busy()
        return dict(totals)

    def sample_backends(self) -> None:
        import psycopg

        postmaster = self.postmaster()
        if postmaster is None:
            return
        try:
            with psycopg.connect(host=str(self.pgdata), user="postgres", dbname="postgres", autocommit=True) as conn:
                rows = conn.execute(
                    "SELECT pid, coalesce(nullif(application_name, ''), 'unnamed') FROM pg_stat_activity"
                    " WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
                ).fetchall()
        except psycopg.Error:
            return
        for pid, name in rows:
            self.backend_names[pid] = name

    def run_sampler(self) -> None:
        while not self.stop.wait(1.0):
            self.sample_backends()

    def window_started(self, procs: list) -> None:
        self.procs = procs
        self.sample_backends()
        self.start_loadavg = " ".join(f"{x:.2f}" for x in os.getloadavg())
        self.before = self.snapshot(procs)
        self.started = time.monotonic()
        self.sampler = threading.Thread(target=self.run_sampler, daemon=True)
        self.sampler.start()

    def window_ended(self, procs: list) -> None:
        self.sample_backends()
        self.after = self.snapshot(procs)
        self.seconds = time.monotonic() - self.started
        self.end_loadavg = " ".join(f"{x:.2f}" for x in os.getloadavg())
        self.stop.set()


def gate_task_cpu(turn_ids: list[int]) -> tuple[float, int]:
    """The gate tasks' own CPU seconds for these turns (recorded in each task's result)."""
    from django_q.models import Task

    from memory.tasks import GATE_TASK

    wanted, total, count = set(turn_ids), 0.0, 0
    for task in Task.objects.filter(func=GATE_TASK).only("result").iterator():
        result = task.result if isinstance(task.result, dict) else {}
        if result.get("turn") in wanted:
            total += float(result.get("cpu_ms") or 0.0) / 1000
            count += 1
    return total, count


def main() -> None:
    parser = load_test.arguments(__doc__.splitlines()[0])
    parser.set_defaults(seconds=60)
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings

    pgdata = Path(settings.ATLAS_EMBEDDED_PG["pgdata"]) if settings.ATLAS_EMBEDDED_PG else None
    if pgdata is None:
        raise SystemExit("The profile reads the embedded PostgreSQL's processes: unset DATABASE_URL.")
    profiler = Profiler(pgdata.resolve())
    report = load_test.run(args, profiler, stage_timers=True)
    turns = report["turns_2xx"]
    if not turns:
        raise SystemExit("No turn was answered.")
    used = {k: profiler.after.get(k, 0.0) - profiler.before.get(k, 0.0) for k in profiler.after}
    machine = used.pop("_machine")
    stages = report["_stages"]
    gate_cpu, gate_runs = gate_task_cpu(report["_turn_ids"])

    rows: list[tuple[str, float]] = []
    web = used.pop("web: gunicorn workers", 0.0)
    app = sum(v for k, v in stages.items() if k.endswith(":app"))
    turn = sum(v for k, v in stages.items() if k.endswith(":turn"))
    turn_sql = sum(v for k, v in stages.items() if k.endswith(":turn_sql"))
    sql = sum(v for k, v in stages.items() if k.endswith(":sql"))
    rows += [
        ("web: the turn (chat.turn.ask)", turn),
        (f"{OF_WHICH}the SQL driver inside the turn", turn_sql),
        ("web: SQL driver outside the turn (sessions, auth, pages)", sql),
        ("web: rest of Django (middleware, views, templates, forms)", app - turn - sql),
        ("web: gunicorn outside Django (HTTP, threads, sockets)", web - app),
    ]
    task_process = used.pop("worker: qcluster task process", 0.0)
    rows += [
        ("worker: the gate task itself", gate_cpu),
        ("worker: django-q2 around the task (task process)", task_process - gate_cpu),
    ]
    for name in sorted(used):
        rows.append((name, used[name]))
    ours = web + task_process + sum(used.values())
    rows.append(("the rest of the machine (not this run)", machine - ours))

    per_turn = {name: round(seconds * 1000 / turns, 1) for name, seconds in rows}
    server = sum(v for k, v in per_turn.items() if k.startswith(("web", "worker", "database")))
    generator = per_turn.get("load generator (this process)", 0.0)
    print(
        f"\nCPU per answered turn: {turns} turns in {profiler.seconds:.0f} s ({turns / profiler.seconds:.1f}/s), "
        f"{args.users} users, {args.servers} server(s); load average {profiler.start_loadavg} -> {profiler.end_loadavg}"
    )
    print(f"{'stage':<70} {'ms/turn':>8}")
    for name, value in per_turn.items():
        print(f"{name:<70} {value:>8.1f}")
    print(f"{'server total (web + worker + database)':<70} {server:>8.1f}")
    print(f"{'server + load generator':<70} {server + generator:>8.1f}")
    print(f"gate tasks measured: {gate_runs} of {turns} turns")
    print(
        f"turn p50 / p95 / p99: {report['turn_p50_ms']} / {report['turn_p95_ms']} / {report['turn_p99_ms']} ms; "
        f"errors {report['error_rate']}; reconciled {report['reconciled']}"
    )
    summary = {k: v for k, v in report.items() if not k.startswith("_")}
    summary |= {
        "cpu_ms_per_turn": per_turn,
        "server_cpu_ms_per_turn": round(server, 1),
        "with_load_generator_ms_per_turn": round(server + generator, 1),
        "window_seconds": round(profiler.seconds, 1),
        "load_average_start": profiler.start_loadavg,
        "load_average_end": profiler.end_loadavg,
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
