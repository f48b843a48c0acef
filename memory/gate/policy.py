"""One refusal policy for every write path (issue 14): the gate, correct, import, feedback.

:func:`refusal_for` is the public check: secrets, instructions aimed at the system,
special-category data and empty or invisible text ("\\u200b") are refused with the same
reason codes the gate records and a plain sentence (memory.gate.reasons.WHY) that the API
returns as a 400 and the memory page as a form error.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from atlas.record_changes import change_request, change_verb
from memory.gate import reasons as r
from memory.gate import rules
from memory.gate.secrets import secret_kind


@dataclass(frozen=True)
class Refusal:
    reason: str
    rule: str = ""  # the rule row a turn's refusal names (the write paths need only the reason)
    what: str = ""  # the kind of secret, for the answer ("a PIN")

    @property
    def why(self) -> str:
        if self.reason == r.SECRET and self.what:
            article = "an" if self.what[0].lower() in "aeiou" else "a"
            return f"it looks like {article} {self.what}, and Atlas never stores secrets"
        return r.why(self.reason)

    @property
    def message(self) -> str:
        """The 400 message of the correct and import paths."""
        return f"Atlas won't store this: {self.why}."


def visible_text(text: str | None) -> str:
    """The text without invisible characters (zero-width spaces, joiners, controls), trimmed."""
    text = unicodedata.normalize("NFKC", text or "")
    kept = "".join(ch for ch in text if ch in "\n\t" or unicodedata.category(ch) not in ("Cf", "Cc", "Co", "Cn"))
    return kept.strip()


def message_refusal(text: str, hits: dict[str, list[tuple[int, int]]]) -> Refusal | None:
    """A refusal that covers the whole message: a secret anywhere, or an instruction to the system."""
    what = secret_kind(text)
    if what:
        return Refusal(r.SECRET, "secret", what)
    for name in rules.MESSAGE_REFUSALS:
        if name in hits:
            return Refusal(r.INSTRUCTION, name)
    if change_verb(text)[0] and change_request(text, name_words=_customer_words(text)):
        return Refusal(r.INSTRUCTION, "change_records")  # "mark SO-12345 as paid": the records, not a note
    return None


def _customer_words(text: str) -> set[str]:
    """The words of the customers' names whose first word the text holds ("switch acme widgets to ...")."""
    from atlas.lexicon import CUSTOMER_NAMES, names_from, words

    said = set(words(text))
    out: set[str] = set()
    for name in names_from(CUSTOMER_NAMES):
        parts = words(name)
        if parts and parts[0] in said:
            out.update(parts)
    return out


def refusal_for(text: str) -> Refusal | None:
    """Why ``text`` must not be stored as a note, or None (every write path calls this)."""
    from memory.gate.pipeline import parse_turn

    clean = visible_text(text)
    if not any(ch.isalnum() for ch in clean):
        return Refusal(r.EMPTY)
    doc = parse_turn(clean)  # cached: a caller that parsed the text already pays nothing
    hits = rules.match(doc)
    refusal = message_refusal(clean, hits)
    if refusal is not None:
        return refusal
    if "special_category" in hits:
        return Refusal(r.SENSITIVE)
    return None
