"""``manage.py bench_session --turns 6 [--repeat 5] [--json]``: prompt size and server time across a session.

A scripted session of follow-up questions on the seeded demo data, asked through the real
turn (state, tools, recall, prompt, offline responder). For each turn it prints the prompt
tokens Atlas sends with its bounded session state, the tokens the replay-everything design
would send (every earlier question with its retrieved context and every earlier answer,
design rule: bounded state), the server time of the turn and the SQL statements it ran. Everything runs in
one transaction that is rolled back, so the bench leaves no user, session, turn or memory
behind and queues no gate (so each turn's own transaction is a savepoint here: two of its
statements are SAVEPOINT / RELEASE, where a server runs BEGIN / COMMIT).
"""

from __future__ import annotations

import json
import os
import statistics
import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction
from django.db.models import Count
from django.test.utils import override_settings

from chat.models import Customer
from chat.prompt import replay_tokens
from chat.state import clear_state
from chat.turn import ask, start_session

if TYPE_CHECKING:
    from atlas.types import User
    from chat.models import ChatSession

# Targets from issue 12 (design rule: bounded state).
FLAT_WITHIN = 0.10  # turn 6 / turn 1 at most 1.10
REPLAY_FACTOR = 5.0
MEDIAN_MS = 30.0
P95_MS = 80.0


def script(customer: str) -> list[str]:
    return [
        f"Show me {customer}'s orders last quarter",
        "What are their payment terms?",
        "Which of their orders are overdue?",
        "When does their contract renew? Keep it short, I'm on my phone.",
        "Show their orders this year as a table",
        "What do the account notes say about them?",
        "And their open orders?",
        "What is their credit limit?",
    ]


