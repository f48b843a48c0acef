"""Customer names: the lookup and the per-process index the turn and the planner read them from.

:func:`lookup_customer` returns a :class:`ToolResult`; ``ok=False`` is an answer too: an
ambiguous name comes back with ``candidates`` so the turn can ask one clarifying question
(design rule: bounded state, "never pick silently"); a name that matches nothing comes back with the
closest names. The plans themselves run in :mod:`chat.executors`.
"""

from __future__ import annotations

import contextlib
import difflib
import re
import threading
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import asdict, dataclass, field
from itertools import product

from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import Q

from chat.models import Customer

ACCOUNT_CODE = re.compile(r"^acct-?(\d{3,})$", re.IGNORECASE)


@dataclass(frozen=True)
class ToolResult:
    name: str
    ok: bool
    data: dict = field(default_factory=dict)
    candidates: list[dict] = field(default_factory=list)
    error: str = ""
    args: dict = field(default_factory=dict)  # the arguments the tool ran with (normalised)

    def as_dict(self) -> dict:
        return asdict(self)


def _customer_data(customer: Customer) -> dict:
    return {
        "id": customer.pk,
        "name": customer.name,
        "city": customer.city,
        "region": customer.region,
        "segment": customer.segment,
        "account_code": customer.account_code,
    }


def _candidate(customer: Customer | IndexEntry) -> dict:

    return {"id": customer.pk, "name": customer.name, "city": customer.city, "account_code": customer.account_code}


# --- lookup_customer ---------------------------------------------------------------------


def lookup_customer(name_or_code: str) -> ToolResult:
    """One customer by account code or name; several matches come back as candidates."""
    query = " ".join((name_or_code or "").split())
    if not query:
        raise ValidationError("Give a customer name or account code.")
    args = {"name_or_code": query}
    code = ACCOUNT_CODE.match(query)
    if code:
        customer = Customer.objects.filter(account_code__iexact=f"ACCT-{code.group(1)}").first()
        if customer is None:
            return ToolResult(
                "lookup_customer", False, error=f"No customer has account code {query.upper()}.", args=args
            )
        return ToolResult("lookup_customer", True, data=_customer_data(customer), args=args)

    name = _strip_possessive(query)
    exact = list(Customer.objects.filter(name__iexact=name))
    matches = exact or list(Customer.objects.filter(name__icontains=name).order_by("name", "city"))
    if not matches:
        # Every word in the name or the city: "Northline Portland", "kestrel foods sacramento".
        words = [w for w in re.split(r"\W+", name) if w]
        condition = Q()
        for word in words:
            condition &= Q(name__icontains=word) | Q(city__icontains=word)
        matches = list(Customer.objects.filter(condition).order_by("name", "city")) if words else []
    if len(matches) == 1:
        return ToolResult("lookup_customer", True, data=_customer_data(matches[0]), args=args)
    if matches:
        return ToolResult(
            "lookup_customer",
            False,
            candidates=[_candidate(c) for c in matches],
            error=f'{len(matches)} customers match "{query}".',
            args=args,
        )
    index = customer_index()
    close = difflib.get_close_matches(name.lower(), [e.name.lower() for e in index.entries], n=3, cutoff=0.75)
    near = [e for e in index.entries if e.name.lower() in close]
    return ToolResult(
        "lookup_customer",
        False,
        candidates=[_candidate(e) for e in near],
        error=f'No customer matches "{query}".',
        args=args,
    )


def _strip_possessive(text: str) -> str:
    return re.sub(r"['’]s\b", "", text).strip()


# --- find_customer_mentions --------------------------------------------------------------

_TOKEN = re.compile(r"[a-z0-9]+(?:[-'’][a-z0-9]+)*")
# A first word this frequent in English (symspellpy's frequency list, atlas.lexicon) is an
# ordinary word before it is a name: "Gateway", "Coral", "Sierra" alone name no customer. Set
# between the distinctive first words of the names on record (at most 3.7 million) and the
# ordinary ones (from 4.2 million).
COMMON_WORD_FREQUENCY = 4_000_000


