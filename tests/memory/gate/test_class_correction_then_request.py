"""A correction keeps one note, the checkable statement: a request said after it in the same
turn ("..., stop showing X", "..., use the new one") is no second correction."""

from datetime import UTC, datetime

import pytest

from memory.gate.analysis import analyse_turn

AT = datetime(2026, 5, 4, 9, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("That's wrong: the Leeds depot closed in March, stop listing Leeds.", "Leeds depot closed in March"),
        ("no, the Oslo contract ends in June - quit saying September", "Oslo contract ends in June"),
        ("wrong, Harlow moved to net 45 last year, use that from now on", "Harlow moved to net 45"),
        ("That's not right: the Lyon branch reopened in May. Drop the closed label.", "Lyon branch reopened in May"),
        ("nope, the Bergen rep is Ines since April, stop naming Tom", "Bergen rep is Ines since April"),
    ],
)
def test_only_the_checkable_statement_is_kept(text, kept):
    writes = [f for f in analyse_turn(text, at=AT) if f.action == "write"]
    assert [f.kind for f in writes] == ["correction"], writes
    assert kept.lower() in writes[0].statement.lower()
