"""Production serving (``make serve``): the secret key, and one supervisor for the processes.

``serve`` starts gunicorn (gthread workers) and the django-q2 cluster, each in its own
process group, and waits. SIGTERM or SIGINT, or either child exiting, stops both: TERM to
each group, KILL after a grace period, so no worker outlives the command. The embedded
PostgreSQL stops last, when this process (its last user) exits.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

GRACE_SECONDS = 5.0


def load_or_create_secret_key(path: Path) -> str:
    """Read the key from ``path``; the first call creates it (0600) so every process agrees."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_text().strip()
        if len(key) < 50:
            from django.core.exceptions import ImproperlyConfigured

            raise ImproperlyConfigured(f"{path} holds no usable secret key; delete it to make a new one.") from None
        return key
    key = secrets.token_urlsafe(64)
    with os.fdopen(fd, "w") as handle:
        handle.write(key + "\n")
    return key


def gunicorn_command(addr: str, *, workers: int, threads: int, timeout: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "atlas.wsgi:application",
        "--bind",
        addr,
        "--worker-class",
        "gthread",
        "--workers",
        str(workers),
        "--threads",
        str(threads),
        "--timeout",
        str(timeout),
        # Keep idle connections longer than a client pauses (behind a load balancer: longer
        # than its idle timeout), else the server closes one just as the client reuses it.
        "--keep-alive",
        "20",
        "--graceful-timeout",
        str(int(GRACE_SECONDS) - 1),
        # A restarted worker loads spaCy and the embedding model again (seconds of CPU): at 2,000
        # requests that happened every minute or two under load.
        "--max-requests",
        "50000",
        "--max-requests-jitter",
        "5000",
        "--error-logfile",
        "-",
        "--no-control-socket",  # one per home directory by default: two servers would share it
    ]


def worker_command() -> list[str]:
    """The supervised django-q2 cluster (runworker starts it again after a database outage)."""
    return [sys.executable, "manage.py", "runworker"]


def serve(commands: dict[str, list[str]], *, env: dict[str, str], say: Callable[[str], None]) -> int:
    """Run ``commands`` until a signal or until one exits; then stop them all. Returns an exit code."""
    stopping: list[int] = []

    def on_signal(signum: int, frame: object) -> None:
        stopping.append(signum)

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    children: dict[str, subprocess.Popen] = {}
    try:
        for name, argv in commands.items():
            children[name] = subprocess.Popen(argv, env=env, start_new_session=True)
        while not stopping:
            exited = [name for name, proc in children.items() if proc.poll() is not None]
            if exited:
                say(f"{', '.join(exited)} exited; stopping Atlas.")
                break
            time.sleep(0.2)
    finally:
        stop_all(list(children.values()))
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if stopping:
        say("Stopped.")
        return 0
    return 1


def stop_all(children: list[subprocess.Popen], *, grace: float = GRACE_SECONDS) -> None:
    """TERM each child (it stops its own workers), wait up to ``grace`` seconds, then KILL
    whatever is left in its process group."""
    for proc in children:
        if proc.poll() is None:
            proc.terminate()
    deadline = time.monotonic() + grace
    for proc in children:
        try:
            proc.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
    for proc in children:
        _signal_group(proc, signal.SIGKILL)  # stragglers: a worker that ignored TERM
        proc.wait()


def release_embedded_server() -> None:
    """Let the embedded PostgreSQL stop when this process exits: drop handles of children
    that were killed (they never ran their exit hook), so this process is its last user."""
    from atlas import db

    if db._server is not None:
        db._forget_dead_handles(db._server.pgdata)


def _signal_group(proc: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def warm_up() -> None:
    """Load the embedding model and the language pipeline before a worker takes requests."""
    from atlas.language import nlp
    from memory.embeddings import embed_one

    embed_one("warm up")
    nlp()
