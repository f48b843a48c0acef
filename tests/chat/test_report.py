"""The hold-out report's numbers on a seeded set of turns with known outcomes."""

import pytest

from chat import report
from chat.models import ChatSession, Feedback, Turn
from memory.rls import acting_user, staff_bypass

NOTE = {
    "memory_id": 1,
    "kind": "preference",
    "statement": "Always use metric units",
    "author": "user",
    "written_at": "2026-11-01T09:00:00+00:00",
    "source_quote": "always use metric units",
    "source_at": None,
    "reason": "preference",
    "score": None,
    "influence": "shaped-format",
}


def seed_turns(user, outcomes: list[tuple[bool, bool, bool, str]]) -> None:
    """outcomes: (eligible, held_out, followup, feedback kind or "")."""
    with acting_user(user.pk):
        session = ChatSession.objects.create(user=user)
        for index, (eligible, held_out, followup, rating) in enumerate(outcomes):
            used = eligible and not held_out
            turn = Turn.objects.create(
                session=session,
                user=user,
                question=f"question {index}",
                answer="answer",
                eligible=eligible,
                held_out=held_out,
                followup=followup,
                recalled=[NOTE] if used else [],
            )
            if rating:
                Feedback.objects.create(turn=turn, user=user, kind=rating)


def with_memory(n: int, *, followup: int = 0, ratings: list[str] = ()) -> list[tuple[bool, bool, bool, str]]:
    ratings = list(ratings) + [""] * (n - len(ratings))
    return [(True, False, i < followup, ratings[i]) for i in range(n)]


def held_out(n: int, *, followup: int = 0, ratings: list[str] = ()) -> list[tuple[bool, bool, bool, str]]:
    ratings = list(ratings) + [""] * (n - len(ratings))
    return [(True, True, i < followup, ratings[i]) for i in range(n)]


@pytest.fixture
def seeded(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    # With memory: 20 eligible turns; 10 rated: 8 helpful, 1 not helpful, 1 marked wrong; 4 follow-ups.
    seed_turns(alice, with_memory(12, followup=3, ratings=["helpful"] * 5 + ["incorrect"]))
    seed_turns(bob, with_memory(8, followup=1, ratings=["helpful"] * 3 + ["not_helpful"]))
    # Held out: 10 eligible turns; 4 rated: 2 helpful, 2 marked wrong; 3 follow-ups.
    seed_turns(alice, held_out(6, followup=2, ratings=["helpful", "incorrect"]))
    seed_turns(bob, held_out(4, followup=1, ratings=["helpful", "incorrect"]))
    # Not eligible (recall returned nothing): never part of the comparison.
    seed_turns(alice, [(False, False, True, "helpful")] * 5 + [(False, True, False, "incorrect")] * 2)
    return alice, bob


def compute():
    with staff_bypass(actor_id=None, reason="test: hold-out report"):
        return report.holdout_report()


def test_counts_and_rates_per_arm(seeded):
    result = compute()
    assert result.eligible_turns == 30
    mem, out = result.with_memory, result.held_out
    assert (mem.turns, mem.rated, out.turns, out.rated) == (20, 10, 10, 4)
    assert (mem.helpful.count, mem.helpful.total, mem.helpful.rate) == (8, 10, 0.8)
    assert (mem.followup.count, mem.followup.total, mem.followup.rate) == (4, 20, 0.2)
    assert (mem.wrong_from_memory.count, mem.wrong_from_memory.rate) == (1, 0.05)
    assert (out.helpful.count, out.helpful.total, out.helpful.rate) == (2, 4, 0.5)
    assert (out.followup.count, out.followup.rate) == (3, 0.3)
    # Held-out turns used no memory: their wrong answers cannot be traced to one.
    assert (out.wrong_from_memory.count, out.wrong_from_memory.rate) == (0, 0.0)


def test_confidence_intervals_are_wilson_95(seeded):
    result = compute()
    mem, out = result.with_memory, result.held_out
    assert (mem.helpful.low, mem.helpful.high) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert (mem.followup.low, mem.followup.high) == pytest.approx((0.0807, 0.4160), abs=1e-4)
    assert (mem.wrong_from_memory.low, mem.wrong_from_memory.high) == pytest.approx((0.0089, 0.2361), abs=1e-4)
    assert (out.helpful.low, out.helpful.high) == pytest.approx((0.1500, 0.8500), abs=1e-4)
    assert (out.wrong_from_memory.low, out.wrong_from_memory.high) == pytest.approx((0.0, 0.2775), abs=1e-4)


def test_difference_in_points(seeded):
    metrics = {m.key: m for m in compute().metrics}
    assert metrics["helpful"].difference_points == pytest.approx(30.0)
    assert metrics["followup"].difference_points == pytest.approx(-10.0)


def test_report_sees_no_turns_without_the_staff_bypass(seeded):
    with acting_user(None):
        assert report.holdout_report().eligible_turns == 0


def test_empty_report_has_no_rates(db):
    result = compute()
    assert result.eligible_turns == 0
    assert result.with_memory.helpful.rate is None and result.with_memory.helpful.low is None
    assert "no data" in report.render_chart_svg(result)


@pytest.mark.parametrize(
    ("successes", "total", "expected"),
    [
        (78, 100, (0.6893, 0.8500)),
        (71, 100, (0.6146, 0.7899)),
        (0, 10, (0.0, 0.2775)),
        (10, 10, (0.7225, 1.0)),
    ],
)
def test_wilson_interval_known_values(successes, total, expected):
    assert report.wilson_interval(successes, total) == pytest.approx(expected, abs=1e-4)


def test_wilson_interval_of_nothing_is_none():
    assert report.wilson_interval(0, 0) is None
    with pytest.raises(ValueError):
        report.wilson_interval(3, 2)


def test_chart_has_a_bar_and_a_whisker_per_arm_and_metric_and_no_script(seeded):
    svg = report.render_chart_svg(compute())
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count('class="ci"') == 6
    assert "<script" not in svg and "style=" not in svg
    assert "80.0%" in svg and "50.0%" in svg
