"""A context note about the user's region narrows an open question only, and says so first; it
never narrows a question that asks for everything, groups by region or states its own scope
(design rule "narrowing"). The questions are by a helper who never read the code."""

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from chat.turn import ask
from memory.store import write_memory

PARAPHRASES = Path(__file__).resolve().parents[1] / "fixtures" / "paraphrases" / "narrowing_classes.jsonl"
ROWS = [json.loads(line) for line in PARAPHRASES.read_text().splitlines() if line.strip()]
NEVER = [r for r in ROWS if r["class"] in ("asks_for_everything", "groups_by_region", "own_scope")]
OPEN = [r for r in ROWS if r["class"] == "open_question"]


def _narrowed(user, question: str) -> bool:
    turn = ask(user, session=None, question=question)
    narrowed = [n for n in turn.recalled if n["influence"] == "narrowed"]
    if narrowed:
        assert turn.answer.startswith("Narrowed to the West region, from your note")
    return bool(narrowed)


@pytest.fixture
def covers_the_west(make_user, settings):
    settings.ATLAS_HOLDOUT = False
    user = make_user()
    written = datetime(2026, 1, 20, tzinfo=UTC)
    write_memory(
        user,
        kind="context",
        statement="Covers the western sales region.",
        facets={"region": "west"},
        created_at=written,
    )
    return user


@pytest.mark.django_db
@pytest.mark.parametrize("row", NEVER, ids=[f"{r['class']}:{r['question'][:40]}" for r in NEVER])
def test_a_region_note_never_narrows_a_question_that_asks_for_everything_groups_by_region_or_states_its_scope(
    corpus, covers_the_west, row
):
    assert not _narrowed(covers_the_west, row["question"])


@pytest.mark.django_db
def test_a_region_note_narrows_open_questions_and_says_so_first(corpus, covers_the_west):
    # Only where recall brings the note to the question (context notes are ranked by relevance,
    # unlike preferences): 4 of these 11 when this test was written; never a first line left unsaid.
    narrowed = [r["question"] for r in OPEN if _narrowed(covers_the_west, r["question"])]
    assert len(narrowed) >= 4, narrowed


# "..., not just my patch" and "..., dont filter anything" are remarks after the question, set aside.


@pytest.mark.django_db
@pytest.mark.parametrize(
    "row", [r for r in ROWS if r["class"] == "asks_for_everything"], ids=lambda r: r["question"][:40]
)
def test_a_question_that_asks_for_the_whole_company_is_answered_for_the_whole_company(corpus, make_user, row):
    """Class: words that ask for everything ("company-wide", "nationwide", "everywhere", "the grand
    total", "the entire company") are read as no filter, never as an unread word or a region."""
    answer = ask(make_user(), session=None, question=row["question"]).answer
    assert not answer.startswith(("I can't", "There is no")), answer
    assert not any(f"{r} region" in answer for r in ("West", "East", "North", "South", "Central")), answer
