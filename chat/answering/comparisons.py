"""Comparisons: two customers, two regions, two cities or two periods side by side.

"Did Kestrel Foods order more than Brightwater Dental this year?", "north vs south sales last
quarter", "was Q3 better than Q2 for Hudson Vale Pharmacy?". A comparison needs two sides of
one kind and a word that sets them against each other; the answer gives both figures and a
one-line verdict, yes or no first when the question asks yes or no.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING

from atlas.dates import YEAR
from atlas.periods import Period
from chat import vocabulary as vocab
from chat.models import Region

if TYPE_CHECKING:
    from chat.planner import Context, Filters, QueryPlan, Signals

# Verbs of doing more than the other side ("did the north outsell the west", "who outspent whom").
OUTDOING_VERBS = frozenset(
    {"beat", "beats", "outdid", "outdo", "outdoes", "outsold", "outsell", "outsells", "outspent", "outspend"}
    | {"outspends", "outperform", "outperformed", "outperforms", "outearned", "outearn", "outearns"}
)
# Words that set two sides against each other whatever else the question says.
STRONG_CUES = frozenset({*vocab.COMPARE_WORDS, "than", "v", "vs.", "stack", *OUTDOING_VERBS})
# Words of growth: with "since <a period>" they set now against that period ("has X grown since
# last quarter": this quarter against last quarter).
GROWTH_WORDS = frozenset({"grow", "grew", "grown", "growing", "growth", "increase", "increased", "improve", "improved"})
SHRINK_WORDS = frozenset(
    {"shrink", "shrank", "shrunk", "decline", "declined", "decrease", "decreased", "drop", "dropped"}
)
# The verb of comparing, which may open the question before the word that sets its sides apart.
_COMPARING = frozenset({"compare", "compared", "comparing", "comparison"})
# "or" sets two sides against each other only in a question that also asks which is more.
CHOICE_CUES = frozenset({"or"})
MORE_WORDS = frozenset(
    {"more", "bigger", "better", "higher", "stronger", "larger", "greater", "most", "ahead", "up", "best"}
    | OUTDOING_VERBS
    | GROWTH_WORDS
)
LESS_WORDS = frozenset(
    {"less", "fewer", "smaller", "worse", "lower", "weaker", "least", "behind", "down", "worst"} | SHRINK_WORDS
)
# A question opened by one of these asks yes or no ("Did ... order more than ...?").
YES_NO_OPENERS = frozenset({"did", "was", "is", "were", "does", "do", "has", "have", "are", "had"})


class Dimension(enum.StrEnum):
    """What the two sides of a comparison are."""

    CUSTOMER = "customer"
    REGION = "region"
    CITY = "city"
    SEGMENT = "segment"
    PERIOD = "period"


def cue_index(words: list[str]) -> int | None:
    """Where the question sets its sides against each other ("than", "vs", "compared"), or
    None. "or" counts only when the question also asks which is more ("east or west, which
    did better"); "which" alone asks for a list ("which accounts sit in Omaha or Tulsa")."""
    for i, word in enumerate(words):
        if word in STRONG_CUES:
            # "compare order value in october vs november": the sides are either side of the later cue
            later = next((j for j in range(i + 1, len(words)) if words[j] in STRONG_CUES - _COMPARING), None)
            return later if word in _COMPARING and later is not None else i
    if set(words) & (MORE_WORDS | LESS_WORDS):
        for i, word in enumerate(words):
            if word in CHOICE_CUES:
                return i
    return None


def regions_named(words: list[str]) -> tuple[str, ...]:
    """The regions a question names, in its order ("north vs south": north, south)."""
    names = {r.value for r in Region}
    found = [vocab.REGION_WORDS[w] for w in words if w in vocab.REGION_WORDS and vocab.REGION_WORDS[w] in names]
    return tuple(dict.fromkeys(found))


def cities_named(words: list[str]) -> tuple[str, ...]:
    """The customers' cities a question names, in its order ("seattle vs portland"), as stored."""
    corpus = vocab.corpus_vocabulary()
    clean = [w.replace(".", "") for w in words]
    found = []
    for i in range(len(clean)):
        for size in range(min(corpus.longest, len(clean) - i), 0, -1):
            key = tuple(clean[i : i + size])
            if key in corpus.cities:
                found.append(corpus.cities[key])
                break
    return tuple(dict.fromkeys(found))


def segments_named(words: list[str]) -> tuple[str, ...]:
    """The customers' segments a question names, in its order ("small business against
    enterprise"), as stored; a hyphenated segment typed with a space is the same one."""
    corpus = vocab.corpus_vocabulary()
    clean = [w for part in words for w in part.replace("-", " ").split()]
    longest = max((len(k) for k in corpus.segments), default=1)
    found = []
    for i in range(len(clean)):
        for size in range(min(longest, len(clean) - i), 0, -1):
            key = tuple(clean[i : i + size])
            if key in corpus.segments:
                found.append(corpus.segments[key])
                break
    return tuple(dict.fromkeys(found))


def yes_no(words: list[str]) -> bool:
    """A comparison asked as yes or no: opened by "did", "was", "is" ... and not offering the
    choice itself ("were sales up or down" asks which)."""
    return bool(words) and words[0] in YES_NO_OPENERS and "or" not in words


def direction(words: list[str]) -> str:
    """ "desc" when the question asks whether the first side is more, "asc" when less."""
    for word in words:
        if word in LESS_WORDS:
            return "asc"
        if word in MORE_WORDS:
            return "desc"
    return "desc"


def counts_orders(words: list[str], lemmas: list[str]) -> bool:
    """The sides are compared by how many orders ("more orders from X or Y", "number of
    orders"), not by their value ("did X order more than Y": the verb, so value)."""
    text = " ".join(words)
    if "how many" in text or "number of" in text or "# of" in text or "count" in lemmas:
        return True
    nouns = {"order", "orders", "deal", "deals"}
    return any(w in (MORE_WORDS | LESS_WORDS) and nxt in nouns for w, nxt in zip(words, words[1:], strict=False))


# --- periods ------------------------------------------------------------------------------------


def period_sides(words: list[str], cue: int, *, today: date) -> tuple[Period, Period] | None:
    """The two periods on either side of the cue ("this month vs last month", "Q3 than Q2",
    "last quarter compared to the quarter before"), or None when both are not there."""
    from atlas.periods import period_before, read_period, shift_period

    left_words, right_words = words[:cue], words[cue + 1 :]
    if words[cue] in ("compare", "comparing", "comparison") and "with" in right_words:
        # "how does October compare with September": the sides are before and after "with".
        at = right_words.index("with")
        left_words, right_words = words[:cue] + right_words[:at], right_words[at + 1 :]
    if words[cue] in ("compare", "comparing") and not read_period(left_words, today=today)[0]:
        # "compare Q1 and Q2": the sides are either side of "and".
        if "and" in right_words:
            at = right_words.index("and")
            left_words, right_words = right_words[:at], right_words[at + 1 :]
    left_words, right_words = _shared_year(left_words, right_words, today=today)
    left, _ = read_period(left_words, today=today)
    if left is None:
        return None
    right_words = _unit_borrowed(left_words, right_words)
    units = [w for w in right_words if w in vocab.PERIOD_UNITS]
    if "same" in right_words and units and right_words[-1:] != units[-1:] and "year" in right_words:
        right = shift_period(left, months=-12)  # "the same month last year"
    elif units and set(right_words) & vocab.PERIOD_BEFORE:
        right = period_before(left, units[0])  # "the quarter before"
    else:
        right, _ = read_period(right_words, today=today)
    if right is None or (right.start, right.end) == (left.start, left.end):
        return None
    return left, right


def _two_periods_joined(words: list[str], lemmas: list[str], *, today: date) -> int | None:
    """Where a total or a count names two periods, each with its own preposition, joined by "and" ("total sales in 2025
    and in 2026", "how many orders in october and in november"): the two side by side, as a comparison sets them; not
    a range ("between 1 October and 30 November") and not a list of the orders of both."""
    totalled = bool(set(lemmas) & (vocab.SUM_WORDS | vocab.MONEY_WORDS | vocab.COUNT_WORDS)) or "how" in words
    if not totalled or set(words) & {"between", "from", "list", "show"}:
        return None
    for i, word in enumerate(words):
        # (each period with its own "in" or "for": "revenue for March and April", said once, is one span)
        own = 0 < i < len(words) - 1 and words[i + 1] in ("in", "for", "during") and words[i + 1] in words[:i]
        if word == "and" and own and period_sides(words, i, today=today) is not None:
            return i
    return None


def _year_of(words: list[str]) -> list[str]:
    """The year ``words`` name: "2025", or "this year" / "last year" / "next year" ([] if none)."""
    from atlas.periods import calendar_anchor

    for i, word in enumerate(words):
        if YEAR.fullmatch(word):
            return [word]
        if word in ("this", "last", "next") and words[i + 1 : i + 2] == ["year"]:
            return [word, "year"]
        if word == "this" and calendar_anchor(words[i + 1 : i + 2]):
            return ["this", "year"]  # "this November": this year's
    return []


def _shared_year(left: list[str], right: list[str], *, today: date) -> tuple[list[str], list[str]]:
    """A year said once for two quarters, halves or months belongs to both: "was Q2 ahead of Q1
    for X last year", "H1 against H2 this year", "H1 vs H2 2025"."""
    from atlas.periods import calendar_anchor

    if not (calendar_anchor(left) and calendar_anchor(right)):
        return left, right
    # the sides' period words alone: "h2 revenue for 2025" is H2 2025, the year is no longer apart
    left, right = _period_words_of(left, today), _period_words_of(right, today)
    left_year, right_year = _year_of(left), _year_of(right)
    if right_year and not left_year:
        return [*left, *right_year], right
    if left_year and not right_year:
        return left, [*right, *left_year]
    return left, right


def _period_words_of(words: list[str], today: date) -> list[str]:
    """The words of ``words`` that say its period ("h2 revenue for 2025" -> "h2 2025"), or all of them."""
    from atlas.periods import period_words

    said = period_words(words, today=today)
    kept = [w for w in words if w in said]
    return kept or words


def _unit_borrowed(left: list[str], right: list[str]) -> list[str]:
    """ "this quarter against the last", "this month vs the previous": the second side's
    direction word takes the first side's unit."""
    unit = next((w for w in left if w in vocab.PERIOD_UNITS), "")
    if not unit or any(w in vocab.PERIOD_UNITS for w in right):
        return right
    for i, word in enumerate(right):
        if word in vocab.PERIOD_PAST and (i + 1 == len(right) or right[i + 1] not in vocab.PERIOD_UNITS):
            return [*right[: i + 1], unit, *right[i + 1 :]]
    return right


def growth_sides(words: list[str], *, today: date) -> tuple[Period, Period] | None:
    """ "Has X grown since last month?", "has revenue dropped since last quarter?": the current
    period of the same unit against the one named after "since"."""
    from atlas.periods import read_period

    if not set(words) & (GROWTH_WORDS | SHRINK_WORDS) or "since" not in words:
        return None
    after = words[words.index("since") + 1 :]
    if len(after) < 2 or after[0] not in vocab.PERIOD_PAST or after[1] not in vocab.PERIOD_UNITS:
        return None
    then, _ = read_period(after[:2], today=today)
    now, _ = read_period(["this", after[1]], today=today)
    if then is None or now is None:
        return None
    return now, then


# --- the plan -----------------------------------------------------------------------------------


def plan_comparison(signals: Signals, context: Context, *, today: date) -> QueryPlan | None:
    """A comparison plan when the question sets two customers, two regions or two periods
    against each other; None otherwise (the other plans then read it)."""
    from chat.planner import QueryPlan, _averaged, _filters

    words = signals.words
    cue = cue_index(words)
    grown = growth_sides(words, today=today) if cue is None else None
    if cue is None and grown is None:
        cue = _two_periods_joined(words, signals.lemmas, today=today)
    if cue is None and grown is None:
        return None
    if counts_orders(words, signals.lemmas):
        measure = "count"
    elif _averaged(signals):
        measure = "average"
    else:
        measure = ""
    named = tuple(context.named)
    base = _filters(signals, named)
    asked_yes_no, order = yes_no(words), direction(words)

    def plan(filters: Filters, group: Dimension, sides: tuple[str, ...] = ()) -> QueryPlan:
        return QueryPlan(
            "compare", "orders", filters, group_by=group, sides=sides, measure=measure, yes_no=asked_yes_no, order=order
        )

    if grown is not None:
        sides = tuple(f"{p.label}|{p.start.isoformat()}|{p.end.isoformat()}" for p in grown)
        return plan(replace(base, period=None), Dimension.PERIOD, sides)
    assert cue is not None
    if len(named) >= 2:
        return plan(replace(base, customers=named[:2]), Dimension.CUSTOMER)
    regions = regions_named(words)
    if len(regions) >= 2:
        return plan(replace(base, region=""), Dimension.REGION, regions[:2])
    cities = cities_named([w for w in words if w not in signals.name_words])
    if len(cities) >= 2:
        return plan(replace(base, city=""), Dimension.CITY, cities[:2])
    segments = segments_named([w for w in words if w not in signals.name_words])
    if len(segments) >= 2:
        return plan(replace(base, segment=""), Dimension.SEGMENT, segments[:2])
    periods = period_sides(words, cue, today=today)
    if periods is not None:
        sides = tuple(f"{p.label}|{p.start.isoformat()}|{p.end.isoformat()}" for p in periods)
        return plan(replace(base, period=None), Dimension.PERIOD, sides)
    return _against_the_last(signals, context, named, regions, plan)


def _against_the_last(
    signals: Signals,
    context: Context,
    named: tuple,
    regions: tuple[str, ...],
    plan: Callable[..., QueryPlan],
) -> QueryPlan | None:
    """ "how does that stack up against the south", "and how does X compare, same timeframe" after
    one region's or one customer's figure: the last figure's side against the one named now, over
    the last figure's period unless the question names its own, measured as the last figure was."""
    last = context.last_plan
    if last is None or last.subject != "orders" or last.kind not in ("sum", "count", "average") or last.group_by:
        return None
    filters = last.filters
    period = signals.period or filters.period
    measure = {"count": "count", "average": "average"}.get(last.kind, "")
    if len(regions) == 1 and filters.region and not filters.customers and regions[0] != filters.region:
        sides = (filters.region, regions[0])
        return replace(plan(replace(filters, region="", period=period), Dimension.REGION, sides), measure=measure)
    if len(named) == 1 and len(filters.customers) == 1 and named[0] != filters.customers[0]:
        both = (filters.customers[0], named[0])
        return replace(plan(replace(filters, customers=both, period=period), Dimension.CUSTOMER), measure=measure)
    return None
