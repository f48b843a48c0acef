"""Words both the write gate (memory) and the query planner (chat) read, defined once.

Each app keeps its own vocabulary module for what only it needs (memory/gate/vocabulary.py,
chat/vocabulary.py); what they share lives here, beside the language pipeline they share (the words of dates
and periods are atlas/dates.py's).
"""

from __future__ import annotations

import re

# English function words: what carries no content when two texts are compared word by word.
# Each reader adds its own (session state the rest of its list, the gate's forget the words of
# forgetting).
FUNCTION_WORDS = frozenset(
    """
    a an the that this i i'm me my mine you your to of in on for and or is am are was be it its
    about what with as at by from have has do does not please
    """.split()
)

# The records' currency in words ("500 bucks", "2000 dollars"): the unit of an amount (so "2000 dollars"
# is no year), never a noun to read.
CURRENCY_WORDS = frozenset({"dollar", "dollars", "buck", "bucks", "usd"})

# What the user says of an answer that is wrong, and the openings of a chat message that
# corrects the last answer ("That's wrong: their terms are net 45 now"). The chat reads the
# openings (chat/corrections.py); the gate reads both in a "That's wrong" comment.
VERDICTS: tuple[str, ...] = (
    "wrong",
    "incorrect",
    "not right",
    "not correct",
    "not true",
    "inaccurate",
    "mistaken",
    # what was right once ("that's old, it's ... now", "out of date, they got bumped to ...")
    "old",
    "out of date",
    "outdated",
    "stale",
    "wrong one",
    "the wrong one",
    "not anymore",
    "not any more",
    "the old one",
    # the value named as wrong: "wrong date, it was signed ...", "that's the wrong figure"
    *(
        f"{lead}wrong {what}"
        for lead in ("", "the ")
        for what in ("date", "figure", "number", "amount", "limit", "city", "terms", "region", "year", "value", "total")
    ),
)
CORRECTION_LEADS: tuple[str, ...] = tuple(
    dict.fromkeys(
        f"{lead}{frame.format(v)}"
        for v in VERDICTS
        for frame in ("{}", "that's {}", "that is {}", "this is {}", "you're {}", "you are {}")
        for lead in ("", "no, ", "no ", "nope, ", "nope ", "actually, ", "actually ")
        if not (lead and frame == "{}")
    )
)

# Greetings, thanks and other small talk: the gate keeps nothing of a turn made only of them, and a
# lead made only of them before a question ("morning all. need ...") asks nothing of the records.
SMALL_TALK_WORDS: tuple[str, ...] = (
    "thanks", "thank", "you", "thx", "ty", "cheers", "great", "perfect", "awesome", "nice", "cool", "ok",
    "okay", "sure", "got", "it", "hi", "hello", "hey", "there", "good", "morning", "afternoon", "evening",
    "bye", "goodbye", "see", "lol", "haha", "wow", "yes", "yep", "that", "that's", "'s", "is", "helpful",
    "fine", "all", "much", "appreciated", "a", "lot", "so", "brilliant", "excellent", "amazing", "fantastic",
    "works", "helps", "job", "well", "done", "one", "how", "are", "atlas", "hiya", "howdy", "folks", "yo",
)  # fmt: skip
# The small talk that only thanks, greets or praises: a turn of small talk holding one of them
# ("ok thanks", "k cool", "great, cheers") asks nothing, not even the last question again.
PLEASANTRIES = frozenset(
    {"thanks", "thank", "thx", "ty", "cheers", "great", "perfect", "awesome", "nice", "cool", "brilliant",
     "excellent", "amazing", "fantastic", "appreciated", "helpful", "lol", "haha", "wow", "bye", "goodbye",
     "hi", "hello", "hey", "hiya", "howdy"}
)  # fmt: skip


# Fields a single record has, by the words that name them: what a question asks for (the
# planner) and what a correction is about (the gate: a newer correction of the same customer's
# same field replaces the older one).
CUSTOMER_FIELDS: dict[str, str] = {
    "segment": "segment",
    "city": "city",
    "based": "city",
    "located": "city",
    "where": "city",
    "region": "region",
    "territory": "region",
    "code": "account_code",
}
CONTRACT_FIELDS: dict[str, str] = {
    "term": "payment_terms",
    "terms": "payment_terms",
    "net": "payment_terms",
    "credit": "credit_limit",
    "limit": "credit_limit",
    "renew": "renewal_date",
    "renewal": "renewal_date",
    "expire": "renewal_date",
    "expiry": "renewal_date",
    "sign": "signed_on",
    "signed": "signed_on",
    "signing": "signed_on",
}

# An order number as people type it: "SO-12345", "SO12345", "so 12345" (the space form only with
# five digits or more, so "so 12 orders" is no order), possessive too ("so-87888s customer").
ORDER_NUMBER = re.compile(r"\bSO(?:-?(\d{4,})|\s(\d{5,}))(?:'?s)?\b", re.IGNORECASE)
