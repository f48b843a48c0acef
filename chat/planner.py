"""The query planner: a question (and the session state) in, a typed :class:`QueryPlan` out.

What is asked (lookup, list, count, sum, average, rank, compare), about what (customers,
orders, contracts, documents), with which filters, grouped and ordered how, how many. The
question is read with the shared language pipeline (:mod:`atlas.language`: lemmas, numbers,
negation) and the corpus's own vocabulary (customer names, cities, segments, read from the
database). When no plan covers the question the planner returns an :class:`Abstention`
with a reason code instead of guessing (design rule: abstain plainly; a confident wrong answer costs more
than no answer).

A follow-up ("and last month?", "and Pinecrest?", "as a table") keeps the previous plan and
swaps only the slot it states; a question that states its own subject starts from nothing
but the customer it names or refers back to (design rule: bounded state; stale filters are the silent
failure).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, replace
from datetime import date
from decimal import Decimal, InvalidOperation
from itertools import pairwise
from typing import Any

from spacy.tokens import Doc, Token

from atlas import vocabulary as shared_vocab
from atlas.dates import MONTHS_NOT_MAY as _MONTHS
from atlas.dates import QUARTER, YEAR, month_end
from atlas.dates import number as _number
from atlas.language import parse
from atlas.periods import (
    SEASONS,
    Period,
    dated_side,
    day_of_month,
    day_range_anchors,
    period_before,
    period_words,
    range_anchors,
    read_period,
    same_period_in_year,
    shift_period,
)
from atlas.record_changes import change_request
from chat import vocabulary as vocab
from chat.answering.meaning import read_as_ordering

ORDER_NUMBER = shared_vocab.ORDER_NUMBER
MAX_LIMIT = 50
DEFAULT_TOP = 5
_MONEY = re.compile(r"^\$?(\d[\d,]*(?:\.\d+)?)(k|m)?$", re.IGNORECASE)
CITY_SEPARATOR = "|"  # cities joined in one session slot: a follow-up that names a city replaces them all
_FOLLOW_UP_LEADS = ("and", "what about", "how about", "same", "now", "also", "ok", "okay")


@dataclass(frozen=True)
class CustomerRef:
    id: int
    name: str


@dataclass(frozen=True)
class Filters:
    customers: tuple[CustomerRef, ...] = ()
    region: str = ""
    city: str = ""
    segment: str = ""
    status: str = ""
    exclude_status: str = ""  # "not cancelled", "excluding paid"
    period: Period | None = None
    min_amount: Decimal | None = None
    max_amount: Decimal | None = None
    or_cities: tuple[str, ...] = ()  # "in Omaha or Tulsa": further cities, any of which the customer is in

    @property
    def cities(self) -> tuple[str, ...]:
        """Every city the filters take (a customer in any one of them)."""
        return (self.city, *self.or_cities) if self.city else ()

    def slots(self) -> dict[str, str]:
        """The filters as session-state slots (what decays after two turns)."""
        out = {k: getattr(self, k) for k in ("region", "city", "segment", "status", "exclude_status")}
        out["city"] = CITY_SEPARATOR.join(self.cities)
        if self.period is not None:
            out["period"] = f"{self.period.label}|{self.period.start.isoformat()}|{self.period.end.isoformat()}"
        if self.min_amount is not None:
            out["min_amount"] = str(self.min_amount)
        if self.max_amount is not None:
            out["max_amount"] = str(self.max_amount)
        return {k: v for k, v in out.items() if v}

    @classmethod
    def from_slots(cls, slots: dict[str, str], customers: tuple[CustomerRef, ...] = ()) -> Filters:
        period = None
        if slots.get("period") and slots["period"].count("|") == 2:
            label, start, end = slots["period"].split("|")
            period = Period(label, date.fromisoformat(start), date.fromisoformat(end))
        return cls(
            customers=customers,
            region=slots.get("region", ""),
            city=slots.get("city", "").split(CITY_SEPARATOR)[0],
            or_cities=tuple(slots.get("city", "").split(CITY_SEPARATOR)[1:]),
            segment=slots.get("segment", ""),
            status=slots.get("status", ""),
            exclude_status=slots.get("exclude_status", ""),
            period=period,
            min_amount=Decimal(slots["min_amount"]) if slots.get("min_amount") else None,
            max_amount=Decimal(slots["max_amount"]) if slots.get("max_amount") else None,
        )


@dataclass(frozen=True)
class QueryPlan:
    kind: str  # lookup | list | count | sum | average | rank | compare
    subject: str  # customers | orders | contracts | documents
    filters: Filters = field(default_factory=Filters)
    field: str = ""  # the field a lookup asks for ("payment_terms", "segment"); "" = the whole record
    group_by: str = ""  # customer | region | segment | status | month
    order: str = "desc"
    limit: int | None = None
    order_number: str = ""
    min_orders: int | None = None  # customers with more than this many matching orders
    peers: tuple[str, ...] = ()  # other customers sharing these fields with the named one
    query: str = ""  # document search text
    measure: str = ""  # what a rank orders by: "" (order value) | "count" (number of orders)
    # customers whose matching orders total more (less) than this: "spent more than $800k"
    min_total: Decimal | None = None
    max_total: Decimal | None = None
    terms: str = ""  # customers whose current contract has these payment terms ("net 60")
    # Money totals leave cancelled orders out (the cancellations memo) unless the user's standing
    # preference asks for them in (chat.shaping).
    include_cancelled: bool = False
    # A comparison's sides when they are not the filters' customers: region values, or periods
    # written "label|start|end" (chat.answering.comparisons); group_by says which.
    sides: tuple[str, ...] = ()
    yes_no: bool = False  # asked as yes or no: the answer says yes or no first

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["filters"] = {"slots": self.filters.slots(), "customers": [asdict(c) for c in self.filters.customers]}
        data["peers"] = list(self.peers)
        data["sides"] = list(self.sides)
        for key in ("min_total", "max_total"):
            data[key] = str(data[key]) if data[key] is not None else None
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> QueryPlan:
        values = dict(data)
        raw = values.pop("filters", {}) or {}
        customers = tuple(CustomerRef(**c) for c in raw.get("customers", []))
        values["peers"] = tuple(values.get("peers") or ())
        values["sides"] = tuple(values.get("sides") or ())
        for key in ("min_total", "max_total"):
            values[key] = Decimal(values[key]) if values.get(key) is not None else None
        return cls(filters=Filters.from_slots(raw.get("slots", {}), customers), **values)


@dataclass(frozen=True)
class Abstention:
    reason: str  # a vocabulary.*_REASON code
    topic: str = ""  # the word that decided it ("weather", "employees")
    # The question asked for a figure (a count, total, average, ranking or comparison): a policy
    # passage about its topic is never the answer ("the average delivery time" is not the
    # shipping memo). A hint for the answer, not part of what the abstention is.
    figure: bool = field(default=False, compare=False)


@dataclass
class Signals:
    """Everything the question itself states, before the session state is consulted."""

    words: list[str]
    lemmas: list[str]
    status: str = ""
    exclude_status: str = ""
    region: str = ""
    city: str = ""
    or_cities: list[str] = field(default_factory=list)  # "Omaha or Tulsa": the cities after the first
    segment: str = ""
    period: Period | None = None
    future: bool = False
    min_amount: Decimal | None = None
    max_amount: Decimal | None = None
    min_orders: int | None = None
    limit: int | None = None
    order_number: str = ""
    subjects: list[str] = field(default_factory=list)
    place_words: set[str] = field(default_factory=set)  # words naming a city or segment filter
    name_words: set[str] = field(default_factory=set)  # words of the customer names used
    unknown: list[str] = field(default_factory=list)  # nouns outside the vocabulary
    unread: list[str] = field(default_factory=list)  # verbs, adjectives and adverbs no slot reads
    out_of_scope: tuple[str, str] | None = None  # (reason, word)
    negated: str = ""  # a negation the plan cannot express ("customers that haven't ordered")
    unplanned: str = ""  # a condition no plan expresses ("fewer than 3 orders")
    second_status: str = ""  # a word naming a second, different status ("delivered late")
    counted: str = ""  # the noun "how many" counts ("orders", "days")
    readings: list[tuple[str, str]] = field(default_factory=list)  # words read by meaning ("book" as "order")
    each_listed: bool = False  # "each of them" (or "which of them ... the most") after customers listed: per customer
    phrase_words: set[str] = field(default_factory=set)  # words a slot read where they stand ("called off", "sub 2k")
    pointers: set[str] = field(default_factory=set)  # pronouns pointing at the last answer ("that", "them")
    agents: set[int] = field(default_factory=set)  # where "by" names who did a passive verb ("placed by clients")
    fmt: str = ""

    def has_slot(self) -> bool:
        return bool(self.status or self.exclude_status or self.region or self.city or self.segment or self.period) or (
            self.min_amount is not None or self.max_amount is not None
        )


# --- reading the question ------------------------------------------------------------------------


def _asks_ahead(doc: Doc) -> bool:
    """A renewal still to come: "who renews in march", "up for renewal in feb"; not one that was
    ("which contracts renewed in march")."""
    return any(t.lemma_.lower() in vocab.AHEAD_WORDS and t.tag_ not in ("VBD", "VBN") for t in doc)


def read_question(text: str, *, name_words: set[str], today: date) -> Signals:
    """The slots the question states, from its parse; ``name_words`` are the words of the
    customer names it uses (never read as regions, cities or unknown nouns)."""
    # Entities are not read: names, cities and segments come from the corpus's own vocabulary.
    doc = parse(text)
    words = [t.lower_ for t in doc]  # apostrophes come straight from the parse
    lemmas = [t.lemma_.lower() for t in doc]
    for i, word in enumerate(words):
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if word in vocab.SYMBOL_WORDS and _number(nxt) is None and _money(nxt) is None:
            lemmas[i] = vocab.SYMBOL_WORDS[word]  # "# of orders", "overdue $": a word, not an amount's sign
    identifiers = []
    for token in doc:
        # "the account number for X": a number that names one thing (an identifier), never a count ("the
        # number of orders", "customer count" count); the account's is its code, any other no record holds
        named = _identifier(token)
        if named is not None:
            lemmas[token.i] = vocab.IDENTIFIER_LEMMA
            if vocab.SUBJECT_WORDS.get(named.lemma_.lower()) != "customers":
                identifiers.append(f"{named.lower_} {token.lower_}")
    signals = Signals(words=words, lemmas=lemmas, name_words=set(name_words))
    signals.unplanned = next(iter(identifiers), "")
    signals.order_number = _order_number(text)
    _read_status(doc, signals, name_words)
    _read_negation(doc, signals)
    _read_places(words, signals, name_words)
    signals.period, signals.future = read_period(words, today=today, ahead=_asks_ahead(doc))
    _read_period_beginning(words, signals)
    unread = (
        "" if signals.period is not None and signals.period.label.startswith("from today") else _unread_period(words)
    )
    signals.unplanned = signals.unplanned or unread or _unplanned_phrase(words)
    _read_numbers(doc, signals)
    _read_nouns(doc, signals, name_words)
    _read_other_words(doc, signals, name_words)
    _read_people_and_opinions(doc, signals)
    _read_change_request(doc, signals, name_words)
    signals.counted = _counted_noun(doc, name_words)
    signals.pointers = {
        t.lower_
        for t in doc
        if t.lower_ in vocab.BACK_REFERENCES
        or (t.lower_ in vocab.POINTING_PRONOUNS and t.dep_ in ("nsubj", "nsubjpass", "dobj", "pobj", "attr"))
        or (t.lower_ in vocab.POINTING_PRONOUNS and t.dep_ == "det" and t.head.lemma_ in vocab.ANSWER_NOUNS)
        # "how many orders is that": a pointer ending the question, however the parser tags it
        or (t.lower_ in vocab.POINTING_PRONOUNS and all(n.is_punct for n in doc[t.i + 1 :]) and t.i > 1)
    }
    signals.agents = {t.i for t in doc if t.dep_ == "agent"}
    signals.fmt = next((vocab.FORMAT_WORDS[w] for w in words if w in vocab.FORMAT_WORDS), "")
    if "in detail" in " ".join(words) or "more detail" in " ".join(words):
        signals.fmt = "detailed"
    signals.order_number = signals.order_number or _lone_order_number(signals)
    return signals


def _read_period_beginning(words: list[str], signals: Signals) -> None:
    """ "since Q4 started", "since the quarter began", "since the year kicked off": a verb of beginning
    within three words after "since" says where the period starts, which "since" already said (class
    period_to_or_from_now); it is read there, never elsewhere."""
    if signals.period is None:
        return
    for i, word in enumerate(words):
        if word != "since":
            continue
        for j in range(i + 2, min(i + 5, len(words))):
            if words[j] in vocab.PERIOD_BEGIN_VERBS:
                signals.phrase_words.add(words[j])
                if words[j] == "kicked" and words[j + 1 : j + 2] == ["off"]:
                    signals.phrase_words.add("off")
                break


def _lone_order_number(signals: Signals) -> str:
    """A number of five digits or more that the question holds and reads nothing else from: "how much
    was 86123 for" names an order typed without its prefix (class order_number_variant). Never when the
    question names a customer, a place, a status, an amount, a limit, a period or a subject other than
    orders, nor a number that a comparison word, a currency sign or a scale stands beside."""
    if signals.has_slot() or signals.limit is not None or signals.name_words or set(signals.subjects) - {"orders"}:
        return ""
    words = signals.words
    bare = [i for i, w in enumerate(words) if w.isdigit() and len(w) >= 5]
    if len(bare) != 1 or any(_number(w) is not None for i, w in enumerate(words) if i not in bare):
        return ""
    i = bare[0]
    before = set(words[max(0, i - 2) : i])
    after = words[i + 1] if i + 1 < len(words) else ""
    if before & (vocab.MORE_THAN | vocab.LESS_THAN | {"than", "$", "most", "about", "around", "limit"}):
        return ""
    if after in vocab.AMOUNT_SCALES or after in ("dollars", "usd", "%", "percent"):
        return ""
    return f"SO-{words[i]}"


def _identifier(token: Token) -> Token | None:
    """ "account number", "phone number of X": the noun compounded with "number" (no count is said so:
    "the number of orders", "customer count")."""
    if token.lemma_.lower() != "number":
        return None
    named = next((c for c in token.children if c.dep_ == "compound" and c.pos_ in ("NOUN", "PROPN")), None)
    if named is None or vocab.SUBJECT_WORDS.get(named.lemma_.lower()) == "orders":
        return None  # "the order number of ...": an order's own number, read where orders are
    return named


def _counted_noun(doc: Doc, name_words: set[str]) -> str:
    """The noun "how many" counts: "how many days ..." counts days, "how many overdue orders"
    orders ("" when "many" stands alone: "how many are overdue?")."""
    for token in doc:
        if token.lower_ == "many" and token.i and doc[token.i - 1].lower_ == "how":
            head = token.head
            if head.pos_ in ("NOUN", "PROPN") and head.lower_ not in name_words:
                return head.lower_
    return ""


# An order number typed without its prefix, where only an order can be meant: "status of
# 86123", "order 86123", "#86123" (five digits or more, never an amount or a year).
BARE_ORDER_NUMBER = re.compile(
    r"(?:\border(?:\s+(?:no\.?|nr\.?|num\.?|number))?|\bstatus of|#)\s*#?\s*(\d{5,})\b"
    r"(?![.,]\d|\s*(?:k|m|dollars)\b)",
    re.IGNORECASE,
)


def _order_number(text: str) -> str:
    match = ORDER_NUMBER.search(text)
    if match:
        return f"SO-{match.group(1) or match.group(2)}"
    match = BARE_ORDER_NUMBER.search(text)
    return f"SO-{match.group(1)}" if match else ""


def _negated(token: Token) -> bool:
    """A status word under negation: "not cancelled", "excluding paid", "non-cancelled", "all
    but the cancelled ones"."""
    if any(child.dep_ == "neg" for child in token.children) or any(c.dep_ == "neg" for c in token.head.children):
        return True  # "not cancelled", and "orders that aren't overdue" (the "not" hangs off "are")
    before = [t.lower_ for t in token.doc[max(token.i - 3, 0) : token.i]]
    pairs = {" ".join(pair) for pair in pairwise(before)}
    if any(w in vocab.STATUS_EXCLUDERS for w in before[-2:]) or bool(pairs & vocab.EXCLUDING_PHRASES):
        return True
    # "leave out the cancelled ones", "drop all the cancelled": the verb before its particle and article
    words = [t.lower_ for t in token.doc[max(token.i - 5, 0) : token.i]]
    while words and words[-1] in ("the", "out", "off", "any", "all", "those", "these", "of"):
        words.pop()
    if words and words[-1] in vocab.LEAVING_OUT_VERBS:
        return True
    # "dont count the cancelled ones", "not including any cancelled"
    counted = words and (words[-1] in vocab.COUNTING_VERBS or words[-1] in ("counting", "including"))
    return bool(counted) and bool({*words[-3:-1]} & {"not", "dont", "don't", "do", "never", "n't"})


def _paying(token: Token) -> str:
    """ "How much did Kestrel pay us?" asks what was paid; "pay on net 60" names terms."""
    if token.lemma_ != "pay" or token.pos_ != "VERB":
        return ""
    nxt = token.doc[token.i + 1].lower_ if token.i + 1 < len(token.doc) else ""
    return "" if nxt in vocab.TERMS_PREPOSITIONS else vocab.STATUS_WORDS["paid"]


def _read_status(doc: Doc, signals: Signals, name_words: set[str]) -> None:
    """The status a question asks for (or leaves out). An order has one status, so a status named
    beside "not <another>" is the whole condition ("shipped but not paid yet" is shipped)."""
    text = " ".join(signals.words).replace(" - ", " ")  # "past-due" as "past due"
    for phrase, phrase_status in vocab.STATUS_PHRASES.items():
        if re.search(rf"\b{re.escape(phrase)}\b", text):
            signals.phrase_words |= set(phrase.split())
            if phrase.split()[0] in vocab.STATUS_EXCLUDERS:
                _read_status_words(doc, signals, name_words)
                if signals.status and signals.status != phrase_status:
                    signals.exclude_status = ""  # implied by the status named
                    return
                signals.exclude_status = ""
            signals.status, signals.second_status = phrase_status, ""
            return
    _read_status_words(doc, signals, name_words)
    if signals.status and signals.exclude_status and signals.status != signals.exclude_status:
        signals.exclude_status = ""  # "overdue, not cancelled": the one status already leaves the other out