def generic_first_word(word: str) -> bool:
    """A name's first word that is no alias on its own: an article, a region or compass word,
    a place, or a word common in English (derived at load, never a list of names)."""
    from atlas import lexicon
    from chat.models import Region

    if len(word) < 4 or word in {r.value for r in Region}:
        return True
    if lexicon.english().frequency.get(word, 0) >= COMMON_WORD_FREQUENCY:
        return True
    return (word,) in lexicon.places()


@dataclass(frozen=True)
class IndexEntry:
    pk: int
    name: str
    city: str
    account_code: str


@dataclass(frozen=True)
class CustomerMention:
    customer_id: int
    name: str
    city: str
    account_code: str
    matched: str  # the words of the question that matched
    exact: bool  # full name or account code (True) or a short form such as "Northline" (False)


@dataclass(frozen=True)
class CustomerIndex:
    signature: tuple
    entries: list[IndexEntry]
    keys: dict[tuple[str, ...], list[tuple[IndexEntry, bool]]]
    longest: int
    # A whole name in other words ("harbour farming coop", "acme supplies" for "Acme Supply"): read
    # as the name on record, and the answer says so.
    variants: dict[tuple[str, ...], IndexEntry] = field(default_factory=dict)


def _tokens(text: str) -> list[str]:
    return [token for _, _, token in _spans(text)]


def _spans(text: str) -> list[tuple[int, int, str]]:
    """The name tokens of ``text`` with where each stands: lower case, possessive "'s" dropped."""
    out = []
    for match in _TOKEN.finditer(text.lower()):
        token = match.group().replace("’", "'")
        out.append((match.start(), match.end(), token[:-2] if token.endswith("'s") else token))
    return out


def _name_variants(key: tuple[str, ...]) -> set[tuple[str, ...]]:
    """Every way of writing a whole name with its words shortened as people shorten them
    (atlas.lexicon.NAME_ABBREVIATIONS) and its last word singular or plural."""
    from atlas.lexicon import NAME_ABBREVIATIONS

    options = []
    for i, word in enumerate(key):
        forms = {word, *NAME_ABBREVIATIONS.get(word, ())}
        if i == len(key) - 1 and len(key) > 1 and len(word) > 3:
            forms.add(word[:-1] if word.endswith("s") else word + "s")
            forms |= _trade_forms(word)
        options.append(sorted(forms))
    return {variant for variant in product(*options) if variant != key}


# The nouns of a trade made from one verb: a "Brewing" company is asked after as a "brewery" or "brewers",
# a "Printing" one as "printers".
TRADE_ENDINGS = ("ing", "ery", "ers", "er")


def _trade_forms(word: str) -> set[str]:
    """The other trade nouns of a name's last word ("brewing": "brewery", "brewer", "brewers")."""
    for ending in TRADE_ENDINGS:
        stem = word[: -len(ending)]
        if word.endswith(ending) and len(stem) >= 4:
            return {stem + other for other in TRADE_ENDINGS if other != ending}
    return set()


_index_lock = threading.Lock()
_index: CustomerIndex | None = None
# Inside :func:`one_index`: the index this block checked first (a one-item list, empty until then).
_pinned: ContextVar[list[CustomerIndex] | None] = ContextVar("atlas_customer_index", default=None)


@contextlib.contextmanager
def one_index() -> Iterator[None]:
    """Check the customer table once for the whole block: a turn reads names four times (the
    question, the plan's context, the corpus vocabulary, the passage check) and each read
    would otherwise run the signature query. The first read in the block checks the
    signature as usual; the later ones reuse that index, so the block sees one set of names.
    """
    token = _pinned.set([])
    try:
        yield
    finally:
        _pinned.reset(token)


def _signature() -> tuple:
    with connection.cursor() as cur:
        cur.execute("SELECT count(*), coalesce(max(id), 0), coalesce(sum(length(name)), 0) FROM chat_customer")
        return (connection.settings_dict["NAME"], *cur.fetchone())


