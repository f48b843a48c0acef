"""Periods bounded by today (class period_to_or_from_now): "between now and end of feb", "from
now until the end of march", "the next 6 weeks" run from today forward; "earlier this year", "so
far this quarter", "up to today this year" run from the period's start to today.

The helper's paraphrases (helper-blind-16, written before the change, without reading the
planner) judged by the evaluation's own reader (atlas.tooling), on the day they were written."""

import pytest

pytestmark = pytest.mark.turn


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("said", "plain"),
    [
        ("how many orders has the east placed since q3 started", "how many orders has the east placed since q3"),
        ("total for the south since march began", "total for the south since march"),
    ],
)
def test_a_verb_of_beginning_after_since_reads_as_since(corpus, user, on_4_december, said, plain):
    """ "since Q3 started" is "since Q3": the verb says where the period starts, as "since" does."""
    from chat.turn import ask, start_session

    answers = [ask(user, session=start_session(user), question=q).answer for q in (said, plain)]
    assert answers[0] == answers[1]
    assert "can't answer" not in answers[0]


@pytest.mark.django_db
def test_a_verb_of_beginning_with_no_period_stays_unread(corpus, user, on_4_december):
    from chat.turn import ask, start_session

    answer = ask(user, session=start_session(user), question="orders since the customer started").answer
    assert answer.startswith("I can't answer that"), answer