def _read_status_words(doc: Doc, signals: Signals, name_words: set[str]) -> None:
    for token in doc:
        word = token.lower_
        status = vocab.STATUS_WORDS.get(word) or vocab.STATUS_WORDS.get(token.lemma_.lower()) or _paying(token)
        if not status or word in name_words:
            continue
        if word in ("ship", "deliver", "cancel") and token.pos_ not in ("VERB", "ADJ"):
            continue
        if token.tag_ in ("JJR", "JJS", "RBR", "RBS"):
            continue  # "the latest contract" (lemma "late") names no status
        if _negated(token):
            signals.exclude_status = status
        elif signals.status and status != signals.status:
            # An order has one status: "delivered late", "open or overdue" name two, and a plan
            # that kept the first would answer another question.
            signals.second_status = signals.second_status or token.text
        else:
            signals.status = status


def _read_negation(doc: Doc, signals: Signals) -> None:
    """A "not" on anything but a status word: an exclusion no plan expresses, so the planner
    abstains rather than answer the question without the "not"."""
    for token in doc:
        if token.lower_ in vocab.NEGATING_DETERMINERS and token.dep_ == "det":
            signals.negated = token.text + " " + token.head.text  # "customers with no overdue orders"
            continue
        if token.dep_ != "neg":
            continue
        head = token.head
        status = vocab.STATUS_WORDS.get(head.lower_) or vocab.STATUS_WORDS.get(head.lemma_.lower())
        if status and (status == signals.exclude_status or signals.status):
            continue  # the status left out, or one the status named already leaves out ("shipped, not paid")
        if signals.exclude_status and head.lemma_.lower() in vocab.COUNTING_VERBS:
            signals.phrase_words.add(head.lower_)
            continue  # "not counting cancelled", "not including cancelled": the status left out, read above
        if head.lemma_ == "be" and any(vocab.STATUS_WORDS.get(c.lower_) for c in head.children):
            continue
        if head.lemma_.lower() in vocab.ASKING_VERBS and any(c.lower_ in ("i", "you") for c in head.children):
            continue  # "I don't need the list, just how many ...": about the answer, not the data
        signals.negated = token.text + " " + head.text
    words = signals.words
    for i, word in enumerate(words[:-1]):
        # "non-enterprise customers": no plan leaves a segment or a place out ("non-cancelled"
        # is an excluded status, read above).
        nxt = words[i + 2] if words[i + 1] == "-" and i + 2 < len(words) else words[i + 1]
        if word == "non" and not vocab.STATUS_WORDS.get(nxt):
            signals.negated = signals.negated or f"non-{nxt}"
    for i, word in enumerate(words):
        # "revenue excluding the east", "customers other than Acme": no plan leaves a region,
        # a customer or a segment out (an excluded status is read above: "excluding paid").
        if word in vocab.EXCLUDING_WORDS or " ".join(words[i : i + 2]) in vocab.EXCLUDING_PHRASES:
            after = words[i + 1 : i + 4]
            if signals.exclude_status and any(
                vocab.STATUS_WORDS.get(w, vocab.STATUS_WORDS.get(w.removesuffix("s"))) == signals.exclude_status
                for w in after
            ):
                continue
            signals.negated = signals.negated or " ".join(words[i : i + 3])


def _read_places(words: list[str], signals: Signals, name_words: set[str]) -> None:
    corpus = vocab.corpus_vocabulary()
    clean = [w.replace(".", "") for w in words]
    last_end = 0  # where the last city read ends
    for i in range(len(clean)):
        for size in range(min(corpus.longest, len(clean) - i), 0, -1):
            key = tuple(clean[i : i + size])
            if any(w in name_words for w in key):
                continue
            if key in corpus.cities and not signals.city:
                signals.city = corpus.cities[key]
                signals.place_words |= set(key)
                last_end = i + size
            elif key in corpus.cities and corpus.cities[key] != signals.city and not set(key) & signals.place_words:
                if (
                    tuple(clean[last_end:i]) in vocab.CITY_ALTERNATIVE_JOINS
                    and corpus.cities[key] not in signals.or_cities
                ):
                    # "in Omaha or Tulsa": customers in either city
                    signals.or_cities.append(corpus.cities[key])
                    signals.place_words |= set(key)
                    last_end = i + size
                else:
                    # "in Portland and Seattle": both at once is no customer; the plan does not guess
                    signals.unplanned = signals.unplanned or f"{signals.city} and {corpus.cities[key]}"
            elif key in corpus.segments and not signals.segment:
                signals.segment = corpus.segments[key]
                signals.place_words |= set(key)
    from chat.answering.values import compound_region

    compound = compound_region(clean)
    if compound is not None:
        # "the mid west", "north east": another region's name, which no record holds
        signals.unplanned = signals.unplanned or compound[1]
    inside = set(compound[0]) if compound is not None else set()
    for i, word in enumerate(clean):
        if clean[i : i + 2] in (["north", "of"], ["south", "of"]) and i + 2 < len(clean) and _is_amount(clean[i + 2]):
            continue  # "north of $25,000" is more than it, no region
        if word in vocab.REGION_WORDS and word not in name_words and i not in inside:
            region = vocab.REGION_WORDS[word]
            if signals.region and region != signals.region:
                signals.unplanned = signals.unplanned or f"{signals.region} and {region}"
            signals.region = region
    if not signals.segment and "mid" in clean and "market" in clean:
        signals.segment = corpus.segments.get(("mid", "market"), "")


def _money(word: str) -> Decimal | None:
    match = _MONEY.match(word.replace("$", ""))
    if not match:
        return None
    try:
        value = Decimal(match.group(1).replace(",", ""))
    except InvalidOperation:
        return None
    scale = (match.group(2) or "").lower()
    return value * (1000 if scale == "k" else 1_000_000 if scale == "m" else 1)


_DAY_MONTHS = frozenset({*_MONTHS, "may"})


def _read_numbers(doc: Doc, signals: Signals) -> None:
    """Top-N limits, amount thresholds ("over $10,000") and order-count thresholds
    ("more than 3 overdue orders"). Years, quarter numbers and day counts belong to periods."""
    words = signals.words
    for i, word in enumerate(words):
        value = _number(word)
        prev = words[i - 1] if i else ""
        prev2 = words[i - 2] if i > 1 else ""
        if value is not None and (prev in ("top", "bottom") or (i + 1 < len(words) and _is_rank_word(words, i + 1))):
            signals.limit = max(1, min(value, MAX_LIMIT))
            continue
        if (
            value is not None
            and 1 <= value <= 31
            and ({prev, words[i + 1] if i + 1 < len(words) else ""} & _DAY_MONTHS)
        ):
            continue  # "between 1 february and 15 april": days of months, no amounts
        comparison = _comparison(prev, prev2, words[i - 3] if i > 2 else "") or _between(words, i)
        trailing = "" if comparison else _trailing_comparison(words, i)  # "3 or more", "$500 or less"
        comparison = comparison or trailing
        if not comparison:
            if value is not None and _counts_ranked_groups(words, i):
                signals.limit = max(1, min(value, MAX_LIMIT))  # "which 3 customers spent the most"
            elif value is not None and prev in ("have", "has", "with") and words[i + 1 : i + 2] == ["contracts"]:
                signals.unplanned = _condition(words, i)  # "customers with two contracts": no plan counts them
            continue
        if value is not None and i + 1 < len(words) and words[i + 1].rstrip("s") in vocab.PERIOD_UNITS:
            # "more than 30 days overdue", "older than 2 weeks": no plan compares an age.
            signals.unplanned = _condition(words, i)
            continue
        scale = vocab.AMOUNT_SCALES.get(words[i + 1], 1) if i + 1 < len(words) else 1
        is_money = prev == "$" or word.startswith("$") or word.endswith(("k", "m")) or "," in word or scale > 1
        after = words[i + 3 : i + 6] if trailing else words[i + 1 : i + 4]
        at_least = prev == "least" or (prev == "$" and prev2 == "least") or trailing == "more"
        if not is_money and value is not None and any(w in ("order", "orders") for w in after):
            if comparison == "more":
                signals.min_orders = value - 1 if at_least else value  # "at least 3" is more than 2
            else:
                # "fewer than 3 orders", "at most 2 orders": no plan has a ceiling on the count.
                signals.unplanned = _condition(words, i)
            continue
        if value is not None and value < 100 and not is_money:
            # "more than 3 times", "over 5 contracts", "more than one contract": a count of
            # something no plan counts.
            signals.unplanned = _condition(words, i)
            continue
        amount = _money(word)
        amount = amount * scale if amount is not None else None
        if amount is None:
            continue
        # Amounts are in cents: "at least $250k" is more than $249,999.99, "at most 20k" less than 20,000.01.
        at_most = prev == "most" or (prev == "$" and prev2 == "most") or trailing == "less"
        if comparison == "more":
            signals.min_amount = amount - CENT if at_least else amount
        else:
            signals.max_amount = amount + CENT if at_most else amount
        if prev in vocab.MORE_THAN | vocab.LESS_THAN:
            signals.phrase_words.add(prev)  # "sub 2k": the comparison word is read, whatever the parser tagged it


def _condition(words: list[str], i: int) -> str:
    """The words of a comparison the plan cannot express, for the abstention: "more than 3 times"."""
    prev = words[i - 1] if i else ""
    return " ".join(words[max(i - (2 if prev in ("than", "most", "least") else 1), 0) : i + 2])


def _counts_ranked_groups(words: list[str], i: int) -> bool:
    """A number right before a plural grouping noun in a ranking question: "which 3 customers
    spent the most", "the 2 regions with the highest sales" (the number of places)."""
    nxt = words[i + 1] if i + 1 < len(words) else ""
    if i and (words[i - 1] in ("our", "all") or (i > 1 and words[i - 2] == "of")):
        return False  # "which of our 5 regions sold the most": how many there are, not the places
    group = vocab.GROUP_WORDS.get(nxt) if nxt.endswith("s") else None
    group = group or (vocab.GROUP_WORDS.get(nxt[:-1]) if nxt.endswith("s") else None)
    if group in (None, "status", "month"):
        return False
    return any(_is_rank_word(words, j) for j in range(len(words)))


def _is_rank_word(words: list[str], i: int) -> bool:
    return words[i] in vocab.TOP_WORDS | vocab.BOTTOM_WORDS  # "most" and "least" among them


def _ranked_after(words: list[str], i: int) -> bool:
    """ "Which 2 regions sold the most?", "which segment performed best?": a ranking word right
    after the verb (or after its "the") says "ranked", as "top selling" does before it."""
    j = i + 1
    if j < len(words) and words[j] == "the":
        j += 1
    return j < len(words) and _is_rank_word(words, j)


def _between(words: list[str], i: int) -> str:
    """ "between $1,000 and $5,000": the first amount is the lower bound, the second the upper."""
    before = [w for w in words[max(0, i - 5) : i] if w != "$"]
    if before[-1:] == ["between"]:
        return "more"
    if len(before) >= 3 and before[-1] == "and" and before[-3] == "between":
        return "less"
    return ""


def _comparison(prev: str, prev2: str, prev3: str = "") -> str:
    if prev == "$":
        prev, prev2 = prev2, prev3  # "more than $800k": the words before the dollar sign
    if prev in vocab.MORE_THAN or (prev == "than" and prev2 in vocab.MORE_THAN) or (prev, prev2) == ("of", "north"):
        return "more"  # "north of $25,000" too
    if prev in vocab.LESS_THAN or (prev == "than" and prev2 in vocab.LESS_THAN) or (prev, prev2) == ("most", "at"):
        return "less"  # "at most $500" (while "the most" ranks)
    if (prev, prev2) == ("of", "south"):
        return "less"
    return ""


def _trailing_comparison(words: list[str], i: int) -> str:
    """ "3 or more orders" (at least 3), "$500 or less" (at most): the comparison after the number."""
    if words[i + 1 : i + 2] != ["or"] or i + 2 >= len(words):
        return ""
    return "more" if words[i + 2] in vocab.MORE_THAN else "less" if words[i + 2] in vocab.LESS_THAN else ""


def _is_amount(word: str) -> bool:
    return word == "$" or bool(re.fullmatch(r"\$?\d[\d,.]*[km]?", word))


def _read_nouns(doc: Doc, signals: Signals, name_words: set[str]) -> None:
    """Subjects named, topics Atlas has no records for, and nouns outside the vocabulary."""
    corpus_words = vocab.corpus_vocabulary().words
    for token in doc:
        lemma = token.lemma_.lower()
        word = token.lower_
        if word in name_words or word in signals.phrase_words or token.is_punct or token.like_num:
            continue
        if word == "may" and signals.period is not None and "May" in signals.period.label.split():
            continue  # "placed in May": the month the period read, which spaCy may tag a noun
        before = signals.words[token.i - 1] if token.i else ""
        named_before = before in vocab.REGION_WORDS or before in signals.place_words or before in name_words
        if lemma in vocab.BILLING_VERBS and named_before and {"did", "does", "do"} & set(signals.words[: token.i]):
            continue  # "did central invoice more": the verb after its subject, which spaCy may tag a noun
        if word == "half" and signals.period is not None and re.match(r"H[12] ", signals.period.label):
            continue  # "2025's first half": the half year the period read
        if word in SEASONS and signals.period is not None and " to " in signals.period.label:
            continue  # "over the summer next year": the months the period read
        if lemma in vocab.OUT_OF_SCOPE or word in vocab.OUT_OF_SCOPE:
            key = lemma if lemma in vocab.OUT_OF_SCOPE else word
            verb_use = key in vocab.OUT_OF_SCOPE_NOUNS_ONLY and token.pos_ not in ("NOUN", "PROPN")
            if key == "project" and token.pos_ == "VERB":
                verb_use = False
            nxt = doc[token.i + 1].lower_ if token.i + 1 < len(doc) else ""
            if key in vocab.OUT_OF_SCOPE_NOUNS_ONLY and nxt in vocab.OBJECT_PRONOUNS:
                # "who else in the West shares it?": a verb with its object, which spaCy may tag a noun
                if lemma in vocab.HARMLESS_VERBS:
                    continue
                verb_use = True
            if not verb_use and not (key == "expect" and "renew" in signals.lemmas):
                topic = vocab.OUT_OF_SCOPE_TOPICS.get(key, token.text)
                signals.out_of_scope = signals.out_of_scope or (vocab.OUT_OF_SCOPE[key], topic)
        subject = vocab.SUBJECT_WORDS.get(lemma) or vocab.SUBJECT_WORDS.get(word)
        if subject and not (word == "business" and signals.segment):
            signals.subjects.append(subject)
            continue
        pointed_at = lemma in vocab.ANSWER_NOUNS and any(c.lower_ in vocab.POINTING_PRONOUNS for c in token.children)
        if pointed_at:
            continue  # "the top spender in that group", "in that bunch": the set the last answer showed
        if lemma in vocab.SPLITTING_VERBS and _grouped_after(signals.words, token.i):
            continue  # "split q3 sales by region": the verb, which spaCy may tag a noun as it opens the question
        if token.pos_ in ("NOUN", "PROPN") and not _known_noun(word, lemma, corpus_words):
            signals.unknown.append(word)
        elif token.pos_ not in vocab.CHECKED_POS and _unreadable(token, corpus_words):
            # "how many open orders has apac got": a word no dictionary knows, whatever the
            # parser tagged it, is read by no slot
            signals.unknown.append(word)


def _unreadable(token: Token, corpus_words: frozenset[str]) -> bool:
    """A word neither English nor the planner's nor the records' (the normaliser left it as
    typed; words other apps register, "emea" among the gate's, are no slot of a plan)."""
    from atlas import lexicon

    word = token.lower_
    if len(word) < 3 or not token.is_alpha or token.is_stop or token.pos_ in ("NOUN", "PROPN", "INTJ"):
        return False  # nouns are checked against the vocabulary; "ok", "hey" are no content
    known = lexicon.english().knows(word) or word in corpus_words
    return not (known or word in _KNOWN_OTHER_WORDS or word in _KNOWN_NOUNS)


def _read_other_words(doc: Doc, signals: Signals, name_words: set[str]) -> None:
    """Verbs, adjectives and adverbs that no slot reads and the vocabulary does not know as
    harmless ("why", "drop", "profitable"): the plan would silently ignore them, so they are
    kept, in question order, for the abstention that names the first one."""
    for token in doc:
        word, lemma = token.lower_, token.lemma_.lower()
        if word in vocab.ALWAYS_UNREAD:
            signals.unread.append(word)
            continue
        if token.pos_ not in vocab.CHECKED_POS or word in name_words or token.like_num or not word[:1].isalpha():
            continue
        if word in signals.phrase_words:
            continue
        before = token.i - 2 if token.i > 1 and signals.words[token.i - 1] == "-" else token.i - 1  # "best-selling"
        ranked = lemma in vocab.RANKED_VERBS and (
            (before >= 0 and _is_rank_word(signals.words, before)) or _ranked_after(signals.words, token.i)
        )
        opens = word in vocab.TURN_LEADS and not any(t.is_alpha for t in doc[: token.i])
        priced = word in vocab.AMOUNT_ADJECTIVES and before >= 0 and signals.words[before] in ("most", "least")
        priced = priced and signals.words[token.i + 1 : token.i + 2] in (["order"], ["orders"], ["one"])
        opens = opens or priced  # "the most expensive order": the size of one order
        if ranked or opens or word in vocab.FILLER_ADVERBS or word in vocab.WHOLE_SCOPE_WORDS or _on_the_asking(token):
            continue
        if _said_of_the_answer(token):
            continue
        if token.tag_ == "VBZ" and lemma in _KNOWN_NOUNS and token.i and doc[token.i - 1].pos_ in ("NOUN", "PROPN"):
            continue  # "renewal dates for ...": a plural noun after a noun, tagged as a verb
        if word in vocab.NEARNESS_WORDS and any(t.lemma_.lower() in vocab.RENEWAL_LEMMAS for t in doc):
            continue  # "renewing anytime soon?": the renewal date says how soon
        if lemma in vocab.SPLITTING_VERBS and _grouped_after(signals.words, token.i):
            continue  # "split that by status", "revenue in q3, split by month": the grouping says it
        if lemma in vocab.SIGNING_VERBS or (word == "new" and _signing_in(doc)):
            continue  # "who inked a deal", "new contracts signed last month": the signing, read by the plan
        if lemma in vocab.EDIT_VERBS and (signals.limit is not None or _points_in(doc)):
            continue  # "cut it to top 3", "flip it", "redo that for central": the last answer, changed
        if word in vocab.HEDGE_ACCEPTED and token.i > 1 and signals.words[token.i - 1] in ("is", "'s"):
            if signals.words[token.i - 2] in vocab.PRECISION_HEDGES:
                continue  # "ballpark is fine"
        if _describes_orders(token, signals.words):
            signals.unread.append(word)  # "completed orders": a status no order has
            continue
        if not _known_word(word, lemma, signals.place_words):
            read, meant = read_as_ordering(token)
            if read:
                # "how many orders did we book": the ordering verb in other words, read as it
                signals.readings.append((read, meant))
                signals.lemmas[token.i] = meant
                continue
            signals.unread.append(word)


