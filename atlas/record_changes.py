"""A request to change the records ("mark SO-12345 as paid", "can u set acme's credit limit to
50k", "switch acme widgets to net 45"): Atlas only reads the records. The planner says so
instead of answering with the value as it stands, and the gate keeps no note of it (a wish about
a customer's record is no preference about answers). One reader for both."""

from __future__ import annotations

import re
from collections.abc import Iterable

from atlas.vocabulary import CONTRACT_FIELDS, CUSTOMER_FIELDS, ORDER_NUMBER

# Verbs that change a record when they open a request.
CHANGE_VERBS = frozenset(
    {"mark", "set", "update", "change", "cancel", "bump", "switch", "edit", "delete", "remove", "raise", "lower",
     "increase", "decrease", "extend", "amend", "modify", "adjust", "reset", "close", "refund", "void", "reopen",
     "reduce", "upgrade", "downgrade", "approve"}
)  # fmt: skip
# What may come before the verb of a request ("pls", "can u", "could you please").
REQUEST_LEADS = frozenset(
    {"pls", "plz", "please", "can", "could", "would", "will", "u", "you", "ya", "kindly", "hey", "hi", "atlas", "ok",
     "okay", "quick", "just", "go", "ahead", "and", "also"}
)  # fmt: skip
# An order's states, and the word for them: what "mark ... as" or "change ... to" sets.
ORDER_STATES = frozenset({"status", "paid", "unpaid", "shipped", "cancelled", "canceled", "overdue", "open", "closed"})
# After the verb, a word that makes it no change of a record: "switch to acme", "change over to bullets".
# ("update for your records: acme is on net 30 now" is news of a change, told, not asked for)
_NOT_AN_OBJECT = frozenset(
    {"to", "over", "back", "up", "it", "that", "this", "them", "those", "for", "on", "about", "re", "from", "of", "in",
     "with", "regarding", "ur", "your", "my"}
)  # fmt: skip
_WORD = re.compile(r"[a-z0-9]+(?:['\u2019][a-z]+)?")


def change_verb(text: str) -> tuple[str, list[str]]:
    """The verb that opens a request to change something (after "pls", "can you") and the words after
    it, or ("", []): cheap, with no names read."""
    words = _WORD.findall(text.lower())
    lead = 0
    while lead < len(words) - 1 and words[lead] in REQUEST_LEADS:
        lead += 1
    if lead >= len(words) - 1 or words[lead] not in CHANGE_VERBS or words[lead + 1] in _NOT_AN_OBJECT:
        return "", []
    if re.search(rf"\b{words[lead]}\s*[:\u2013\u2014-]\s", text.lower()):
        return "", []  # "update: acme is on net 60 now": news of a change, told, not asked for
    return words[lead], words[lead + 1 :]


def change_request(text: str, *, name_words: Iterable[str]) -> str:
    """The verb of a request to change the records, or "": a verb of changing first, then an order,
    or a customer (``name_words``: the words of the names the text holds) and one of its fields or an
    order state."""
    verb, after = change_verb(text)
    if not verb:
        return ""
    rest = {w.split("'")[0].split("\u2019")[0] for w in after}
    fields = {*CONTRACT_FIELDS, *CUSTOMER_FIELDS, *ORDER_STATES}
    named = rest & {w.lower() for w in name_words}
    return verb if ORDER_NUMBER.search(text) or (named and rest & fields) else ""
