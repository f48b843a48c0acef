"""Unknown words read by meaning, before they count as unread.

A verb no slot reads ("how many orders did we book", "how much did Saltmarsh rack up in Q2",
"the biggest order we booked") would make the question unanswerable. Where the verb only ties
a customer or "we" to the orders or the money asked about (its object is an order noun or "how
much", or it describes an order noun), it is the ordering verb in other words, unless the
shipped embedding model puts it nearer another event of an order (shipping, paying, returning,
cancelling: the status words and money flows of the vocabulary) than to ordering.

Measured with the embedding model in the frame "how much did the customer <verb>" (margin =
best cosine to the ordering anchors minus best to the event anchors): ordering verbs typed by
people ("book", "booked", "rack up", "put in", "put through", "bring in", "bill", "billed",
"generate", "rang up", "pull in") scored -0.05 to +0.10; event verbs ("pay" -0.10, "paid"
-0.09, "ship" -0.17, "deliver" -0.19, "return" -0.21, "refund" -0.24, "owe" -0.26, "cancel"
-0.30). Verbs unrelated to orders ("work", "meet", "cover": -0.07 to +0.06) overlap the
ordering verbs, so the model alone cannot decide: the grammar gate above comes first.
"""

from __future__ import annotations

import threading
from functools import lru_cache

import numpy as np
from spacy.tokens import Token

from chat import vocabulary as vocab

ORDERING_ANCHORS = ("order", "spend", "buy", "place", "purchase")
EVENT_ANCHORS = ("pay", "owe", "return", "refund", "cancel", "deliver", "ship", "complain", "discount", "lose")
FRAME = "how much did the customer {}"
# Below this margin the verb is nearer another event of an order than to ordering (see above).
MIN_MARGIN = -0.06
PARTICLES = frozenset({"up", "in", "through", "thru", "out", "down", "over"})
READ_AS = "order"
TIGHT_PARTICLES = frozenset({"up", "through", "thru"})

_lock = threading.Lock()


@lru_cache(maxsize=1)
def _anchors() -> tuple[np.ndarray, np.ndarray]:
    from memory.embeddings import embed

    events = sorted({*EVENT_ANCHORS, *(w for w in vocab.STATUS_WORDS if w.isalpha())})
    vectors = np.array(embed([FRAME.format(a) for a in (*ORDERING_ANCHORS, *events)]), dtype=float)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors[: len(ORDERING_ANCHORS)], vectors[len(ORDERING_ANCHORS) :]


@lru_cache(maxsize=512)
def ordering_margin(phrase: str) -> float:
    """How much nearer ``phrase`` is to ordering than to any other event of an order."""
    from memory.embeddings import embed

    with _lock:
        ordering, events = _anchors()
    vector = np.array(embed([FRAME.format(phrase)])[0], dtype=float)
    vector /= np.linalg.norm(vector)
    return float((ordering @ vector).max() - (events @ vector).max())


def _order_noun(token: Token) -> bool:
    word, lemma = token.lower_, token.lemma_.lower()
    return vocab.SUBJECT_WORDS.get(lemma) == "orders" or vocab.SUBJECT_WORDS.get(word) == "orders"


def ties_to_orders(token: Token) -> bool:
    """The verb's grammar ties it to the orders or the money asked about: it is the question's
    main verb (or a clause of it, or describes an order noun: "the biggest order we booked")
    and the question asks about orders or money ("how much", "$", "revenue")."""
    if token.pos_ not in ("VERB", "AUX", "NOUN", "ADJ"):
        return False
    if token.dep_ not in ("ROOT", "ccomp", "relcl", "acl", "conj"):
        return False
    if any(c.dep_ in ("auxpass", "nsubjpass") for c in token.children) or token.dep_ == "acomp":
        return False  # "orders are backordered": a state of the orders, not the ordering
    subjects = [c for c in token.children if c.dep_ == "nsubj"]
    if not subjects:
        return False  # someone orders: "split this year's dollars out" asks Atlas to do something
    if any(_order_noun(c) for c in subjects):
        return False  # "orders grew": something the orders do, not the ordering
    if any(c.lower_ in vocab.POINTING_PRONOUNS for c in subjects):
        return False  # "how many orders does that cover": what the answer shown holds, not an ordering
    doc = token.doc
    text = " ".join(t.lower_ for t in doc)
    money = any(t.lower_ == "$" or t.lemma_.lower() in vocab.MONEY_WORDS for t in doc)
    return money or "how much" in text or any(_order_noun(t) for t in doc)


def phrase_of(token: Token) -> str:
    """The verb with its particle ("rack up", "put in")."""
    doc = token.doc
    after = doc[token.i + 1] if token.i + 1 < len(doc) else None
    particles = [c.lower_ for c in token.children if c.dep_ == "prt" and c.lower_ in PARTICLES]
    if not particles and after is not None and after.lower_ in TIGHT_PARTICLES:
        particles = [after.lower_]  # "rack up", "put through": never "book in the last 30 days"
    return " ".join([token.lower_, *particles[:1]])


def read_as_ordering(token: Token) -> tuple[str, str]:
    """The phrase and the ordering verb it is read as (("rack up", "spend")), or ("", "") when
    the verb keeps its own meaning."""
    if not ties_to_orders(token):
        return "", ""
    phrase = phrase_of(token)
    if ordering_margin(phrase) < MIN_MARGIN:
        return "", ""
    return phrase, nearest_ordering(phrase)


@lru_cache(maxsize=512)
def nearest_ordering(phrase: str) -> str:
    """The ordering anchor ``phrase`` is nearest to ("rack up": "spend", "book": "order")."""
    from memory.embeddings import embed

    with _lock:
        ordering, _ = _anchors()
    vector = np.array(embed([FRAME.format(phrase)])[0], dtype=float)
    return ORDERING_ANCHORS[int((ordering @ vector).argmax())]
