"""Hold-out (chapter 93): 10% of eligible turns, by a hash of the turn id, answered without memory."""

import hashlib

import pytest
from django.db import connection

from chat.holdout import decide, is_held_out, summarise
from chat.models import Turn
from chat.turn import ask, start_session
from memory.rls import acting_user
from memory.store import write_memory


def test_selection_is_the_sha256_of_the_turn_id_modulo_ten():
    for turn_id in range(1, 500):
        assert is_held_out(turn_id) == (int(hashlib.sha256(str(turn_id).encode()).hexdigest(), 16) % 10 == 0)
    share = sum(is_held_out(n) for n in range(1, 20_001)) / 20_000
    assert 0.09 < share < 0.11


def test_only_eligible_turns_are_held_out():
    held = next(n for n in range(1, 100) if is_held_out(n))
    assert decide(held, recalled_count=0) == (False, False)
    assert decide(held, recalled_count=2) == (True, True)
    kept = next(n for n in range(1, 100) if not is_held_out(n))
    assert decide(kept, recalled_count=1) == (True, False)


def test_the_experiment_can_be_switched_off(settings):
    settings.ATLAS_HOLDOUT = False
    held = next(n for n in range(1, 100) if is_held_out(n))
    assert decide(held, recalled_count=2) == (True, False)


def _next_turn_id(value: int) -> None:
    """Make the next turn get ``value`` as its id (the id the hold-out hashes)."""
    with connection.cursor() as cur:
        cur.execute("SELECT setval(pg_get_serial_sequence('chat_turn', 'id'), %s)", [value - 1])


@pytest.fixture
def user_with_preference(make_user):
    user = make_user()
    with acting_user(user.pk):
        write_memory(user, kind="preference", statement="Prefers answers in detail with bullet points.")
    return user


@pytest.mark.django_db
def test_a_held_out_turn_answers_without_memory_and_records_it(user_with_preference):
    user = user_with_preference
    held = next(n for n in range(10_000, 20_000) if is_held_out(n))
    _next_turn_id(held)
    turn = ask(user, session=start_session(user), question="What do you know about delivery policies?")
    assert turn.pk == held
    assert turn.eligible and turn.held_out
    assert turn.recalled == []
    assert "<recalled-notes>" not in turn.prompt.text


@pytest.mark.django_db
def test_an_eligible_turn_not_drawn_uses_memory(user_with_preference):
    user = user_with_preference
    kept = next(n for n in range(20_000, 30_000) if not is_held_out(n))
    _next_turn_id(kept)
    turn = ask(user, session=start_session(user), question="What do you know about delivery policies?")
    assert turn.eligible and not turn.held_out
    assert [n["statement"] for n in turn.recalled] == ["Prefers answers in detail with bullet points."]
    assert "<recalled-notes>" in turn.prompt.user_message and "<recalled-notes>" not in turn.prompt.system_message


@pytest.mark.django_db
def test_a_turn_with_nothing_recalled_is_not_eligible(make_user):
    user = make_user()
    held = next(n for n in range(30_000, 40_000) if is_held_out(n))
    _next_turn_id(held)
    turn = ask(user, session=start_session(user), question="What do you know about delivery policies?")
    assert not turn.eligible and not turn.held_out


@pytest.mark.django_db
def test_summary_compares_eligible_turns_with_and_without_memory(user_with_preference):
    from chat.feedback import give_feedback

    user = user_with_preference
    session = start_session(user)
    held = next(n for n in range(40_000, 50_000) if is_held_out(n))
    _next_turn_id(held)
    held_turn = ask(user, session=session, question="What do you know about delivery policies?")
    kept_turn = ask(user, session=session, question="And about returns?")
    give_feedback(user, held_turn.pk, kind="not_helpful")
    give_feedback(user, kept_turn.pk, kind="helpful")
    with acting_user(user.pk):
        result = summarise(Turn.objects.all())
    assert result["held_out"].turns == 1 and result["held_out"].helpful_rate == 0
    assert result["with_memory"].turns == 1 and result["with_memory"].helpful_rate == 1
