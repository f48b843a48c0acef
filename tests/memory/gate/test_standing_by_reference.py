"""A standing marker that points back at the turn before ("keep doing that for everything") keeps
what that turn asked for, in the same chat only; with nothing asked for before it, nothing."""

import pytest

from tests.memory.gate.classes import replay

AT = "2026-05-04T09:30:00Z"


def _live(*turns: tuple[str, str]) -> list[str]:
    live, _ = replay({"turns": [{"text": text, "session": session, "at": AT} for session, text in turns]})
    return [m.statement for m in live]


@pytest.mark.django_db
def test_keep_doing_that_keeps_the_format_the_turn_before_asked_for():
    assert _live(
        ("s1", "orders for acme by month, in thousands pls"), ("s1", "nice, keep doing that for everything")
    ) == ["Prefers amounts in thousands (like $102.0k)."]


@pytest.mark.django_db
def test_keep_doing_that_after_a_plain_question_keeps_nothing():
    assert _live(("s1", "how many open orders in the west?"), ("s1", "great, keep doing that for everything")) == []


@pytest.mark.django_db
def test_the_turn_before_in_another_chat_is_not_pointed_at():
    assert _live(("s1", "orders for acme by month, in thousands pls"), ("s2", "keep doing that for everything")) == []
