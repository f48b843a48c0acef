"""Recall: which of a user's memories go into the prompt for one question (design rule: recall cap).

Memory selection is retrieval over a small per-user index (chapters 93 and 97): a hybrid of
cosine similarity (pgvector ``<=>`` on the row's embedding) and full-text rank (the row's
generated ``tsvector``), fused into one score, cut at a threshold and capped. Preferences are
about the answer's shape rather than its content, so they bypass ranking and are always
included while the user has fewer than ten; the cap counts them.

Everything happens in ONE SQL statement inside Postgres, over the user's live rows only.
The user filter is a hard pre-filter in the WHERE clause (never a ranking signal) and Row
Level Security backs it: the statement runs as the acting user. Results are exact: every
rankable live row of the user is scored, and there is no approximate index (design rule: recall cap
measured HNSW with a user filter returning 38-93% of the true top 12).

The scoring is one index-only scan of a covering btree (migration 0007): (user_id) INCLUDE
(id, superseded_by, expires_at, kind, embedding, search), so the wide heap rows (~2.4 KB each,
scattered over the heap) are read only for the notes returned, by primary key. The keyword
rank is ``ts_rank`` (about 6x cheaper per row than ``ts_rank_cd``; dev recall@6 1.0 with
either, LoCoMo macro R@6 0.583 vs 0.578), computed only where the question's words match.
Earlier versions ran a vector and a keyword branch (top 40 each) over two narrower indexes and
fused their union; one scan computes the same scores with half the per-row work and no join.

Why no GIN index on the tsvector: under RLS the planner may only use ``search @@ query`` as an
index condition if ``ts_match_vq`` is LEAKPROOF (a superuser change to the catalog), and even
then, at 1,000,000 rows, the question's lexemes come from a CTE the planner cannot see, so it
chose BitmapAnd(GIN, user btree) for every user; a common word made the GIN bitmap 741,000
rows and heavy users' p95 went from 215 to 488 ms. The match is a filter on the index-only
scan instead, evaluated after the policy has filtered the rows.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import connection
from django.utils import timezone

from memory.embeddings import EmbeddingError, embed_one
from memory.gate.vocabulary import NEGATIVE_OPENINGS
from memory.rls import acting_user

if TYPE_CHECKING:
    from atlas.types import User

logger = logging.getLogger(__name__)

# Design rule: recall cap (the design text had "score > 0.45" and ".slice(0, 6)"); the weights start at 0.7 vector / 0.3
# keyword (issue 3). Measured with eval_recall on ../shared/benchmarks/recall/dev.jsonl: the
# seed's 0.45 is on another score scale. With MiniLM, relevant short notes score cosine
# 0.25-0.7 against a question, so 0.7 * cosine + 0.3 * keyword > 0.45 kept recall@6 at 0.75;
# 0.17 (cosine about 0.24 with no keyword match) is the highest threshold with recall 1.0 on
# the dev cases (noise 0.92 notes per question). 0.5/0.5 and 0.3/0.7 and RRF did no better.
CAP = 6
THRESHOLD = 0.17
VECTOR_WEIGHT = 0.7
KEYWORD_WEIGHT = 0.3
# Design rule: preferences bypass ranking, while the user has fewer than this many live ones.
PREFERENCE_BYPASS_BELOW = 10


@dataclass(frozen=True)
class RecalledNote:
    memory_id: int
    kind: str
    statement: str
    author: str  # "user" | "rule"
    written_at: datetime
    source_quote: str
    source_at: datetime | None
    source_session: str
    source_turn: int | None
    reason: str  # "preference" (always included) | "ranked"
    score: float | None
    # What a preference is about and its canonical value ("currency", "EUR"): the responder
    # reads these instead of re-parsing the statement.
    subject: str = ""
    value: str = ""
    # "global", or the condition a preference holds under ("in answers about renewals").
    scope: str = "global"
    # The facets a preference sets (memory.preferences), or the region a context note names.
    facets: dict[str, Any] = field(default_factory=dict)

    @property
    def declines(self) -> bool:
        """A "does not want" preference: what to leave out, never the format to use."""
        return self.kind == "preference" and self.statement.startswith(NEGATIVE_OPENINGS)


# The live-row filter: the read-time half of expiry and supersession.
_LIVE = """m.user_id = %(user_id)s AND m.superseded_by_id IS NULL
        AND (m.expires_at IS NULL OR m.expires_at > %(now)s)"""

# The question as a tsquery: the OR of its lexemes. websearch_to_tsquery ANDs every term, so
# one extra word would hide a memory that names the account code the user asked about.
QUESTION_TSQUERY = """coalesce((SELECT string_agg(quote_literal(t.lexeme), ' | ')
                       FROM unnest(to_tsvector('english', %(question)s)) AS t), '')::tsquery"""

# Built from module constants only; every value is a bound parameter.
_SQL = f"""
-- MATERIALIZED: computed once. Inlined, a prepared (generic) plan would parse the 384
-- numbers of the question vector again for every row it scores.
WITH q AS MATERIALIZED (
    SELECT %(qvec)s::halfvec AS qv, {QUESTION_TSQUERY} AS oq
),
prefs AS (
    SELECT m.id, m.created_at FROM memory_memory m
    WHERE {_LIVE} AND m.kind = 'preference'
    ORDER BY m.created_at DESC, m.id DESC
    LIMIT {PREFERENCE_BYPASS_BELOW}
),
pref_count AS (SELECT count(*) < {PREFERENCE_BYPASS_BELOW} AS bypass FROM prefs),
-- One index-only scan of memory_user_recall scores every rankable live row of the user: the
-- cosine similarity, and the keyword rank where the question's words match (the match is a
-- filter on the scan, evaluated after the RLS qual). The scan may name only columns the
-- index carries, so the heap is read only for the rows returned.
scan AS MATERIALIZED (
    SELECT m.id,
           CASE WHEN %(use_vector)s THEN 1 - (m.embedding <=> q.qv) ELSE 0 END AS vs,
           CASE WHEN m.search @@ q.oq THEN ts_rank(m.search, q.oq) ELSE 0 END AS kr
    FROM memory_memory m CROSS JOIN q
    WHERE {_LIVE} AND (m.kind <> 'preference' OR NOT (SELECT bypass FROM pref_count))
),
-- The keyword rank is normalised by the best one among the user's live rows. MATERIALIZED:
-- the fused score is named twice below (threshold and order), and each inlined copy would
-- aggregate the scan again.
kmax AS MATERIALIZED (SELECT nullif(max(kr), 0) AS kr FROM scan),
scored AS (
    SELECT id, {{fused}} AS score FROM {{ranks}}
),
ranked AS (
    SELECT id, score FROM scored
    WHERE score > %(threshold)s
    ORDER BY score DESC, id
    LIMIT %(cap)s
),
picked AS (
    SELECT id, 'preference' AS reason, NULL::float8 AS score, 0 AS grp, created_at FROM prefs
    WHERE (SELECT bypass FROM pref_count)
    UNION ALL
    SELECT id, 'ranked', score, 1, NULL FROM ranked
)
SELECT m.id, m.kind, m.statement, m.author, m.created_at, m.source_quote, m.source_at,
       m.source_session, m.source_turn, p.reason, p.score, m.subject, m.value, m.scope, m.facets
