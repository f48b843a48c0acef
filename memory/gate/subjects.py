"""What a preference or a context note is about: (subject, value), read from the vocabulary.

Stored on the memory row (``Memory.subject``/``Memory.value``) so duplicate detection,
supersession, suppression and the responder read ("currency", "EUR") instead of
re-parsing the sentence.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory.gate.vocabulary import (
    CONTEXT_SUBJECTS,
    DIRECTIONS,
    NOT_VALUE_PHRASES,
    REGION_NAMES,
    SUBJECT_ORDER,
    SUBJECT_VALUES,
)
from memory.preferences import world_currency


def _pattern(phrase: str) -> re.Pattern:
    body = re.escape(phrase).replace(r"\ ", r"\s+")
    left = r"(?<![\w])" if phrase[0].isalnum() else ""
    right = r"(?![\w])" if phrase[-1].isalnum() else ""
    return re.compile(left + body + right, re.I)


@lru_cache(maxsize=1)
def _compiled() -> dict[str, list[tuple[str, re.Pattern]]]:
    return {
        subject: [(value, _pattern(phrase)) for value, phrases in values.items() for phrase in phrases]
        for subject, values in SUBJECT_VALUES.items()
    }


_CONTAINER = re.compile(r"\b(?:every|each|any|all)\s+$", re.I)


def _not_a_value(text: str, found: re.Match) -> bool:
    """A value word that names no value: the place something goes ("the variance column in
    every table" asks for a column, not for tables) or part of another term ("ISO week")."""
    if _CONTAINER.search(text[: found.start()]):
        return True
    return any(
        m.start() <= found.start() and found.end() <= m.end()
        for phrase in NOT_VALUE_PHRASES
        for m in _pattern(phrase).finditer(text)
    )


_SWITCH_TO = re.compile(r"\b(?:switch|change|swap|move|convert|turn)\w*\b.*?\bto\b", re.I)


def subject_value(text: str) -> tuple[str, str]:
    """(subject, canonical value) a preference names; ("", "") when none.

    When a clause names several values of one subject ("bullet points instead of tables")
    the first one named wins: that is what the user asked for; after "switch/change ... to" the
    one after "to" does ("switch the charts to tables" asks for tables).
    """
    compiled = _compiled()
    switched = _SWITCH_TO.search(text)
    pivot = switched.end() if switched else 0
    for subject in SUBJECT_ORDER:
        best: tuple[int, str] | None = None
        named = False
        for value, pattern in compiled[subject]:
            found = next((f for f in pattern.finditer(text) if not _not_a_value(text, f)), None)
            if not found:
                continue
            named = True
            # earliest after the pivot, then earliest before it
            rank = found.start() - (len(text) + 1 if found.start() >= pivot else 0)
            if value and (best is None or rank < best[0]):
                best = (rank, value)
        if subject == "address" and named:
            return subject, _addressed_as(text)
        if subject == "currency" and best is None and (code := world_currency(text)):
            return subject, code  # a currency the vocabulary does not spell, read from CLDR
        if best:
            return subject, best[1]
        if named:
            return subject, ""
    return "", ""


def _addressed_as(text: str) -> str:
    # The verb in any case ("Call me Sam."), the name capitalised, a title kept ("as Dr Okafor").
    found = re.search(r"\b(?i:call|address)\s+me\s+(?:as\s+)?((?:[A-Z][\w'.-]*\s+)*[A-Z][\w'-]*)", text)
    return found.group(1) if found else ""


def context_subject(text: str) -> str:
    """What a note about the user's work is about ("office", "coverage", ...), or ""."""
    # In the vocabulary's order: "coverage" comes last, so "I run the Porto office" is "office".
    # The patterns ignore case.
    for subject, words in CONTEXT_SUBJECTS.items():
        if any(_pattern(word).search(text) for word in words):
            return subject
    regions = (*REGION_NAMES, *(w for words in DIRECTIONS.values() for w in words))
    if re.search(rf"\bon (?:the )?(?:{'|'.join(regions)})\b", text, re.IGNORECASE):
        return "patch"  # "im on north now": a region the user is on, no noun for it
    return ""
