"""A question racing delete-everything on the same account: the conversation is deleted after the
view loaded it and before the turn locked it. That is the user's own change, not an outage: a
409 with its sentence on the API and the page, nothing saved, nothing of the deletion undone;
503 stays for outages.

The race is made deterministic by running the deletion at the moment the turn starts (inside
``chat.turn.ask``, before its transaction), which is where it lands in the real race.
"""

import html

import pytest
from django.urls import reverse

import chat.turn
from chat.models import ChatSession, Turn
from chat.turn import start_session
from memory import store
from memory.models import Memory
from memory.rls import acting_user

pytestmark = [pytest.mark.django_db, pytest.mark.turn]

SENTENCE = "This conversation was deleted. Nothing was saved; start a new one."
QUESTION = "Remember that I cover the Denver accounts"


@pytest.fixture
def deleted_underneath(monkeypatch):
    """Delete everything of ``user`` once, just as their next turn starts."""

    def arm(user):
        real = chat.turn.clean_question
        fired = []

        def clean_then_delete(question: str) -> str:
            if not fired:
                fired.append(store.delete_everything(user))
            return real(question)

        monkeypatch.setattr(chat.turn, "clean_question", clean_then_delete)
        return fired

    return arm


def _state(user) -> tuple[int, int, int]:
    with acting_user(user.pk):
        return ChatSession.objects.count(), Turn.objects.count(), Memory.objects.count()


@pytest.fixture
def conversation(alice):
    session = start_session(alice, title="Northline")
    store.write_memory(alice, kind="context", statement="Covers the western region")
    return session


def test_api_answers_409_with_the_sentence_and_saves_nothing(alice, client_for, conversation, deleted_underneath):
    fired = deleted_underneath(alice)
    response = client_for(alice, token=True).post(
        f"/api/sessions/{conversation.pk}/turns/", {"question": QUESTION}, format="json"
    )
    assert fired and fired[0]["memories"] == 1
    assert response.status_code == 409
    assert response.json() == {"detail": SENTENCE, "code": "conversation_deleted"}
    assert "Retry-After" not in response
    assert _state(alice) == (0, 0, 0)  # the deletion stands; the question left nothing


def test_after_the_409_a_new_conversation_answers(alice, client_for, conversation, deleted_underneath):
    deleted_underneath(alice)
    client = client_for(alice)
    assert (
        client.post(f"/api/sessions/{conversation.pk}/turns/", {"question": QUESTION}, format="json").status_code == 409
    )
    new = client.post("/api/sessions/").json()["id"]
    answer = client.post(f"/api/sessions/{new}/turns/", {"question": QUESTION}, format="json")
    assert answer.status_code == 201
    assert _state(alice)[:2] == (1, 1)


def test_page_answers_409_keeps_the_question_and_offers_a_new_conversation(
    client, alice, conversation, deleted_underneath
):
    client.force_login(alice)
    deleted_underneath(alice)
    response = client.post(reverse("chat:ask", args=[conversation.pk]), {"question": QUESTION})
    page = html.unescape(response.content.decode())
    assert response.status_code == 409
    assert SENTENCE in page
    assert QUESTION in page  # still in the box, to ask again
    assert f'action="{reverse("chat:ask-new")}"' in page
    assert _state(alice) == (0, 0, 0)


def test_htmx_ask_answers_409_with_the_form_to_swap(client, alice, conversation, deleted_underneath):
    client.force_login(alice)
    deleted_underneath(alice)
    response = client.post(reverse("chat:ask", args=[conversation.pk]), {"question": QUESTION}, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert response["HX-Retarget"] == "#ask-form"
    partial = html.unescape(response.content.decode())
    assert SENTENCE in partial and QUESTION in partial
    assert "<html" not in partial
    assert _state(alice) == (0, 0, 0)


def test_a_database_failure_in_a_turn_is_still_a_503(alice, client_for, conversation, monkeypatch):
    from django.db import OperationalError

    def fail(*args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(chat.turn, "_ask", fail)
    response = client_for(alice).post(f"/api/sessions/{conversation.pk}/turns/", {"question": QUESTION}, format="json")
    assert response.status_code == 503
    assert response.json()["code"] == "turn_unavailable" and response["Retry-After"] == "30"
