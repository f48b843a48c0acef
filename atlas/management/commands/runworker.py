"""``runworker``: the django-q2 worker, started again whenever it exits.

django-q2's cluster stops when its database goes away (its sentinel exits), and a killed
worker stays dead. Gate events wait in the database (memory.tasks), so nothing is lost while
no worker runs, but something must start one again: this command does, with a backoff
(1 s doubling to 30 s) so a database that stays down is not hammered.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import sys
import time
from types import FrameType
from typing import Any

from django.core.management.base import BaseCommand

logger = logging.getLogger(__name__)

MAX_DELAY_SECONDS = 30.0
# A worker that ran this long was healthy: the next restart starts the backoff again.
HEALTHY_SECONDS = 60.0
# How long a stopping worker may take to finish its task before it is killed (a gate task takes
# milliseconds; a worker still starting up may not have installed its handler yet). Below the
# 15 s in which a stopped Atlas must have let go of everything.
STOP_SECONDS = 10.0


class Command(BaseCommand):
    help = "Run the django-q2 worker (qcluster) and start it again whenever it exits."
    # The supervisor must start while the database is down; qcluster runs the checks itself.
    requires_system_checks: list[str] = []

    def handle(self, *args: Any, **options: Any) -> None:
        child: subprocess.Popen | None = None
        stopping: list[int] = []

        def stop(signum: int, frame: FrameType | None) -> None:
            # Only pass the signal on: the main loop waits for the worker and returns, so this
            # process exits normally and releases the embedded server. (Waiting here, inside
            # the main loop's own wait() on the same child, blocked for 30 s and then raised.)
            stopping.append(signum)
            if child is not None and child.poll() is None:
                child.terminate()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        delay = 1.0
        while not stopping:
            started = time.monotonic()
            # Its own process group, so a worker that will not stop is killed with everything it
            # started (the cluster's sentinel and worker processes), not orphaned holding the server.
            child = subprocess.Popen([sys.executable, "manage.py", "qcluster"], start_new_session=True)
            code = child.wait()
            if stopping:
                break
            if time.monotonic() - started > HEALTHY_SECONDS:
                delay = 1.0
            logger.warning("worker exited with code %s; starting it again in %.0f s", code, delay)
            waited = 0.0
            while waited < delay and not stopping:
                time.sleep(0.1)
                waited += 0.1
            delay = min(delay * 2, MAX_DELAY_SECONDS)
        if child is not None:
            try:
                child.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                logger.warning("worker did not stop within %.0f s; killing it", STOP_SECONDS)
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(child.pid, signal.SIGKILL)
                child.wait()
