"""bench_seed_demo: how long ``seed_demo`` takes to load the corpus, as a median over runs.

Each run is ``seed_demo --reset-corpus`` (delete the corpus and load it again: customers,
orders, contracts, documents with their embeddings, plus the demo users and any missing notes)
inside a transaction that is rolled back, so the database is left as it was. The figure used
to be a time limit in a test (tests/chat/test_seed_demo.py); speed belongs here.
"""

from __future__ import annotations

import json
import statistics
import time
from io import StringIO
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from chat.tools import clear_customer_index

TARGET_SECONDS = 60.0  # the limit the test used to assert


class _RollBack(Exception):
    pass


def time_one_seed() -> float:
    """Seconds for one ``seed_demo --reset-corpus``, rolled back afterwards."""
    started = time.perf_counter()
    try:
        with transaction.atomic():
            call_command("seed_demo", "--reset-corpus", stdout=StringIO())
            elapsed = time.perf_counter() - started
            raise _RollBack
    except _RollBack:
        pass
    finally:
        clear_customer_index()
    return elapsed


class Command(BaseCommand):
    help = "Time seed_demo --reset-corpus (rolled back) and print the median over --runs."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--runs", type=int, default=3, help="how many timed loads (default 3)")
        parser.add_argument("--json", action="store_true", help="also print one JSON line")

    def handle(self, *args: Any, **options: Any) -> None:
        runs = options["runs"]
        if not 1 <= runs <= 20:
            raise CommandError("--runs must be between 1 and 20.")
        seconds = [time_one_seed() for _ in range(runs)]
        median = statistics.median(seconds)
        self.stdout.write("run  seconds")
        for number, value in enumerate(seconds, start=1):
            self.stdout.write(f"{number:>3}  {value:7.2f}")
        met = "met" if median < TARGET_SECONDS else "NOT met"
        self.stdout.write(f"median {median:.2f} s over {runs} runs (target < {TARGET_SECONDS:.0f} s: {met})")
        if options["json"]:
            summary = {"runs": [round(s, 3) for s in seconds], "median_s": round(median, 3), "target_s": TARGET_SECONDS}
            self.stdout.write(json.dumps(summary))
