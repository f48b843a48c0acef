"""Which live note a "forget ..." or a reversal names.

Hybrid, like recall: embedding similarity plus keyword overlap plus the subject a request
names ("my unit preference"), and the best must beat the next by a margin. A note is never
matched when the request names something it does not hold ("the Nordic distributors" is not
"Handles the Iberian distributors"). A reversal
("stop answering in French") names a subject and a value, so it is matched on the stored
(subject, value) first.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING

from atlas.dates import MONTHS, WEEKDAYS
from atlas.vocabulary import FUNCTION_WORDS
from memory.embeddings import cosine, embed
from memory.gate import reasons as r
from memory.gate.subjects import subject_value
from memory.gate.vocabulary import POINTER_NOUNS
from memory.models import Kind, Memory
from memory.rls import acting_user
from memory.selectors import live_memories
from memory.suppression import content_tokens

if TYPE_CHECKING:
    from atlas.types import User
    from memory.gate.analysis import Finding

# The best match must score this well and beat the next by a margin.
FORGET_MIN_SCORE = 0.42
FORGET_MARGIN = 0.08
SUBJECT_BONUS = 0.3
# A word shorter than this names nothing by itself ("own", "is", "team" do not pick a note out).
MIN_NAMING_LETTERS = 5
# Words the store writes into statements ("Owns the ... account.", "Prefers ...", "Is on ...").
_PHRASING = frozenset({"prefer", "want", "own", "account", "their", "theirs", "atlas", "answer", "show", "until"})
# What only points at a note ("the segment thing", "that rounding bit") names nothing in it.
_STOP = FUNCTION_WORDS | {"memories", "remember", "forget", "said", "say"} | set(POINTER_NOUNS)


def _words(text: str) -> set[str]:
    out = set()
    # A figure is one word with its separators ("1,000" is "1000", "2.5" stays "2.5").
    # "vs-last-year", "year-on-year": a hyphenated name is its words
    for found in re.findall(r"[a-z0-9](?:[a-z0-9']|(?<=\d)[.,](?=\d))*", text.lower()):
        word = re.sub(r"(?<=\d),(?=\d)", "", found)
        if word in _STOP or len(word) < 2:
            continue
        out.add(_stem(word))
    return out


def _stem(word: str) -> str:
    """One form for a word and its plural or participle ("sparklines" and "sparkline", "policies"
    and "policy", "rounded" and "round")."""
    for ending, instead in (("'s", ""), ("ies", "y"), ("ss", "ss"), ("s", ""), ("ing", ""), ("ed", "")):
        if word.endswith(ending) and len(word) > len(ending) + 2:
            return word[: -len(ending)] + instead
    return word


def _names(text: str) -> set[str]:
    """The names, figures and codes a text holds ("Nordic", "Q3", "45"), as forget's words.
    A month or a weekday is no name: a note keeps its dates resolved ("until June" is stored
    as "until Sunday 31 May 2026")."""
    named = [t.split(":", 1)[1] for t in content_tokens(text) if t.startswith(("entity:", "number:"))]
    return _words(" ".join(n for n in named if n not in MONTHS and n not in WEEKDAYS))


def _as_statement(query: str) -> str:
    found = re.match(r"(?:i|i'm)\s+(.*)", query, re.I)
    return found.group(1) if found else query


def match_for_forget(user: User, query: str, *, now: datetime | None = None) -> tuple[list[Memory], str]:
    """The live memory a "forget ..." request names: (memories, reason code)."""
    with acting_user(user.pk):
        live = list(live_memories(user, now=now))
    named = _names(query)
    hinted, hinted_value = subject_value(query)
    # A name the request gives must be in the note, or be the note's value in other words
    # ("my Swiss franc preference" names the note whose value is CHF).
    live = [
        m
        for m in live
        if named <= _words(f"{m.statement} {m.value}")
        or (hinted_value and (m.subject, m.value) == (hinted, hinted_value))
    ]
    if not live:
        return [], r.FORGET_NO_MATCH
    vectors = embed([query, _as_statement(query)])
    query_words = _words(query)
    scored = []
    for memory in live:
        similarity = max(cosine(v, memory.embedding) for v in vectors)
        words = _words(memory.statement + " " + memory.subject.replace("_", " "))
        overlap = len(query_words & words) / max(len(query_words), 1)
        bonus = SUBJECT_BONUS if hinted and memory.subject == hinted else 0.0
        if memory.subject.startswith("filter_") and memory.subject[7:] in query.lower():
            bonus = SUBJECT_BONUS
        scored.append((0.55 * similarity + 0.45 * overlap + bonus, memory))
    scored.sort(key=lambda pair: pair[0], reverse=True)
    best_score, best = scored[0]
    if best_score < FORGET_MIN_SCORE:
        # "harborview went to a colleague last week, forget that one": a word of the request that
        # one live note holds and no other names it, though the rest of the request is its story
        holding = [m for m in live if query_words & _distinctive(m, live)]
        if len(holding) == 1:
            return holding, r.FORGET_REQUEST
        return [], r.FORGET_NO_MATCH
    if len(scored) > 1 and best_score - scored[1][0] < FORGET_MARGIN:
        return [m for s, m in scored if best_score - s < FORGET_MARGIN][:3], r.FORGET_AMBIGUOUS
    return [best], r.FORGET_REQUEST


def _distinctive(memory: Memory, live: list[Memory]) -> set[str]:
    """The words of a note's statement that no other live note holds, long enough to name
    something (a customer, a place, a team), never a word of the store's own phrasing."""
    others: set[str] = set()
    for other in live:
        if other.pk != memory.pk:
            others |= _words(other.statement)
    return {w for w in _words(memory.statement) - others if len(w) >= MIN_NAMING_LETTERS and w not in _PHRASING}


def match_situation(user: User, text: str, *, now: datetime | None = None) -> Memory | None:
    """The live situation a message calls off ("the houston trip is off", "leave got cancelled",
    "not going anymore"): the one whose words the message shares (a place, "leave", "jury"), or,
    when the message names none of them, the only live situation; None when it is unclear."""
    with acting_user(user.pk):
        live = list(live_memories(user, now=now).filter(kind=Kind.SITUATION))
    said = _words(text)
    sharing = [m for m in live if said & _words(m.statement)]
    if len(sharing) == 1:
        return sharing[0]
    if not sharing and len(live) == 1:
        return live[0]
    return None


def match_preference(user: User, finding: Finding, *, now: datetime | None = None) -> Memory | None:
    """The one live preference a reversal withdraws: same subject and value, else the forget match."""
    with acting_user(user.pk):
        live = list(live_memories(user, now=now).filter(kind=Kind.PREFERENCE))
    named = set(finding.extra.get("facets") or ())
    if named:
        # The facet the user named: the newest live note that sets it (design rule: newest wins).
        holding = [m for m in live if named & set(m.facets or {})]
        if holding:
            return max(holding, key=lambda m: (len(named & set(m.facets or {})), m.created_at))
    if finding.subject:
        same = [m for m in live if m.subject == finding.subject and (not finding.value or m.value == finding.value)]
        if len(same) == 1:
            return same[0]
    matches, reason = match_for_forget(user, finding.statement, now=now)
    if reason == r.FORGET_REQUEST and matches[0].kind == Kind.PREFERENCE:
        return matches[0]
    return None