def _grouped_after(words: list[str], i: int) -> bool:
    """A grouping follows ("... by status", "... out by region", "... per month", "... across our segments")."""
    return bool(_split_across(words, i + 1)) or any(
        w in vocab.GROUPING_LEADS and (vocab.GROUP_WORDS.get(nxt) or vocab.GROUP_WORDS.get(nxt.rstrip("s")))
        for w, nxt in pairwise(words[i + 1 :])
    )


def _split_across(words: list[str], start: int) -> str:
    """The groups a figure is split across ("split across our customer segments", "spread among the regions"): the
    group named in the plural after "across", "among" or "between", or ""."""
    for i in range(start, len(words) - 1):
        if words[i] not in vocab.SPLIT_ACROSS_WORDS:
            continue
        named = [w for w in words[i + 1 : i + 5] if w not in ("our", "the", "all", "my", "customer", "its", "their")]
        plural = named[0] if named and named[0].endswith("s") else ""
        if plural and (key := vocab.GROUP_WORDS.get(plural) or vocab.GROUP_WORDS.get(plural.rstrip("s"))):
            return key
    return ""


def _signing_in(doc: Doc) -> bool:
    """The question speaks of signing ("signed", "inked")."""
    return any(t.lemma_.lower() in vocab.SIGNING_VERBS or t.lower_ in vocab.SIGNING_VERBS for t in doc)


def _points_in(doc: Doc) -> bool:
    """The question points at the last answer ("it", "that", "this") somewhere."""
    return any(t.lower_ in vocab.POINTING_PRONOUNS for t in doc)


def _said_of_the_answer(token: Token) -> bool:
    """A verb whose subject is the answer just shown ("how many orders does that cover", "was that
    spread over"): it says what the answer holds, and asks nothing of the records. A status or an
    event of an order ("that was cancelled") still counts."""
    lemma = token.lemma_.lower()
    if token.pos_ != "VERB" or vocab.STATUS_WORDS.get(token.lower_) or vocab.STATUS_WORDS.get(lemma):
        return False
    return any(c.dep_ == "nsubj" and c.lower_ in vocab.POINTING_PRONOUNS for c in token.children)


def _describes_orders(token: Token, words: list[str]) -> bool:
    """A participle right before the orders that names no status ("completed orders", "closed
    orders"): what it says of the orders would be dropped, though "complete" is harmless in
    "the complete list". Statuses, the verbs of ordering and the words slots read are not."""
    word, lemma = token.lower_, token.lemma_.lower()
    if not word.endswith("ed") or token.tag_ not in ("VBN", "VBD", "JJ"):
        return False
    nxt = words[token.i + 1] if token.i + 1 < len(words) else ""
    if vocab.SUBJECT_WORDS.get(nxt.rstrip("s")) != "orders" or nxt.rstrip("s") in ("spend", "business", "revenue"):
        return False
    known = vocab.STATUS_WORDS.get(word) or vocab.STATUS_WORDS.get(lemma) or lemma in vocab.HARMLESS_VERBS
    if known or word in _SLOT_WORDS or lemma in _SLOT_WORDS:
        return False
    return not read_as_ordering(token)[0]  # "booked orders": orders placed, in other words


def _on_the_asking(token: Token) -> bool:
    """A manner word ("quickly", "real quick") on the asking itself: its first head that is not
    another manner word is the question's "be", a verb of showing or telling, or "question", or
    the manner words head the whole question ("Real quick, how many ...?" parses as "quick" ...)."""
    if token.lower_ not in vocab.MANNER_ADVERBS:
        return False
    head = token
    while head.lower_ in vocab.MANNER_ADVERBS and head.head.i != head.i:
        head = head.head
    if head.lower_ in vocab.MANNER_ADVERBS:
        return head.dep_ == "ROOT"
    return head.lemma_.lower() in vocab.ASKING_HEADS


def _read_people_and_opinions(doc: Doc, signals: Signals) -> None:
    """Questions the records cannot hold an answer to, by their grammar rather than a noun:
    a person ("who runs Saguaro Solar?") or a judgement ("do you think ... is reliable?",
    "should we extend their credit?", "is Kestrel Foods a good customer?")."""
    if signals.out_of_scope:
        return
    for token in doc:
        lemma, word = token.lemma_.lower(), token.lower_
        subjects = _subjects_of(token)
        if token.pos_ == "VERB" and lemma in vocab.PEOPLE_VERBS and "who" in subjects:
            signals.out_of_scope = (vocab.NO_FIELD_REASON, vocab.PEOPLE_TOPIC)
            return
        opinion = token.pos_ == "VERB" and lemma in vocab.OPINION_VERBS and "you" in subjects
        opinion = opinion or (
            word == "should" and token.head.pos_ == "VERB" and bool(_subjects_of(token.head) & {"we", "i"})
        )
        opinion = opinion or (token.pos_ == "NOUN" and lemma in vocab.OPINION_NOUNS)
        opinion = opinion or (token.pos_ == "ADJ" and word in vocab.OPINION_ADJECTIVES)
        if opinion:
            signals.out_of_scope = (vocab.OPINION_REASON, token.text)
            return


def _read_change_request(doc: Doc, signals: Signals, name_words: set[str]) -> None:
    """A request to change the records (atlas.record_changes): said plainly that Atlas only reads
    them, never answered with the value as it stands. A shape of answer ("change acme's orders
    to a table") is no change to the records."""
    if signals.out_of_scope or signals.fmt:
        return
    verb = change_request(doc.text, name_words=name_words)
    if verb:
        signals.out_of_scope = (vocab.CHANGE_REASON, verb)


def _subjects_of(token: Token) -> set[str]:
    return {c.lower_ for c in token.children if c.dep_ in ("nsubj", "nsubjpass")}


# The words the slots read, whatever their part of speech: statuses, regions, fields, groups,
# formats, measures, rankings, lists, comparisons, money.
_SLOT_WORDS = frozenset(
    set(vocab.STATUS_WORDS)
    | set(vocab.REGION_WORDS)
    | set(vocab.CUSTOMER_FIELDS)
    | set(vocab.CONTRACT_FIELDS)
    | set(vocab.GROUP_WORDS)
    | set(vocab.FORMAT_WORDS)
    | vocab.COUNT_WORDS
    | vocab.SUM_WORDS
    | vocab.AVERAGE_WORDS
    | vocab.TOP_WORDS
    | vocab.BOTTOM_WORDS
    | vocab.LIST_WORDS
    | vocab.COMPARE_WORDS
    | vocab.MONEY_WORDS
)

_KNOWN_NOUNS = frozenset(
    vocab.NEUTRAL_NOUNS
    | vocab.WHOLE_SCOPE_WORDS
    | {"business"}
    | _SLOT_WORDS
    | vocab.PERIOD_UNITS
    | set(_MONTHS)
    | vocab.CURRENCY_WORDS
)


def _harmless_gerund(word: str) -> bool:
    """A harmless verb the parser took for a noun in its -ing form ("sitting on anything overdue")."""
    if not word.endswith("ing") or len(word) < 6:
        return False
    stem = word[:-3]
    return bool({stem, stem + "e", stem[:-1] if stem[-1:] == stem[-2:-1] else stem} & vocab.HARMLESS_VERBS)


def _known_noun(word: str, lemma: str, corpus_words: frozenset[str]) -> bool:
    known = _KNOWN_NOUNS
    if word in known or lemma in known or ORDER_NUMBER.fullmatch(word) or _harmless_gerund(word):
        return True  # an order number
    if re.fullmatch(r"q[1-4]|h[12]|fy'?\d{2,4}", word):
        return True  # a quarter, a half year, a fiscal year
    if _TERMS.fullmatch(word):
        return True  # "net-30" names payment terms
    if _MONEY.match(word) and word[-1:].lower() in ("k", "m"):
        return True  # "$20k" is an amount, not a noun Atlas does not know
    return word.replace(".", "") in corpus_words or word in ("mid", "market", "acct")


# Words of the other parts of speech a slot reads (statuses, regions, measures, rankings,
# periods, comparisons, fields, formats) or the vocabulary knows to be harmless.
_KNOWN_OTHER_WORDS = frozenset(
    _SLOT_WORDS
    | set(vocab.SUBJECT_WORDS)
    | vocab.REVENUE_WORDS
    | vocab.TOTAL_VERBS
    | vocab.RANK_WORDS
    | vocab.MORE_THAN
    | vocab.LESS_THAN
    | vocab.PERIOD_PAST
    | vocab.PERIOD_CURRENT
    | vocab.PERIOD_FUTURE
    | vocab.PERIOD_BEFORE
    | set(vocab.ORDINALS)
    | set(vocab.NUMBER_WORDS)
    | {"monthly"}
    | vocab.STATUS_EXCLUDERS  # read by the status slot: "exclude cancelled ones"
    | vocab.SORT_VERBS  # read by a follow-up over a list: "sort those by amount"
    | vocab.HARMLESS_VERBS
    | vocab.HARMLESS_ADJECTIVES
    | vocab.HARMLESS_ADVERBS
)


def _known_word(word: str, lemma: str, place_words: set[str]) -> bool:
    """A verb, adjective or adverb the plan accounts for; a word of a city or segment counts only
    where it named the filter ("New York", not "new customers")."""
    if word in _KNOWN_OTHER_WORDS or lemma in _KNOWN_OTHER_WORDS:
        return True
    if lemma in vocab.STATUS_LABEL_VERBS and word != lemma:
        return True  # "orders marked paid": the status is read by its own slot
    if ORDER_NUMBER.fullmatch(word) or QUARTER.fullmatch(word) or _TERMS.fullmatch(word):
        return True  # an order number, a quarter, payment terms ("net-30")
    return word.replace(".", "") in place_words


# --- periods -------------------------------------------------------------------------------------


def _unread_period(words: list[str]) -> str:
    """A period the plan would misread: "before March" or "after Q2" (one side of a month or
    quarter, not the month itself), "from Q1 2025 to Q2 2025" (two of them, one plan period)
    and "which quarter" (no grouping by it)."""
    anchors = [i for i, w in enumerate(words) if w in _MONTHS or QUARTER.fullmatch(w)]
    for i in anchors:
        day = day_of_month(words, i) if words[i] in _MONTHS else 0
        if day and day > month_end(2024, _MONTHS[words[i]]).day:
            return f"{day} {words[i]}"  # "31 February": no such day (2024 has every day there is)
        if i and words[i - 1] == "before" and words[i] in _MONTHS and dated_side(words, i):
            continue  # "before May this year": 1 January to 30 April (atlas.periods)
        if i and words[i - 1] in vocab.PERIOD_SIDES or words[max(i - 2, 0) : i] == ["prior", "to"]:
            return f"{words[i - 1]} {words[i]}"
    # Every period named: a month or quarter (with its year), a year on its own, "this year".
    years = [
        i
        for i, w in enumerate(words)
        if YEAR.fullmatch(w) and not {i - 1, i - 2} & set(anchors) and words[i - 1 : i] != ["acct"]
    ]
    relative = [
        i
        for i, w in enumerate(words[:-1])
        if w in ("this", "last", "next", "previous") and words[i + 1] in vocab.PERIOD_UNITS
    ]
    ranged = bool(range_anchors(words) or day_range_anchors(words))
    if (len(anchors) == 1 or ranged) and [words[i + 1] for i in relative] == ["year"] and not years:
        relative = []  # "Q1 last year", "march to june this year": the year qualifies the quarter or months
    named = sorted([*anchors, *years, *relative])
    if len(named) > 1 and not (ranged and not relative):
        first, last = (" ".join(words[i : i + 2]) if i in relative else words[i] for i in (named[0], named[-1]))
        return f"{first} to {last}"
    for i, word in enumerate(words[:-1]):
        unit = words[i + 1]
        if word in ("which", "what") and unit in vocab.PERIOD_UNITS and unit not in vocab.GROUP_WORDS:
            return f"{word} {unit}"  # "which quarter had the most sales": no plan groups by quarter
    return ""


def _unplanned_phrase(words: list[str]) -> str:
    """A condition on orders that no record holds ("shipped on time")."""
    text = f" {' '.join(words)} "
    found = next((phrase for phrase in vocab.UNPLANNED_PHRASES if f" {phrase} " in text), "")
    # "the second biggest order", "who came in second": a place in the ranking, which the plans
    # (the top N) do not give; "on the 2nd" with no month: a day no plan dates.
    for i, word in enumerate(words):
        after = words[i + 1] if i + 1 < len(words) else ""
        if after == "-" and i + 2 < len(words):
            after = words[i + 2]  # "the third-biggest order"
        before = words[i - 1] if i else ""
        if word in vocab.ORDINALS and vocab.ORDINALS[word] > 1:
            ranked = after in vocab.TOP_WORDS | vocab.BOTTOM_WORDS or before in vocab.PLACE_VERBS
            if ranked and after not in vocab.PERIOD_UNITS and after not in _MONTHS and after != "of":
                found = found or f"{word} {after}".strip()
        day = re.fullmatch(r"\d{1,2}(?:st|nd|rd|th)", word)
        if day and after not in _MONTHS and after not in vocab.PERIOD_UNITS and after != "of" and before not in _MONTHS:
            found = found or f"the {word}"
    # "net 30" is a payment term; "net revenue" is a figure after deductions no record holds.
    net = next((i for i, w in enumerate(words[:-1]) if w == "net" and not words[i + 1].isdigit()), None)
    return found or ("" if net is None or words[net + 1] == "terms" else f"net {words[net + 1]}")


# --- deciding the plan ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Context:
    """What the session contributes: the customers the question names (resolved), the focus,
    whether the question refers back to it, the previous plan and the filters still alive."""

    named: tuple[CustomerRef, ...] = ()
    focus: CustomerRef | None = None
    refers_back: bool = False
    last_plan: QueryPlan | None = None
    carried: dict[str, str] = field(default_factory=dict)
    unknown_names: tuple[str, ...] = ()  # names that look like a customer but match none
    unknown_codes: tuple[str, ...] = ()  # account codes the question gives that no customer has
    last_order: str = ""  # the one order the previous answer showed: what "it" and "its" refer to
    # the day the customer asked about signed their current contract, when the question counts
    # from it ("since they signed"): looked up by the turn, as the planner reads no records
    signed_on: date | None = None


@dataclass(frozen=True)
class Planned:
    result: QueryPlan | Abstention
    stated: dict[str, str]  # the filter slots the question itself stated (they restart their decay)
    follow_up: bool = False
    fmt: str = ""
    readings: tuple[tuple[str, str], ...] = ()  # words read by meaning, said in the answer


_JARGON = re.compile(
    r"\b(" + "|".join(re.escape(p) for p in sorted(vocab.JARGON, key=len, reverse=True)) + r")\b", re.I
)
_YARDSTICK = "(?:" + "|".join(re.escape(w) for w in vocab.MONEY_YARDSTICK_WORDS) + ")"
_MONEY_YARDSTICK = re.compile(rf"(?<!\w)(in\s+{_YARDSTICK}\s+terms|{_YARDSTICK}\s*-?\s*wise)(?!\w)", re.I)


def _in_plain_words(text: str) -> tuple[str, list[tuple[str, str]]]:
    """The question with jargon for a measure in the plain words the planner reads ("avg ticket
    size" -> "average order value", "dollar-wise" -> "in total value"), and each phrase read so,
    for the answer to say."""
    read: list[tuple[str, str]] = []

    def plain(match: re.Match[str]) -> str:
        meant = vocab.JARGON[match.group(1).lower()]
        read.append((match.group(1), meant))
        return meant

    def yardstick(match: re.Match[str]) -> str:
        read.append((match.group(1), vocab.MONEY_YARDSTICK_READING))
        return vocab.MONEY_YARDSTICK_READING

    return _MONEY_YARDSTICK.sub(yardstick, _JARGON.sub(plain, text)), read


def plan_question(text: str, context: Context, *, today: date) -> Planned:
    """The plan for ``text`` in this session, or the reason no plan covers it. A remark after the
    question that adds nothing to it ("..., net what", "..., just checking", "..., calendar 2025 i
    mean") is set aside rather than left to make the whole question unreadable."""
    said = _words(text)
    if said & shared_vocab.PLEASANTRIES and said <= set(shared_vocab.SMALL_TALK_WORDS):
        return Planned(Abstention(vocab.NO_PLAN_REASON, ""), {})  # "ok thanks": acknowledged, nothing re-asked
    planned = _plan_question(text, context, today=today)
    aside = _before_an_aside(text, context, today=today, lenient=isinstance(planned.result, Abstention))
    if aside is not None:
        return aside
    if not isinstance(planned.result, Abstention):
        return planned
    led = _after_the_lead(text, context, today=today)
    if led is not None:
        return led
    return _before_a_remark(text, context, today=today) or planned


