"""Suppression: what a user asked Atlas to forget stays forgotten (design rule: forgetting suppresses).

A suppression keeps the forgotten statement's embedding, a hash of its normalised text and
hashes of its distinguishing content (numbers, names, units and currencies, directions,
negation), never the text itself. It lasts 365 days.

Cosine similarity alone cannot decide a match: with a small embedding model "Prefers metric
units" and "Prefers imperial units", or "net 45" and "net 30", score as high as true
paraphrases. So a candidate matches a suppression when

- its normalised statement hash is the same, or
- cosine > 0.88 (the seed's threshold) and the distinguishing content agrees, or
- the distinguishing content agrees, is not empty, the kind is the same and the cosine is
  above a looser floor: the content carries the meaning, so "Wants measurements in metric"
  still matches a forgotten "Prefers metric units" although MiniLM scores that pair 0.63.

The gate checks this for every rule-written candidate; a user's explicit "remember that"
overrides it, so :func:`memory.store.write_memory` does no check of its own.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from memory.embeddings import cosine, embed_one
from memory.gate.vocabulary import DIRECTIONS, NEGATIVE_OPENINGS, SUBJECT_VALUES
from memory.models import Memory, Suppression
from memory.rls import acting_user

if TYPE_CHECKING:
    from atlas.types import User

SUPPRESSION_DAYS = 365
COSINE_THRESHOLD = 0.88  # design rule: forgetting suppresses
# When the distinguishing content agrees and is not empty, a paraphrase may score lower.
ANCHORED_COSINE_FLOOR = 0.55

_HASH_SALT = "atlas-suppression-v1:"

# Units and currencies map to the value they name (memory.gate.vocabulary): a paraphrase
# that says "kilometres" instead of "metric" still agrees, "imperial" never does.
_UNIT_WORDS: dict[str, str] = {
    phrase: f"{'unit' if subject == 'units' else 'currency'}:{value.lower()}"
    for subject in ("units", "currency")
    for value, phrases in SUBJECT_VALUES[subject].items()
    if value
    for phrase in phrases
    if " " not in phrase
}
_UNIT_WORDS.update({word: f"direction:{name}" for name, words in DIRECTIONS.items() for word in words})

_NEGATIONS = {"not", "no", "never", "none", "without", "nor", "neither", "cannot", "stop", "avoid", "dislikes"}
# A number with thousands separators is one token ("1,000" is "1000", not "1" and "000").
_TOKEN = re.compile(r"[€$£¥]|\d{1,3}(?:,\d{3})+(?:\.\d+)?|[A-Za-z0-9][A-Za-z0-9'’\-\.]*[A-Za-z0-9]|[A-Za-z0-9]")
_NUMBER = re.compile(r"^\d+(?:[.,]\d+)*$")
# A capitalised first word is a name ("Acme pays net 45") unless it is one of the words
# statements usually start with, or a verb form or adverb.
_SENTENCE_START_WORDS = set(
    "i i'm i've i'd my we our us the a an this that these those user they he she it you your there here "
    "in on at for from to with by of as when if while during after before since until all every each any "
    "some only always usually often currently now today please use show give keep send put write answer "
    "call list sort round report reports format include avoid skip prefer like want need wants likes "
    "prefers needs is are was be has have do does order customer payment contract invoice amount answer "
    "short long brief detailed weekly monthly daily quarterly yearly annual net most least more less".split()
)
_VERB_OR_ADVERB = re.compile(r"(?:s|ing|ed|ly)$")


def normalise(statement: str) -> str:
    """Lower case, accents folded, punctuation and extra spaces dropped."""
    text = unicodedata.normalize("NFKC", statement).casefold()
    return " ".join(re.findall(r"[\w€$£¥%]+", text))


def statement_hash(statement: str) -> str:
    return hashlib.sha256((_HASH_SALT + normalise(statement)).encode()).hexdigest()


def content_tokens(statement: str) -> set[str]:
    """The distinguishing content of a statement, as category-tagged tokens.

    Numbers, named entities (capitalised words after the first, codes with digits),
    units and currencies by system, directions, and whether the statement is negated.
    """
    tokens: set[str] = set()
    text = unicodedata.normalize("NFKC", statement)
    words = _TOKEN.findall(text)
    for position, word in enumerate(words):
        lower = word.casefold().replace("’", "'")
        if lower.endswith("n't"):
            tokens.add("negation")
            continue
        if lower in _NEGATIONS:
            tokens.add("negation")
            continue
        if lower in _UNIT_WORDS:
            tokens.add(_UNIT_WORDS[lower])
            continue
        if _NUMBER.match(lower):  # a token never ends in "." (_TOKEN ends on a letter or digit)
            tokens.add("number:" + lower.replace(",", ""))
            continue
        number_unit = re.match(r"^(\d+(?:\.\d+)?)([a-z€$£%]+)$", lower)
        if number_unit:
            tokens.add("number:" + number_unit.group(1))
            unit = number_unit.group(2)
            if unit in _UNIT_WORDS:
                tokens.add(_UNIT_WORDS[unit])
            continue
        if any(ch.isdigit() for ch in word):  # account codes, order numbers, Q3
            tokens.add("entity:" + lower)
            continue
        is_capitalised = word[0].isupper()
        is_acronym = word.isupper() and len(word) > 1
        is_name_position = position > 0 or not _VERB_OR_ADVERB.search(lower)
        if is_acronym or (is_capitalised and is_name_position and lower not in _SENTENCE_START_WORDS):
            tokens.add("entity:" + lower.removesuffix("'s"))
    return tokens


def content_hashes(statement: str) -> list[str]:
    return sorted(_hash(token) for token in content_tokens(statement))


def _hash(token: str) -> str:
    return hashlib.sha256((_HASH_SALT + token).encode()).hexdigest()[:32]


def subject_hash(subject: str, value: str, statement: str = "") -> str:
    """The structured preference a suppression holds ("currency" = "EUR"), hashed like the rest.
    A "does not want" note on the same value is another preference: forgetting "Prefers tables"
    never blocks "Does not want tables"."""
    if not (subject and value):
        return ""
    declines = "!declines" if statement.startswith(NEGATIVE_OPENINGS) else ""
    return _hash(f"subject:{subject}={value.casefold()}{declines}")


def facets_hash(facets: dict[str, Any] | None, scope: str = "global", statement: str = "") -> str:
    """A preference's facets and scope (memory.preferences), hashed like the rest: forgetting
    "Prefers amounts in thousands of euros" suppresses any wording of {scale: k, currency: EUR}
    in that scope, and nothing with fewer or other facets."""
    if not facets:
        return ""
    declines = "!declines" if statement.startswith(NEGATIVE_OPENINGS) else ""
    canonical = json.dumps({k: facets[k] for k in sorted(facets)}, sort_keys=True, default=str)
    return _hash(f"facets:{scope}:{canonical.casefold()}{declines}")


def _structured_hash(subject: str, value: str, statement: str, facets: dict[str, Any] | None, scope: str) -> str:
    return facets_hash(facets, scope, statement) or subject_hash(subject, value, statement)


def suppress(memory: Memory, *, now: datetime | None = None) -> Suppression:
    """Keep a forgotten memory from coming back for 365 days (design rule: forgetting suppresses); no text is stored."""
    now = now or timezone.now()
    embedding = memory.embedding
    if embedding is None:
        embedding = embed_one(memory.statement)
    with transaction.atomic():
        return Suppression.objects.create(
            user_id=memory.user_id,
            kind=memory.kind,
            statement_hash=statement_hash(memory.statement),
            content_hashes=content_hashes(memory.statement),
            subject_hash=_structured_hash(
                memory.subject, memory.value, memory.statement, memory.facets, memory.scope or "global"
            ),
            embedding=list(embedding),
            created_at=now,
            expires_at=now + timedelta(days=SUPPRESSION_DAYS),
        )


def matching_suppression(
    user: User,
    *,
    kind: str,
    statement: str,
    embedding: Sequence[float] | None = None,
    now: datetime | None = None,
    subject: str = "",
    value: str = "",
    facets: dict[str, Any] | None = None,
    scope: str = "global",
) -> Suppression | None:
    """The live suppression this candidate matches, if any (see the module docstring)."""
    now = now or timezone.now()
    with acting_user(user.pk):
        # Vectors (384 numbers each, parsed from text) are read below only for the rows whose
        # content words match the candidate's, usually none.
        rows = list(
            Suppression.objects.filter(user_id=user.pk, expires_at__gt=now).only(
                "kind", "statement_hash", "subject_hash", "content_hashes"
            )
        )
    if not rows:
        return None
    wanted_hash = statement_hash(statement)
    # either structured form of the candidate: a note forgotten before it had facets kept its subject
    wanted_structured = {facets_hash(facets, scope, statement), subject_hash(subject, value, statement)} - {""}
    for row in rows:
        if row.statement_hash == wanted_hash:
            return row
        # The same structured preference in other words ("Prefers amounts in euros" forgotten,
        # "Wants figures in EUR" proposed): the stored subject and value agree.
        if row.kind == kind and row.subject_hash in wanted_structured:
            return row
    if embedding is None:
        embedding = embed_one(statement)
    hashes = content_hashes(statement)
    same_words = [row for row in rows if sorted(row.content_hashes) == hashes]
    if not same_words:
        return None
    with acting_user(user.pk):
        vectors = dict(Suppression.objects.filter(pk__in=[row.pk for row in same_words]).values_list("pk", "embedding"))
    for row in same_words:
        row.embedding = vectors[row.pk]
        similarity = cosine(embedding, row.embedding)
        if similarity > COSINE_THRESHOLD:
            return row
        if hashes and row.kind == kind and similarity > ANCHORED_COSINE_FLOOR:
            return row
    return None


def is_suppressed(user: User, **candidate: Any) -> bool:
    """Whether a candidate (``matching_suppression``'s keywords) repeats something the user forgot."""
    return matching_suppression(user, **candidate) is not None
