"""Corpus retrieval: hybrid search over the company's documents.

The same shape as memory recall (design rule: recall cap): the top candidates by cosine
similarity and the top candidates by ``ts_rank_cd`` over the generated ``tsvector``, fused
by reciprocal rank. Identifiers (account codes, order numbers) are lexical and embeddings
are poor at them; paraphrases are the opposite. Documents are company data: no RLS.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection

from memory.embeddings import embed_one

CANDIDATES = 40  # per branch, as measured for memory recall (design rule: recall cap)
RRF_K = 60
# Below this cosine a vector-only candidate is noise (MiniLM puts unrelated text near 0-0.15).
MIN_SIMILARITY = 0.2
SNIPPET_CHARS = 600
MAX_QUERY_CHARS = 2000


@dataclass(frozen=True)
class Passage:
    document_id: int
    title: str
    text: str  # a snippet: the document text, cut at a sentence boundary near SNIPPET_CHARS
    score: float  # fused score scaled to 0..1 (1 = first in both branches)
    customer_id: int | None
    similarity: float | None = None  # cosine similarity to the query (None: a keyword-only match)


# Keyword branch: OR over the question's lexemes (a natural question rarely has every word in
# one document), keeping documents that share at least half of them, ranked by cover density,
# with documents matching the whole query (websearch semantics: "quoted phrases", -exclusions)
# ranked first. A document containing an
# identifier the question names (a lexeme with digits: account code, order number) also gets
# a fusion bonus worth a first place: the hybrid gain came entirely from such
# identifiers, which plain rank fusion lets a near-miss vector neighbour outrank.
_SQL = """
WITH q AS (
    SELECT %(embedding)s::vector AS emb,
           websearch_to_tsquery('english', %(query)s) AS allq,
           lex.words,
           (SELECT string_agg(quote_literal(w), ' | ') FROM unnest(lex.words) w)::tsquery AS anyq,
           (SELECT string_agg(quote_literal(w), ' | ') FROM unnest(lex.words) w WHERE w ~ '[0-9]')::tsquery AS idq
      FROM (SELECT ARRAY(SELECT lexeme FROM unnest(to_tsvector('english', %(query)s))) AS words) lex
),
matches AS (
    SELECT d.id,
           coalesce(d.search @@ q.idq, false) AS identifier,
           numnode(q.allq) > 0 AND d.search @@ q.allq AS whole,
           cardinality(ARRAY(SELECT unnest(tsvector_to_array(d.search)) INTERSECT SELECT unnest(q.words)))
             AS matched,
           cardinality(q.words) AS asked,
           ts_rank_cd(d.search, q.anyq) AS density
      FROM chat_document d, q
     WHERE d.search @@ q.anyq
),
kw AS (
    SELECT id, identifier, row_number() OVER (ORDER BY rank DESC, id) AS rk
      FROM (
        SELECT id, identifier,
               density + CASE WHEN whole THEN 1 ELSE 0 END + CASE WHEN identifier THEN 2 ELSE 0 END AS rank
          FROM matches
         WHERE identifier OR whole OR matched * 2 >= asked
         ORDER BY rank DESC, id
         LIMIT %(candidates)s
      ) ranked
),
vec AS (
    SELECT d.id, 1 - (d.embedding <=> q.emb) AS similarity,
           row_number() OVER (ORDER BY d.embedding <=> q.emb, d.id) AS rk
      FROM chat_document d, q
     ORDER BY d.embedding <=> q.emb, d.id
     LIMIT %(candidates)s
),
fused AS (
    SELECT coalesce(vec.id, kw.id) AS id,
           coalesce(1.0 / (%(k)s + vec.rk), 0) + coalesce(1.0 / (%(k)s + kw.rk), 0)
             + CASE WHEN kw.identifier THEN 1.0 / (%(k)s + 1) ELSE 0 END AS rrf,
           vec.similarity, kw.rk AS kw_rank
      FROM vec FULL OUTER JOIN kw ON vec.id = kw.id
)
SELECT d.id, d.title, d.text, d.customer_id, fused.rrf, fused.similarity
  FROM fused JOIN chat_document d ON d.id = fused.id
 WHERE fused.kw_rank IS NOT NULL OR fused.similarity >= %(min_similarity)s
 ORDER BY fused.rrf DESC, d.id
 LIMIT %(limit)s
"""


def search_documents(query: str, *, limit: int = 5) -> list[Passage]:
    """The documents most relevant to ``query``, best first (hybrid: vectors + keywords)."""
    query = (query or "").strip()
    if not query:
        raise ValidationError("Search needs a query.")
    if len(query) > MAX_QUERY_CHARS:
        raise ValidationError(f"Search query is longer than {MAX_QUERY_CHARS} characters.")
    if limit < 1:
        raise ValidationError("limit must be at least 1.")
    vector = embed_one(query)
    params: dict[str, Any] = {
        "embedding": _vector_literal(vector),
        "query": query,
        "candidates": CANDIDATES,
        "k": RRF_K,
        "min_similarity": MIN_SIMILARITY,
        "limit": limit,
    }
    with connection.cursor() as cur:
        cur.execute(_SQL, params)
        rows = cur.fetchall()
    best = 2.0 / (RRF_K + 1)
    return [
        Passage(
            document_id=pk,
            title=title,
            text=snippet(text),
            score=round(min(1.0, float(rrf) / best), 4),
            customer_id=customer_id,
            similarity=None if similarity is None else round(float(similarity), 4),
        )
        for pk, title, text, customer_id, rrf, similarity in rows
    ]


def snippet(text: str, *, chars: int = SNIPPET_CHARS) -> str:
    if len(text) <= chars:
        return text
    cut = text.rfind(". ", 0, chars)
    return text[: cut + 1] if cut > chars // 2 else text[:chars].rstrip() + "…"


def _vector_literal(vector: Iterable[float]) -> str:
    return "[" + ",".join(f"{float(x):.7g}" for x in vector) + "]"