_REJECTED = re.compile(
    r"(?:\s*,)?\s+(?:and\s+)?not\s+(?:the\s+|a\s+|an\s+)?(?P<what>[a-z$]+(?:\s+[a-z$]+){0,2}?)(?=\s*(?:[,.;!?-]|pls\b|please\b|$))",
    re.IGNORECASE,
)


def _without_rejected_measure(text: str) -> str:
    """The question without a measure named only to be turned down ("mean not median", "the count not
    the dollar value", ", not revenue"), when another measure is asked for beside it."""
    for match in _REJECTED.finditer(text):
        rejected = match.group("what").lower().split()
        rest = text[: match.start()] + text[match.end() :]
        if set(rejected) <= vocab.REJECTED_MEASURE_WORDS and set(_words(rest)) & vocab.REJECTED_MEASURE_WORDS:
            return _without_rejected_measure(rest)
    return text


def _before_a_remark(text: str, context: Context, *, today: date) -> Planned | None:
    """The question before a short remark that adds nothing to it or asks nothing of the records."""
    for head, remark in _remark_splits(text):
        if len(_words(head)) < 3 or not 0 < len(_words(remark)) <= MAX_REMARK_WORDS:
            continue
        asked = _plan_question(head, context, today=today)
        if not isinstance(asked.result, QueryPlan):
            continue
        if _adds_nothing(remark, head, asked.result, today=today) or not _asks_of_the_records(
            remark, context, today=today
        ):
            return asked
    return None


# The first break after a lead ("a quick q before a meeting - ...", "ok diff question, ...",
# "sorry to bug you again but ...", "new q: ...").
_LEAD_BREAK = re.compile(r"(?:[,;:!]|\.(?=\s)|\s[-\u2013\u2014]|\bbut\b|\s:-?\))\s+")
MAX_LEAD_WORDS = 8


def _after_the_lead(text: str, context: Context, *, today: date) -> Planned | None:
    """The question after a lead that asks nothing of the records (no name, filter, period,
    measure, number or subject of its own), when the whole turn found no plan. A lead that changes
    the subject ("diff question", "unrelated", "switching gears") leaves the last question behind."""
    split = _LEAD_BREAK.search(text)
    if split is None:
        return None
    lead, rest = text[: split.start()], text[split.end() :]
    if not 0 < len(_words(lead)) <= MAX_LEAD_WORDS or len(_words(rest)) < 2:
        return None
    greeting = _words(lead) <= set(shared_vocab.SMALL_TALK_WORDS)  # "good morning all": no opinion asked
    asks = not greeting and _asks_of_the_records(lead, context, today=today)
    if asks and not _only_places(lead, context, today=today):
        return None
    if set(_words(lead)) & vocab.TOPIC_CHANGE_WORDS:
        context = Context(named=context.named, unknown_names=context.unknown_names)
    asked = _plan_question(rest, context, today=today)
    if isinstance(asked.result, Abstention):
        # the rest may end in an aside of its own ("hey atlas, what did X spend? pulling numbers for a qbr")
        aside = _before_an_aside(rest, context, today=today, lenient=True)
        asked = aside or _before_a_remark(rest, context, today=today) or asked
    if asks and isinstance(asked.result, QueryPlan) and not _places_agree(lead, asked.result, today=today):
        return None  # "for the east region - what's the total": the lead's place narrows the question
    return asked if not isinstance(asked.result, Abstention) else None


def _places_agree(lead: str, plan: QueryPlan, *, today: date) -> bool:
    """The question after the lead is about named customers, or names every place the lead names
    ("prepping a deck for the west crew - what's the west's revenue"): the lead narrows nothing."""
    if plan.filters.customers:
        return True
    said = read_question(lead, name_words=set(), today=today)
    return all(
        not getattr(said, slot) or getattr(said, slot) == getattr(plan.filters, slot)
        for slot in ("region", "city", "segment")
    )


def _only_places(lead: str, context: Context, *, today: date) -> bool:
    """A lead that names a place or the records only in passing ("prepping a deck for the north crew",
    "quick one for the orders team"): no name, status, period, measure, number, format or comparison
    of its own, so it cannot narrow a question about one customer."""
    said = read_question(lead, name_words=set(), today=today)
    if said.status or said.exclude_status or said.period or said.order_number or _measure(said):
        return False
    if said.limit is not None or said.min_amount is not None or said.max_amount is not None or said.out_of_scope:
        return False
    if set(said.words) & (set(vocab.FORMAT_WORDS) | vocab.COMPARE_WORDS):
        return False
    return not _words(lead) & {w for ref in context.named for w in _words(ref.name)}


def _asks_of_the_records(said_text: str, context: Context, *, today: date) -> bool:
    """Whether a lead or a remark beside the question asks anything of the records: a name, a
    filter, a period, a measure, a number, a subject, a format or a comparison of its own. "quick one
    before my 2pm", "need it for the deck", "boss is asking" ask nothing."""
    said = read_question(said_text, name_words=set(), today=today)
    if said.has_slot() or said.subjects or said.order_number or _measure(said) or said.limit is not None:
        return True
    if said.min_amount is not None or said.max_amount is not None or said.out_of_scope:
        return True
    if _asks_for_unknown(said.words, said.unknown):
        return True  # "need the approver": a thing asked for, which no record holds
    if set(said.words) & (set(vocab.FORMAT_WORDS) | vocab.COMPARE_WORDS):
        return True
    return bool(_words(said_text) & {w for ref in context.named for w in _words(ref.name)})


# Breaks before a remark, last first ("..., net what", "...? just checking", "... - roughly is fine",
# "... . sorting out territories").
_REMARK_BREAK = re.compile(r"(?:[,;?!]|\.(?=\s)|\s[-\u2013\u2014])\s+")
MAX_REMARK_WORDS = 8
MAX_LENIENT_REMARK_WORDS = 14
MAX_BRACKETED_WORDS = 24
_BRACKETED = re.compile(r"\(([^()]{1,120})\)")
_PURPOSE_TAIL = re.compile(r"\s+for\s+(?:a|an)\s+[a-z]+(?:\s+[a-z]+)?$", re.IGNORECASE)


def _remark_splits(text: str) -> list[tuple[str, str]]:
    """The question cut at each break before a remark, the last break first."""
    text = text.rstrip(" ?!.")
    splits = [(text[: m.start()], text[m.end() :]) for m in reversed(list(_REMARK_BREAK.finditer(text)))]
    # "the acct number for acme for a quote": a purpose with "a" or "an" at the end
    purpose = _PURPOSE_TAIL.search(text)
    if purpose is not None:
        splits.append((text[: purpose.start()], text[purpose.start() :].strip()))
    # "... (avg is fine)", "(rough is ok) - south team wants it": a remark in brackets, and what is around it
    bracketed = _BRACKETED.search(text)
    if bracketed is not None:
        around = f"{text[: bracketed.start()]} {text[bracketed.end() :]}".strip(" ,-")
        splits.insert(0, (around, bracketed.group(1)))
        splits[1:1] = [(h, r) for h, r in _remark_splits(around) if r != bracketed.group(1)]
    return splits


def _before_an_aside(text: str, context: Context, *, today: date, lenient: bool = False) -> Planned | None:
    """The question before an aside: a statement after it about why it is asked or who wants it
    ("- they want to place a big order", ". sorting out territories for next yr", "? boss wants to
    know"). The aside's own words ("big order", "next yr") are no part of the question, even where
    they would read as a measure or a period. An aside sets no filter, name or limit, and is no
    question, clarification ("i mean ...") or instruction ("only the first five")."""
    # a name's own full stop ("Acme Co. looking for ...") is no break before a remark
    dotted = {w.lower() for ref in context.named for w in ref.name.split() if w.endswith(".")}
    for head, remark in _remark_splits(text):
        if head.split() and f"{head.split()[-1].lower()}." in dotted:
            continue
        # a question no plan read whole may carry a longer remark; one in brackets is one by its marks
        longest = MAX_BRACKETED_WORDS if f"({remark})" in text else MAX_LENIENT_REMARK_WORDS if lenient else 0
        if len(_words(head)) < 3 or not 0 < len(_words(remark)) <= max(longest, MAX_REMARK_WORDS):
            continue
        if _is_aside(remark, context, today=today):
            asked = _plan_question(head, context, today=today)
            if isinstance(asked.result, QueryPlan) and not _asks_another_field(remark, asked.result):
                return asked
        elif _PURPOSE_TAIL.fullmatch(f" {remark}"):
            # a purpose after a field looked up ("... for an invoice"): the field, never the orders it names
            asked = _plan_question(head, context, today=today)
            if isinstance(asked.result, QueryPlan) and asked.result.field and asked.result.filters.customers:
                return asked
        elif lenient:
            asked = _plan_question(head, context, today=today)
            if isinstance(asked.result, QueryPlan) and _is_aside(remark, context, today=today, plan=asked.result):
                return asked
    return None


def _asks_another_field(remark: str, plan: QueryPlan) -> bool:
    """ "acme supply - renewal coming up?": the part after the break names a field of the
    contract the part before does not ask, so it is the question, not an aside."""
    fields = {vocab.CONTRACT_FIELDS.get(w) for w in _words(remark)} - {None}
    return bool(fields) and plan.field not in fields


def _asks_for_unknown(words: list[str], unknown: list[str]) -> bool:
    """ "need the approver", "want their fax number": an asking verb and, right after it, a thing
    no record holds (what "need it for the deck" never says)."""
    return any(
        w in vocab.ASKING_VERBS and any(u in unknown for u in words[i + 1 : i + 3] if u not in ("the", "their", "its"))
        for i, w in enumerate(words)
    )


def _is_aside(remark: str, context: Context, *, today: date, plan: QueryPlan | None = None) -> bool:
    """``plan``: the question's plan without the remark; a place the remark names cannot narrow a
    question about named customers ("- south team wants it"), nor an order's status a lookup of a
    contract or customer ("(sales were moaning about overdue orders but i just need the limit)")."""
    doc = parse(remark)
    words = [t.lower_ for t in doc if not t.is_punct]
    if not words or words[0] in vocab.QUESTION_OPENERS:
        return False
    said = read_question(remark, name_words=set(), today=today)
    lacking = [*said.unknown, said.out_of_scope[1]] if said.out_of_scope else said.unknown
    if _asks_for_unknown(words, lacking):
        return False  # "need the delivery address", "need the approver": what is asked, which the records lack
    places = () if plan is not None and plan.filters.customers else (said.region, said.city, said.segment)
    lookup = plan is not None and plan.subject in ("contracts", "customers")
    # "any overdue orders for X? they keep telling me everythings been paid": what someone says, no status asked
    hearsay = plan is not None and any(t.lemma_.lower() in vocab.HEARSAY_VERBS for t in doc if t.pos_ == "VERB")
    slots = (*places, *(() if lookup or hearsay else (said.status, said.exclude_status)), said.order_number)
    if any(slots) or said.limit is not None or said.min_amount is not None or said.max_amount is not None:
        return False
    if set(words) & (set(vocab.FORMAT_WORDS) | vocab.COMPARE_WORDS):
        return False
    if _words(remark) & {w for ref in context.named for w in _words(ref.name)}:
        return False
    first = next(t for t in doc if not t.is_punct)
    if plan is not None and first.lower_ in vocab.PURPOSE_LEADS:
        return True  # "want to get ahead of them before the north review", "for the board pack"
    if first.tag_ == "VBG":  # "trying to see ...", "sorting out territories", not "excluding ..." or "sorted by"
        return first.lemma_.lower() not in vocab.RESHAPING_VERBS or any(c.dep_ == "prt" for c in first.children)
    for token in doc:
        if token.dep_ not in ("nsubj", "nsubjpass") or token.head.pos_ not in ("VERB", "AUX"):
            continue
        subject, verb = token.lower_, token.head.lemma_.lower()
        if subject in ("you", "u"):
            return False  # "can you also ...": a request
        return not (subject == "i" and verb in vocab.CLARIFYING_VERBS)  # "i mean ...", "i only want ..."
    return False


def _adds_nothing(remark: str, head: str, plan: QueryPlan, *, today: date) -> bool:
    """Whether a remark restates or softens what the question already asked: each of its words is
    one of the question's, a word of remark ("just checking", "roughly is fine", "i mean"), the
    field the question asks in other words ("net" of payment terms) or the period it states again
    ("q1 2026, like jan thru march"); and it sets no filter, bound or period of its own."""
    said = read_question(remark, name_words=set(), today=today)
    asked = read_question(head, name_words=set(), today=today)
    for slot in ("region", "city", "segment", "status", "exclude_status"):
        if getattr(said, slot) and getattr(said, slot) != getattr(plan.filters, slot):
            return False
    if said.limit is not None or said.min_amount is not None or said.max_amount is not None or said.order_number:
        return False
    period = plan.filters.period
    if said.period is not None and (
        period is None or (said.period.start, said.period.end) != (period.start, period.end)
    ):
        return False
    known = set(asked.words) | set(asked.lemmas) | vocab.REMARK_WORDS
    if said.period is not None:
        known |= period_words(said.words, today=today)
    if plan.field:
        known |= {w for w, name in vocab.CONTRACT_FIELDS.items() if name == plan.field}
    return all(w in known or lemma in known for w, lemma in zip(said.words, said.lemmas, strict=True) if w.isalnum())


def _plan_question(text: str, context: Context, *, today: date) -> Planned:
    """The plan for ``text`` as a whole."""
    # The words of the customers this question names; the focus's name is not among them unless
    # named again ("Which customer in Kansas City ..." after Bayou City Fabrication).
    name_words = {w for ref in context.named for w in _words(ref.name)}
    name_words |= {w for name in context.unknown_names for w in _words(name)}
    name_words |= {w + "s" for w in name_words if w.isalpha()}  # "Lakeshore Printings credit limit"
    if context.named:
        # "who's ACCT-53554": an account code names its customer as the name does (chat.tools)
        name_words |= {m.group().lower() for m in vocab.ACCOUNT_CODE_IN_TEXT.finditer(text)}
    text, plain = _in_plain_words(text)
    text = _without_rejected_measure(text)
    since = vocab.SINCE_SIGNING.search(text) if context.signed_on is not None else None
    if since is not None:
        text = f"{text[: since.start()]} {text[since.end() :]}"  # a period, not the signing date asked
    signals = read_question(text, name_words=name_words, today=today)
    if since is not None and context.signed_on is not None and signals.period is None:
        signed = context.signed_on
        signals.period = Period(f"since signing on {signed.day} {signed:%b %Y}", signed, today)
    signals.readings[:0] = plain
    same = _same_period_moved(signals, context)
    if same is not None:
        signals.period = same  # "and the same week in 2024": the last answer's period, moved
    back = _period_referred_back(signals.words)
    if back and signals.period is None:
        # "... that year", "the same period": the period still alive from the last question, and
        # no answer over all dates when there is none.
        signals.period = Filters.from_slots(context.carried).period
        if signals.period is None:
            return Planned(Abstention(vocab.NO_PLAN_REASON, back), {}, fmt=signals.fmt)
    stated = _stated_filters(signals)
    fmt = signals.fmt
    if not signals.out_of_scope and not signals.order_number:
        from chat.answering.comparisons import plan_comparison

        compared = plan_comparison(signals, context, today=today)
        if compared is not None:
            return Planned(compared, stated, fmt=fmt, readings=tuple(signals.readings))
    beside_order = _unknown_beside_order_number(text, signals) if signals.order_number else ""
    if signals.order_number and not signals.out_of_scope and not beside_order:
        # An order number names one record exactly: its card answers the status, date, amount or
        # customer asked for, and remarks in another clause ("finance is chasing", "it hasn't
        # arrived") change nothing in it. A field no order holds is still out of scope, and an
        # unknown noun in the order number's own clause ("the tracking number for ...") abstains.
        held = _field_of_its_customer(signals)
        if held is not None:
            # "what region is the customer on SO-88141 in": the customer's record (or contract), not the order's
            order = QueryPlan("lookup", held[0], order_number=signals.order_number, field=held[1])
        else:
            order = QueryPlan("lookup", "orders", order_number=signals.order_number, field=_order_field(signals))
        return Planned(order, {}, fmt=fmt)
    abstain = _abstention(signals, context)
    if abstain is not None:
        if abstain.reason in vocab.NO_PLAN_REASONS and _measure(signals):
            abstain = replace(abstain, figure=True)
        return Planned(abstain, stated, fmt=fmt)
    if signals.order_number:
        if beside_order:
            return Planned(Abstention(vocab.NO_PLAN_REASON, beside_order), {}, fmt=fmt)
        order = QueryPlan("lookup", "orders", order_number=signals.order_number, field=_order_field(signals))
        return Planned(order, {}, fmt=fmt)
    if context.last_order and _about_that_order(signals, context):
        # "Which state is it in?", "the day it was placed?", "how much was it?" after the largest
        # order: that order's card. A count or a ranking of one order asks nothing it can answer.
        if _measure(signals) not in ("", "sum"):
            return Planned(Abstention(vocab.NO_PLAN_REASON, "it"), stated, fmt=fmt)
        order = QueryPlan("lookup", "orders", order_number=context.last_order, field=_order_field(signals))
        return Planned(order, {}, fmt=fmt)
    ranked = _groups_of_the_orders_shown(signals, context)
    if ranked is not None:
        # "what city holds most of these" after a list of orders: those orders, per city
        return Planned(ranked, stated, follow_up=True, fmt=fmt, readings=tuple(signals.readings))
    listed = _listed_customers(signals, context)
    if listed is not None:
        # "How many orders did those place in May?" after "who do we have in Boston?": the
        # customers just listed, as the places that listed them.
        if isinstance(listed, Abstention):
            return Planned(listed, stated, fmt=fmt)
        signals.region, signals.city, signals.segment = listed.region, listed.city, listed.segment
        signals.or_cities = list(listed.or_cities)
        if {"which", "who"} & set(signals.words):
            # "which one spent more last month": of the customers listed, the one at the top
            # ("which of them spent more than 10k" keeps its bound)
            if "than" not in signals.words:
                signals.words = [vocab.SUPERLATIVE_OF.get(w, w) for w in signals.words]
                signals.lemmas = [vocab.SUPERLATIVE_OF.get(w, w) for w in signals.lemmas]
        ranks = _measure(signals) == "rank" or (_measure(signals) == "average" and _ranks_the_average(signals))
        signals.each_listed = _each_of_them(signals.words) or ranks
        context = replace(context, refers_back=False, focus=None)
        result = _fresh_plan(text, signals, context)
        return Planned(result, stated, fmt=fmt, readings=tuple(signals.readings))
    if context.last_plan is not None and _is_follow_up(text, signals, context):
        plan = _swap(context.last_plan, signals, context)
        moved = isinstance(plan, QueryPlan) and plan.filters.period != signals.period
        if isinstance(plan, QueryPlan) and (_unit_before(signals) or moved) and plan.filters.period is not None:
            stated = {**stated, "period": plan.filters.slots()["period"]}  # a period the follow-up set
        return Planned(plan, stated, follow_up=True, fmt=fmt, readings=tuple(signals.readings))
    result = _fresh_plan(text, signals, context)
    if isinstance(result, QueryPlan):
        from chat.answering.verdicts import as_yes_no, asks_yes_no

        if asks_yes_no(signals.words, or_read=bool(signals.or_cities)):
            result = as_yes_no(result, signals, context)
    return Planned(result, stated, fmt=fmt, readings=tuple(signals.readings))


