"""Feedback: helpful / not helpful / "That's wrong" with a comment, which reaches the write gate."""

import pytest
from django.core.exceptions import ValidationError

from chat.feedback import give_feedback
from chat.models import Feedback, Turn
from chat.turn import ask, start_session
from memory.rls import acting_user
from memory.selectors import live_memories


@pytest.fixture
def turn(make_user):
    user = make_user()
    return ask(user, session=start_session(user), question="What are the payment terms for new customers?")


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["helpful", "not_helpful"])
def test_a_verdict_is_saved_on_the_turn(turn, kind):
    feedback = give_feedback(turn.user, turn.pk, kind=kind)
    with acting_user(turn.user_id):
        assert list(Feedback.objects.values_list("turn_id", "kind")) == [(turn.pk, kind)]
    assert feedback.comment == ""


@pytest.mark.django_db
def test_a_new_verdict_replaces_the_old_one(turn):
    give_feedback(turn.user, turn.pk, kind="helpful")
    give_feedback(turn.user, turn.pk, kind="not_helpful")
    with acting_user(turn.user_id):
        assert list(Feedback.objects.values_list("kind", flat=True)) == ["not_helpful"]


@pytest.mark.django_db
def test_thats_wrong_with_a_comment_reaches_the_gate_as_a_correction(
    turn, monkeypatch, django_capture_on_commit_callbacks
):
    from django_q.tasks import Conf

    monkeypatch.setattr(Conf, "SYNC", True)  # run the queued gate in this process
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        give_feedback(turn.user, turn.pk, kind="incorrect", comment="Actually Northline Freight is on net 45 now.")
    assert len(callbacks) == 1
    with acting_user(turn.user_id):
        statements = [(m.kind, m.statement) for m in live_memories(turn.user)]
    assert any(kind == "correction" and "net 45" in statement for kind, statement in statements), statements


@pytest.mark.django_db
def test_helpful_feedback_queues_nothing(turn, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        give_feedback(turn.user, turn.pk, kind="helpful")
    assert callbacks == []


@pytest.mark.django_db
def test_unknown_kind_and_oversized_comment_are_rejected(turn):
    with pytest.raises(ValidationError):
        give_feedback(turn.user, turn.pk, kind="meh")
    with pytest.raises(ValidationError):
        give_feedback(turn.user, turn.pk, kind="incorrect", comment="x" * 2001)


@pytest.mark.django_db
def test_another_users_turn_cannot_be_rated(turn, make_user):
    with pytest.raises(Turn.DoesNotExist):
        give_feedback(make_user(), turn.pk, kind="helpful")
