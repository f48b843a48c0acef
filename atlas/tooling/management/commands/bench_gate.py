"""Benchmark the write gate: pipeline load time, resident memory it adds, time per turn.

``manage.py bench_gate [FILE ...] [--rounds N] [--json]``: loads the language pipeline and
the rule matchers once (timed, with the process's resident memory before and after), then
analyses every turn of the labelled cases ``--rounds`` times and prints the median and p95
milliseconds per turn of the gate's language half (the normaliser, parse, rule matching,
clauses, statements, secrets), and of the whole gate (``run_gate`` against the database, the
embedding included) in a transaction that is rolled back. Targets (issue 11): <= 15 ms per
turn after load, <= 2 s load, <= 150 MB added.
"""

from __future__ import annotations

import json
import os
import statistics
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

DEFAULT_FILES = ("../shared/benchmarks/gate/dev.jsonl", "../shared/benchmarks/gate/dev2.jsonl")


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _turns(paths: list[str]) -> list[dict]:
    turns = []
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                turns.extend(json.loads(line).get("turns", []))
    return turns


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class _Rollback(Exception):
    pass


class Command(BaseCommand):
    help = "Time the write gate per turn and measure its pipeline's load time and resident memory."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="*", default=list(DEFAULT_FILES))
        parser.add_argument("--rounds", type=int, default=5)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        from memory.embeddings import embed_one

        embed_one("warm up the embedder")  # the embedder is not the pipeline: load it first
        before = _rss_mb()
        started = time.perf_counter()
        load = self._load()
        load_s = time.perf_counter() - started
        added = _rss_mb() - before
        turns = _turns(options["files"])
        analysis_ms = self._time_analysis(turns, options["rounds"])
        gate_ms = self._time_gate(turns)
        figures = {
            # The machine is shared: the load average says how busy it was while measuring.
            "load_average_1m": round(os.getloadavg()[0], 2),
            "turns": len(turns),
            "rounds": options["rounds"],
            "pipeline_load_s": round(load_s, 3),
            "pipeline_components": load,
            "pipeline_rss_added_mb": round(added, 1),
            "analysis_median_ms": round(statistics.median(analysis_ms), 2),
            "analysis_p95_ms": round(_percentile(analysis_ms, 0.95), 2),
            "gate_median_ms": round(statistics.median(gate_ms), 2),
            "gate_p95_ms": round(_percentile(gate_ms, 0.95), 2),
        }
        self.stdout.write(f"load average (1 min)     {figures['load_average_1m']:.2f} on {os.cpu_count()} cores")
        self.stdout.write(f"pipeline load            {figures['pipeline_load_s']:.2f} s  (target <= 2 s)")
        self.stdout.write(f"pipeline resident memory +{figures['pipeline_rss_added_mb']:.0f} MB  (target <= 150 MB)")
        self.stdout.write(
            f"gate language half       median {figures['analysis_median_ms']:.1f} ms/turn, "
            f"p95 {figures['analysis_p95_ms']:.1f} ms  (target <= 15 ms; {len(turns)} turns x {options['rounds']})"
        )
        self.stdout.write(
            f"whole gate (run_gate)    median {figures['gate_median_ms']:.1f} ms/turn, "
            f"p95 {figures['gate_p95_ms']:.1f} ms  (database and embedding included)"
        )
        if options["json"]:
            self.stdout.write(json.dumps(figures))

    def _load(self) -> list[str]:
        from atlas.language import nlp
        from atlas.normalise import warm_up
        from memory.gate import rules
        from memory.gate.secrets import _plugins

        warm_up()  # the speller and the domain lexicon are built once per process, like the parser
        language = nlp()
        rules.match(language("Warm up the matchers."))
        _plugins()
        return list(language.pipe_names)

    def _time_analysis(self, turns: list[dict], rounds: int) -> list[float]:
        from atlas.language import parse
        from atlas.normalise import normalise
        from memory.gate.analysis import analyse_turn

        at = datetime(2026, 8, 3, 9, tzinfo=UTC)
        timings = []
        for _ in range(rounds):
            for turn in turns:
                feedback = turn.get("feedback") or {}
                parse.cache_clear()  # time a fresh parse, not the turn's shared one
                normalise.cache_clear()  # and a fresh normalisation: the normaliser is part of the turn
                started = time.perf_counter()
                analyse_turn(
                    turn.get("text", ""),
                    at=at,
                    feedback_kind=feedback.get("kind", ""),
                    feedback_comment=feedback.get("comment", ""),
                )
                timings.append((time.perf_counter() - started) * 1000)
        return timings

    def _time_gate(self, turns: list[dict]) -> list[float]:
        from atlas.tooling.management.commands.eval_gate import turn_event
        from memory.gate import run_gate

        timings = []
        try:
            with transaction.atomic():
                user = get_user_model().objects.create_user(username=f"bench-gate-{uuid.uuid4().hex[:12]}")
                for number, turn in enumerate(turns, start=1):
                    event = turn_event(user, number, turn)
                    started = time.perf_counter()
                    run_gate(event)
                    timings.append((time.perf_counter() - started) * 1000)
                raise _Rollback
        except _Rollback:
            pass
        return timings
