"""``manage.py bench_recall --users N --memories M --queries Q [--json]``: recall at scale.

Builds a separate database (never the app's own), migrates the memory app into it, and loads
synthetic memories fast: users get a skewed number of memories (most 10-300, log-uniform; a
few heavy users with 10,000-20,000), statements are Zipf-distributed words with an account
code now and then, embeddings are clustered random unit vectors (a handful of topics per
user), loaded with binary COPY with the secondary indexes dropped and rebuilt, then
VACUUM ANALYZE. Some rows are expired or superseded so the live filter has work to do.

Queries run the production recall statement (``memory.recall.rank_memories``) as the
application role inside ``acting_user``, so RLS is in force exactly as in the app. Each query
is a perturbed copy of one of the user's memories (vector and a few of its words), so scores
land in the range real questions produce. Prints p50/p95/p99 latency over all queries and
for the heavy users, agreement with a brute force (``recall.rank_by_brute_force``: every row of
the user read from the heap and the recall rules applied in Python), and the EXPLAIN plans.
Nothing is warmed on purpose: a heavy user's first query after the server has started reads
that user's index pages from the operating system's cache, and it counts like any other. The database is
dropped at the end unless ``--keep``; ``--reuse`` runs queries against a kept one.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import numpy as np
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import OperationalError, connection
from django.utils import timezone
from psycopg import sql

from atlas.db import as_owner
from memory import recall
from memory.rls import acting_user, staff_bypass

DIM = 384
TOPICS_PER_USER = 8
HEAVY_MIN, HEAVY_MAX = 10_000, 20_000
LIGHT_MIN, LIGHT_MAX = 10, 300
CHUNK = 20_000

_SYLLABLES = [a + b for a in "bcdfghklmnprstvz" for b in "aeiou"]


def _vocabulary(rng: np.random.Generator, size: int) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(_SYLLABLES, size=rng.integers(2, 4))))
    return sorted(words)


def _sizes(rng: np.random.Generator, *, users: int, memories: int, heavy: int) -> np.ndarray:
    """Memories per user: ``heavy`` users with 10k-20k, the rest log-uniform 10-300, scaled to ``memories``."""
    heavy_sizes = rng.integers(HEAVY_MIN, HEAVY_MAX + 1, size=heavy)
    light = users - heavy
    remaining = memories - int(heavy_sizes.sum())
    if light <= 0 or remaining < light * LIGHT_MIN:
        raise CommandError("not enough memories for that many users and heavy users")
    raw = np.exp(rng.uniform(math.log(LIGHT_MIN), math.log(LIGHT_MAX), size=light))
    light_sizes = np.maximum(LIGHT_MIN, np.round(raw * remaining / raw.sum())).astype(int)
    light_sizes[-1] += remaining - int(light_sizes.sum())
    light_sizes[-1] = max(light_sizes[-1], LIGHT_MIN)
    return np.concatenate([heavy_sizes, light_sizes])


class Command(BaseCommand):
    help = "Benchmark recall latency and exactness on a large synthetic memory table (separate database)."
    requires_system_checks = []  # a measurement; it must not depend on unrelated URL or admin state

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--users", type=int, default=10_000)
        parser.add_argument("--memories", type=int, default=1_000_000)
        parser.add_argument("--queries", type=int, default=1_000, help="queries over users drawn uniformly")
        parser.add_argument("--heavy-queries", type=int, default=200, help="extra queries over the heavy users")
        parser.add_argument("--heavy-users", type=int, default=0, help="default: one per thousand users, at least 1")
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument("--database", default="atlas_bench_recall", help="name of the scratch database")
        parser.add_argument("--keep", action="store_true", help="keep the scratch database for --reuse")
        parser.add_argument("--reuse", action="store_true", help="query an existing scratch database, no load")
        parser.add_argument(
            "--layout",
            choices=["interleaved", "clustered"],
            default="interleaved",
            help="heap order of the rows: users' memories interleaved (as written over time) or user by user",
        )
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **opts: Any) -> None:
        name = opts["database"]
        if name == connection.settings_dict["NAME"]:
            raise CommandError("the benchmark needs its own database")
        rng = np.random.default_rng(opts["seed"])
        original = connection.settings_dict["NAME"]
        heavy = opts["heavy_users"] or max(1, opts["users"] // 1000)
        result: dict = {"users": opts["users"], "memories": opts["memories"], "heavy_users": heavy}
        if not opts["reuse"]:
            result["layout"] = opts["layout"]
        try:
            if not opts["reuse"]:
                self._create(name)
            self._use(name)
            if not opts["reuse"]:
                call_command("migrate", "auth", verbosity=0)
                call_command("migrate", "memory", verbosity=0)
                result.update(
                    self._load(
                        rng,
                        users=opts["users"],
                        memories=opts["memories"],
                        heavy=heavy,
                        interleaved=opts["layout"] == "interleaved",
                    )
                )
            result.update(self._measure(rng, queries=opts["queries"], heavy_queries=opts["heavy_queries"]))
        finally:
            self._use(original)
            if not opts["keep"]:
                self._drop(name)
        self._print(result)
        if opts["json"]:
            self.stdout.write(json.dumps({k: v for k, v in result.items() if k != "plans"}))

    # -- database lifecycle ---------------------------------------------------------------

    def _create(self, name: str) -> None:
        self._drop(name)
        with as_owner(connection), connection.cursor() as cur:
            cur.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)).as_string(connection.connection))

    def _drop(self, name: str) -> None:
        # No WITH (FORCE): an autovacuum worker on the scratch database belongs to the
        # superuser, which the owner may not terminate; it finishes quickly, so retry.
        statement = sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name))
        for attempt in range(30):
            try:
                with as_owner(connection), connection.cursor() as cur:
                    cur.execute(statement.as_string(connection.connection))
                return
            except OperationalError:
                if attempt == 29:
                    raise
                time.sleep(1)

    def _use(self, name: str) -> None:
        connection.close()
        connection.settings_dict["NAME"] = name

    # -- load -----------------------------------------------------------------------------

    def _load(self, rng: np.random.Generator, *, users: int, memories: int, heavy: int, interleaved: bool) -> dict:
        from pgvector.psycopg import register_vector

        started = time.perf_counter()
        sizes = _sizes(rng, users=users, memories=memories, heavy=heavy)
        vocab = np.array(_vocabulary(rng, 3000))
        zipf = 1.0 / np.arange(1, len(vocab) + 1)
        zipf /= zipf.sum()
        now = timezone.now()
        with as_owner(connection):
            connection.ensure_connection()
            raw = connection.connection
            register_vector(raw)
            user_ids, indexes = self._users_without_indexes(users)
            layout = _Layout.of(rng, user_ids, sizes, interleaved=interleaved)
            self._copy_rows(raw, layout, _Words(vocab, zipf), rng, now=now)
            loaded = time.perf_counter()
            count, size = self._finish_load(indexes)
        finished = time.perf_counter()
        return {
            "rows": count,
            "table_size": size,
            "seconds_copy": round(loaded - started, 1),
            "seconds_index_vacuum": round(finished - loaded, 1),
            "heavy_sizes": sorted(int(s) for s in sizes[:heavy]),
            "median_light_size": int(np.median(sizes[heavy:])),
        }

    def _users_without_indexes(self, users: int) -> tuple[np.ndarray, list[tuple[str, str]]]:
        """Insert the users; drop the memory table's secondary indexes for the load (their definitions)."""
        with connection.cursor() as cur:
            cur.execute(
                """INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email,
                                          is_staff, is_active, date_joined)
                   SELECT '!', false, 'bench-' || g, '', '', '', false, true, now()
                   FROM generate_series(1, %s) g ORDER BY g RETURNING id""",
                [users],
            )
            user_ids = np.array([row[0] for row in cur.fetchall()], dtype=np.int64)
            cur.execute(
                "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'memory_memory' "
                "AND indexname NOT LIKE '%%_pkey'"
            )
            indexes = cur.fetchall()
            for index_name, _ in indexes:
                cur.execute(f'DROP INDEX "{index_name}"')
        return user_ids, indexes

    def _copy_rows(self, raw: Any, layout: _Layout, words: _Words, rng: np.random.Generator, *, now: datetime) -> None:
        columns = [c.strip() for c in COPY_SQL[COPY_SQL.index("(") + 1 : COPY_SQL.index(")")].split(",")]
        with connection.cursor() as cur:
            cur.execute(
                """SELECT attname, format_type(atttypid, NULL) FROM pg_attribute
                   WHERE attrelid = 'memory_memory'::regclass AND attnum > 0""",
            )
            column_types = dict(cur.fetchall())
        with connection.cursor() as cur:
            # COPY refuses tables under forced RLS; lift FORCE for the load (the owner, in the
            # scratch database only) and put it back before any query runs.
            cur.execute("ALTER TABLE memory_memory NO FORCE ROW LEVEL SECURITY")
        with raw.cursor() as cur, cur.copy(COPY_SQL) as copy:
            copy.set_types([column_types[c] for c in columns])
            for start in range(0, len(layout.owners), CHUNK):
                stop = min(start + CHUNK, len(layout.owners))
                for row in _chunk_rows(rng, layout, words, start, stop, now=now):
                    copy.write_row(row)

    def _finish_load(self, indexes: list[tuple[str, str]]) -> tuple[int, str]:
        """Supersede a few rows, rebuild the indexes, force RLS again, vacuum; the row count and size."""
        with connection.cursor() as cur:
            # A few percent superseded by the next row of the same user (the replacement stays live).
            cur.execute(
                """UPDATE memory_memory m SET superseded_by_id = n.next_id
                   FROM (SELECT id, lead(id) OVER (PARTITION BY user_id ORDER BY id) AS next_id
                         FROM memory_memory) n
                   WHERE n.id = m.id AND n.next_id IS NOT NULL AND mod(m.id, 31) = 0
                     AND m.kind <> 'preference'"""
            )
            for _, definition in indexes:
                cur.execute(definition)
            cur.execute("SELECT count(*) FROM memory_memory")  # before FORCE: the owner sees every row
            (count,) = cur.fetchone()
            cur.execute("ALTER TABLE memory_memory FORCE ROW LEVEL SECURITY")
            cur.execute("VACUUM ANALYZE memory_memory")
            cur.execute("VACUUM ANALYZE auth_user")
            cur.execute("SELECT pg_size_pretty(pg_total_relation_size('memory_memory'))")
            (size,) = cur.fetchone()
        return count, size

    # -- measure --------------------------------------------------------------------------

    def _sample(self, rng: np.random.Generator, user_ids: list[int]) -> list[Sample]:
        """One question per user id: a perturbed copy of one of that user's live memories."""
        now = timezone.now()
        out: list[Sample] = []
        for user_id in user_ids:
            with acting_user(user_id), connection.cursor() as cur:
                cur.execute(
                    """SELECT statement, embedding::text FROM memory_memory
                       WHERE user_id = %s AND superseded_by_id IS NULL AND kind <> 'preference'
                         AND (expires_at IS NULL OR expires_at > %s)
                       ORDER BY md5(id::text || %s) LIMIT 1""",
                    [user_id, now, str(rng.integers(1 << 30))],
                )
                row = cur.fetchone()
            if row is None:
                continue
            statement, vector_text = row
            vector = np.array(json.loads(vector_text), dtype=np.float32)
            vector += rng.standard_normal(DIM).astype(np.float32) * 0.7 / math.sqrt(DIM)
            vector /= np.linalg.norm(vector)
            words = statement.rstrip(".").split()
            picked = list(rng.choice(words, size=min(3, len(words)), replace=False))
            out.append((user_id, "What about " + " ".join(picked) + "?", vector.tolist()))
        return out

    def _measure(self, rng: np.random.Generator, *, queries: int, heavy_queries: int) -> dict:
        with as_owner(connection), staff_bypass(actor_id=None, reason="bench_recall: rows per user"):
            with connection.cursor() as cur:
                cur.execute("SELECT user_id, count(*) FROM memory_memory GROUP BY user_id ORDER BY user_id")
                counts = dict(cur.fetchall())
        users = sorted(counts)
        heavy = [u for u in users if counts[u] >= HEAVY_MIN]
        overall = self._sample(rng, [int(u) for u in rng.choice(users, size=queries)])
        heavy_set = self._sample(rng, [int(u) for u in rng.choice(heavy, size=heavy_queries)]) if heavy else []
        now = timezone.now()

        _run(overall[:5], now=now)  # the connection and the statement's first planning, on light users
        overall_ms, overall_ids = _run(overall, now=now)
        heavy_ms, heavy_ids = _run(heavy_set, now=now)
        overall_truth = _brute_force(overall, now=now)
        heavy_truth = _brute_force(heavy_set, now=now)
        # Agreement with no threshold too: the full top 6 must match, not only what clears it.
        _, open_ids = _run(overall + heavy_set, now=now, threshold=-1.0)
        open_truth = _brute_force(overall + heavy_set, now=now, threshold=-1.0)
        pairs = list(zip(overall_ids + heavy_ids, overall_truth + heavy_truth, strict=True))
        open_pairs = list(zip(open_ids, open_truth, strict=True))
        match_rates = _match_rates(heavy_set, now=now)
        samples = {"heavy": heavy_set[0] if heavy_set else None, "light": overall[0]}
        return {
            "queries": len(overall),
            "heavy_queries": len(heavy_set),
            "p50_ms": _pct(overall_ms, 50),
            "p95_ms": _pct(overall_ms, 95),
            "p99_ms": _pct(overall_ms, 99),
            "heavy_p50_ms": _pct(heavy_ms, 50),
            "heavy_p95_ms": _pct(heavy_ms, 95),
            "heavy_p99_ms": _pct(heavy_ms, 99),
            "agreement": _share_equal(pairs),
            "agreement_top6_no_threshold": _share_equal(open_pairs),
            "heavy_keyword_match_p50": _pct(match_rates, 50),
            "heavy_keyword_match_max": round(max(match_rates), 2) if match_rates else None,
            "mean_returned": round(float(np.mean([len(ids) for ids in overall_ids])), 2) if overall_ids else 0,
            "plans": _plans(samples, counts, now=now),
        }

    def _print(self, result: dict) -> None:
        for label, plan in result.get("plans", {}).items():
            self.stdout.write(f"EXPLAIN, {label}:\n{plan}\n")
        self.stdout.write(f"{'metric':<34}{'value':>14}")
        for key, value in result.items():
            if key != "plans":
                self.stdout.write(f"{key:<34}{value!s:>14}")