class _Counter:
    """An execute wrapper that counts the SQL statements run through it."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
        self.count += 1
        return execute(sql, params, many, context)


class Command(BaseCommand):
    help = "Prompt tokens per turn (bounded state vs replayed history) and server time per turn."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--turns", type=int, default=6)
        parser.add_argument("--repeat", type=int, default=5, help="sessions to time (tokens come from the first)")
        parser.add_argument("--json", action="store_true", help="print the figures as JSON")
        parser.add_argument(
            "--with-notes", default="alice", help="demo user whose notes the bench user gets ('' for none)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        self.cpu: list[float] = []
        self.statements: list[int] = []
        turns = options["turns"]
        if not 1 <= turns <= len(script("x")):
            raise CommandError(f"--turns must be between 1 and {len(script('x'))}.")
        # Each timed session is about another customer, so no question repeats an earlier text
        # (the embedder keeps recent vectors; a repeated text would time a cache hit).
        customers = list(
            Customer.objects.filter(contracts__isnull=False)
            .annotate(n=Count("orders"))
            .order_by("-n", "name")[: max(1, options["repeat"])]
        )
        customer = customers[0] if customers else None
        if customer is None:
            raise CommandError("No demo data: run `manage.py seed_demo` first.")
        self._warm_up(customer.name)
        rows: list[dict] = []
        # Memory on every eligible turn: a held-out turn (design rule: hold-out) would drop its
        # notes from the prompt and make the bounded state look smaller than it is. DEBUG off,
        # as a server runs: with it on, Django keeps every statement's text, which server-side
        # binding (a47cc66) has psycopg compose in Python, about 0.05 ms a statement and 1 ms
        # a turn that no server pays.
        with override_settings(ATLAS_HOLDOUT=False, DEBUG=False), transaction.atomic():
            user = get_user_model().objects.create_user(username=f"bench-{uuid.uuid4().hex[:8]}")
            if options["with_notes"]:
                from chat.demo_data import DEMO_NOTES, seed_notes

                seed_notes(user, DEMO_NOTES.get(options["with_notes"], []))
            # One cold turn in a throwaway session first: imports, regex compilation and the
            # first plans happen once per server process, not per turn. Reported separately.
            started = time.perf_counter()
            ask(user, session=start_session(user, title="warm-up"), question=f"Who is {customer.name}?")
            cold_ms = (time.perf_counter() - started) * 1000
            timings: list[float] = []
            for other in customers:
                session = start_session(user, title="bench_session")
                session_rows = self._session(user, session, script(other.name)[:turns], timings)
                rows = rows or session_rows
                clear_state(user.pk, session.pk)
            transaction.set_rollback(True)
        summary = self._summary(rows, timings)
        summary["cold_first_turn_ms_excluded"] = round(cold_ms, 1)
        if options["json"]:
            self.stdout.write(json.dumps({"customer": customer.name, "turns": rows, "summary": summary}, indent=2))
            return
        self.stdout.write(f"Scripted session on {customer.name} ({turns} turns, offline responder)\n")
        self.stdout.write(f"{'turn':>4}  {'bounded':>8}  {'replay':>8}  {'ms':>7}  {'sql':>4}  question")
        for row in rows:
            self.stdout.write(
                f"{row['turn']:>4}  {row['prompt_tokens']:>8,}  {row['replay_tokens']:>8,}  "
                f"{row['server_ms']:>7.1f}  {row['sql_statements']:>4}  {row['question']}"
            )
        self.stdout.write("")
        for key, value in summary.items():
            self.stdout.write(f"{key}: {value}")

    def _session(self, user: User, session: ChatSession, questions: list[str], timings: list[float]) -> list[dict]:
        rows = []
        history: list[tuple[str, str]] = []
        for number, question in enumerate(questions, start=1):
            statements = _Counter()
            with connection.execute_wrapper(statements):
                started, cpu = time.perf_counter(), time.process_time()
                turn = ask(user, session=session, question=question)
                elapsed = (time.perf_counter() - started) * 1000
                cpu_ms = (time.process_time() - cpu) * 1000
            timings.append(elapsed)
            self.cpu.append(cpu_ms)
            self.statements.append(statements.count)
            prompt = getattr(turn, "prompt", None)
            replay = replay_tokens(history, prompt) if prompt is not None else 0
            if prompt is not None:
                history.append((prompt.user_message, turn.answer))
            rows.append(
                {
                    "turn": number,
                    "question": question,
                    "kind": turn.kind,
                    "prompt_tokens": turn.prompt_tokens,
                    "replay_tokens": replay,
                    "server_ms": round(elapsed, 1),
                    "cpu_ms": round(cpu_ms, 1),
                    "sql_statements": statements.count,
                    "recalled": len(turn.recalled),
                    "held_out": turn.held_out,
                }
            )
        return rows

    def _warm_up(self, name: str) -> None:
        """Load the embedding model and the customer index once; not part of any turn's time."""
        from chat.prompt import count_tokens
        from chat.tools import find_customer_mentions
        from memory.embeddings import embed_one

        embed_one("warm up")
        count_tokens("warm up")
        find_customer_mentions(name)

    def _summary(self, rows: list[dict], timings: list[float]) -> dict:
        first, last = rows[0], rows[-1]
        ratio = last["prompt_tokens"] / first["prompt_tokens"] if first["prompt_tokens"] else 0
        factor = last["replay_tokens"] / last["prompt_tokens"] if last["prompt_tokens"] else 0
        median = statistics.median(timings)
        p95 = statistics.quantiles(timings, n=20)[-1] if len(timings) >= 2 else timings[0]
        summary = {
            "last_over_first_tokens": round(ratio, 3),
            "replay_over_bounded_at_last_turn": round(factor, 2),
            "timed_turns": len(timings),
            "median_server_ms": round(median, 1),
            "p95_server_ms": round(p95, 1),
            # This process's CPU time per turn (Postgres's own work not included): the figure a
            # busy shared machine disturbs least.
            "median_cpu_ms": round(statistics.median(self.cpu), 1) if self.cpu else 0,
            # Statements per turn, the turn's SAVEPOINT / RELEASE included (see the module text).
            "median_sql_statements": statistics.median(self.statements) if self.statements else 0,
            "load_average_1min": round(os.getloadavg()[0], 2),
        }
        if len(rows) >= 6:
            summary["targets_met"] = {
                "last_over_first_at_most_1_10": ratio <= 1 + FLAT_WITHIN,
                "replay_at_least_5x": factor >= REPLAY_FACTOR,
                "median_at_most_30ms": median <= MEDIAN_MS,
                "p95_at_most_80ms": p95 <= P95_MS,
            }
        return summary
