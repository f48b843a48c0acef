"""Did you mean: when most of a question is understood but one word is not, the closest plans
are offered as one-click options in Atlas's own words, and nothing is answered yet.

Candidates are the question with its unread word left out (then a second one, at most two),
each planned again; a candidate is offered only when it still accounts for most of the
question (**coverage**: at least half of its content words). A ranking by value is offered
beside the same ranking by number of orders ("best customers": by which?). Outside-the-records
questions (forecasts, the weather, people) are never offered anything: they abstain outright.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace
from datetime import date
from typing import TYPE_CHECKING

from chat import vocabulary as vocab

if TYPE_CHECKING:
    from chat.planner import Abstention, Context, QueryPlan

MIN_COVERAGE = 0.5
# How close an unread word must be to a city or segment word to be offered as its spelling.
RESPELL_CUTOFF = 0.8
MAX_REMOVED = 1
FIGURES = frozenset({"rank", "count", "sum", "average", "compare"})
MAX_OPTIONS = 2
_WORD = re.compile(r"[\w'$#-]+")
_STOP = frozenset(
    {"the", "a", "an", "of", "for", "in", "on", "by", "to", "is", "are", "was", "were", "do", "does", "did", "our",
     "we", "us", "me", "my", "and", "or", "what", "what's", "which", "who", "how", "please", "with", "from", "at"}
)  # fmt: skip


@dataclass(frozen=True)
class Suggestion:
    label: str  # the plan in Atlas's words, as a question
    plan: QueryPlan
    coverage: float  # the share of the question's content words the plan still reads


def _content(words: list[str]) -> list[str]:
    return [w for w in words if w not in _STOP]


def suggest(asked: str, abstention: Abstention, context: Context, *, today: date) -> list[Suggestion]:
    """The best one or two plans for ``asked`` without the words no plan reads, or []."""
    from chat.planner import Abstention as NoPlan
    from chat.planner import QueryPlan, plan_question

    if abstention.reason not in vocab.NO_PLAN_REASONS or not abstention.topic.isalpha():
        return []  # one word not read, never a phrase ("how many" people, "before June")
    respelt = _respelt(asked, abstention.topic, context, today=today)
    if respelt:
        return respelt
    if abstention.topic.lower() in vocab.ALWAYS_UNREAD or not _qualifies(asked, abstention.topic.lower()):
        # Only a word that qualifies what is asked ("most loyal", "shipped late", "by
        # profitability") may be left out; without the thing asked about ("which sales rep"),
        # a verb ("leaving", "upgrade") or a reason ("why"), it would be another question.
        return []
    words = _WORD.findall(asked)
    lowered = [w.lower() for w in words]
    content = _content(lowered)
    if _names_the_quantity(lowered, abstention.topic.lower()):
        return []  # "how much discount", "average delivery time": the figure itself is not held
    removed: list[str] = []
    topic = abstention.topic
    for _ in range(MAX_REMOVED):
        gone = set(topic.lower().split())
        if not gone or not gone <= {w.lower() for w in words}:
            return []
        removed += list(gone)
        words = [w for w in words if w.lower() not in gone]
        replanned = plan_question(" ".join(words), context, today=today)
        if replanned.follow_up:
            return []  # a follow-up leans on the last answer: an option would have to restate it
        planned = replanned.result
        if isinstance(planned, QueryPlan):
            coverage = 1 - len([w for w in removed if w in content]) / max(len(content), 1)
            if coverage < MIN_COVERAGE or planned.kind not in FIGURES:
                return []  # a record or a bare list in place of a figure answers another question
            return _with_alternative(planned, coverage)
        if not isinstance(planned, NoPlan) or planned.reason not in vocab.NO_PLAN_REASONS or not planned.topic:
            return []
        topic = planned.topic
    return []


def _respelt(asked: str, topic: str, context: Context, *, today: date) -> list[Suggestion]:
    """The unread word spelt as the closest word of the records' own names and places
    ("Milwakee": "Milwaukee"), when the question then plans: "did you mean" that spelling."""
    from chat.planner import QueryPlan, plan_question

    corpus = vocab.corpus_vocabulary()
    close = difflib.get_close_matches(topic.lower(), sorted(corpus.words), n=1, cutoff=RESPELL_CUTOFF)
    if not close:
        return []
    fixed = re.sub(rf"\b{re.escape(topic)}\b", close[0].title(), asked, flags=re.IGNORECASE)
    planned = plan_question(fixed, context, today=today).result
    return [Suggestion(describe(planned), planned, 1.0)] if isinstance(planned, QueryPlan) and describe(planned) else []


def _qualifies(asked: str, topic: str) -> bool:
    """The unread word qualifies what is asked: an adjective or adverb ("most loyal", "shipped
    late"), or the criterion of a ranking ("by profitability")."""
    from atlas.language import parse

    for token in parse(asked):
        if token.lower_ != topic:
            continue
        if token.tag_ in ("JJS", "RBS"):
            return False  # "our weakest city": a ranking word, without which the kind changes
        if token.pos_ in ("ADJ", "ADV"):
            return True
        if token.pos_ == "NOUN" and token.dep_ == "pobj" and token.head.lower_ == "by":
            return True
    return False


QUANTITY_LEADS = frozenset({"much", *vocab.AVERAGE_WORDS, *vocab.SUM_WORDS})


def _names_the_quantity(words: list[str], topic: str) -> bool:
    """The unread word is what the question measures ("how much discount", "avg delivery
    time"): leaving it out would answer with another figure, so nothing is offered."""
    for i, word in enumerate(words):
        if word == topic and i and words[i - 1] in QUANTITY_LEADS:
            return True
    return False


def _with_alternative(plan: QueryPlan, coverage: float) -> list[Suggestion]:
    options = [Suggestion(describe(plan), plan, coverage)]
    if plan.kind == "rank" and plan.group_by:
        other = replace(plan, measure="" if plan.measure == "count" else "count")
        options.append(Suggestion(describe(other), other, coverage))
    return options[:MAX_OPTIONS]


def describe(plan: QueryPlan) -> str:
    """The plan as a question in Atlas's words ("Top 5 customers by order value this year?")."""
    from chat.responders import scope_phrase
    from chat.shaping import Style

    style = Style()
    dated = plan.subject == "orders"
    status = f"{plan.filters.status} " if plan.filters.status else ""
    if plan.kind == "rank" and plan.group_by:
        group = {"customer": "customers", "region": "regions", "segment": "segments", "city": "cities"}.get(
            plan.group_by, "months"
        )
        by = f"number of {status}orders" if plan.measure == "count" else f"{status}order value"
        which = "Bottom" if plan.order == "asc" else "Top"
        text = f"{which} {plan.limit or 5} {group} by {by} {scope_phrase(plan.filters, style, dated=dated)}"
    elif plan.kind == "rank":
        size = "Smallest" if plan.order == "asc" else "Largest"
        text = f"{size} {status}orders {scope_phrase(plan.filters, style, dated=dated)}"
    elif plan.kind in ("sum", "average") and plan.subject == "orders":
        what = "Total" if plan.kind == "sum" else "Average"
        text = f"{what} {status}order value {scope_phrase(plan.filters, style, dated=dated)}"
    elif plan.kind == "count":
        text = f"Number of {status or ''}{plan.subject} {scope_phrase(plan.filters, style, dated=dated)}"
    elif plan.kind == "lookup" and plan.filters.customers:
        name = plan.filters.customers[0].name
        field = vocab.FIELD_LABELS.get(plan.field, "")
        owner = f"{name}'" if name.endswith("s") else f"{name}'s"
        text = f"{owner} {field}" if field else f"{owner} {'contract' if plan.subject == 'contracts' else 'details'}"
    elif plan.kind == "list":
        noun = "orders" if plan.subject == "orders" else plan.subject
        text = f"{(status + noun).capitalize()} {scope_phrase(plan.filters, style, dated=dated)}"
    else:
        return ""
    text = " ".join(text.split())
    return text[:1].upper() + text[1:] + "?"
