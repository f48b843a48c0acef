"""``manage.py eval_recall FILE --k 6 [--json]``: recall measured through the real paths.

The case format is ../shared/benchmarks/recall/README.md: one user per line, with that user's
memories and the questions that should (or must not) bring them back. Each case becomes a
fresh user whose memories are written through ``memory.store.write_memory`` (the embedding is
computed there, once per memory, as in production); every query is asked through
``recall_for_question`` at the case's ``at``, with the production cap and threshold. The
users and everything they own are deleted at the end, whatever happens.

Prints recall@k (micro, as the README defines it, and macro, as LoCoMo's SOURCE.md reports
it), hit@k, must_not and cross-user violations, and noise; ``--json`` adds one JSON object
as the last line. ``--run-out`` writes a LoCoMo run file for ``score_locomo.py``.
``--grid`` re-ranks the loaded cases under other fusions/weights/thresholds with the same SQL
(for tuning; the headline figures always use the production settings).
"""

from __future__ import annotations

import json
import time
import uuid
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, transaction
from django.utils.dateparse import parse_datetime

from memory import recall
from memory.embeddings import embed
from memory.models import AuditEvent, Kind, Memory, MemoryControl
from memory.rls import acting_user
from memory.store import delete_everything, write_memory

if TYPE_CHECKING:
    from atlas.types import User

# Statements embedded per call to the model (it batches 32 at a time inside).
EMBED_CHUNK = 512


def _when(value: str | None) -> datetime | None:
    if not value:
        return None
    parsed = parse_datetime(value)
    if parsed is None:
        raise CommandError(f"not an ISO 8601 time: {value!r}")
    return parsed


class Loaded:
    """One case in the database: its user and which memory ids carry which keys."""

    def __init__(self, case: dict, user: User) -> None:
        self.case = case
        self.user = user
        at = _when(case["at"])
        if at is None:
            raise CommandError(f"case {case.get('id', '?')}: 'at' is required")
        self.at: datetime = at
        self.keys_by_id: dict[int, list[str]] = defaultdict(list)
        self.kind_by_id: dict[int, str] = {}
        self.dead_keys: set[str] = set()  # superseded or expired at the case's `at`


