"""``make serve``: gunicorn + the django-q2 cluster, DEBUG off, static files from whitenoise.

This command runs the processes that serve; it may itself run with DEBUG on. It supplies what
they need: DEBUG off and a secret key (SECRET_KEY from the environment, or one generated once
into ATLAS_DATA_DIR/secret_key, 0600), so importing the settings never writes anything."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from atlas import serving
from chat.management.commands.seed_demo import DEMO_LOGINS


def collect_static(env: dict[str, str]) -> None:
    """collectstatic with the served settings (hashed names), under a file lock: two nodes on one
    machine share STATIC_ROOT."""
    root = Path(settings.STATIC_ROOT)
    root.mkdir(parents=True, exist_ok=True)
    with open(root.parent / ".collectstatic.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        manage = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py")]
        subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], env=env, check=True)


class Command(BaseCommand):
    help = "Serve Atlas for real on ATLAS_ADDR: gunicorn (gthread) and the worker; stops both on TERM/INT."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--addr", default=settings.ATLAS_ADDR, help="host:port (default ATLAS_ADDR)")
        parser.add_argument("--workers", type=int, default=settings.ATLAS_WEB_WORKERS)
        parser.add_argument("--threads", type=int, default=settings.ATLAS_WEB_THREADS)
        parser.add_argument("--timeout", type=int, default=60, help="seconds before a stuck request is killed")
        parser.add_argument("--no-worker", action="store_true", help="web only (another node runs the cluster)")

    def handle(self, *args: Any, **options: Any) -> None:
        key = settings.SECRET_KEY if not settings.DEBUG else ""
        key = key or serving.load_or_create_secret_key(Path(settings.ATLAS_DATA_DIR) / "secret_key")
        env = dict(os.environ, DEBUG="false", SECRET_KEY=key, ATLAS_WARM_UP="true", ATLAS_ADDR=options["addr"])
        collect_static(env)
        commands = {
            "web": serving.gunicorn_command(
                options["addr"], workers=options["workers"], threads=options["threads"], timeout=options["timeout"]
            )
        }
        if not options["no_worker"]:
            commands["worker"] = serving.worker_command()
        self.stdout.write(
            self.style.SUCCESS(f"Atlas is serving at http://{options['addr']}/  (demo logins: {DEMO_LOGINS})")
        )
        self.stdout.flush()
        code = serving.serve(commands, env=env, say=self.stdout.write)
        serving.release_embedded_server()  # it stops last, as this process exits
        if code:
            raise CommandError("A process stopped unexpectedly; Atlas is down.", returncode=code)
