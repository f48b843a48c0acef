"""``make serve``: gunicorn + the django-q2 cluster, DEBUG off, static files from whitenoise."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from atlas import serving
from chat.management.commands.seed_demo import DEMO_LOGINS


def collect_static() -> None:
    """collectstatic under a file lock: two nodes on one machine share STATIC_ROOT."""
    root = Path(settings.STATIC_ROOT)
    root.mkdir(parents=True, exist_ok=True)
    with open(root.parent / ".collectstatic.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        call_command("collectstatic", interactive=False, verbosity=0)


class Command(BaseCommand):
    help = "Serve Atlas for real on ATLAS_ADDR: gunicorn (gthread) and the worker; stops both on TERM/INT."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--addr", default=settings.ATLAS_ADDR, help="host:port (default ATLAS_ADDR)")
        parser.add_argument("--workers", type=int, default=int(os.environ.get("ATLAS_WEB_WORKERS", "2")))
        parser.add_argument("--threads", type=int, default=int(os.environ.get("ATLAS_WEB_THREADS", "4")))
        parser.add_argument("--timeout", type=int, default=60, help="seconds before a stuck request is killed")
        parser.add_argument("--no-worker", action="store_true", help="web only (another node runs the cluster)")

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.DEBUG:
            raise CommandError("serveatlas runs with DEBUG off: use `make serve`, or set DEBUG=false.")
        collect_static()
        env = dict(os.environ, DEBUG="false", ATLAS_WARM_UP="1", ATLAS_ADDR=options["addr"])
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
