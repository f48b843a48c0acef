"""The chat API: sessions, turns (the answer with the notes it used and their provenance) and
feedback. Happy paths checked in the database; anonymous refused; another user's ids 404;
bad input 400; token authentication."""

import pytest
from rest_framework.test import APIClient

from chat.models import ChatSession, Feedback, Turn
from memory import store
from memory.rls import acting_user


@pytest.fixture
def session(alice):
    with acting_user(alice.pk):
        return ChatSession.objects.create(user=alice, title="Orders")


@pytest.fixture
def turn(alice, session):
    with acting_user(alice.pk):
        return Turn.objects.create(session=session, user=alice, question="Open orders for Northline?", answer="Two.")


def db_turns(user) -> list[Turn]:
    with acting_user(user.pk):
        return list(Turn.objects.filter(user_id=user.pk).order_by("pk"))


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("get", "/api/sessions/"),
        ("post", "/api/sessions/"),
        ("get", "/api/sessions/00000000-0000-0000-0000-000000000000/"),
        ("get", "/api/sessions/00000000-0000-0000-0000-000000000000/turns/"),
        ("post", "/api/sessions/00000000-0000-0000-0000-000000000000/turns/"),
        ("get", "/api/turns/1/"),
        ("post", "/api/turns/1/feedback/"),
    ],
)
def test_anonymous_is_refused(db, method, url):
    assert getattr(APIClient(), method)(url).status_code in (401, 403)


def test_create_and_list_sessions(alice, bob, client_for, session):
    with acting_user(bob.pk):
        ChatSession.objects.create(user=bob, title="Bob's")
    client = client_for(alice)
    created = client.post("/api/sessions/")
    assert created.status_code == 201
    with acting_user(alice.pk):
        assert ChatSession.objects.filter(pk=created.json()["id"], user=alice).exists()
    listed = client.get("/api/sessions/").json()
    assert listed["count"] == 2
    assert {item["id"] for item in listed["results"]} == {created.json()["id"], str(session.pk)}


def test_read_session(alice, client_for, session):
    response = client_for(alice).get(f"/api/sessions/{session.pk}/")
    assert response.status_code == 200
    assert response.json()["title"] == "Orders"


def test_ask_returns_the_answer_with_the_notes_used_and_their_provenance(alice, client_for, session, settings, corpus):
    settings.ATLAS_HOLDOUT = False  # memory on every eligible turn (hold-out has its own tests)
    store.write_memory(
        alice,
        kind="preference",
        statement="Always show amounts in euros",
        author="user",
        source_session="earlier",
        source_quote="always show amounts in euros please",
        facets={"currency": "EUR"},
    )
    question = "What's the total value of Kestrel Foods' orders?"
    response = client_for(alice, token=True).post(
        f"/api/sessions/{session.pk}/turns/", {"question": question}, format="json"
    )
    assert response.status_code == 201
    body = response.json()
    assert body["answer"]
    saved = db_turns(alice)
    assert [t.pk for t in saved] == [body["id"]]
    assert saved[0].question == question
    assert saved[0].session_id == session.pk
    note = next(n for n in body["recalled"] if n["statement"] == "Always show amounts in euros")
    assert note["kind"] == "preference"
    assert note["provenance"]["quote"] == "always show amounts in euros please"
    assert note["provenance"]["session"] == "earlier"
    # Atlas has no rate to convert with: the answer says so, and the note is listed as declined.
    assert note["influence"] == "declined"
    assert note["how"] == "Amounts are shown in USD as recorded; Atlas has no exchange rates to show them in EUR."
    assert note["how"] in body["answer"]


def test_list_turns_of_a_session(alice, client_for, session, turn):
    body = client_for(alice).get(f"/api/sessions/{session.pk}/turns/").json()
    assert body["count"] == 1
    assert body["results"][0]["question"] == "Open orders for Northline?"


def test_read_turn(alice, client_for, turn):
    response = client_for(alice, token=True).get(f"/api/turns/{turn.pk}/")
    assert response.status_code == 200
    assert response.json()["answer"] == "Two."


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({}, "question"),
        ({"question": "   "}, "question"),
        ({"question": "x" * 2001}, "question"),
        ({"question": "hi", "option_id": "o" * 65}, "option_id"),
    ],
)
def test_ask_rejects_bad_questions(alice, client_for, session, payload, field):
    response = client_for(alice).post(f"/api/sessions/{session.pk}/turns/", payload, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert db_turns(alice) == []


def test_feedback_is_recorded(alice, client_for, turn):
    response = client_for(alice).post(
        f"/api/turns/{turn.pk}/feedback/", {"kind": "incorrect", "comment": "There are three."}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["kind"] == "incorrect"
    with acting_user(alice.pk):
        feedback = Feedback.objects.get(turn=turn)
    assert (feedback.kind, feedback.comment) == ("incorrect", "There are three.")


def test_new_feedback_replaces_the_old(alice, client_for, turn):
    client = client_for(alice)
    client.post(f"/api/turns/{turn.pk}/feedback/", {"kind": "not_helpful"}, format="json")
    assert client.post(f"/api/turns/{turn.pk}/feedback/", {"kind": "helpful"}, format="json").status_code == 201
    with acting_user(alice.pk):
        assert list(Feedback.objects.filter(turn=turn).values_list("kind", flat=True)) == ["helpful"]


@pytest.mark.parametrize(
    ("payload", "field"),
    [({}, "kind"), ({"kind": "brilliant"}, "kind"), ({"kind": "incorrect", "comment": "x" * 2001}, "comment")],
)
def test_feedback_rejects_bad_input(alice, client_for, turn, payload, field):
    response = client_for(alice).post(f"/api/turns/{turn.pk}/feedback/", payload, format="json")
    assert response.status_code == 400
    assert field in response.json()
    with acting_user(alice.pk):
        assert not Feedback.objects.filter(turn=turn).exists()


def test_other_users_sessions_and_turns_are_404(alice, bob, client_for, session, turn):
    for client in (client_for(bob), client_for(bob, token=True)):
        assert client.get(f"/api/sessions/{session.pk}/").status_code == 404
        assert client.get(f"/api/sessions/{session.pk}/turns/").status_code == 404
        assert client.post(f"/api/sessions/{session.pk}/turns/", {"question": "hi"}, format="json").status_code == 404
        assert client.get(f"/api/turns/{turn.pk}/").status_code == 404
        assert client.post(f"/api/turns/{turn.pk}/feedback/", {"kind": "helpful"}, format="json").status_code == 404
    assert len(db_turns(alice)) == 1
    with acting_user(alice.pk):
        assert not Feedback.objects.exists()


def test_unknown_session_id_is_404(alice, client_for):
    response = client_for(alice).get("/api/sessions/12345678-1234-1234-1234-123456789abc/")
    assert response.status_code == 404


def test_out_of_range_turn_id_is_404(alice, client_for):
    client = client_for(alice)
    assert client.get(f"/api/turns/{10**30}/").status_code == 404
    assert client.post(f"/api/turns/{10**30}/feedback/", {"kind": "helpful"}, format="json").status_code == 404
