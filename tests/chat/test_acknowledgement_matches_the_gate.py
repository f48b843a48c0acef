"""The chat's acknowledgement never promises a note the write gate does not write, and says the note as it is written.

Found by replaying the gate's class paraphrases (tests/fixtures/paraphrases/gate_classes.jsonl, written by helpers who
never read the gate) through the chat turn: before this, four of 1,211 single-turn rows were answered "I'll remember
that ..." with nothing written (an update with no note to update), two of them as "I'll remember that ."; and a wish
beside a reason naming a place ("..., im in the leeds office") was answered "Noted" while the worker, seeing a city
filter, wrote nothing. The texts below are from those rows and from memory_effect_set26/27 (regression fixtures).
"""

import pytest

from chat.turn import ask, start_session
from memory.models import Memory
from memory.rls import acting_user

pytestmark = [pytest.mark.turn, pytest.mark.django_db]


@pytest.fixture
def gate_runs_after_each_turn(monkeypatch, django_capture_on_commit_callbacks):
    """Each turn's queued gate task runs as the turn commits, in-process, as the worker would."""
    from django_q.conf import Conf

    monkeypatch.setattr(Conf, "SYNC", True)
    return django_capture_on_commit_callbacks


def _chats(committing, user, *sessions: list[str]) -> list[str]:
    answers = []
    for session in sessions:
        chat = start_session(user)
        for text in session:
            with committing(execute=True):
                answers.append(ask(user, session=chat, question=text).answer)
    return answers


def _live(user) -> list[tuple[str, str]]:
    with acting_user(user.pk):
        return sorted(Memory.objects.filter(user_id=user.pk).live().values_list("statement", "scope"))


def test_a_value_corrected_with_no_note_to_correct_is_neither_kept_nor_said_to_be(
    corpus, make_user, gate_runs_after_each_turn
):
    user = make_user()
    (answer,) = _chats(gate_runs_after_each_turn, user, ["sorry i meant the east one, not west"])
    assert not answer.startswith(("I'll remember", "Updated", "Noted"))
    assert _live(user) == []


def test_a_value_corrected_is_said_as_the_note_now_reads(corpus, make_user, gate_runs_after_each_turn):
    user = make_user()
    first, second = _chats(
        gate_runs_after_each_turn, user, ["remember i cover the west region"], ["sorry i meant the east one, not west"]
    )
    assert first == "I'll remember that you cover the west region."
    assert (
        second
        == "Updated: I'll remember that you cover the east region, replacing \u201cCovers the west region.\u201d."
    )
    assert _live(user) == [("Covers the east region.", "global")]


def test_a_patch_said_now_with_no_note_of_one_is_not_said_to_be_kept(corpus, make_user, gate_runs_after_each_turn):
    user = make_user()
    (answer,) = _chats(gate_runs_after_each_turn, user, ["im on the west region now"])
    assert not answer.startswith(("I'll remember", "Updated", "Noted"))
    assert _live(user) == []


def test_a_wish_beside_a_reason_naming_a_place_is_written_as_acknowledged(corpus, make_user, gate_runs_after_each_turn):
    user = make_user()
    (answer,) = _chats(gate_runs_after_each_turn, user, ["dates as dd/mm/yyyy for me pls, im in the leeds office"])
    assert answer == "Noted: you prefer dates as dd/mm/yyyy (UK style)."
    assert _live(user) == [("Prefers dates as dd/mm/yyyy (UK style).", "global")]


def test_a_wish_scoped_to_a_region_is_written_as_acknowledged(corpus, make_user, gate_runs_after_each_turn):
    user = make_user()
    (answer,) = _chats(
        gate_runs_after_each_turn, user, ["for west region customers show money in thousands (k), easier to eyeball"]
    )
    assert answer == "Noted: you prefer amounts in thousands (like $102.0k) in answers about the West region."
    assert _live(user) == [
        ("Prefers amounts in thousands (like $102.0k) in answers about the West region.", "region:west")
    ]


def test_a_new_date_format_asked_in_a_later_chat_replaces_the_kept_one(corpus, make_user, gate_runs_after_each_turn):
    user = make_user()
    answers = _chats(
        gate_runs_after_each_turn,
        user,
        ["dates as yyyy-mm-dd always"],
        ["can we do day/month/year like 04/11/2027? thats what our uk clients are used to reading"],
    )
    assert answers == ["Noted: you prefer dates as yyyy-mm-dd.", "Noted: you prefer dates as dd/mm/yyyy (UK style)."]
    assert _live(user) == [("Prefers dates as dd/mm/yyyy (UK style).", "global")]