def customer_index() -> CustomerIndex:
    """Names and account codes of every customer, built once and rebuilt only when the table changes.

    The check is one aggregate over the small customer table, so a question costs one query
    however many words it has; inside :func:`one_index`, one query for the whole block.
    """
    pinned = _pinned.get()
    if pinned:
        return pinned[0]
    index = _checked_index()
    if pinned is not None:
        pinned.append(index)
    return index


def _checked_index() -> CustomerIndex:
    global _index
    signature = _signature()
    current = _index
    if current is not None and current.signature == signature:
        return current
    with _index_lock:
        entries = [
            IndexEntry(pk, name, city, code)
            for pk, name, city, code in Customer.objects.order_by("name", "city").values_list(
                "pk", "name", "city", "account_code"
            )
        ]
        keys: dict[tuple[str, ...], list[tuple[IndexEntry, bool]]] = {}
        variants: dict[tuple[str, ...], IndexEntry] = {}
        names = {tuple(_tokens(e.name)) for e in entries}
        for entry in entries:
            name_key = tuple(_tokens(entry.name))
            keys.setdefault(name_key, []).append((entry, True))
            for variant in _name_variants(name_key) - names:
                keys.setdefault(variant, []).append((entry, True))
                variants[variant] = entry
            keys.setdefault((entry.account_code.lower(),), []).append((entry, True))
            first = name_key[0] if name_key else ""
            if len(name_key) > 1 and not generic_first_word(first):
                keys.setdefault((first,), []).append((entry, False))
            # The first two or more words of a longer name ("Sierra Outdoor", "Coral Reef") are a
            # short form even when the first word alone is too ordinary to be one.
            for size in range(2, len(name_key)):
                keys.setdefault(name_key[:size], []).append((entry, False))
        longest = max((len(k) for k in keys), default=0)
        _index = CustomerIndex(signature=signature, entries=entries, keys=keys, longest=longest, variants=variants)
        return _index


def clear_customer_index() -> None:
    global _index
    _index = None


def find_customer_mentions(text: str) -> list[CustomerMention]:
    """Customers a question names, in the order named: full names, account codes, short forms.

    A short form shared by several customers ("Northline") returns all of them, so the caller
    sees the ambiguity; a city named in the same question narrows them ("Northline in Leeds").
    The longest match at a position wins, so "Northline Freight" is one customer.
    """
    if not text:
        return []
    index = customer_index()
    tokens = _tokens(text)
    token_set = set(tokens)
    found: list[CustomerMention] = []
    seen: set[int] = set()
    i = 0
    while i < len(tokens):
        for size in range(min(index.longest, len(tokens) - i), 0, -1):
            key = tuple(tokens[i : i + size])
            hits = index.keys.get(key)
            if not hits and key[-1].endswith("s") and len(key[-1]) > 4:
                # a possessive typed without its apostrophe: "lakeshore printings credit limit",
                # "acmes orders" (a short form: the name's own distinctive first word)
                hits = index.keys.get((*key[:-1], key[-1][:-1]))
            if not hits:
                continue
            if len(hits) > 1:
                in_city = [h for h in hits if set(_tokens(h[0].city)) <= token_set]
                hits = in_city if len(in_city) == 1 else hits
            matched = " ".join(tokens[i : i + size])
            for entry, exact in hits:
                if entry.pk not in seen:
                    seen.add(entry.pk)
                    found.append(CustomerMention(entry.pk, entry.name, entry.city, entry.account_code, matched, exact))
            i += size
            break
        else:
            i += 1
    return found


def corpus_names() -> tuple[object, list[str]]:
    """The business data's names as written, for the shared normaliser (atlas.lexicon): every
    city and segment on record (rebuilt when the customer table changes)."""
    from chat.vocabulary import corpus_vocabulary

    index = customer_index()
    corpus = corpus_vocabulary()
    return index.signature, sorted({e.city for e in index.entries}) + sorted(set(corpus.segments.values()))


def city_names() -> tuple[object, list[str]]:
    """Every city a customer is in, as written (``lexicon.CITY_NAMES``)."""
    index = customer_index()
    return index.signature, sorted({e.city for e in index.entries})