class Command(BaseCommand):
    help = "Measure long-term recall on recall cases (recall@k, violations, noise)."
    requires_system_checks = []  # a measurement; it must not depend on unrelated URL or admin state

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--k", type=int, default=6)
        parser.add_argument("--json", action="store_true", help="print one JSON object as the last line")
        parser.add_argument("--limit-cases", type=int, default=0, help="only the first N cases (quick runs)")
        parser.add_argument("--run-out", type=Path, help="write a LoCoMo-style run JSONL (question_id, retrieved ids)")
        parser.add_argument(
            "--grid",
            default="",
            help="also re-rank under other settings, e.g. 'weighted:0.7:0.3:0.2,rrf:0.5:0.5:-1' "
            "(fusion:vector weight:keyword weight:threshold; threshold -1 = none)",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        path: Path = opts["file"]
        if not path.exists():
            raise CommandError(f"{path} does not exist")
        cases = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        if opts["limit_cases"]:
            cases = cases[: opts["limit_cases"]]
        k = opts["k"]
        run_tag = uuid.uuid4().hex[:8]
        loaded: list[Loaded] = []
        started = time.perf_counter()
        try:
            vectors = self._embed_statements(cases)
            for case in cases:
                loaded.append(self._load(case, run_tag, vectors))
            load_seconds = time.perf_counter() - started
            started = time.perf_counter()
            result, run_rows = self._evaluate(loaded, k=k)
            result["seconds_load"] = round(load_seconds, 1)
            result["seconds_queries"] = round(time.perf_counter() - started, 1)
            grid = self._grid(loaded, k=k, grid=opts["grid"]) if opts["grid"] else []
        finally:
            self._clean_up(loaded)
        if opts["run_out"]:
            opts["run_out"].write_text("".join(json.dumps(row) + "\n" for row in run_rows))
        self._print(path, result, grid)
        if opts["json"]:
            if grid:
                result["grid"] = grid
            self.stdout.write(json.dumps(result))

    # -- load ---------------------------------------------------------------------------

    @staticmethod
    def _embed_statements(cases: list[dict]) -> dict[str, list[float]]:
        """Every distinct statement's embedding, computed in batches (sorted by length, so a
        batch pads little) instead of one model call per write. The vectors are the ones
        ``write_memory`` would compute for the same stripped statement."""
        texts = sorted({m["statement"].strip() for case in cases for m in case["memories"]} - {""}, key=len)
        vectors: dict[str, list[float]] = {}
        for start in range(0, len(texts), EMBED_CHUNK):
            chunk = texts[start : start + EMBED_CHUNK]
            vectors.update(zip(chunk, embed(chunk), strict=True))
        return vectors

    def _load(self, case: dict, run_tag: str, vectors: dict[str, list[float]]) -> Loaded:
        user = get_user_model().objects.create_user(username=f"eval-recall-{run_tag}-{case['id']}"[:150])
        item = Loaded(case, user)
        for memory in case["memories"]:
            if memory["kind"] not in Kind.values:
                raise CommandError(f"{case['id']}/{memory['key']}: unknown kind {memory['kind']!r}")
            expires_at = _when(memory.get("expires_at"))
            written_at = _when(memory.get("written_at")) or item.at
            # The store's own write path: validation, the row, the audit entry; the embedding
            # was computed in a batch beforehand (same model, same text).
            row = write_memory(
                user,
                kind=memory["kind"],
                statement=memory["statement"],
                author="user",
                expires_at=expires_at,
                created_at=written_at,
                source_at=written_at,
                source_quote=memory["statement"],
                source_session=str(memory.get("session", "")),
                embedding=vectors.get(memory["statement"].strip()),
            )
            item.keys_by_id[row.pk].append(memory["key"])
            item.kind_by_id[row.pk] = row.kind
            if memory.get("superseded"):
                # The case says it was replaced later but not by what: mark the row replaced
                # (superseded_by set) so it is not live, without inventing a replacement text.
                with acting_user(user.pk), transaction.atomic():
                    Memory.objects.filter(pk=row.pk).update(superseded_by=row.pk)
                item.dead_keys.add(memory["key"])
            if expires_at is not None and expires_at <= item.at:
                item.dead_keys.add(memory["key"])
        return item

    def _clean_up(self, loaded: list[Loaded]) -> None:
        for item in loaded:
            delete_everything(item.user)
            AuditEvent.objects.filter(user_id=item.user.pk).delete()
            with acting_user(item.user.pk):  # the deletion generation row (memory.epoch)
                MemoryControl.objects.filter(user_id=item.user.pk).delete()
        # The users own nothing else now; a plain delete avoids collecting every app's relations.
        get_user_model().objects.filter(pk__in=[item.user.pk for item in loaded])._raw_delete(DEFAULT_DB_ALIAS)

    # -- measure ------------------------------------------------------------------------

    def _evaluate(self, loaded: list[Loaded], *, k: int) -> tuple[dict, list[dict]]:
        totals = Totals(k)
        run_rows = []
        for item in loaded:
            for query in item.case["queries"]:
                notes = recall.recall_for_question(item.user, query["q"], now=item.at)
                returned = [(note.memory_id, note.reason) for note in notes]
                totals.add(item, query, returned)
                run_rows.append(
                    {
                        "question_id": query.get("question_id", f"{item.case['id']}/{query['q']}"),
                        "retrieved_dia_ids": [self._keys_for(item, mid) for mid, _ in returned],
                    }
                )
        return totals.result(), run_rows

    @staticmethod
    def _keys_for(item: Loaded, memory_id: int) -> str | list[str]:
        keys = item.keys_by_id.get(memory_id, [])
        return keys[0] if len(keys) == 1 else keys

    def _grid(self, loaded: list[Loaded], *, k: int, grid: str) -> list[dict]:
        """Re-rank with other knobs (same SQL). Query embeddings are computed once, in batch."""
        queries = [(item, query) for item in loaded for query in item.case["queries"]]
        vectors = embed([query["q"] for _, query in queries])
        settings: list[tuple[str, float, float, float]] = []
        for spec in grid.split(","):
            name, vec, kw, cut = spec.split(":")
            settings.append((name, float(vec), float(kw), float(cut)))
        rows = []
        for fusion, w_vec, w_kw, threshold in settings:
            totals = Totals(k)
            for (item, query), vector in zip(queries, vectors, strict=True):
                with acting_user(item.user.pk):
                    ranked = recall.rank_memories(
                        item.user.pk,
                        question=query["q"],
                        question_embedding=vector,
                        now=item.at,
                        threshold=threshold,
                        vector_weight=w_vec,
                        keyword_weight=w_kw,
                        fusion=fusion,
                    )
                totals.add(item, query, [(row[0], row[9]) for row in ranked])
            rows.append({"fusion": fusion, "w_vec": w_vec, "w_kw": w_kw, "threshold": threshold, **totals.result()})
        return rows

    def _print(self, path: Path, result: dict, grid: list[dict]) -> None:
        k = result["k"]
        self.stdout.write(f"eval_recall {path.name}: {result['cases']} cases, {result['queries']} queries")
        self.stdout.write(
            f"settings: fusion=weighted vector={recall.VECTOR_WEIGHT} keyword={recall.KEYWORD_WEIGHT} "
            f"threshold={recall.THRESHOLD} cap={recall.CAP}"
        )
        self.stdout.write(f"{'metric':<28}{'value':>10}")
        for label, key in (
            (f"recall@{k} (micro)", "recall_micro"),
            (f"recall@{k} (macro)", "recall_macro"),
            (f"hit@{k} (macro)", "hit_macro"),
            ("must_not violations", "must_not_violations"),
            ("cross-user violations", "cross_user_violations"),
            ("noise (mean per query)", "noise"),
            ("returned (mean per query)", "returned_mean"),
            ("load seconds", "seconds_load"),
            ("query seconds", "seconds_queries"),
        ):
            self.stdout.write(f"{label:<28}{result[key]:>10}")
        if grid:
            self.stdout.write("")
            self.stdout.write(
                f"{'fusion':<9}{'w_vec':>6}{'w_kw':>6}{'thresh':>8}{'R@k micro':>11}{'R@k macro':>11}"
                f"{'noise':>7}{'viol':>6}"
            )
            for row in grid:
                self.stdout.write(
                    f"{row['fusion']:<9}{row['w_vec']:>6}{row['w_kw']:>6}{row['threshold']:>8}"
                    f"{row['recall_micro']:>11}{row['recall_macro']:>11}{row['noise']:>7}"
                    f"{row['must_not_violations'] + row['cross_user_violations']:>6}"
                )


class Totals:
    """recall@k as the recall README defines it (micro), plus macro/hit, violations, noise."""

    def __init__(self, k: int) -> None:
        self.k = k
        self.cases: set[str] = set()
        self.queries = 0
        self.relevant = 0
        self.found = 0
        self.per_query: list[float] = []
        self.hits: list[float] = []
        self.must_not = 0
        self.cross_user = 0
        self.noise = 0
        self.returned = 0

    def add(self, item: Loaded, query: dict, returned: list[tuple[int, str]]) -> None:
        self.cases.add(item.case["id"])
        self.queries += 1
        self.returned += len(returned)
        top = returned[: self.k]
        relevant = set(query.get("relevant") or [])
        forbidden = set(query.get("must_not") or []) | item.dead_keys
        found_keys: set[str] = set()
        for memory_id, reason in returned:
            keys = item.keys_by_id.get(memory_id)
            if keys is None:
                self.cross_user += 1  # not one of this case's memories
                continue
            if forbidden & set(keys):
                self.must_not += 1
            if reason != "preference" and not relevant & set(keys):
                self.noise += 1
        for memory_id, _ in top:
            found_keys.update(item.keys_by_id.get(memory_id, []))
        if relevant:
            hit = len(relevant & found_keys)
            self.relevant += len(relevant)
            self.found += hit
            self.per_query.append(hit / len(relevant))
            self.hits.append(1.0 if hit else 0.0)

    def result(self) -> dict:
        def mean(values: list[float]) -> float:
            return round(sum(values) / len(values), 4) if values else 0.0

        return {
            "k": self.k,
            "cases": len(self.cases),
            "queries": self.queries,
            "recall_micro": round(self.found / self.relevant, 4) if self.relevant else 0.0,
            "recall_macro": mean(self.per_query),
            "hit_macro": mean(self.hits),
            "must_not_violations": self.must_not,
            "cross_user_violations": self.cross_user,
            "noise": round(self.noise / self.queries, 3) if self.queries else 0.0,
            "returned_mean": round(self.returned / self.queries, 3) if self.queries else 0.0,
        }