_CLAUSE_BREAK = re.compile(r"[,;!?]+|(?<!\bno)(?<!\bnr)\.(?:\s|$)|\s[-\u2013\u2014]\s")


def _unknown_beside_order_number(text: str, signals: Signals) -> str:
    """An unknown noun in the clause that holds the order number, one asked for in another ("... ?
    need the approver"), or a thing said to cost something on the order ("what did shipping cost us
    on SO-..."): the word, or "" (an order's own field words, "cost" of the order, are no unknown)."""
    unknown = [w for w in signals.unknown if w not in vocab.ORDER_FIELD_WORDS]
    for clause in _CLAUSE_BREAK.split(text):
        said = {w.lower() for w in re.findall(r"[\w'-]+", clause)}
        asked = [w for w in unknown if w in said]
        if said & vocab.ASKING_VERBS and asked:
            return asked[0]
    for costed in _COSTED.finditer(ORDER_NUMBER.sub(" SO ", text.lower())):
        thing = costed["thing"] or costed["noun"]
        if thing not in vocab.ORDER_SELF_WORDS and thing not in vocab.COST_LEADS:
            return thing
    for clause in _CLAUSE_BREAK.split(text):
        if _order_number(clause):
            rest = BARE_ORDER_NUMBER.sub(" ", ORDER_NUMBER.sub(" ", clause))  # "order no. 86804" is no noun
            words = {w.lower() for w in re.findall(r"[\w'-]+", rest)}
            return next((w for w in unknown if w in words), "")
    return unknown[0] if unknown else ""


# "what did shipping cost us on ...": what is said to cost something
_COSTED = re.compile(
    r"\b(?:did|does|do|will|would)\s+(?:the\s+)?(?P<thing>[a-z]+)\s+cost\b"
    r"|\b(?P<noun>[a-z]+)\s+costs?\b"  # "the shipping cost on ..."
)


def _listed_customers(signals: Signals, context: Context) -> Filters | Abstention | None:
    """The set "them", "those", "they" point back to when the previous answer listed customers:
    its places (region, city, segment), or an abstention when the list was drawn by a condition
    no order filter holds (payment terms, totals, counts of orders). None when the question does
    not point back to a list of customers, or states its own customers or places."""
    last = context.last_plan
    if last is None or last.subject != "customers" or last.filters.customers:
        return None
    if last.kind not in ("list", "count") or last.group_by:
        return None  # the customers shown, or counted ("how many ... are there", then "which of them")
    one = (
        bool({"one", "ones"} & set(signals.words)) and "which" in signals.words
    )  # "which one(s) ...": of those just listed
    if not (signals.pointers or one) or context.named or _reshaped(last, signals) is not None:
        return None  # "how many is that": the customers listed are counted, by the follow-up
    if signals.region or signals.city or signals.segment:
        return None
    if "customers" in signals.subjects and not set(signals.words) & vocab.BACK_REFERENCES:
        return None  # "which customers spent most" asks afresh; "of those, who's the top spender" picks
    about_orders = "orders" in signals.subjects or bool(set(signals.lemmas) & (vocab.MONEY_WORDS | vocab.REVENUE_WORDS))
    if not (about_orders or _measure(signals) in ("count", "sum", "average", "rank") or _picks_by_contract(signals)):
        return None  # "what are their payment terms": no figure of their orders asked
    f = last.filters
    conditions = (
        f.status,
        f.exclude_status,
        f.period,
        f.min_amount is not None,
        f.max_amount is not None,
        last.terms,
        last.min_total is not None,
        last.max_total is not None,
        last.min_orders is not None,
        last.peers,
    )
    if any(conditions) or not (f.region or f.city or f.segment):
        return Abstention(vocab.NO_PLAN_REASON, "them")
    return Filters(region=f.region, city=f.city, segment=f.segment, or_cities=f.or_cities)


def _picks_by_contract(signals: Signals) -> bool:
    """ "which ones pay on net 45", "any of those renewing before april", "which ones have a
    credit limit over 50k": some of the customers listed, picked by their contract."""
    words = set(signals.words)
    picks = bool(words & {"which", "who", "any"}) or "one" in words or "ones" in words
    return picks and bool(_contract_fields(signals) or set(signals.lemmas) & vocab.RENEWAL_WORDS)


def _field_of_its_customer(signals: Signals) -> tuple[str, str] | None:
    """A field the order's customer holds, asked of an order number ("the region of the customer on
    SO-88141", "SO-88685's acct code", "what terms is the buyer of SO-86011 on"): the customer's
    record or contract; None when the question asks for the order's own fields. "where" alone asks
    where the order is (its status), not where its customer is."""
    asked = _contract_fields(signals)
    if asked:
        return "contracts", asked[0] if len(asked) == 1 else ""
    for lemma, word in zip(signals.lemmas, signals.words, strict=True):
        name = vocab.CUSTOMER_FIELDS.get(word) or vocab.CUSTOMER_FIELDS.get(lemma)
        if name and word != "where" and word not in signals.name_words:
            return "customers", name
    return None


def _order_field(signals: Signals) -> str:
    """The one field of an order the question asks for ("Date", "Status", "Amount",
    "Customer"), or "" when it asks for none or for several (the whole card)."""
    asked = {vocab.ORDER_FIELD_WORDS[w] for w in signals.words if w in vocab.ORDER_FIELD_WORDS}
    return asked.pop() if len(asked) == 1 else ""


def _about_that_order(signals: Signals, context: Context) -> bool:
    """ "its amount", "the day it was placed", "that order's state": a question about the one order
    just shown, naming no customer, no other records and no filter of its own."""
    words = signals.words
    pointing = bool({"it", "its"} & set(words)) or any(
        a in ("that", "this") and b in ("order", "one") for a, b in pairwise(words)
    )
    pointing = pointing or bool(signals.pointers & vocab.POINTING_PRONOUNS)  # "when was that", standing alone
    if not pointing or context.named or signals.has_slot() or set(words) & vocab.AGENT_PRONOUNS:
        return False  # "the credit limit of whoever placed it": its customer's, not the order's
    return set(signals.subjects) <= {"orders"} and not signals.unknown and not signals.unread


def _groups_of_the_orders_shown(signals: Signals, context: Context) -> QueryPlan | None:
    """ "What city holds most of these?", "which client had the fewest of those": the orders the
    last list showed (every filter of it), ranked per customer, region, segment or city, by how
    many unless money is asked. None unless the question points back at a list of orders and
    ranks a grouping noun, with nothing of its own (no customer, filter or other subject)."""
    last = context.last_plan
    if last is None or last.subject != "orders" or last.kind != "list" or last.group_by or context.named:
        return None
    if not signals.pointers & vocab.BACK_REFERENCES or signals.has_slot() or _measure(signals) != "rank":
        return None
    if set(signals.subjects) - {"customers", "orders"} or signals.unknown or signals.unread:
        return None
    groups = [
        (vocab.GROUP_WORDS.get(w) or vocab.GROUP_WORDS.get(w.rstrip("s")), w)
        for w in signals.words
        if w not in signals.name_words
    ]
    group, noun = next(((g, w) for g, w in groups if g and g not in ("status", "month")), ("", ""))
    if not group:
        return None
    words = set(signals.words)
    order = "asc" if words & vocab.BOTTOM_WORDS and not words & vocab.TOP_WORDS else "desc"
    by_count = not set(signals.lemmas) & vocab.MONEY_WORDS
    limit = DEFAULT_TOP if noun.endswith("s") and noun != "status" else 1
    return QueryPlan(
        "rank", "orders", last.filters, group_by=group, order=order, limit=limit, measure="count" if by_count else ""
    )


def _same_period_moved(signals: Signals, context: Context) -> Period | None:
    """ "same week in 2024", "same half two years ago", "the same window of 2023": the
    last answer's period moved to the year said (a whole year named, or years "ago"), never the
    whole year itself. The words it read are read."""
    last = context.last_plan
    previous = last.filters.period if last is not None else None
    words = signals.words
    at = next((i for i, (a, b) in enumerate(pairwise(words)) if a == "same" and b in vocab.SAME_PERIOD_NOUNS), None)
    if previous is None or at is None:
        return None
    stated = signals.period
    read = {words[at + 1]}
    if stated is not None and (stated.start.month, stated.start.day, stated.end.month, stated.end.day) == (
        1,
        1,
        12,
        31,
    ):
        year = stated.start.year
    else:
        ago = next(
            (
                i
                for i in range(at + 2, len(words) - 1)
                if words[i] in ("year", "years") and words[i + 1] in vocab.AGO_WORDS
            ),
            None,
        )
        back = _number(words[ago - 1], counts=True) if ago is not None else None
        if stated is not None or not back or ago is None:
            return None
        year = previous.start.year - back
        read |= {words[ago], words[ago + 1], words[ago - 1]}
    if year >= previous.start.year:
        return None  # the same period this year is the one already answered
    signals.phrase_words |= read
    signals.unknown = [w for w in signals.unknown if w not in read]
    signals.unread = [w for w in signals.unread if w not in read]
    return same_period_in_year(previous, year)


def _period_referred_back(words: list[str]) -> str:
    """ "that year", "the same period", "that quarter": a period named by pointing back, or ""."""
    units = {*vocab.PERIOD_UNITS, "period"}
    return next((f"{a} {b}" for a, b in pairwise(words) if a in ("that", "same") and b in units), "")


def _words(name: str) -> set[str]:
    return {w.lower().replace("’", "'") for w in re.findall(r"[\w'’.-]+", name)} | {
        w.lower() for w in re.findall(r"\w+", name)
    }


def _stated_filters(signals: Signals) -> dict[str, str]:
    return _filters(signals, ()).slots()


def _abstention(signals: Signals, context: Context) -> Abstention | None:
    documents = "documents" in signals.subjects
    # A document may talk about prices or forecasts; nothing in the records translates or forecasts weather.
    # (a request to change the records is one whatever a policy document says about it)
    if signals.out_of_scope and (
        not documents or signals.out_of_scope[0] in (vocab.OUTSIDE_REASON, vocab.CHANGE_REASON)
    ):
        return Abstention(*signals.out_of_scope)
    lemmas = set(signals.lemmas)
    about_orders = "orders" in signals.subjects or bool(lemmas & vocab.MONEY_WORDS)
    renewals = "contracts" in signals.subjects
    if about_orders and not renewals and (signals.future or ("will" in signals.words and "going" not in lemmas)):
        return Abstention(vocab.FORECAST_REASON, "future")
    if signals.negated or signals.unplanned:
        return Abstention(vocab.NO_PLAN_REASON, signals.negated or signals.unplanned)
    graded = _graded_customers(signals)
    if graded and _measure(signals) in ("average", "sum", "count"):
        # "the average order for our big customers": which customers are big the records do not
        # say (the enterprise segment? the top ten?), so the word is not read, not ignored.
        return Abstention(vocab.UNREAD_WORD_REASON, graded)
    if lemmas & vocab.OWING_WORDS and not signals.status and "credit_limit" not in _contract_fields(signals):
        # "What does X owe us?": open, shipped and overdue orders are all unpaid; which of them
        # counts as owed the question must say ("past due", "overdue").
        return Abstention(vocab.NO_PLAN_REASON, "owe")
    if signals.second_status:
        return Abstention(vocab.UNREAD_WORD_REASON, signals.second_status)
    if _average_of_counts(signals) and not documents:
        return Abstention(vocab.NO_PLAN_REASON, "average")  # "the average number of orders per customer"
    if _averaged(signals) and set(signals.words) & vocab.TOTAL_NOUNS and "order" not in signals.lemmas:
        # "the average revenue per customer" averages each customer's total; the plans average orders.
        return Abstention(vocab.NO_PLAN_REASON, "average")
    days_to_pay = signals.counted == "days" and _contract_fields(signals) == ["payment_terms"] and context.named
    if signals.counted and not documents and not _countable(signals.counted) and not days_to_pay:
        return Abstention(vocab.NO_PLAN_REASON, "how many")  # "how many days ...": not a count of records
    unsupported = [w for w in (*signals.lemmas, *signals.words) if w in vocab.UNSUPPORTED_MEASURES]
    if unsupported and not documents:
        return Abstention(vocab.NO_PLAN_REASON, unsupported[0])
    if context.unknown_names and not context.named:
        return Abstention(vocab.UNKNOWN_CUSTOMER_REASON, context.unknown_names[0])
    if context.unknown_codes:
        return Abstention(vocab.UNKNOWN_CODE_REASON, context.unknown_codes[0])
    unknown = [w for w in signals.unknown if w not in ("else", "other", "others")]
    if unknown and not documents:
        return Abstention(vocab.NO_PLAN_REASON, unknown[0])
    unread = _first_unread(signals)
    if unread and not documents:
        return Abstention(vocab.UNREAD_WORD_REASON, unread)
    return None


def _graded_customers(signals: Signals) -> str:
    """A vague grade on the customers ("big customers", "major accounts"), or ""."""
    for word, nxt in pairwise(signals.words):
        subject = vocab.SUBJECT_WORDS.get(nxt) or vocab.SUBJECT_WORDS.get(nxt.rstrip("s"))
        if word in vocab.VAGUE_GRADES and subject == "customers":
            return word
    return ""


def _average_of_counts(signals: Signals) -> bool:
    """An average and a count asked together ("the average number of days", "the average order
    count per region"): an average of counts, which no plan computes."""
    counted = "how many" in " ".join(signals.words) or any(
        lemma in vocab.COUNT_WORDS and (i == 0 or signals.words[i - 1] != "to")
        for i, lemma in enumerate(signals.lemmas)
    )
    return counted and _averaged(signals)


def _countable(noun: str) -> bool:
    """A noun "how many" may count: the records' own (orders, customers, contracts) or "ones"."""
    known = {*vocab.SUBJECT_WORDS, *vocab.STATUS_WORDS, "one"}  # "how many cancellations": cancelled orders
    return noun in known or noun.rstrip("s") in known


def _first_unread(signals: Signals) -> str:
    """The first verb, adjective or adverb of the question no slot reads ("" when every one is)."""
    return signals.unread[0] if signals.unread else ""


# Measures a follow-up may change on a plan over orders ("And how many overdue?" after a total).
_SWAPPABLE_MEASURES = ("count", "sum", "average")


def _is_follow_up(text: str, signals: Signals, context: Context) -> bool:
    """A fragment that leans on the previous question: no subject and no measure of its own,
    or a lead ("and ...") with only a count, total or average over the same orders."""
    lowered = " ".join(signals.words)
    lead = lowered.startswith(_FOLLOW_UP_LEADS)
    # "And net 60?" after customers on net 30: the terms swap (or abstain on a plan without
    # terms), though "net" also names a contract's field ("Kestrel Foods on net 30?" asks it).
    swaps_terms = bool(payment_terms(signals)) and not context.named
    last = context.last_plan
    if last is not None and not context.named and _edits_ranking(signals, last):
        return True  # "cut it to top 3 and just the south", "flip it": the ranking just shown, edited
    if last is not None and not context.named and _narrows(signals):
        return True  # "just the open ones", "enterprise only": the set just shown, narrowed
    if last is not None and last.kind == "rank" and last.group_by and _reranked(signals) is not None:
        # "now by number of orders" after a ranking; one that names what it ranks ("rank all
        # five regions by ...") is a ranking of its own.
        grouped = any(vocab.GROUP_WORDS.get(w) or vocab.GROUP_WORDS.get(w.rstrip("s")) for w in signals.words)
        return lead and not context.named and not grouped
    if last is not None and not context.named and _reshaped(last, signals) is not None:
        return True  # "how much is that in total", "list them", "which one was lowest", "by region?"
    if last is not None and _contract_picked(signals, last) and not context.named:
        return True  # "highest credit limit out of those" after renewals listed
    if last is not None and _picks_from_the_set(signals, last) and not context.named:
        return True  # "biggest single order in there", "which of those was the smallest order"
    if _names_a_subject(signals, last, lead=lead) or (_field(signals, context) and not swaps_terms):
        return False
    measure = _measure(signals)
    if _picks_one(signals, measure) and last is not None and last.subject == "orders" and not last.group_by:
        return True  # "what's the biggest one" after the orders just counted or listed
    if measure:
        return (
            (lead or _refers_to_last(signals))
            and measure in _SWAPPABLE_MEASURES
            and last is not None
            and last.subject == "orders"
            and last.kind in (*_SWAPPABLE_MEASURES, "list")
            and not last.group_by
        )
    content = [
        w
        for w, lemma in zip(signals.words, signals.lemmas, strict=True)
        if w.isalnum() and w not in {"and", "what", "about", "how", "the", "in", "for", "same", "as", "a", "then"}
    ]
    return lead or signals.has_slot() or bool(context.named) or bool(signals.fmt) or not content


