"""Start the django-q2 worker and the development server together (what ``make run`` calls)."""

from __future__ import annotations

import signal
import subprocess
import sys
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from atlas.serving import stop_all, worker_command
from chat.management.commands.seed_demo import DEMO_LOGINS


class Command(BaseCommand):
    help = "Run the worker and the development web server on 127.0.0.1:8000."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--addrport", default="127.0.0.1:8000")

    def handle(self, *args: Any, **options: Any) -> None:
        # Supervised (runworker starts django-q2's cluster again after a database outage), in its
        # own process group, so stopping it also stops every process the cluster forked.
        worker = subprocess.Popen(worker_command(), start_new_session=True)
        # A SIGTERM (a service manager, `timeout`) must still stop the worker in `finally`.
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
        self.stdout.write(
            self.style.SUCCESS(f"Atlas is at http://{options['addrport']}/  (demo logins: {DEMO_LOGINS})")
        )
        try:
            call_command("runserver", options["addrport"], use_reloader=False)
        finally:
            stop_all([worker])
