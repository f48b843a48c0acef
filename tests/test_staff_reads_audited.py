"""Every staff read of user content records whose rows it showed: the user ids and memory ids
of each row on a list, a search, an object's page and its history (issue 30: the history page
and the list pages wrote a bypass entry with no user and no memory id)."""

import pytest
from django.test import Client

from chat.models import ChatSession, Feedback, Turn
from memory import store
from memory.models import AuditEvent, GateDecision
from memory.rls import acting_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def reviewer(make_user):
    client = Client()
    staff = make_user("reviewer", is_staff=True, is_superuser=True)
    client.force_login(staff)
    return staff, client


@pytest.fixture
def content(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    west = store.write_memory(alice, kind="context", statement="Covers the western region")
    french = store.write_memory(bob, kind="preference", statement="Always answer in French", author="user")
    with acting_user(alice.pk):
        session = ChatSession.objects.create(user=alice)
        turn = Turn.objects.create(session=session, user=alice, question="Open orders?", answer="Two.")
        Feedback.objects.create(turn=turn, user=alice, kind="incorrect", comment="Three.")
        GateDecision.objects.create(
            user=alice, rule="remember", kind="context", admitted=True, reason="explicit", memory=west
        )
    return alice, bob, west, french, turn


def shown(staff) -> set[tuple[int | None, int | None, str]]:
    """(user id, memory id, reason) of the staff-viewed entries the reviewer caused."""
    entries = AuditEvent.objects.filter(action=AuditEvent.Action.STAFF_VIEWED, actor_id=staff.pk)
    return {(e.user_id, e.memory_id, e.reason) for e in entries}


def test_the_memory_list_records_each_memory_shown(reviewer, content):
    staff, client = reviewer
    alice, bob, west, french, _ = content
    assert client.get("/admin/memory/memory/").status_code == 200
    assert shown(staff) == {
        (alice.pk, west.pk, "admin list: memory.memory"),
        (bob.pk, french.pk, "admin list: memory.memory"),
    }


def test_a_memory_search_records_only_what_it_found(reviewer, content):
    staff, client = reviewer
    _, bob, _, french, _ = content
    assert "Always answer in French" in client.get("/admin/memory/memory/", {"q": "French"}).content.decode()
    assert shown(staff) == {(bob.pk, french.pk, "admin list: memory.memory")}


def test_the_history_page_of_a_memory_records_whose_memory_it_is(reviewer, content):
    staff, client = reviewer
    alice, _, west, _, _ = content
    assert client.get(f"/admin/memory/memory/{west.pk}/history/").status_code == 200
    assert shown(staff) == {(alice.pk, west.pk, "admin history: memory.memory")}


@pytest.mark.parametrize(
    ("url", "reason", "with_memory"),
    [
        ("/admin/chat/turn/", "admin list: chat.turn", False),
        ("/admin/chat/feedback/", "admin list: chat.feedback", False),
        ("/admin/chat/chatsession/", "admin list: chat.chatsession", False),
        ("/admin/memory/gatedecision/", "admin list: memory.gatedecision", True),
    ],
)
def test_staff_list_pages_record_each_users_rows(reviewer, content, url, reason, with_memory):
    staff, client = reviewer
    alice, _, west, _, _ = content
    assert client.get(url).status_code == 200
    assert shown(staff) == {(alice.pk, west.pk if with_memory else None, reason)}


def test_opening_a_turn_records_whose_turn_it_is(reviewer, content):
    staff, client = reviewer
    alice, _, _, _, turn = content
    assert client.get(f"/admin/chat/turn/{turn.pk}/change/").status_code == 200
    assert shown(staff) == {(alice.pk, None, f"chat turn {turn.pk}")}  # its own entry, once