COPY_SQL = (
    "COPY memory_memory (user_id, kind, statement, scope, subject, value, confidence, author, gate, "
    "gate_version, expires_at, created_at, refreshed_at, source_session, source_turn, source_quote, "
    "source_at, embedding) FROM STDIN WITH (FORMAT BINARY)"
)
KINDS = np.array(["context", "correction", "situation"])

Sample = tuple[int, str, list[float]]  # a user id, a question, the question's vector


@dataclass(frozen=True)
class _Words:
    vocab: np.ndarray
    zipf: np.ndarray  # each word's probability


@dataclass(frozen=True)
class _Layout:
    """Where the rows go: each row's owner, its position within its user, and the users' topic centres."""

    owners: np.ndarray
    position: np.ndarray
    user_index: np.ndarray
    centers: np.ndarray

    @classmethod
    def of(cls, rng: np.random.Generator, user_ids: np.ndarray, sizes: np.ndarray, *, interleaved: bool) -> _Layout:
        owners = np.repeat(user_ids, sizes)
        # Position of each row within its user: the first few rows of a user are preferences.
        starts = np.repeat(np.cumsum(sizes) - sizes, sizes)
        position = np.arange(len(owners)) - starts
        centers = rng.standard_normal((len(user_ids), TOPICS_PER_USER, DIM)).astype(np.float32)
        centers /= np.linalg.norm(centers, axis=2, keepdims=True)
        user_index = np.repeat(np.arange(len(user_ids)), sizes)
        if interleaved:
            # Memories arrive over time from every user at once, so one user's rows are
            # scattered over the heap (loading user by user would cluster them, which
            # flatters any plan that reads the heap).
            order = rng.permutation(len(owners))
            owners, position, user_index = owners[order], position[order], user_index[order]
        return cls(owners, position, user_index, centers)


