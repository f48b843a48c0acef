"""The semantic second opinion on standing wishes: a clause that names facets of the
preference table but says no standing phrase and no one-off marker is scored against the
exemplars of each class (memory/gate/semantic.py); when it reads as standing by the measured
margin, the preference is kept and the decision records the rule that proposed it. It never
admits on its own: without a facet and its value nothing is kept, and a request about the
answer on screen stores nothing.

Paraphrases written for this test, before the change, none of them read by a row before it.
"""

import pytest

from memory.gate import reasons as r
from tests.memory.gate.classes import replay

STANDING = [
    ("bullet points are my thing, stick with them", {"layout": "bullets"}),
    ("i tend to want the top 10 and nothing longer", {"limit": 10}),
    # ("i'm a tables person through and through" was one: a row reads a taste said of oneself since 5 December)
    ("tables are just how my brain works", {"layout": "table"}),
    ("my go-to is amounts in thousands", {"scale": "k"}),
    ("i basically live in euros so lets stick with that", {"currency": "EUR"}),
    ("thousands is my comfort zone for money", {"scale": "k"}),
    ("short answers are what i need day to day", {"length": "short"}),
]

NEAR_MISSES = [
    "can u show that one in euros",
    "put this in a table",
    "give me that in thousands",
    "the top 5 would do here",
    "can i get that as bullets",
    "sort those by date for me",
    # what was, not a wish
    "i used to get reports in thousands at my old job",
    "i was reading the bullet points you sent",
    "i had the figures in euros last week",
]


@pytest.mark.django_db
@pytest.mark.parametrize(("text", "facets"), STANDING)
def test_a_standing_wish_no_row_reads_is_kept_with_its_facets(text, facets):
    live, decisions = replay({"text": text})
    assert [(m.kind, m.facets) for m in live] == [("preference", facets)]
    admitted = [d for d in decisions if d.admitted]
    # (since the eleventh session a row reads "stick with that" as standing: the row, not the second opinion)
    rule = "standing_wish" if text in READ_BY_A_ROW_SINCE else "semantic_standing"
    assert [(d.rule, d.reason) for d in admitted] == [(rule, r.STANDING_PREFERENCE)]


READ_BY_A_ROW_SINCE = {"i basically live in euros so lets stick with that"}


@pytest.mark.django_db
@pytest.mark.parametrize("text", NEAR_MISSES)
def test_a_one_off_request_with_facets_stores_nothing(text):
    live, decisions = replay({"text": text})
    assert live == []
    assert not any(d.rule == "semantic_standing" for d in decisions)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "text",
    ["bullet points are my thing, but just this once", "i'm a tables person, for now anyway"],
)
def test_the_second_opinion_never_overrides_a_one_off_marker(text):
    live, decisions = replay({"text": text})
    assert live == []
    assert not any(d.rule == "semantic_standing" for d in decisions)