def _names_a_subject(signals: Signals, last: QueryPlan | None, *, lead: bool) -> bool:
    """Whether the question names records of its own. A word for money coming in ("revenue",
    "spend") names the orders, but after a question about the orders it only says what to measure
    ("and the revenue?", "same thing, revenue instead", "and what did they spend?"); so does the
    orders' own noun in "the same" asked another way ("same but order count", "order count instead").
    "now show the overdue orders for the south" names its own orders and starts afresh."""
    if last is None or last.subject != "orders" or not signals.subjects:
        return bool(signals.subjects)
    measured = vocab.REVENUE_WORDS | vocab.TOTAL_NOUNS
    named = {
        subject
        for w, lemma in zip(signals.words, signals.lemmas, strict=True)
        if (subject := vocab.SUBJECT_WORDS.get(lemma) or vocab.SUBJECT_WORDS.get(w)) and not {w, lemma} & measured
    }
    same = bool(signals.words) and (signals.words[0] == "same" or "instead" in signals.words)
    return bool(named - {"orders"}) or bool(named) and not (lead and same)


def _picks_from_the_set(signals: Signals, last: QueryPlan) -> bool:
    """ "what was the biggest single order in there", "which of those was the smallest order": one
    order picked by size from the orders the last answer totalled, counted or listed, pointed at
    ("those", "them", "in there", "out of that") and with no filter or subject of its own."""
    words = signals.words
    pointed = bool(set(words) & vocab.BACK_REFERENCES) or any(
        a in ("in", "from", "of") and b in ("there", "that", "those") for a, b in pairwise(words)
    )
    if not pointed or last.subject != "orders" or last.group_by or signals.has_slot():
        return False
    sized = bool(set(words) & vocab.SIZE_WORDS)
    return sized and set(signals.subjects) <= {"orders"} and _measure(signals) == "rank"


def _edits_ranking(signals: Signals, last: QueryPlan) -> bool:
    """ "cut it to top 3 and just the south", "flip it - who are the bottom 5", "now only
    enterprise, and just the top 4", "widen that to top 5": the ranking just shown, with a new
    size, direction, filter or period, and nothing else asked (no customer, subject or measure of
    its own)."""
    if last.kind != "rank" or not last.group_by or signals.order_number:
        return False
    words, lemmas = set(signals.words), set(signals.lemmas)
    sized = vocab.TOP_WORDS | vocab.BOTTOM_WORDS | vocab.SIZE_WORDS
    # "and the smallest?", "and the bottom 5?", "what about the lowest one": the ranking turned round, nothing else said
    pointed_group = {  # "that segment", "the same region": the set shown, not a new grouping
        nxt for w, nxt in pairwise(signals.words) if w in ("that", "this", "same") and _group_word(nxt)
    }
    bare = bool(words & sized) and all(
        w in sized
        or w in vocab.BARE_FOLLOW_UP_WORDS
        or w in pointed_group
        or w.isdigit()
        or w in vocab.NUMBER_WORDS
        or not w.isalnum()
        for w in signals.words
    )
    edited = lemmas & vocab.EDIT_VERBS or words & vocab.EDIT_MARKERS or bare
    if not edited or _measure(signals) not in ("", "rank") or set(_own_subjects(signals)) - {"customers"}:
        return False
    if (not bare and _group_by(signals) not in ("", last.group_by)) or _reranked(signals) is not None:
        return False
    turned = bool(lemmas & vocab.FLIP_VERBS or words & (vocab.TOP_WORDS | vocab.BOTTOM_WORDS))
    return signals.limit is not None or turned or bool(_stated_filters(signals))


def _edited_ranking(last: QueryPlan, signals: Signals) -> QueryPlan:
    """The last ranking with what the edit states: its size, its direction (reversed by "flip",
    "bottom" or "top" said outright), its filters (each stated one replacing the last's)."""
    words, lemmas = set(signals.words), set(signals.lemmas)
    order = last.order
    if words & vocab.BOTTOM_WORDS:
        order = "asc"
    elif words & vocab.TOP_WORDS:
        order = "desc"
    elif lemmas & vocab.FLIP_VERBS:
        order = "asc" if last.order == "desc" else "desc"
    slots = {**last.filters.slots(), **_stated_filters(signals)}
    filters = Filters.from_slots(slots, last.filters.customers)
    return replace(last, filters=filters, order=order, limit=signals.limit or last.limit)


def _group_word(word: str) -> bool:
    """A word naming a grouping ("segment", "regions", "customer")."""
    return bool(vocab.GROUP_WORDS.get(word) or vocab.GROUP_WORDS.get(word.rstrip("s")))


def _top_customer_there(signals: Signals, last: QueryPlan) -> bool:
    """ "which customer up there was the biggest", "who was the top customer there", "and the
    smallest?" after a region's total or count: a customer of the orders the last figure covered,
    ranked, with nothing of its own (no place, customer, status or period)."""
    if last.subject != "orders" or last.kind not in ("sum", "count", "average") or last.group_by:
        return False
    if last.filters.customers or signals.has_slot() or signals.order_number:
        return False
    words, lemmas = set(signals.words), set(signals.lemmas)
    # "which of them spent the least": a customer, by what each spent
    spent = "which" in words and bool(lemmas & (vocab.TOTAL_VERBS | {"spend", "order"}))
    asks_customer = "customers" in _own_subjects(signals) or bool(words & {"who", "whos", "whom"}) or spent
    pointed = bool(words & vocab.PLACE_POINTERS) or bool(signals.pointers) or bool(words & vocab.BACK_REFERENCES)
    return asks_customer and pointed and _measure(signals) == "rank"


def _contract_picked(signals: Signals, last: QueryPlan) -> bool:
    """ "highest credit limit out of those", "out of that lot who has the biggest credit line":
    the one contract of those just listed with the largest (or smallest) credit limit."""
    if last.subject != "contracts" or last.kind != "list" or last.field or signals.has_slot():
        return False
    words = set(signals.words)
    pointed = bool(signals.pointers) or bool(words & vocab.BACK_REFERENCES) or "lot" in words
    sized = bool(words & (vocab.SIZE_WORDS | vocab.TOP_WORDS | vocab.BOTTOM_WORDS))
    return pointed and sized and _contract_fields(signals) == ["credit_limit"]


def _narrows(signals: Signals) -> bool:
    """ "small business only", "just the open ones": a filter added to the set the last answer
    showed, and nothing else asked (no verb, period, number or other content word)."""
    words = signals.words
    if not set(words) & vocab.NARROWING_WORDS or signals.period is not None or signals.limit is not None:
        return False
    if not (signals.status or signals.exclude_status or signals.segment or signals.region or signals.city):
        return False
    rest = [
        w
        for w, lemma in zip(words, signals.lemmas, strict=True)
        if w.isalnum()
        and w not in signals.place_words | signals.phrase_words | vocab.NARROWING_WORDS | vocab.NARROWING_FILLER
        and w not in vocab.REGION_WORDS
        and not (vocab.STATUS_WORDS.get(w) or vocab.STATUS_WORDS.get(lemma))
        and vocab.SUBJECT_WORDS.get(lemma) not in ("customers", "orders")
    ]
    return not rest


def _picks_one(signals: Signals, measure: str) -> bool:
    """ "the biggest one", "which ones the biggest": one of the orders (or groups) just shown, by size."""
    words = set(signals.words)
    one = bool(words & {"one", "ones"})
    # "and the smallest?", "what about the lowest?", "cheapest?": the size word is all it says
    bare = words - vocab.SIZE_WORDS <= _BARE_FOLLOW_UP_WORDS
    return measure == "rank" and (one or bare) and bool(words & vocab.SIZE_WORDS) and not context_free(signals)


_BARE_FOLLOW_UP_WORDS = frozenset({"and", "what", "about", "the", "how", "n", "then", "so", "ok", "now", "?"})


def _own_subjects(signals: Signals) -> list[str]:
    """The subjects the question names, leaving out a grouping noun ("by customer")."""
    out = []
    for i, (word, lemma) in enumerate(zip(signals.words, signals.lemmas, strict=True)):
        subject = vocab.SUBJECT_WORDS.get(lemma) or vocab.SUBJECT_WORDS.get(word)
        if subject and not (i and signals.words[i - 1] in vocab.GROUPING_LEADS) and word not in signals.name_words:
            out.append(subject)
    return out


def _reshaped(last: QueryPlan, signals: Signals) -> QueryPlan | None:
    """The very set the last answer showed, asked again in another shape, or None: its total
    ("how much is that in total"), its count ("how many is that"), its records ("list them"), its
    top or bottom one ("which one was lowest"), grouped ("break it down by region") or sorted
    ("sort those by amount"). Every filter of the last plan holds: "that" is what was shown,
    whatever has decayed from the session's slots."""
    if _contract_picked(signals, last):  # "biggest credit line out of that lot": one of those contracts
        order = "asc" if set(signals.words) & vocab.BOTTOM_WORDS else "desc"
        return QueryPlan("rank", "contracts", last.filters, field="credit_limit", order=order, limit=1)
    if _picks_from_the_set(signals, last):  # "the biggest single order in there": one of those orders
        order = "asc" if set(signals.words) & vocab.BOTTOM_WORDS else "desc"
        return QueryPlan("rank", "orders", last.filters, order=order, limit=1)
    own = set(_own_subjects(signals))
    measure = _measure(signals)
    pointed = bool(signals.pointers)
    orders = last.subject == "orders"
    if _top_customer_there(signals, last):
        # "which customer up there was the biggest" after the North's total: its customers ranked
        order = "asc" if set(signals.words) & vocab.BOTTOM_WORDS else "desc"
        return QueryPlan("rank", "orders", last.filters, group_by="customer", order=order, limit=signals.limit or 1)
    there = bool(set(signals.words) & vocab.PLACE_POINTERS)  # "how many orders are we talking there"
    if orders and (pointed or there) and measure == "count" and own == {"orders"} and last.kind in ("sum", "average"):
        # "and how many orders is that" after a total: the orders behind it, counted as it summed
        # them (cancelled ones left out when the total left them out)
        if last.group_by or signals.has_slot() or signals.limit is not None:
            return None
        summed = last.filters
        if not (summed.status or summed.exclude_status or last.include_cancelled):
            summed = replace(summed, exclude_status="cancelled")
        return replace(last, kind="count", filters=summed, limit=None, order="desc")
    if own or signals.has_slot() or signals.limit is not None:
        return None
    words, lemmas = set(signals.words), set(signals.lemmas)
    group = _group_by(signals)
    if group and not last.group_by and last.kind in (*_SWAPPABLE_MEASURES, "list") and not measure:
        if not orders and group not in ("region", "segment", "city"):
            return None
        kind = last.kind if last.kind in _SWAPPABLE_MEASURES else "sum" if orders else "count"
        return replace(last, kind=kind, group_by=group, limit=None)
    if _picks_one(signals, measure) or (measure == "rank" and "which" in words and words & vocab.SIZE_WORDS):
        order = "asc" if words & vocab.BOTTOM_WORDS else "desc"
        if last.group_by and orders and last.kind in ("sum", "count", "rank") and last.group_by != "status":
            by_count = last.kind == "count" or last.measure == "count"
            return replace(last, kind="rank", order=order, limit=1, measure="count" if by_count else "")
        if orders and not last.group_by and last.kind in ("list", "count", "sum", "rank"):
            return QueryPlan("rank", "orders", last.filters, order=order, limit=1)
        return None
    if lemmas & vocab.SORT_VERBS and orders and last.kind == "list":
        order = "asc" if words & vocab.BOTTOM_WORDS else "desc"
        return replace(last, kind="rank", order=order, limit=None)
    if not pointed or last.group_by:
        return None
    if measure == "count" and last.kind in ("list", "rank") and (orders or last.subject == "customers"):
        return replace(last, kind="count", limit=None, order="desc")
    if measure == "sum" and orders and last.kind in ("list", "rank", "count"):
        return replace(last, kind="sum", limit=None, order="desc")
    if not measure and lemmas & vocab.SHOW_VERBS and last.kind in ("count", "sum", "average"):
        return replace(last, kind="list", limit=None)
    return None


def context_free(signals: Signals) -> bool:
    """The question names its own scope (a region, a city, a segment, a status)."""
    return bool(signals.region or signals.city or signals.segment or signals.status)


def _reranked(signals: Signals) -> str | None:
    """What a follow-up re-ranks by: "count" ("now by number of orders", "by count"), ""
    ("by revenue", "by value"), or None when it does not say."""
    words = signals.words
    for i, word in enumerate(words[:-1]):
        if word != "by":
            continue
        named = _measure_named(set(words[i + 1 : i + 4]) | set(signals.lemmas[i + 1 : i + 4]))
        if named is not None:
            return named
    if words and (words[0] == "same" or "instead" in words):
        return _measure_named(set(words) | set(signals.lemmas))  # "same for revenue", "order count instead"
    return None


def _measure_named(words: set[str]) -> str | None:
    """The measure a few words name: "average" ("avg order value"), "count" ("number of orders"),
    "" (money: "revenue", "value"), or None."""
    if words & vocab.AVERAGE_WORDS:
        return "average"
    if words & (vocab.COUNT_WORDS | {"how"}):
        return "count"
    if words & (vocab.MONEY_WORDS | vocab.SUM_NOUNS | vocab.REVENUE_WORDS):
        return ""
    return None


def _refers_to_last(signals: Signals) -> bool:
    """ "What's their total value?" after "How many overdue orders does X have?": a pronoun for
    the orders just counted, so the new measure is over the same orders (filters included)."""
    return bool(set(signals.words) & vocab.BACK_REFERENCES)


def _swap(last: QueryPlan, signals: Signals, context: Context) -> QueryPlan | Abstention:
    """The previous plan with the slots the follow-up states swapped in; filters the follow-up
    does not restate carry only while they are alive (two turns, design rule: bounded state)."""
    if _edits_ranking(signals, last) and not context.named:
        return _edited_ranking(last, signals)
    slots = {k: v for k, v in context.carried.items() if k in last.filters.slots()}
    if _narrows(signals) and not context.named:
        slots = dict(last.filters.slots())  # the set just shown, every filter of it
    if context.named:
        # "ok and acme's spend this yr" after a question about the Central region: a
        # customer named afresh is in its own place; a place the follow-up does not restate goes
        for place in ("region", "city", "segment"):
            slots.pop(place, None)
    slots.update(_stated_filters(signals))
    if signals.status:
        slots.pop("exclude_status", None)
    reshaped = _reshaped(last, signals) if not context.named else None
    if reshaped is not None:
        return reshaped
    customers = context.named or last.filters.customers
    filters = Filters.from_slots(slots, tuple(customers))
    terms = payment_terms(signals)
    if terms and not context.named:
        # "And net 45?": the terms swap on a list of customers; no other plan takes them.
        if not last.terms:
            return Abstention(vocab.NO_PLAN_REASON, "payment terms")
        last = replace(last, terms=terms)
    moved = _same_grain_in_year(last.filters.period, signals.period)
    if moved is not None:
        filters = replace(filters, period=moved)
    unit = _unit_before(signals)
    if unit:
        earlier = period_before(filters.period, unit)
        if earlier is None:
            return Abstention(vocab.NO_PLAN_REASON, f"the {unit} before")
        filters = replace(filters, period=earlier)
    if last.subject in ("contracts", "customers") and (signals.status or signals.exclude_status):
        # "And the overdue ones?" after a contract or customer lookup asks about that customer's orders.
        # A period carried from a renewals question is not a period of orders.
        return QueryPlan("list", "orders", replace(filters, period=filters.period if signals.period else None))
    if _picks_one(signals, _measure(signals)) and last.subject == "orders":
        order = "asc" if set(signals.words) & vocab.BOTTOM_WORDS else "desc"
        return QueryPlan("rank", "orders", filters, order=order, limit=1)
    limit = signals.limit or last.limit
    reranked = _reranked(signals) if last.kind == "rank" else None
    if reranked is not None:
        # The same ranking measured another way: every filter it had holds, with what is restated.
        kept = Filters.from_slots({**last.filters.slots(), **_stated_filters(signals)}, last.filters.customers)
        return replace(last, filters=kept, limit=limit, measure=reranked)
    # "and the revenue?", "what did they spend": a word for money coming in asks for the total
    money_in = set(signals.words) | set(signals.lemmas)
    measure = _measure(signals) or ("sum" if money_in & vocab.REVENUE_WORDS or _summed_by_verb(signals) else "")
    kind = measure if measure in _SWAPPABLE_MEASURES and last.kind in _SWAPPABLE_MEASURES else last.kind
    if measure in _SWAPPABLE_MEASURES and last.kind == "list":
        kind = measure
    return replace(last, kind=kind, filters=filters, limit=limit)


def _same_grain_in_year(previous: Period | None, stated: Period | None) -> Period | None:
    """ "And last year?" after September: September of last year. A follow-up naming only a
    whole year keeps the grain of the period it follows (a month, a quarter, a half) and moves it
    to that year (design rule: a follow-up swaps only the slot it states)."""
    if previous is None or stated is None:
        return None
    whole_year = (stated.start.month, stated.start.day, stated.end.month, stated.end.day) == (1, 1, 12, 31)
    if not whole_year or stated.start.year != stated.end.year:
        return None
    if previous.start.year != previous.end.year or (previous.start.month, previous.end.month) == (1, 12):
        return None  # the previous period is itself a year, or spans two: the year replaces it
    relative = vocab.PERIOD_PAST | vocab.PERIOD_CURRENT | vocab.PERIOD_FUTURE | {"the", "since", "from"}
    if previous.label.split()[0].lower() in relative:
        return None  # "last month", then "what about this year?": the year itself
    moved = shift_period(previous, months=12 * (stated.start.year - previous.start.year))
    old_year = str(previous.start.year)
    if moved is not None and previous.label.endswith(old_year):
        # "Q3 2025" -> "Q3 2026", "H1 2025" -> "H1 2026": the grain keeps its name
        moved = replace(moved, label=previous.label[: -len(old_year)] + str(moved.start.year))
    return moved


