"""A bounded load test of `make serve` on loopback, then a reconciliation of the database.

    .venv/bin/python scripts/load_test.py --users 50 --seconds 120 --servers 1
    .venv/bin/python scripts/load_test.py --users 50 --seconds 120 --servers 2

Starts N production servers (manage.py serveatlas, each with its worker) on 127.0.0.1
ports against the one database and creates fresh simulated users. They sign in first (at
most two at a time per server), then act together for a fixed time, one thread each with
its own cookie jar, 1-3 s of thinking between actions (like locust's ``between(1, 3)``),
alternating between the servers: questions and follow-ups, a standing preference, a
"remember that", the memory page, forgetting and correcting notes. Then it waits for the
write gate queue to drain, stops the servers (TERM) and reconciles: every turn answered
2xx is saved exactly once, the gate ran exactly once for each, no user's marker reached
another user (in any response or any stored row). Prints throughput, latency
percentiles, error rate and the reconciliation.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "atlas.settings")

PASSWORD = "load-test-password-7"
QUESTIONS = [
    "What are Northline Freight's payment terms?",
    "Show open orders for Northline Freight",
    "Which contracts renew next quarter?",
    "What is the credit limit for Harbor Logistics?",
]
FOLLOW_UPS = ["And what about their renewal date?", "Only the open ones", "Put that in a table"]
PREFERENCES = ["From now on, show amounts in euros", "From now on, keep answers short"]
# Like locust's wait_time = between(1, 3): a person reads the answer before the next action.
THINK_SECONDS = (1.0, 3.0)
RAMP_USERS_PER_SECOND = 1
MARKER = re.compile(r"zq(\d{6})u(\d{3})")


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    turn_ms: list[float] = field(default_factory=list)
    other_ms: list[float] = field(default_factory=list)
    login_ms: list[float] = field(default_factory=list)
    requests: int = 0
    errors: Counter = field(default_factory=Counter)
    turns: dict[int, int] = field(default_factory=dict)  # turn id -> user index
    leaks: list[str] = field(default_factory=list)
    # In-app CPU seconds per stage, summed from the servers' Server-Timing headers (profiling).
    stages: Counter = field(default_factory=Counter)


class SimulatedUser:
    def __init__(self, index: int, run: str, urls: list[str], tally: Tally) -> None:
        self.index, self.urls, self.tally = index, urls, tally
        self.username = f"load{run}u{index:03d}"
        self.marker = f"zq{run}u{index:03d}"
        # One cookie jar: cookies are per host, not per port, so one sign-in serves every node
        # (they share the database sessions and the secret key), as behind a load balancer.
        self.http = httpx.Client(timeout=60, follow_redirects=False)
        self.calls = 0
        self.signed_in = False
        self.session: str | None = None
        self.random = random.Random(index)

    def next_server(self) -> str:
        """The next server, alternating."""
        self.calls += 1
        return self.urls[self.calls % len(self.urls)]

    def call(self, base: str, method: str, path: str, *, kind: str = "other", **kwargs) -> httpx.Response:
        started = time.perf_counter()
        try:
            response = self.http.request(method, base + path, **kwargs)
        except httpx.HTTPError as exc:
            with self.tally.lock:
                self.tally.requests += 1
                self.tally.errors[f"{method} {type(exc).__name__}"] += 1
            raise
        elapsed = (time.perf_counter() - started) * 1000
        timing = response.headers.get("server-timing")
        with self.tally.lock:
            if timing:
                for part in timing.split(","):
                    name, _, duration = part.strip().partition(";dur=")
                    self.tally.stages[f"{kind}:{name}"] += float(duration or 0) / 1000
            self.tally.requests += 1
            getattr(self.tally, f"{kind}_ms").append(elapsed)
            if response.status_code >= 400:
                self.tally.errors[f"{method} {re.sub(r'[0-9a-f-]{8,}|\\d+', 'N', path)} {response.status_code}"] += 1
        for match in MARKER.finditer(response.text):
            if match.group(0) != self.marker:
                with self.tally.lock:
                    self.tally.leaks.append(f"{self.username} saw {match.group(0)}")
        return response

    def post(self, base: str, path: str, data: dict, **kwargs) -> httpx.Response:
        token = self.http.cookies.get("csrftoken") or ""
        return self.call(base, "POST", path, data={**data, "csrfmiddlewaretoken": token}, **kwargs)

    def log_in(self) -> None:
        """The login form, as a browser posts it (GET for the CSRF cookie, then POST)."""
        base = self.next_server()
        self.call(base, "GET", "/login/")
        response = self.post(base, "/login/", {"username": self.username, "password": PASSWORD}, kind="login")
        if response.status_code != 302:
            raise RuntimeError(f"{self.username} could not log in: {response.status_code}")

    def ask(self, question: str, *, new: bool = False) -> None:
        client = self.next_server()
        path = "/ask/" if new or self.session is None else f"/c/{self.session}/ask/"
        response = self.post(client, path, {"question": question}, kind="turn")
        found = re.search(r"/c/([0-9a-f-]{36})/#turn-(\d+)", response.headers.get("location", ""))
        if response.status_code == 302 and found:
            self.session = found.group(1)
            with self.tally.lock:
                self.tally.turns[int(found.group(2))] = self.index

    def memory_page(self) -> list[int]:
        response = self.call(self.next_server(), "GET", "/memory/")
        return [int(pk) for pk in re.findall(r'action="/memory/(\d+)/forget/"', response.text)]

    def step(self) -> None:
        roll = self.random.random()
        if roll < 0.30:
            self.ask(self.random.choice(QUESTIONS), new=True)
        elif roll < 0.55:
            self.ask(self.random.choice(FOLLOW_UPS))
        elif roll < 0.62:
            self.ask(self.random.choice(PREFERENCES))
        elif roll < 0.70:
            self.ask(f"Remember that my team code is {self.marker}")
        elif roll < 0.85:
            self.memory_page()
        else:
            ids = self.memory_page()
            if not ids:
                return
            target = self.random.choice(ids)
            client = self.next_server()
            if self.random.random() < 0.5:
                self.post(client, f"/memory/{target}/forget/", {})
            else:
                self.post(client, f"/memory/{target}/correct/", {"statement": f"Team code is {self.marker}"})

    def sign_in(self, start: float, gate: threading.Semaphore) -> None:
        time.sleep(max(0.0, start - time.monotonic()))  # the ramp-up
        with gate:  # a few at a time: PBKDF2 is CPU-bound, a queue of them only times out
            try:
                self.log_in()
                self.signed_in = True
            except RuntimeError:
                with self.tally.lock:
                    self.tally.errors["login refused"] += 1
            except httpx.HTTPError:
                pass  # counted by call()

    def simulate(self, deadline: float) -> None:
        try:
            while self.signed_in and time.monotonic() < deadline:
                try:
                    self.step()
                except httpx.HTTPError:
                    pass
                time.sleep(self.random.uniform(*THINK_SECONDS))
        finally:
            self.http.close()


def run_threads(target, args_for, users: list[SimulatedUser], timeout: float) -> None:
    threads = [threading.Thread(target=getattr(u, target), args=args_for(i), daemon=True) for i, u in enumerate(users)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)


def start_servers(
    count: int, base_port: int, *, stage_timers: bool = False
) -> tuple[list[subprocess.Popen], list[str]]:
    # serveatlas runs its processes with DEBUG off and the generated secret key.
    env = dict(os.environ, ATLAS_Q_SAVE_LIMIT="0", ATLAS_HOLDOUT="false")
    if stage_timers:
        env["ATLAS_STAGE_TIMERS"] = "true"
    procs, urls = [], []
    for n in range(count):
        addr = f"127.0.0.1:{base_port + n}"
        log = open(ROOT / ".atlas" / f"load-server-{n}.log", "w")
        procs.append(
            subprocess.Popen(
                [sys.executable, "manage.py", "serveatlas", "--addr", addr],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        )
        urls.append(f"http://{addr}")
    deadline = time.monotonic() + 120
    for url in urls:
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=10).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                stop_servers(procs)
                raise SystemExit(f"{url} did not become healthy; see .atlas/load-server-*.log")
            time.sleep(0.5)
    return procs, urls


def stop_servers(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        proc.send_signal(signal.SIGTERM)
    for proc in procs:
        proc.wait(30)


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1] if len(values) > 1 else float("nan")


def arguments(description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--servers", type=int, default=1, choices=[1, 2])
    parser.add_argument("--base-port", type=int, default=18700)
    return parser


def main() -> None:
    args = arguments(__doc__.splitlines()[0]).parse_args()
    report = {k: v for k, v in run(args).items() if not k.startswith("_")}
    for key, value in report.items():
        print(f"{key:>28}: {value}")
    print(json.dumps(report))
    sys.exit(0 if report["clean"] else 1)


def run(args: argparse.Namespace, observer: object = None, *, stage_timers: bool = False) -> dict:
    """One bounded run and its reconciliation. ``observer`` (scripts/profile_load.py) is told
    when the measured window starts and ends: ``window_started(procs)``, ``window_ended(procs)``;
    ``stage_timers`` asks the servers for their in-app CPU per request (Server-Timing)."""
    if args.users > 200 or args.seconds > 600:
        raise SystemExit("Bounded on purpose: at most 200 users and 600 seconds.")

    import django

    django.setup()
    from atlas.db import start_database

    start_database()
    from loadcheck import create_users, drain_queue, reconcile

    run = time.strftime("%H%M%S")
    users = create_users(run, args.users, PASSWORD)
    procs, urls = start_servers(args.servers, args.base_port, stage_timers=stage_timers)
    tally = Tally()
    try:
        # Sign in first (PBKDF2 costs a couple of CPU-seconds per password on purpose), then
        # measure the steady state: every signed-in user acting for the whole window.
        simulated = [SimulatedUser(i, run, urls, tally) for i in range(args.users)]
        ramp = time.monotonic()
        gate = threading.Semaphore(2 * args.servers)
        run_threads("sign_in", lambda i: (ramp + i / RAMP_USERS_PER_SECOND, gate), simulated, 400)
        signed_in = sum(u.signed_in for u in simulated)
        sign_in_seconds = time.monotonic() - ramp
        with tally.lock:
            tally.stages.clear()  # the sign-ins' password hashing is not part of the window
        if observer is not None:
            observer.window_started(procs)  # type: ignore[attr-defined]
        started = time.monotonic()
        deadline = started + args.seconds
        run_threads("simulate", lambda i: (deadline,), simulated, args.seconds + 120)
        elapsed = time.monotonic() - started
        drained = drain_queue(timeout=180)
        if observer is not None:
            observer.window_ended(procs)  # type: ignore[attr-defined]
    finally:
        stop_servers(procs)
    report = reconcile(users, tally.turns, drained=drained)
    report |= {
        "servers": args.servers,
        "users": args.users,
        "seconds": round(elapsed, 1),
        "signed_in": signed_in,
        "sign_in_seconds": round(sign_in_seconds, 1),
        "login_p50_ms": round(percentile(tally.login_ms, 50), 1),
        "login_p95_ms": round(percentile(tally.login_ms, 95), 1),
        "requests": tally.requests,
        "turns_2xx": len(tally.turns),
        "turns_per_second": round(len(tally.turns) / elapsed, 2),
        "requests_per_second": round(tally.requests / elapsed, 2),
        "turn_p50_ms": round(percentile(tally.turn_ms, 50), 1),
        "turn_p95_ms": round(percentile(tally.turn_ms, 95), 1),
        "turn_p99_ms": round(percentile(tally.turn_ms, 99), 1),
        "other_p50_ms": round(percentile(tally.other_ms, 50), 1),
        "other_p95_ms": round(percentile(tally.other_ms, 95), 1),
        "error_rate": round(sum(tally.errors.values()) / max(tally.requests, 1), 5),
        "errors": dict(tally.errors),
        "leaks_seen_by_clients": len(tally.leaks),
        "load_average": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }
    report["clean"] = bool(report["error_rate"] == 0 and report["reconciled"] and not tally.leaks and tally.turns)
    report["_stages"] = dict(tally.stages)
    report["_turn_ids"] = sorted(tally.turns)
    return report


if __name__ == "__main__":
    main()
