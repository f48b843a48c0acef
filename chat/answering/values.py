"""A value the records do not hold: "There is no retail segment; the segments are enterprise,
mid-market and small business."

When no plan reads a question because one word names a segment, region, status or city that
no record has, the answer says so and lists the ones that exist, read from the data (never
from a list in code), instead of "I can't answer that". The attribute is read from where the
word stands: before "segment", "region" or "status"; before the customers it describes
("retail customers") or the orders ("refunded orders", "orders are backordered"); after "in"
when the word is a place (a city, a state: GeoNames through :mod:`atlas.lexicon`), or a
compass word ("the northwest").
"""

from __future__ import annotations

from dataclasses import dataclass

from spacy.tokens import Doc

from atlas import lexicon
from atlas.language import parse
from chat import vocabulary as vocab
from chat.models import Customer, OrderStatus, Region

ATTRIBUTE_NOUNS = {"segment": "segment", "segments": "segment", "region": "region", "regions": "region"}
ATTRIBUTE_NOUNS |= {"status": "status", "sector": "segment", "sectors": "segment"}
# Only these parts of speech name a value: "by" in "by region" or "the" in "the region" never do.
VALUE_POS = frozenset({"NOUN", "PROPN", "ADJ", "VERB"})
COMPASS = ("north", "south", "east", "west")
GRADING = frozenset({"most", "least", "more", "less", "very", "really", "too"})
PLACE_LEADS = frozenset({"in", "at", "from", "near"})
# Words that describe orders or customers without naming a value ("all", "our", "new").
ORDINARY = frozenset(
    {"all", "our", "any", "the", "new", "many", "much", "more", "most", "other", "those", "these"}
    | {"every", "each", "both", "either", "some", "that", "this", "my", "your", "their", "its", "same", "single"}
    | vocab.WHOLE_SCOPE_WORDS
)


@dataclass(frozen=True)
class MissingValue:
    attribute: str  # segment | region | status | city
    value: str  # as the user wrote it

    def sentence(self) -> str:
        """The plain answer: what is not there, and what is."""
        if self.attribute == "city":
            cities = sorted(set(Customer.objects.values_list("city", flat=True)))
            return f"There is no customer in {self.value.title()}; the customers are in {_listed(cities)}."
        if self.attribute == "region":
            regions = [r.label for r in Region if Customer.objects.filter(region=r.value).exists()]
            return f"There is no {self.value.title()} region; the regions are {_listed(regions)}."
        if self.attribute == "status":
            statuses = [s.value for s in OrderStatus]
            return f"There is no {self.value} status; the statuses are {_listed(statuses)}."
        segments = sorted(set(Customer.objects.values_list("segment", flat=True)))
        return f"There is no {self.value} segment; the segments are {_listed(segments)}."


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _known(word: str) -> bool:
    corpus = vocab.corpus_vocabulary()
    return (
        word in vocab.REGION_WORDS
        or word in vocab.STATUS_WORDS
        or word in corpus.words
        or word in vocab.SUBJECT_WORDS
        or word in ORDINARY
        or word in vocab.TOP_WORDS
        or word in vocab.BOTTOM_WORDS
        or word in vocab.SUM_WORDS
        or word in vocab.AVERAGE_WORDS
        or word in vocab.MONEY_WORDS
        or word.isdigit()
    )


def missing_value(text: str, *, unread: str = "") -> MissingValue | None:
    """The value ``text`` names that no record holds, if that is why no plan reads it.

    ``unread``: the word the planner could not read, when it said which; a segment, region or
    status is looked for only there, so a word the plans simply do not use is not taken for a
    value."""
    doc = parse(text)
    words = [t.lower_ for t in doc]
    tags = [t.tag_ for t in doc]
    compound = compound_region(words)
    if compound is not None:
        return MissingValue("region", compound[1])
    city = _place(words)
    if city is not None:
        return MissingValue("city", city)
    for i, word in enumerate(words):
        if not word.isalpha() or _known(word) or (unread and word != unread.lower()):
            continue
        if doc[i].pos_ not in VALUE_POS or word in vocab.GROUPING_LEADS:
            continue  # "break it down by region": a grouping, never a region called "By"
        after = words[i + 1] if i + 1 < len(words) else ""
        before = words[i - 1] if i else ""
        if before in GRADING:
            continue  # "our most loyal customers": a quality asked about, not a value named
        attribute = ATTRIBUTE_NOUNS.get(after)
        if attribute is None and any(word.startswith(c) or word.endswith(c) for c in COMPASS) and before == "the":
            attribute = "region"  # "in the northwest", "the midwest"
        subject = vocab.SUBJECT_WORDS.get(after) or vocab.SUBJECT_WORDS.get(after.rstrip("s"))
        if attribute is None and subject == "customers" and tags[i] in ("JJ", "NN", "VBN"):
            attribute = "segment"  # "retail customers", "government accounts"
        participle = tags[i] in ("VBN", "VBD") or (tags[i] == "JJ" and word.endswith("ed"))  # "refunded"
        if attribute is None and subject == "orders" and participle:
            attribute = "status"  # "refunded orders", "returned orders"
        if attribute is None and before in ("are", "were", "is") and participle:
            if any(vocab.SUBJECT_WORDS.get(w.rstrip("s")) == "orders" for w in words[:i]):
                attribute = "status"  # "how many orders are backordered"
        if attribute is not None:
            return MissingValue(attribute, " ".join(words[_value_start(doc, words, i) : i + 1]))
    return None


def _value_start(doc: Doc, words: list[str], i: int) -> int:
    """Where the value ending at ``i`` begins: the unknown words that modify it are part of its name
    ("the public sector segment" names a "public sector" segment, never a "sector" one)."""
    start = i
    while start > 0:
        word = words[start - 1]
        if not word.isalpha() or _known(word) or word in GRADING or word in vocab.GROUPING_LEADS:
            break
        if doc[start - 1].pos_ not in ("NOUN", "PROPN", "ADJ"):
            break
        start -= 1
    return start


def compound_region(words: list[str]) -> tuple[tuple[int, ...], str] | None:
    """A region word inside another region's name ("mid west", "mid-west", "north east", "far
    east"): the positions of its words and the name as typed, or None. Such a name is no region
    on record, and never the region its last word names."""
    for i, word in enumerate(words):
        if word not in vocab.REGION_WORDS or not i:
            continue
        j = i - 2 if words[i - 1] == "-" and i > 1 else i - 1
        if word in vocab.COMPOUND_REGION_LEADS.get(words[j], ()):
            return tuple(range(j, i + 1)), f"{words[j]} {word}"
    return None


def _place(words: list[str]) -> str | None:
    """A place after "in" ("customers in Austin", "accounts in Glasgow") that no customer is in."""
    places = lexicon.places()
    corpus = vocab.corpus_vocabulary()
    for i, word in enumerate(words[:-1]):
        if word not in PLACE_LEADS:
            continue
        for size in (3, 2, 1):
            key = tuple(words[i + 1 : i + 1 + size])
            if len(key) < size or key not in places:
                continue
            if key in corpus.cities or any(w in vocab.REGION_WORDS for w in key):
                return None
            return places[key]
    return None
