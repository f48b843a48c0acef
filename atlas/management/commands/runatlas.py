"""Start the django-q2 worker and the web server together (what ``make run`` calls)."""

import signal
import subprocess
import sys

from django.core.management import call_command
from django.core.management.base import BaseCommand

DEMO_LOGINS = "alice / atlas-demo-alice and bob / atlas-demo-bob"


class Command(BaseCommand):
    help = "Run the worker and the web server on 127.0.0.1:8000."

    def add_arguments(self, parser):
        parser.add_argument("--addrport", default="127.0.0.1:8000")

    def handle(self, *args, **options):
        # Supervised: a database outage stops django-q2's cluster, and runworker starts it again.
        worker = subprocess.Popen([sys.executable, "manage.py", "runworker"])
        # A SIGTERM (a service manager, `timeout`) must still stop the worker in `finally`.
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
        self.stdout.write(
            self.style.SUCCESS(f"Atlas is at http://{options['addrport']}/  (demo logins: {DEMO_LOGINS})")
        )
        try:
            call_command("runserver", options["addrport"], use_reloader=False)
        finally:
            worker.terminate()
            try:
                worker.wait(10)
            except subprocess.TimeoutExpired:
                worker.kill()
