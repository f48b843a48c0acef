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


def _tokens(text: str) -> list[str]:
    out = []
    for token in _TOKEN.findall(text.lower()):
        token = token.replace("’", "'")
        out.append(token[:-2] if token.endswith("'s") else token)
    return out


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
        for entry in entries:
            name_key = tuple(_tokens(entry.name))
            keys.setdefault(name_key, []).append((entry, True))
            keys.setdefault((entry.account_code.lower(),), []).append((entry, True))
            first = name_key[0] if name_key else ""
            if len(name_key) > 1 and not generic_first_word(first):
                keys.setdefault((first,), []).append((entry, False))
            # The first two or more words of a longer name ("Sierra Outdoor", "Coral Reef") are a
            # short form even when the first word alone is too ordinary to be one.
            for size in range(2, len(name_key)):
                keys.setdefault(name_key[:size], []).append((entry, False))
        longest = max((len(k) for k in keys), default=0)
        _index = CustomerIndex(signature=signature, entries=entries, keys=keys, longest=longest)
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
            if not hits and size > 1 and key[-1].endswith("s"):
                # a possessive typed without its apostrophe: "lakeshore printings credit limit"
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
    customer name, city and segment on record (rebuilt when the customer table changes)."""
    from chat.vocabulary import corpus_vocabulary

    index = customer_index()
    corpus = corpus_vocabulary()
    names = [e.name for e in index.entries] + sorted({e.city for e in index.entries})
    return index.signature, names + sorted(set(corpus.segments.values()))