def _chunk_rows(
    rng: np.random.Generator, layout: _Layout, words: _Words, start: int, stop: int, *, now: datetime
) -> Iterator[tuple]:
    """The COPY rows ``start:stop``: text from Zipf-drawn words, a vector near one of the owner's topics."""
    from pgvector import HalfVector

    n = stop - start
    topic = rng.integers(0, TOPICS_PER_USER, size=n)
    vectors = layout.centers[layout.user_index[start:stop], topic] + rng.standard_normal((n, DIM)).astype(
        np.float32
    ) / math.sqrt(DIM)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    lengths = rng.integers(6, 15, size=n)
    drawn = rng.choice(words.vocab, size=(n, 14), p=words.zipf)
    codes = rng.integers(10_000, 99_999, size=n)
    with_code = rng.random(n) < 0.2
    kind_pick = KINDS[rng.integers(0, 3, size=n)]
    expired = rng.random(n) < 0.03
    ages = rng.integers(1, 400 * 86400, size=n)
    for i in range(n):
        text = " ".join(drawn[i, : lengths[i]])
        if with_code[i]:
            text += f" ACCT-{codes[i]}"
        kind = "preference" if layout.position[start + i] < 3 else str(kind_pick[i])
        created = now - timedelta(seconds=int(ages[i]))
        expires = None
        if kind == "situation":
            expires = now - timedelta(days=1) if expired[i] else now + timedelta(days=30)
        yield (int(layout.owners[start + i]), kind, text.capitalize() + ".", "global", "", "", 1.0, "rule",
               "bench", "1", expires, created, None, "", None, "", created, HalfVector(vectors[i]))  # fmt: skip