def segment_names() -> tuple[object, list[str]]:
    """Every segment a customer is filed under, as written (``lexicon.SEGMENT_NAMES``)."""
    from chat.vocabulary import corpus_vocabulary

    return customer_index().signature, sorted(set(corpus_vocabulary().segments.values()))


def customer_names() -> tuple[object, list[str]]:
    """Every customer's name as written, for the shared lexicon (``lexicon.CUSTOMER_NAMES``)."""
    index = customer_index()
    return index.signature, [e.name for e in index.entries]


# --- reading names as typed ----------------------------------------------------------------------

# A span of the question as long as a name on record and this close to it (rapidfuzz ratio, 0-100;
# thresholds chosen from ratios computed on the demo names, not from a labelled set)
# is that name misspelt when every word is close too and no other name is nearly as close;
# closer than OFFERED but not sure, it is offered as "did you mean". On the demo names:
# one letter wrong in a word scores 93-98; ordinary phrases that share a word with a name
# stay under 75.
SURE_RATIO = 92.0
SURE_WORD_RATIO = 85.0
OFFERED_RATIO = 86.0
OFFERED_WORD_RATIO = 70.0
RUNNER_UP_GAP = 8.0


@dataclass(frozen=True)
class NameReading:
    text: str  # the question with the names it writes in other words spelt as on record
    changes: tuple[tuple[str, str], ...] = ()  # (as typed, the name on record), read as sure
    unsure: tuple[tuple[str, str], ...] = ()  # (as typed, the closest name): only offered


# The index the last read_names used, with its names as words and as written: built once per
# index rather than for every question.
_names_cache: tuple[CustomerIndex, dict[tuple[str, ...], IndexEntry], dict[tuple[str, ...], str]] | None = None


def _names_by_words(index: CustomerIndex) -> tuple[dict[tuple[str, ...], IndexEntry], dict[tuple[str, ...], str]]:
    global _names_cache
    cached = _names_cache
    if cached is not None and cached[0] is index:
        return cached[1], cached[2]
    names = {tuple(_tokens(e.name)): e for e in index.entries}
    written = {key: " ".join(key) for key in names}
    _names_cache = (index, names, written)
    return names, written


def _one_word_slipped(typed: tuple[str, ...], key: tuple[str, ...]) -> bool:
    """Every word of the name as on record but one, and that one a slip after its first letter into
    another word ("a vale typed as vail", "a peak as peek"): a short word scores low on its
    own, but the rest of the name leaves no doubt."""
    differing = [(a, b) for a, b in zip(typed, key, strict=True) if a != b]
    return len(differing) == 1 and len(key) >= 2 and differing[0][0][:1] == differing[0][1][:1]