def _unit_before(signals: Signals) -> str:
    """ "the month before", "the year before that", "the quarter prior": the unit moved back."""
    words = signals.words
    for i, word in enumerate(words[:-1]):
        if word in vocab.PERIOD_UNITS and words[i + 1] in vocab.PERIOD_BEFORE and signals.period is None:
            return word
    return ""


def _bound_words(signals: Signals) -> set[str]:
    """ "least"/"most" in "at least 5", "at most 3": a bound, not a ranking."""
    words = signals.words
    return {w for i, w in enumerate(words) if w in ("least", "most") and i and words[i - 1] == "at"}


def _measure(signals: Signals) -> str:
    words = set(signals.words) - signals.place_words - _bound_words(signals)
    lemmas = set(signals.lemmas) - signals.place_words
    text = " ".join(signals.words)
    if words & vocab.COMPARE_WORDS:
        return "compare"
    counted = any(
        lemma in vocab.COUNT_WORDS
        and (i == 0 or signals.words[i - 1] not in ("to", "not", "without"))
        and not _values_shown(signals.words, i)
        for i, lemma in enumerate(signals.lemmas)
    )  # "count of open orders", not "to count in Q4" or "not counting cancelled ones"
    sizing = set()
    if re.search(r"\bhow (?:big|large)\b", text):
        sizing = {"big", "large"}  # "how big is X's book of business": the size asked, no ranking
    ranked = signals.limit is not None or bool((words - sizing) & (vocab.TOP_WORDS | vocab.BOTTOM_WORDS))
    ranked = ranked or bool(lemmas & vocab.RANK_WORDS)
    # "rank the regions by how many orders they placed" is a ranking, not a count
    if ("how many" not in text or "by how many" in text) and ranked and _ranked_by_count(signals):
        return "rank"  # "the largest number of orders", "rank the segments by number of orders"
    if "how many" in text or counted:
        return "count"
    if _averaged(signals):
        return "average"
    if ranked:
        return "rank"
    # "the value of ...", and "open order value" (a money noun on the orders) with no ranking or average
    # ("orders worth more than $15,000" is a condition on each order, not a total)
    valued = any(w in vocab.SUM_NOUNS and nxt == "of" for w, nxt in pairwise(signals.words)) or any(
        vocab.SUBJECT_WORDS.get(a) == "orders"
        and b in vocab.SUM_NOUNS
        and not {*signals.words[i + 2 : i + 3]} & (vocab.MORE_THAN | vocab.LESS_THAN)
        for i, (a, b) in enumerate(pairwise(signals.lemmas))
    )
    if (lemmas | words) & vocab.SUM_WORDS or "how much" in text or valued or _summed_by_verb(signals):
        return "sum"  # the word too: "combined" is lemmatised to "combine"
    if _billed(signals) or _worth_asked(signals):
        return "sum"
    return ""


def _values_shown(words: list[str], i: int) -> bool:
    """ "top 3 regions w/ numbers", "with the figures": the values shown beside a ranking, no count."""
    shown = words[i] in ("numbers", "figures") and words[i + 1 : i + 2] != ["of"]
    leads = {"with", "w", "w/", "incl", "including", "plus", "and", "show", "give", "actual"}
    return shown and bool({*words[max(i - 3, 0) : i]} & leads)


def _summed_by_verb(signals: Signals) -> bool:
    """ "add up to", "come to", "amount to", "bring in", "generate": a total of money asked for with a verb."""
    if set(signals.lemmas) & vocab.REVENUE_VERBS:
        return True
    pairs = list(zip(signals.lemmas[:-1], signals.words[1:], strict=True))
    if any(pair in vocab.SUM_VERB_PHRASES for pair in pairs):
        return True
    words = signals.words
    # "what" opening the question or a clause of it ("all customers combined, what did we book")
    opens = [i for i, w in enumerate(words) if w == "what" and (i == 0 or words[i - 1] in (",", ";", ":", "-"))]
    if not opens or "orders" in signals.subjects:
        return False
    if any(pair in vocab.ORDERING_PHRASES for pair in pairs):
        return True
    # "what did we book", "what have they bought": the ordering verb with "what" for its object
    # asks for the value ordered ("what customers did we book" asks who)
    asked = words[opens[0] + 1 : opens[0] + 2] in (["did"], ["do"], ["does"], ["have"], ["has"], ["had"])
    return asked and bool(set(signals.lemmas[opens[0] :]) & (vocab.TOTAL_VERBS | {"spend", "order"}))


def _total_for(signals: Signals) -> bool:
    """ "the total for enterprise customers", "total from our Boston clients": the noun "total" of
    whoever it is for (their orders' value), unlike "total clients up north" (how many); "the sum
    of everything still open, all customers" likewise, unless what it is the sum of is a head count
    ("the total of clients up north")."""
    words, lemmas = signals.words, signals.lemmas
    for i, (w, nxt) in enumerate(pairwise(words)):
        if w not in vocab.SUM_WORDS:
            continue
        after = lemmas[i + 2] if i + 2 < len(lemmas) else ""
        if (
            nxt in ("for", "from", "by")
            or nxt == "of"
            and vocab.SUBJECT_WORDS.get(after) not in ("customers", "contracts")
        ):
            return True
    return False


def _total_booked(signals: Signals) -> bool:
    """ "total we booked across all custs": the total of what was booked (a verb of ordering with
    the total), unless the total is of the customers themselves ("total customers who booked")."""
    words = signals.words
    if not set(signals.lemmas) & vocab.TOTAL_VERBS:
        return False
    lemmas = signals.lemmas
    counted = any(
        w in vocab.SUM_WORDS
        and "customers" in (vocab.SUBJECT_WORDS.get(words[i + 1]), vocab.SUBJECT_WORDS.get(lemmas[i + 1]))
        for i, w in enumerate(words[:-1])
    )
    return not counted and bool(set(words) & vocab.SUM_WORDS)


def _billed(signals: Signals) -> bool:
    """ "What was X charged in May?", "the amount billed to the North": what was billed is the
    orders' amounts, so the question asks for their total. "Which customers did we bill" asks
    who, and "show me the invoices" lists."""
    words = signals.words
    if {"which", "who", "whom", "whose"} & set(words):
        return False
    if any(w == "what" and vocab.SUBJECT_WORDS.get(nxt.rstrip("s")) == "customers" for w, nxt in pairwise(words)):
        return False  # "an invoice with ACCT-13352 on it, what customer is that": who, not how much
    return any(
        lemma in vocab.BILLING_VERBS and word != lemma + "s" and not word.endswith("ces")
        for word, lemma in zip(signals.words, signals.lemmas, strict=True)
    )


def _worth_asked(signals: Signals) -> bool:
    """ "What was the business we did with X worth?": "what ... worth" asks for a value."""
    words = signals.words
    return "what" in words and "worth" in words and words.index("what") < words.index("worth")


def _averaged(signals: Signals) -> bool:
    """An average asked for: "the mean order value", not "I meant the open orders"."""
    words = signals.words
    for i, lemma in enumerate(signals.lemmas):
        if lemma not in vocab.AVERAGE_WORDS:
            continue
        speaker = i > 0 and words[i - 1] in vocab.PRONOUNS
        if lemma == "mean" and (words[i] != "mean" or speaker):
            continue
        return True
    return False


def _ranked_by_count(signals: Signals) -> bool:
    """A count word right after a ranking word or "by": "the most number of", "by number of",
    "by order count", "by how many"."""
    rank_words = vocab.TOP_WORDS | vocab.BOTTOM_WORDS | {"by"}
    words = signals.words
    if "by how many" in " ".join(words):
        return True

    def after_a_rank_word(i: int) -> bool:
        while i > 0 and words[i - 1] in ("the", "order", "orders"):
            i -= 1
        return i > 0 and words[i - 1] in rank_words

    return any(lemma in vocab.COUNT_WORDS and after_a_rank_word(i) for i, lemma in enumerate(signals.lemmas))


def _field(signals: Signals, context: Context) -> tuple[str, str] | None:
    """A single record's field: ("contracts", "payment_terms"), ("customers", "segment"); two or
    more of a contract's fields asked at once are its whole record ("contracts", "")."""
    asked = _contract_fields(signals)
    if asked:
        return "contracts", asked[0] if len(asked) == 1 else ""
    lemmas, words = signals.lemmas, signals.words
    if context.named or context.refers_back:
        for lemma, word in zip(lemmas, words, strict=True):
            if word in signals.name_words:  # "Bayou City Fabrication" asks for no city
                continue
            name = vocab.CUSTOMER_FIELDS.get(word) or vocab.CUSTOMER_FIELDS.get(lemma)
            if name and not (word == "where" and "orders" in signals.subjects):
                return "customers", name
    return None


def _contract_fields(signals: Signals) -> list[str]:
    """The contract fields a question asks for, in its order, each once."""
    lemmas, words = signals.lemmas, signals.words
    present = set(lemmas) | set(words)
    asked: list[str] = []
    for i, (lemma, word) in enumerate(zip(lemmas, words, strict=True)):
        if word in signals.name_words:
            continue
        name = vocab.CONTRACT_FIELDS.get(lemma) or vocab.CONTRACT_FIELDS.get(word)
        # "terms", "payment term", "net 30" are the payment terms; "net revenue" is no term, and
        # a contract's "term" is how long it runs, which the corpus does not hold.
        net_days = word == "net" and i + 1 < len(words) and words[i + 1].isdigit()
        if name == "payment_terms" and not (word == "terms" or "payment" in words or net_days):
            continue
        if name == "credit_limit" and "limit" not in words and "credit" not in words:
            continue
        if name == "signed_on" and words[i + 1 : i + 2] == ["off"]:
            continue  # "who signed off on SO-...": who approved it, no contract signed
        if name and name not in asked:
            asked.append(name)
    for needs, cues, name in vocab.CONTRACT_FIELD_PHRASES:
        if present & needs and present & cues and name not in asked:
            asked.append(name)
    return asked


def _filters(signals: Signals, customers: tuple[CustomerRef, ...]) -> Filters:
    return Filters(
        customers=customers,
        region=signals.region,
        city=signals.city,
        segment=signals.segment,
        status=signals.status,
        exclude_status=signals.exclude_status,
        period=signals.period,
        min_amount=signals.min_amount,
        max_amount=signals.max_amount,
        or_cities=tuple(signals.or_cities),
    )


def _each_of_them(words: list[str]) -> bool:
    """ "how much has each of them spent": a figure for each one the pointer points at."""
    return any(
        word in ("each", "every")
        and words[i + 1 : i + 2] == ["of"]
        and words[i + 2 : i + 3] in ([w] for w in vocab.BACK_REFERENCES)
        for i, word in enumerate(words)
    )


def _group_by(signals: Signals) -> str:
    """An explicit grouping: "by region", "per month", "for each segment", "monthly"; "each of them"
    after a list of customers is per customer."""
    words = signals.words
    if "monthly" in words:
        return "month"
    if signals.each_listed:
        return "customer"
    whole = bool(set(words) & vocab.WHOLE_SCOPE_WORDS) or bool(set(signals.lemmas) & vocab.COMBINING_WORDS)
    for i, word in enumerate(words[:-1]):
        if word == "every" and (whole or (i and words[i - 1] in vocab.ACROSS_WORDS)):
            continue  # "the grand total across every customer": one figure over all of them
        if word in vocab.GROUPING_LEADS and words[i + 1] not in signals.name_words:
            nxt = words[i + 2] if words[i + 1] == "-" and i + 2 < len(words) else words[i + 1]  # "per-customer"
            if i in signals.agents and nxt != nxt.rstrip("s") and vocab.GROUP_WORDS.get(nxt.rstrip("s")) == "customer":
                continue  # "invoices raised by accounts up north": who ordered, not one figure per account
            key = vocab.GROUP_WORDS.get(nxt) or vocab.GROUP_WORDS.get(nxt.rstrip("s"))
            if key and not (key == "customer" and words[i + 2 : i + 3] == ["value"]):
                return key
    if _which_customers_how_much(words) or _each_customers_own(signals):
        return "customer"
    split = [i for i, lemma in enumerate(signals.lemmas) if lemma in vocab.SPLITTING_VERBS]
    if split and (across := _split_across(words, split[0] + 1)):
        return across  # "how did 2026 sales split across our customer segments": one figure per segment
    for word, nxt in pairwise(words):
        # "segments by order count", "regions by revenue": the groups named, then what ranks them
        key = vocab.GROUP_WORDS.get(word.rstrip("s"))
        if key and key != "status" and word.endswith("s") and nxt == "by" and word not in signals.name_words:
            return key
    return ""


def _each_customers_own(signals: Signals) -> bool:
    """ "how much did each boise cust spend", "west customers and what they each ordered", "smb accts
    w their totals": a figure for each customer, not one over them all."""
    words = signals.words
    customer = [i for i, w in enumerate(words) if vocab.GROUP_WORDS.get(w.rstrip("s")) == "customer"]
    for i in customer:
        before = [w for w in words[max(0, i - 4) : i] if w not in signals.place_words and w not in ("the", "our", "of")]
        per = "per" in words[max(0, i - 2) : i]
        if before and before[-1] == "each" or per:
            return True  # "each boise cust", "per-customer totals" ("every customer" may be all of them at once)
        after = words[i + 1 : i + 13]
        if any(a in vocab.DISTRIBUTIVE_WORDS and b in vocab.DISTRIBUTED_MEASURES for a, b in pairwise(after)):
            return True  # "... and what they each ordered", "... w their totals", "... n their total"
        # "... in the east region w their total order value", "... and what each one's ordered": the word between
        if any(
            a in vocab.DISTRIBUTIVE_WORDS and c in vocab.DISTRIBUTED_MEASURES
            for a, _, c in zip(after, after[1:], after[2:], strict=False)
        ):
            return True
        # "... and how many orders each has placed", "... + order count for each", "... and what they spent": a
        # figure asked for, then each customer's own said by "each" or "they"
        # ("which customers placed more than 3 orders each": the "each" is the condition's, on each customer)
        measured = any(w in vocab.DISTRIBUTED_MEASURES or w in vocab.COUNTED_MEASURES for w in after)
        counted = signals.min_orders is None
        if measured and counted and ("each" in after or "apiece" in after or _they_measure(after)):
            return True
    return False


def _they_measure(words: list[str]) -> bool:
    """ "what they spent", "how much they've ordered": a figure of each one they name."""
    padded = [*words, "", ""]
    measures = vocab.DISTRIBUTED_MEASURES
    return any(
        a == "they" and (b in measures or c in measures) for a, b, c in zip(words, padded[1:], padded[2:], strict=False)
    )


def _which_customers_how_much(words: list[str]) -> bool:
    """ "Which accounts up north bought in May, and for how much?": a figure for each customer the question
    asks to name, not one total over them all."""
    asks_which = any(
        word in ("which", "what")
        and any(vocab.GROUP_WORDS.get(w.rstrip("s")) == "customer" for w in words[i + 1 : i + 4])
        for i, word in enumerate(words)
    )
    how_much = any(a == "how" and b == "much" for a, b in zip(words, words[1:], strict=False))
    return asks_which and how_much


def _asks_permission(signals: Signals) -> bool:
    """ "Are we allowed to charge late fees on overdue invoices?": the verb after "allowed to" is what
    leave is asked for, not a measure of the orders (a rule answers it, or nothing)."""
    return any(
        lemma in vocab.PERMISSION_WORDS and signals.words[i + 1 : i + 2] == ["to"]
        for i, lemma in enumerate(signals.lemmas)
    )