def _rule_args(threshold: float) -> dict[str, Any]:
    """The recall rules both the statement and the brute-force reference are run with."""
    return {
        "threshold": threshold,
        "cap": recall.CAP,
        "vector_weight": recall.VECTOR_WEIGHT,
        "keyword_weight": recall.KEYWORD_WEIGHT,
    }


def _run(items: list[Sample], *, now: datetime, threshold: float = recall.THRESHOLD) -> tuple[list[float], list[list]]:
    """Each question through the recall statement: its time in ms and the ids it returned."""
    times, results = [], []
    for user_id, question, vector in items:
        with acting_user(user_id):
            started = time.perf_counter()
            rows = recall.rank_memories(
                user_id, question=question, question_embedding=vector, now=now, **_rule_args(threshold)
            )
            times.append((time.perf_counter() - started) * 1000)
        results.append([row[0] for row in rows])
    return times, results


def _brute_force(items: list[Sample], *, now: datetime, threshold: float = recall.THRESHOLD) -> list[list[int]]:
    """The ids each question must return, from the brute-force reference."""
    out = []
    for user_id, question, vector in items:
        with acting_user(user_id):
            truth = recall.rank_by_brute_force(
                user_id,
                question=question,
                question_embedding=vector,
                now=now,
                preference_bypass_below=recall.PREFERENCE_BYPASS_BELOW,
                **_rule_args(threshold),
            )
        out.append([row_id for row_id, _ in truth])
    return out