def read_names(text: str) -> NameReading:
    """The customer names ``text`` writes in other words, read as the names on record.

    A whole name with words shortened ("harbour farming coop", "oakfield vet") or its last word
    re-inflected ("acme supplies" for "Acme Supply") is that customer. A span that is no name but as long as one
    and close to it is ranked against every name: the best, far enough ahead of the next and
    close word by word, is read as that name ("acme suply"); one only near a name is
    returned as unsure, for the caller to offer, never to answer.
    """
    from rapidfuzz import fuzz

    index = customer_index()
    spans = _spans(text)
    tokens = [t for *_, t in spans]
    replaced: list[tuple[int, int, str, str]] = []  # start, end, as typed, the name on record
    unsure: list[tuple[str, str]] = []
    covered: set[int] = set()
    names, written = _names_by_words(index)
    typed_at: dict[tuple[int, int], tuple[tuple[str, ...], str]] = {}  # the words at (start, size), as written
    for i in range(len(tokens)):
        if i in covered:
            continue
        for size in range(min(index.longest, len(tokens) - i), 0, -1):
            key = tuple(tokens[i : i + size])
            if key in names:
                covered.update(range(i, i + size))
                break
            entry = index.variants.get(key)
            if entry is None and key[-1].endswith("s"):
                entry = index.variants.get((*key[:-1], key[-1][:-1]))  # "harbour farming coops revenue"
            if entry is not None:
                start, end = spans[i][0], spans[i + size - 1][1]
                replaced.append((start, end, text[start:end], entry.name))
                covered.update(range(i, i + size))
                break
    for key, entry in names.items():
        # "copper line electrical", "pine crest medical group": one word of the name typed as two
        size = len(key)
        for i in range(len(tokens) - size):
            if not covered.isdisjoint(range(i, i + size + 1)):
                continue
            span = tokens[i : i + size + 1]
            if any((*span[:j], span[j] + span[j + 1], *span[j + 2 :]) == key for j in range(size)):
                start, end = spans[i][0], spans[i + size][1]
                replaced.append((start, end, text[start:end], entry.name))
                covered.update(range(i, i + size + 1))
    for key, entry in names.items():
        size = len(key)
        if size < 2:
            continue
        for i in range(len(tokens) - size + 1):
            if not covered.isdisjoint(range(i, i + size)):
                continue  # a name found above
            at = typed_at.get((i, size))
            if at is None:
                at = typed_at[(i, size)] = (tuple(tokens[i : i + size]), " ".join(tokens[i : i + size]))
            typed, typed_text = at
            if typed == key:
                continue
            # Below the cutoff rapidfuzz returns 0 without finishing the comparison; at or above
            # it, the same ratio.
            score = fuzz.ratio(typed_text, written[key], score_cutoff=OFFERED_RATIO)
            if score < OFFERED_RATIO:
                continue
            words = min(fuzz.ratio(a, b) for a, b in zip(typed, key, strict=True))
            if words < OFFERED_WORD_RATIO:
                continue
            others = max((fuzz.ratio(typed_text, written[k]) for k in names if k != key and len(k) == size), default=0)
            start, end = spans[i][0], spans[i + size - 1][1]
            if (
                score >= SURE_RATIO
                and score - others >= RUNNER_UP_GAP
                and (words >= SURE_WORD_RATIO or _one_word_slipped(typed, key))
            ):
                replaced.append((start, end, text[start:end], entry.name))
                covered.update(range(i, i + size))
            else:
                unsure.append((text[start:end], entry.name))
    out = text
    for start, end, _, name in sorted(replaced, reverse=True):
        out = out[:start] + name + out[end:]
    changes = tuple((typed, name) for _, _, typed, name in sorted(replaced))
    return NameReading(out, changes, tuple(unsure))


# "the vet one", "the dental place", "the robotics co", "the coffee roaster": one of the customers
# the last answer listed, picked by a word of its name (a word's first letters, at least three).
_PICKED = re.compile(r"\bthe\s+([a-z]{3,})(?:\s+([a-z]{3,}))?(?:\s+(?:one|place|co|company|firm|shop|guys|lot))?\b")
# Words after "the" that name no customer ("the north", "the credit limit").
_NOT_PICKS = frozenset({"one", "ones", "same", "last", "first", "next", "other", "whole", "total", "top", "biggest"})


def may_pick(text: str) -> bool:
    """Whether ``text`` has the shape of a pick ("the <word>"), before any list is read for it."""
    return _PICKED.search(text.lower()) is not None


def picked_from(text: str, listed: list[str], *, known: frozenset[str]) -> tuple[str, str] | None:
    """(as typed, the name on record) when ``text`` picks exactly one of the ``listed`` names by a
    word of its name; None when it picks none or several. ``known``: the planner's own words ("the
    north", "the credit limit" pick nothing)."""
    low = text.lower()
    for match in _PICKED.finditer(low):
        typed = [w for w in match.groups() if w and w not in _NOT_PICKS and w not in known]
        if not typed or match.group(1) in known:
            continue
        hits = {
            name
            for name in listed
            if any(_shares_a_stem(word, part) for word in typed for part in _tokens(name) if len(part) >= 3)
        }
        if len(hits) == 1:
            return text[match.start() : match.end()], hits.pop()
    return None


def _shares_a_stem(typed: str, word: str) -> bool:
    """ "vet" and "veterinary", "brewery" and "brewing", "roaster" and "roasters": the same first
    letters, as many as the shorter word has and at most four."""
    n = min(len(typed), len(word), 4)
    return n >= 3 and typed[:n] == word[:n]
