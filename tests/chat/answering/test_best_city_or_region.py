"""The best or worst group (class best_city_or_region): "which city brought in the most", "worst
region by revenue", "which segment had the most orders" name the group at the top (or bottom).

The helper's paraphrases (helper-blind-16, written before the change, without reading the
planner) judged by the evaluation's own reader (atlas.tooling), on the day they were written."""

import pytest

pytestmark = pytest.mark.turn


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("evaluative", "plain"),
    [
        ("weakest region by revenue last quarter?", "worst region by revenue last quarter?"),
        ("strongest city for sales in h1", "best city for sales in h1"),
        (
            "which enterprise customer was the weakest in 2025 by order value",
            "which enterprise customer was the worst in 2025 by order value",
        ),
    ],
)
def test_strongest_and_weakest_rank_as_best_and_worst(corpus, user, on_4_december, evaluative, plain):
    """ "Weakest" and "strongest" are the ranking words "worst" and "best" (class best_city_or_region):
    each question gets the same answer as its plain twin, never an unread word."""
    from chat.turn import ask, start_session

    answers = [ask(user, session=start_session(user), question=q).answer for q in (evaluative, plain)]
    assert answers[0] == answers[1]
    assert "can't answer" not in answers[0]