def _match_rates(items: list[Sample], *, now: datetime) -> list[float]:
    """How much of a heavy user's live rows the question's words match (each matching row is
    keyword-ranked; Zipf-distributed words make common ones match many)."""
    rates = []
    for user_id, question, _ in items:
        with acting_user(user_id), connection.cursor() as cur:
            cur.execute(
                f"""WITH q AS (SELECT {recall.QUESTION_TSQUERY} AS oq)
                   SELECT avg((m.search @@ q.oq)::int) FROM memory_memory m CROSS JOIN q
                   WHERE m.user_id = %(user_id)s AND m.superseded_by_id IS NULL
                     AND (m.expires_at IS NULL OR m.expires_at > %(now)s)""",  # noqa: S608 (a module constant)
                {"question": question, "user_id": user_id, "now": now},
            )
            rates.append(float(cur.fetchone()[0] or 0))
    return rates


def _plans(samples: dict[str, Sample | None], counts: dict[int, int], *, now: datetime) -> dict[str, str]:
    """EXPLAIN ANALYZE of the recall statement for one heavy and one light user's question."""
    plans = {}
    for label, sample in samples.items():
        if sample is None:
            continue
        uid, question, vector = sample
        with acting_user(uid), connection.cursor() as cur:
            params: dict[str, Any] = {
                "user_id": uid, "now": now, "question": question, "qvec": recall._vector_literal(vector),
                "use_vector": True, "threshold": recall.THRESHOLD,
                "cap": recall.CAP, "w_vec": recall.VECTOR_WEIGHT, "w_kw": recall.KEYWORD_WEIGHT,
            }  # fmt: skip
            cur.execute("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + recall.recall_sql(), params)
            plans[f"{label} user ({counts[uid]} memories)"] = "\n".join(row[0] for row in cur.fetchall())
    return plans


def _pct(values: list[float], p: float) -> float | None:
    return round(float(np.percentile(values, p)), 2) if values else None


def _share_equal(pairs: list[tuple[list, list]]) -> float | None:
    return round(sum(a == b for a, b in pairs) / len(pairs), 4) if pairs else None