FROM picked p JOIN memory_memory m ON m.id = p.id
ORDER BY p.grp, p.score DESC NULLS LAST, p.created_at DESC NULLS LAST, p.id
LIMIT %(cap)s
"""  # noqa: S608

# Before the question is embedded, one statement: has the user paused memory, and has the
# user any live note at all? With none, the recall statement would return nothing, so a new
# user's turn skips the embedding (about 6 ms). Runs as the acting user (RLS), like recall.
_BEFORE_RECALL = f"""SELECT
    EXISTS (SELECT 1 FROM memory_memorycontrol WHERE user_id = %(user_id)s AND paused),
    EXISTS (SELECT 1 FROM memory_memory m WHERE {_LIVE})"""  # noqa: S608 (module constants)

_KN = "coalesce(kr / (SELECT kr FROM kmax), 0)"
FUSIONS = {
    # Weighted sum of cosine similarity and the keyword rank normalised to the best match.
    "weighted": (f"%(w_vec)s * vs + %(w_kw)s * {_KN}", "scan"),
    # Reciprocal-rank fusion (k = 60), scaled so a row first in both rankings scores 1.
    "rrf": (
        "(%(w_vec)s * 61.0 / (60 + vr) + %(w_kw)s * coalesce(61.0 / (60 + krk), 0)) / (%(w_vec)s + %(w_kw)s)",
        "(SELECT id, rank() OVER (ORDER BY vs DESC) AS vr,"
        " CASE WHEN kr > 0 THEN rank() OVER (ORDER BY kr DESC) END AS krk FROM scan) AS r",
    ),
}


def recall_sql(*, fusion: str = "weighted") -> str:
    """The recall statement with one of the :data:`FUSIONS`."""
    fused, ranks = FUSIONS[fusion]
    return _SQL.format(fused=fused, ranks=ranks)


def rank_memories(
    user_id: int,
    *,
    question: str,
    question_embedding: list[float] | None,
    now: datetime,
    cap: int = CAP,
    threshold: float = THRESHOLD,
    vector_weight: float = VECTOR_WEIGHT,
    keyword_weight: float = KEYWORD_WEIGHT,
    fusion: str = "weighted",
) -> list[tuple]:
    """Run the recall statement for ``user_id`` and return its rows (best first).

    Must run as the acting user (RLS); :func:`recall_for_question` sets it. The knobs are
    parameters so the measurement commands can sweep them with the production statement.
    """
    use_vector = question_embedding is not None
    params: dict[str, Any] = {
        "user_id": user_id,
        "now": now,
        "question": question,
        "qvec": _question_vector(question_embedding),
        "use_vector": use_vector,
        "threshold": threshold,
        "cap": cap,
        "w_vec": vector_weight,
        "w_kw": keyword_weight,
    }
    with connection.cursor() as cur:
        cur.execute(recall_sql(fusion=fusion), params)
        return cur.fetchall()


def rank_by_brute_force(
    user_id: int,
    *,
    question: str,
    question_embedding: list[float] | None,
    now: datetime,
    cap: int,
    threshold: float,
    vector_weight: float,
    keyword_weight: float,
    preference_bypass_below: int,
) -> list[tuple[int, float | None]]:
    """The (id, score) pairs :func:`rank_memories` must return, worked out the slow way: the reference that
    ``bench_recall`` and the tests check the statement's exactness against.

    Reads every row of the user from the heap (live or not) with each row's two similarities
    as Postgres computes them, then applies the recall rules here in Python: the live filter,
    the preference bypass, the keyword normalisation, the weighted fusion, threshold and cap.
    Every rule parameter is the caller's (no defaults from this module), so a test that states
    them as numbers notices when the module's constants drift.
    """
    use_vector = question_embedding is not None
    with connection.cursor() as cur:
        cur.execute(
            f"""WITH q AS (SELECT {QUESTION_TSQUERY} AS oq)
               SELECT m.id, m.kind, m.created_at, m.superseded_by_id, m.expires_at,
                      1 - (m.embedding <=> %(qvec)s::halfvec), m.search @@ q.oq, ts_rank(m.search, q.oq)
               FROM memory_memory m CROSS JOIN q WHERE m.user_id = %(user_id)s""",  # noqa: S608 (a module constant)
            {
                "user_id": user_id,
                "question": question,
                "qvec": _question_vector(question_embedding),
            },
        )
        rows = cur.fetchall()
    live = [r for r in rows if r[3] is None and (r[4] is None or r[4] > now)]
    preferences = [r for r in live if r[1] == "preference"]
    bypass = len(preferences) < preference_bypass_below
    rankable = [r for r in live if r[1] != "preference" or not bypass]
    best_keyword = max((r[7] for r in rankable if r[6]), default=0)

    def score(row: tuple) -> float:
        keyword = row[7] / best_keyword if row[6] and best_keyword else 0.0
        return vector_weight * (row[5] if use_vector else 0.0) + keyword_weight * keyword

    scored = sorted(((score(r), r[0]) for r in rankable), key=lambda pair: (-pair[0], pair[1]))
    ranked = [(row_id, value) for value, row_id in scored if value > threshold][:cap]
    # Under the bypass every live preference is shown, newest first.
    shown = sorted(preferences, key=lambda r: (-r[2].timestamp(), r[0])) if bypass else []
    out: list[tuple[int, float | None]] = [(r[0], None) for r in shown]
    return (out + ranked)[:cap]


def _question_vector(embedding: list[float] | None) -> str | None:
    """The question's vector as a literal; NULL without an embedding (``use_vector`` is false,
    so the statement reads no cosine)."""
    return None if embedding is None else _vector_literal(embedding)


def _vector_literal(values: list[float]) -> str:
    return "[" + ",".join(f"{v:.7g}" for v in values) + "]"


def recall_for_question(user: User, question: str, *, now: datetime | None = None) -> list[RecalledNote]:
    """The notes to put in front of the model for ``question``, each with why it was chosen.

    Returns [] while the user has paused memory: nothing is recalled (design rule: two surfaces); and []
    without embedding the question when the user has no live note.
    """
    with acting_user(user.pk):
        return recall_as_acting_user(user, question, now=now)


def recall_as_acting_user(user: User, question: str, *, now: datetime | None = None) -> list[RecalledNote]:
    """:func:`recall_for_question` for a caller that already acts as ``user`` (the chat turn),
    without setting and restoring the acting user again. RLS still decides what it reads:
    acting as nobody or as someone else, it recalls nothing."""
    now = now or timezone.now()
    with connection.cursor() as cur:
        cur.execute(_BEFORE_RECALL, {"user_id": user.pk, "now": now})
        paused, has_notes = cur.fetchone()
    if paused or not has_notes:
        return []
    try:
        embedding = embed_one(question) if question.strip() else None
    except EmbeddingError:
        # Degrade to keyword recall (and preferences) rather than failing the answer.
        logger.warning("recall: question embedding failed; using keyword rank only", exc_info=True)
        embedding = None
    rows = rank_memories(user.pk, question=question, question_embedding=embedding, now=now)
    return [
        RecalledNote(
            memory_id=row[0],
            kind=row[1],
            statement=row[2],
            author=row[3],
            written_at=row[4],
            source_quote=row[5],
            source_at=row[6],
            source_session=row[7],
            source_turn=row[8],
            reason=row[9],
            score=None if row[10] is None else round(float(row[10]), 4),
            subject=row[11],
            value=row[12],
            scope=row[13],
            facets=row[14] if isinstance(row[14], dict) else json.loads(row[14] or "{}"),
        )
        for row in rows
    ]