def _fresh_plan(text: str, signals: Signals, context: Context) -> QueryPlan | Abstention:
    customers = context.named or ((context.focus,) if context.refers_back and context.focus else ())
    field_asked = _field(signals, context)
    if field_asked is not None and not customers and context.focus is not None and not signals.subjects:
        customers = (context.focus,)
    filters = _filters(signals, customers)
    measure = _measure(signals)
    words = set(signals.words)
    subjects = signals.subjects
    # "how many days does X get to pay": the count is the payment terms' days, not a count of orders
    days = measure == "count" and field_asked == ("contracts", "payment_terms") and "days" in signals.words
    if field_asked is not None and field_asked[0] == "contracts" and customers and (measure in ("", "sum") or days):
        # a named customer's contract field, even in words a policy document also uses
        return QueryPlan("lookup", "contracts", filters, field=field_asked[1])
    if len(customers) == 1 and not measure and field_asked is None and _asks_which_customer(signals):
        # "an invoice with ACCT-13352 on it, what customer is that", "whose account is ACCT-...":
        # the customer the code (or name) points to, whatever record it was written on
        if not (filters.status or filters.exclude_status or filters.period):
            return QueryPlan("lookup", "customers", filters)
    signing = set(signals.lemmas) & vocab.SIGNING_VERBS and not set(signals.lemmas) & vocab.RENEWAL_WORDS
    if signing and filters.period is not None and not customers and measure in ("", "count"):
        # "which custs signed their contract this yr", "who signed w us since june": the customers
        # whose latest contract was signed in the period
        plain = not (filters.status or filters.exclude_status or filters.min_amount or filters.max_amount)
        if plain:
            return QueryPlan("count" if measure == "count" else "list", "contracts", filters, field="signed_on")
    if "documents" in subjects and (not measure or _asks_permission(signals)):
        return QueryPlan("list", "documents", filters, query=text)
    others = words & {"else", "other", "others"} or ("customers" in subjects and words & {"share", "shares", "sharing"})
    # "who else is in that segment", "who else is there" (the place just asked about)
    if customers and others and words & {"same", "share", "that", "shares", "sharing", "there"}:
        peers = tuple(f for f in ("segment", "region", "city") if f in words)
        if peers:
            return QueryPlan("list", "customers", filters, field=peers[0], peers=peers)
    terms = payment_terms(signals)
    if terms and not customers:
        # "Which customers are on net 60?": a condition on each customer's current contract.
        stated = filters.status or filters.exclude_status or filters.period or filters.min_amount or filters.max_amount
        if measure not in ("", "count") or stated:
            return Abstention(vocab.NO_PLAN_REASON, "payment terms")
        return QueryPlan("count" if measure == "count" else "list", "customers", filters, terms=terms)
    if field_asked == ("contracts", "credit_limit") and measure in ("sum", "average") and not customers:
        # "The average credit limit in the West": over the current contracts, not over orders.
        if filters.status or filters.exclude_status or filters.min_amount or filters.max_amount:
            return Abstention(vocab.NO_PLAN_REASON, measure)
        if filters.period is not None and "renew" not in signals.lemmas and "renewal" not in signals.lemmas:
            return Abstention(vocab.NO_PLAN_REASON, measure)
        return QueryPlan(measure, "contracts", filters, field="credit_limit")
    bounded = filters.min_amount is not None or filters.max_amount is not None
    if field_asked == ("contracts", "credit_limit") and bounded and not customers and measure in ("", "count"):
        # "who has a credit line over 100k", "contracts with limits under 20k": the amount bounds
        # each current contract's credit limit, not an order's amount
        if filters.status or filters.exclude_status:
            return Abstention(vocab.NO_PLAN_REASON, "credit limit")
        return QueryPlan("count" if measure == "count" else "list", "contracts", filters)
    totalled = _total_threshold(signals, filters, measure)
    if totalled is not None:
        return totalled
    if measure:
        return _measured_plan(measure, signals, filters)
    group = _group_by(signals)
    listed = set(subjects) <= {"customers"} and not (words | set(signals.lemmas)) & vocab.MONEY_WORDS
    if group and (subjects or (words | set(signals.lemmas)) & vocab.MONEY_WORDS) and not listed:
        # "every account in the North", "customers by region": customers listed, not order totals
        return QueryPlan("sum", "orders", filters, group_by=group)
    if field_asked is not None and (customers or field_asked[0] == "contracts" and "contracts" not in subjects):
        if not customers:
            return Abstention(vocab.NEEDS_CUSTOMER_REASON, vocab.FIELD_LABELS[field_asked[1]])
        plural = not _singular(signals, ("customer", "client", "account"))
        if field_asked[0] == "customers" and "customers" in subjects and not context.named and plural:
            # "Which cities are those customers in?": the customers listed, not the one in focus
            # ("Which city is that customer in?" asks for the focus's city).
            return QueryPlan("list", "customers", replace(filters, customers=()))
        return QueryPlan("lookup", field_asked[0], filters, field=field_asked[1])
    return _listing_plan(signals, filters, context)


CENT = Decimal("0.01")

_TERMS = re.compile(r"\bnet[- ]?(\d{1,3})\b")


def _asks_which_customer(signals: Signals) -> bool:
    """ "what customer is that", "which client is it", "whose account is this": who it is."""
    words = signals.words
    if "whose" in words:
        return True
    return any(
        w in ("what", "which") and vocab.SUBJECT_WORDS.get(nxt.rstrip("s")) == "customers" and nxt == nxt.rstrip("s")
        for w, nxt in pairwise(words)
    )


def payment_terms(signals: Signals) -> str:
    """The payment terms a question names ("on net 60", "net-30 customers"), as stored."""
    match = _TERMS.search(" ".join(signals.words))
    return f"net {int(match.group(1))}" if match else ""


def _total_threshold(signals: Signals, filters: Filters, measure: str) -> QueryPlan | None:
    """ "Customers that spent more than $800k this year", "how many clients have total sales
    under $50,000": the threshold is on each customer's total, not on each order's amount."""
    # "Who in Boston has spent over $5,000?" asks after customers as "which customers" does.
    named_orders = {"order", "orders"} & set(signals.words)  # "who has orders over $5,000" is per order
    customers = "customers" in signals.subjects or "who" in signals.words and not named_orders
    if not customers or (filters.min_amount is None and filters.max_amount is None):
        return None
    lemmas = set(signals.lemmas) | set(signals.words)
    if not lemmas & (vocab.REVENUE_WORDS | vocab.SUM_WORDS | vocab.TOTAL_VERBS) or measure not in ("", "count", "sum"):
        return None
    kind = "count" if measure == "count" else "list"
    plain = replace(filters, min_amount=None, max_amount=None)
    return QueryPlan(kind, "customers", plain, min_total=filters.min_amount, max_total=filters.max_amount)


def _listing_plan(signals: Signals, filters: Filters, context: Context) -> QueryPlan | Abstention:
    subjects = signals.subjects
    lemmas = set(signals.lemmas)
    # "Sales for Kestrel Foods in 2025", "revenue from paid orders", "q3 bookings": a figure, not a
    # list of orders ("sales orders" are orders, and "the orders in my sales region" too).
    revenue = (
        bool((lemmas | set(signals.words)) & vocab.REVENUE_WORDS)
        and "order" not in lemmas
        or any(
            lemma in vocab.REVENUE_WORDS
            and nxt in ("from", "of", "on", "for", "without", "excluding")  # not "sales region"
            for lemma, nxt in zip(signals.lemmas, [*signals.words[1:], ""], strict=True)
        )
    )
    if revenue and ("customers" not in subjects or _revenue_from_customers(signals) or _over_everyone(signals)):
        return QueryPlan("sum", "orders", filters)
    if signals.min_orders is not None:
        return QueryPlan("list", "customers", filters, min_orders=signals.min_orders)
    if "contracts" in subjects:
        return QueryPlan("list", "contracts", filters)
    asks_who = "customers" in subjects or "who" in signals.words
    # an amount bound alone needs the customers named: "who has orders over $5,000" lists those orders
    bounded = (filters.min_amount is not None or filters.max_amount is not None) and "customers" in subjects
    having = "have" in lemmas or _customers_with(signals)
    if asks_who and "orders" in subjects and having and (filters.status or bounded) and not filters.customers:
        # "Who owes us on late invoices?", "who has open orders in Houston?", "which customers
        # have had an order below $1,000": the customers with at least one such order, not every order
        return QueryPlan("list", "customers", filters, min_orders=0)
    if "customers" in subjects and "orders" not in subjects:
        if filters.customers and not signals.has_slot():
            # "the Kestrel Foods account": that customer's record, never the whole customer list
            return QueryPlan("lookup", "customers", filters)
        if filters.status or filters.period or filters.exclude_status:
            return QueryPlan("list", "customers", filters, min_orders=0)
        return QueryPlan("list", "customers", filters)
    if "orders" in subjects or (filters.status or filters.exclude_status) and "customers" not in subjects:
        # "does X have anything overdue": only orders have a status, so a status asks after them
        return QueryPlan("list", "orders", filters)
    if filters.customers:
        return QueryPlan("lookup", "customers", filters)
    placed_only = (filters.region or filters.city or filters.segment) and not (
        filters.status or filters.exclude_status or filters.period or filters.min_amount or filters.max_amount
    )
    if "who" in signals.words and not subjects and placed_only:
        # "Who do we have in Boston?": people asked after by place are the customers there, not orders
        return QueryPlan("list", "customers", filters)
    if signals.has_slot() and context.last_plan is None:
        return QueryPlan("list", "orders", filters)
    return Abstention(vocab.NO_PLAN_REASON, "")


def _customers_with(signals: Signals) -> bool:
    """ "customers with overdue orders": the customer noun joined to the orders by "with" says
    "have" without the verb."""
    pairs = zip(signals.lemmas, [*signals.words[1:], ""], strict=True)
    return any(vocab.SUBJECT_WORDS.get(lemma) == "customers" and nxt == "with" for lemma, nxt in pairs)


def _revenue_from_customers(signals: Signals) -> bool:
    """ "Revenue from enterprise customers in 2025": the customers are where the money came from,
    so the question asks for its total; "which customers brought in revenue" asks who."""
    words = signals.words
    if {"which", "who", "list", "show", "name"} & set(words):
        return False
    return any(
        lemma in vocab.REVENUE_WORDS and nxt in ("from", "of", "by", "to")
        for lemma, nxt in zip(signals.lemmas, [*words[1:], ""], strict=True)
    )


def _over_everyone(signals: Signals) -> bool:
    """ "bookings across all customers", "sales over every account": the customers are where one
    total is taken, not whom to list."""
    words = signals.words
    return any(
        vocab.SUBJECT_WORDS.get(lemma) == "customers" and set(words[max(i - 2, 0) : i]) & vocab.ACROSS_WORDS
        for i, lemma in enumerate(signals.lemmas)
    )


def _singular(signals: Signals, words: tuple[str, ...]) -> bool:
    return any(w in signals.words for w in words) and not any(_plural(w) in signals.words for w in words)


def _plural(noun: str) -> str:
    """ "cities", "customers": the plural of a grouping noun."""
    return noun[:-1] + "ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou" else noun + "s"


def _measured_plan(measure: str, signals: Signals, filters: Filters) -> QueryPlan | Abstention:
    subjects = set(signals.subjects)
    words, lemmas = set(signals.words), set(signals.lemmas)
    money = bool(lemmas & vocab.MONEY_WORDS) or _summed_by_verb(signals) or _billed(signals) or _total_for(signals)
    each = _each_customers_own(signals)  # "smb accts w their totals": each one's order value
    money = money or each
    group = _group_by(signals)
    how_much = "how much" in " ".join(signals.words)  # money, never a head count
    if measure == "sum" and "orders" not in subjects and subjects & {"customers", "contracts"} and not how_much:
        money_asked = _billed(signals) or _summed_by_verb(signals) or _total_for(signals) or _total_booked(signals)
        money_asked = money_asked or each
        if not lemmas & (vocab.MONEY_WORDS - vocab.COUNT_OR_SUM_WORDS) and not money_asked:
            measure = "count"  # "total customers in the west", "total contracts this year": how many
    if measure == "compare":
        if len(filters.customers) < 2:
            return Abstention(vocab.NO_PLAN_REASON, "compare")
        return QueryPlan("compare", "orders", filters, group_by="customer")
    if measure == "count":
        if "contracts" in subjects:
            return QueryPlan("count", "contracts", filters, group_by=group)
        # "How many customers ordered this year?" counts customers: "ordered" is only the verb.
        counts_customers = vocab.SUBJECT_WORDS.get(signals.counted.rstrip("s")) == "customers"
        if counts_customers and signals.min_orders is not None:
            return QueryPlan("count", "customers", filters, min_orders=signals.min_orders)  # "... more than 3 orders"
        if "customers" in subjects and ("orders" not in subjects or counts_customers) and signals.min_orders is None:
            if filters.status or filters.period:
                return QueryPlan("count", "customers", filters, min_orders=0)
            return QueryPlan("count", "customers", filters, group_by=group)
        if "orders" in subjects or filters.status:
            return QueryPlan("count", "orders", filters, group_by=group)
        return Abstention(vocab.NO_PLAN_REASON, "how many")
    if measure == "average" and words & vocab.RANKED_SUPERLATIVES:
        # "what segment shows the top average sale?" ranks groups by their average; "the average
        # of our top customers" (a ranking averaged) and a ranking with no group have no plan.
        ranked = _rank_plan(signals, filters, group, words) if _ranks_the_average(signals) else None
        if isinstance(ranked, QueryPlan) and ranked.group_by in ("customer", "region", "segment", "city"):
            return replace(ranked, measure="average")
        return Abstention(vocab.NO_PLAN_REASON, "rank")
    if measure in ("sum", "average"):
        if not (subjects & {"orders"} or money) or ("contracts" in subjects and "orders" not in subjects):
            return Abstention(vocab.NO_PLAN_REASON, measure)  # no plan adds up what contracts are worth
        return QueryPlan(measure, "orders", filters, group_by=group)
    return _rank_plan(signals, filters, group, words)


def _every_one(words: list[str], nouns: tuple[str, ...]) -> bool:
    """ "all the west region customers", "every customer", "all our accounts": the ranking covers
    every one of the groups, not a top five."""
    for i, word in enumerate(words):
        if word in ("all", "every", "each"):
            ahead = words[i + 1 : i + 5]
            if any(w.rstrip("s") in nouns or w in nouns for w in ahead):
                return True
    return False


def _ranks_the_average(signals: Signals) -> bool:
    """A size word right before the average word: "largest average ticket", "lowest mean value"."""
    return any(
        w in vocab.SIZE_WORDS | {"top", "best", "worst", "strongest", "weakest"} and lemma in vocab.AVERAGE_WORDS
        for w, lemma in zip(signals.words, signals.lemmas[1:], strict=False)
    )


def _names_the_period(words: list[str], i: int) -> bool:
    """The unit of a period phrase: "month" in "last month", "this month", "the past 3 months"."""
    if words[i].rstrip("s") not in vocab.PERIOD_UNITS:
        return False
    directions = vocab.PERIOD_PAST | vocab.PERIOD_CURRENT | vocab.PERIOD_FUTURE
    before = words[i - 1] if i else ""
    if before and _number(before) is not None and i > 1:
        before = words[i - 2]
    return before in directions


def _rank_plan(signals: Signals, filters: Filters, group: str, words: set[str]) -> QueryPlan | Abstention:
    words = words - signals.place_words
    order = "asc" if words & vocab.BOTTOM_WORDS and not words & vocab.TOP_WORDS else "desc"
    subjects = set(signals.subjects)
    stated = {"region": bool(filters.region), "segment": bool(filters.segment), "city": bool(filters.city)}
    # "the largest order from a west coast customer" ranks single orders: the size word is on
    # "order" itself ("the most orders" still counts them per customer).
    # ("the biggest single order a tucson customer placed", "smallest one-off purchase": one order still)
    plain = [w for w in signals.words if w not in vocab.ONE_ORDER_WORDS]
    sized = any(w in vocab.SIZE_WORDS and nxt in vocab.ORDER_NOUNS for w, nxt in pairwise(plain))
    sized = sized or any(
        a in ("most", "least") and b in vocab.AMOUNT_ADJECTIVES and c in ("order", "orders")
        for a, b, c in zip(signals.words, signals.words[1:], signals.words[2:], strict=False)
    )
    if not group and not sized:
        # The first grouping noun the question uses, unless it names a stated filter
        # ("the largest customer in the South region" ranks customers, not regions).
        for i, word in enumerate(signals.words):
            if word in signals.name_words:
                continue  # "Bayou City Fabrication" names a customer, not a grouping
            if _names_the_period(signals.words, i):
                continue  # "the biggest order last month" ranks orders, not months
            key = vocab.GROUP_WORDS.get(word) or vocab.GROUP_WORDS.get(word.rstrip("s"))
            if key and key != "status" and not stated.get(key):
                group = key
                break
    if not group and "who" in words and not sized:
        group = "customer"
    lemmas = set(signals.lemmas)
    if group in ("region", "segment", "city") and "customers" in subjects and "orders" not in subjects:
        # "Which segment has the most customers?": groups by how many customers they hold.
        if lemmas & vocab.MONEY_WORDS or not words & {"most", "many", "fewest", "least"}:
            return Abstention(vocab.NO_PLAN_REASON, "rank")
        return QueryPlan("count", "customers", filters, group_by=group, order=order)
    if not group and not (subjects & {"orders"}):
        return Abstention(vocab.NO_PLAN_REASON, "rank")
    # the nouns of the grouping ("customer", "client", "spender"): one of them in the singular asks for one
    nouns = tuple(w for w, g in vocab.GROUP_WORDS.items() if g == group != "status" and not w.endswith("ies"))
    named = nouns or ("order", "sale")
    plural = any(_plural(w) in signals.words for w in named)  # "who were our top customers": several
    limit: int | None = signals.limit or (
        1 if _singular(signals, named) or ("who" in words and not plural) else DEFAULT_TOP
    )
    if signals.limit is None and group and _sorts_the_list(signals.words):
        limit = None  # "overdue $ by city, biggest first": every city, in that order
    if signals.limit is None and group and limit == DEFAULT_TOP and _every_one(signals.words, named):
        limit = None  # "rank all the west region customers", "every segment by revenue": all of them
    if signals.each_listed and signals.limit is None:
        # over the customers just listed: "which of them ... the most" is one; "rank them" is all of them
        limit = (
            None if set(signals.lemmas) & vocab.RANK_WORDS else 1 if words & {"which", "who", "whos", "one"} else limit
        )
    # "the most overdue orders" ranks by how many; "the most revenue" by value.
    by_count = not (set(signals.lemmas) & vocab.MONEY_WORDS) and "orders" in subjects and group != ""
    by_count = by_count and bool(words & {"most", "fewest", "least", "many"}) and not _bought_the_most(signals)
    by_count = by_count or _ranked_by_count(signals) or bool(words & vocab.BUSY_WORDS)
    return QueryPlan(
        "rank", "orders", filters, group_by=group, order=order, limit=limit, measure="count" if by_count else ""
    )


def _sorts_the_list(words: list[str]) -> bool:
    """ "biggest first", "highest to lowest": a ranking word that orders the whole list."""
    rank = vocab.TOP_WORDS | vocab.BOTTOM_WORDS
    for i, (a, b) in enumerate(pairwise(words)):
        if a in rank and b == "first":
            return True
        if a in rank and b == "to" and words[i + 2 : i + 3] and words[i + 2] in rank:
            return True
    return False


def _bought_the_most(signals: Signals) -> bool:
    """ "Which customer buys the most from us?": a buying verb ranked by "most" with no counted
    noun after it asks who spends the most (value); "bought the most orders" still counts."""
    if not (set(signals.lemmas) | set(signals.words)) & (vocab.TOTAL_VERBS | {"ordered"}):
        return False  # "who ordered the most": the verb, which buys as "bought" does
    words = signals.words
    for i, word in enumerate(words[:-1]):
        if word in ("most", "fewest", "least") and not (i and words[i - 1] == "at"):
            for nxt in words[i + 1 : i + 3]:  # "the most orders", "the most overdue orders"
                if vocab.SUBJECT_WORDS.get(nxt) == "orders" or vocab.SUBJECT_WORDS.get(nxt.rstrip("s")) == "orders":
                    return False
            return True
    return False
