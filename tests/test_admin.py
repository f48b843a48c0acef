"""Django admin for staff: review memory across users, audited; non-staff kept out."""

import pytest
from django.test import Client

from chat.models import ChatSession, Feedback, Turn
from memory import store
from memory.models import AuditEvent, GateDecision, Memory, Suppression
from memory.rls import acting_user


@pytest.fixture
def staff(make_user):
    return make_user("staff", is_staff=True, is_superuser=True)


@pytest.fixture
def staff_client(staff):
    client = Client()
    client.force_login(staff)
    return client


@pytest.fixture
def memories(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    west = store.write_memory(
        alice,
        kind="context",
        statement="Usually works with region=west",
        gate="repeated-filter",
        source_quote="open orders in the west please",
    )
    french = store.write_memory(bob, kind="preference", statement="Always answer in French", author="user")
    return alice, bob, west, french


def audits(action: str) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(action=action).order_by("pk"))


def test_staff_sees_every_users_memories_with_provenance(staff, staff_client, memories):
    response = staff_client.get("/admin/memory/memory/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Usually works with region=west" in page
    assert "Always answer in French" in page
    assert "open orders in the west please" in page
    assert "embedding" not in page.lower()


def test_staff_access_is_audited(staff, staff_client, memories):
    _, _, west, _ = memories
    staff_client.get("/admin/memory/memory/")
    bypass = audits(AuditEvent.Action.STAFF_BYPASS)
    assert bypass and all(event.actor_id == staff.pk for event in bypass)
    listed = [(e.actor_id, e.reason) for e in audits(AuditEvent.Action.STAFF_VIEWED)]
    assert listed == [(staff.pk, "admin list: memory.memory")] * 2  # one per memory shown

    response = staff_client.get(f"/admin/memory/memory/{west.pk}/change/")
    assert response.status_code == 200
    assert "Usually works with region=west" in response.content.decode()
    viewed = audits(AuditEvent.Action.STAFF_VIEWED)[-1]
    assert (viewed.actor_id, viewed.user_id, viewed.memory_id) == (staff.pk, west.user_id, west.pk)
    # The audit entry never carries the statement.
    assert "west" not in viewed.reason


def test_memory_detail_hides_embedding_and_search_vector(staff_client, memories):
    _, _, west, _ = memories
    page = staff_client.get(f"/admin/memory/memory/{west.pk}/change/").content.decode()
    assert "field-source_quote" in page
    assert 'name="embedding"' not in page and "field-embedding" not in page and "field-search" not in page


def test_memory_filters_and_search(staff_client, memories):
    by_kind = staff_client.get("/admin/memory/memory/", {"kind": "preference"}).content.decode()
    assert "Always answer in French" in by_kind and "region=west" not in by_kind
    by_search = staff_client.get("/admin/memory/memory/", {"q": "French"}).content.decode()
    assert "Always answer in French" in by_search and "region=west" not in by_search


def test_forget_action_deletes_and_suppresses(staff, staff_client, memories):
    alice, bob, west, french = memories
    response = staff_client.post(
        "/admin/memory/memory/",
        {"action": "forget_with_suppression", "_selected_action": [west.pk]},
    )
    assert response.status_code == 302
    with acting_user(alice.pk):
        assert not Memory.objects.filter(pk=west.pk).exists()
        assert Suppression.objects.filter(user_id=alice.pk).count() == 1
    with acting_user(bob.pk):
        assert Memory.objects.filter(pk=french.pk).exists()
    forgotten = audits(AuditEvent.Action.FORGOTTEN)
    assert [(e.user_id, e.memory_id) for e in forgotten] == [(alice.pk, west.pk)]


def test_memories_cannot_be_edited_or_added_in_admin(staff_client, memories):
    _, _, west, _ = memories
    assert staff_client.get("/admin/memory/memory/add/").status_code == 403
    page = staff_client.get(f"/admin/memory/memory/{west.pk}/change/").content.decode()
    assert 'name="statement"' not in page


def test_gate_decisions_filter_by_reason(staff_client, memories):
    alice, *_ = memories
    with acting_user(alice.pk):
        GateDecision.objects.create(
            user=alice, rule="preference", admitted=True, reason="explicit-standing-phrase", statement="metric"
        )
        GateDecision.objects.create(user=alice, rule="secret", admitted=False, reason="looks-like-secret")
    page = staff_client.get("/admin/memory/gatedecision/", {"reason": "looks-like-secret"}).content.decode()
    assert "looks-like-secret" in page
    assert "explicit-standing-phrase</td>" not in page
    admitted = staff_client.get("/admin/memory/gatedecision/", {"admitted__exact": "1"}).content.decode()
    assert "explicit-standing-phrase" in admitted
    assert staff_client.get("/admin/memory/gatedecision/add/").status_code == 403


def test_audit_log_and_suppressions_are_read_only(staff_client, memories):
    alice, _, west, _ = memories
    store.forget_memory(alice, west.pk)
    assert staff_client.get("/admin/memory/auditevent/").status_code == 200
    assert staff_client.get("/admin/memory/auditevent/add/").status_code == 403
    suppressions = staff_client.get("/admin/memory/suppression/")
    assert suppressions.status_code == 200
    assert "alice" in suppressions.content.decode()
    assert staff_client.get("/admin/memory/suppression/add/").status_code == 403
    event = AuditEvent.objects.filter(action=AuditEvent.Action.FORGOTTEN).get()
    assert staff_client.post(f"/admin/memory/auditevent/{event.pk}/delete/").status_code == 403


def test_chat_turns_and_feedback_are_reviewable(staff_client, make_user):
    carol = make_user("carol")
    with acting_user(carol.pk):
        session = ChatSession.objects.create(user=carol)
        turn = Turn.objects.create(session=session, user=carol, question="Open orders for Northline?", answer="Two.")
        Feedback.objects.create(turn=turn, user=carol, kind="incorrect", comment="There are three.")
    assert "Open orders for Northline?" in staff_client.get("/admin/chat/turn/").content.decode()
    assert "There are three." in staff_client.get("/admin/chat/feedback/").content.decode()
    assert staff_client.get(f"/admin/chat/turn/{turn.pk}/change/").status_code == 200
    assert AuditEvent.objects.filter(action=AuditEvent.Action.STAFF_VIEWED, user_id=carol.pk).exists()
    assert staff_client.get("/admin/chat/turn/add/").status_code == 403


def test_holdout_report_page(staff_client, make_user):
    carol = make_user("carol")
    with acting_user(carol.pk):
        session = ChatSession.objects.create(user=carol)
        for held_out, rating in [(False, "helpful"), (False, "not_helpful"), (True, "helpful")]:
            turn = Turn.objects.create(
                session=session, user=carol, question="q", answer="a", eligible=True, held_out=held_out
            )
            Feedback.objects.create(turn=turn, user=carol, kind=rating)
    response = staff_client.get("/admin/chat/turn/holdout-report/")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="holdout-table"' in page and "<svg" in page
    assert "50.0% (1/2)" in page and "100.0% (1/1)" in page
    assert "<script>" not in page.split('id="holdout-chart"')[1]
    assert AuditEvent.objects.filter(action=AuditEvent.Action.STAFF_BYPASS, reason__contains="hold-out").exists()
    assert "Hold-out report" in staff_client.get("/admin/chat/turn/").content.decode()


@pytest.mark.parametrize(
    "url",
    ["/admin/", "/admin/memory/memory/", "/admin/memory/gatedecision/", "/admin/chat/turn/holdout-report/"],
)
def test_non_staff_cannot_reach_admin(make_user, memories, url):
    client = Client()
    client.force_login(make_user("mallory"))
    response = client.get(url)
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
    assert "Always answer in French" not in response.content.decode()
    assert not AuditEvent.objects.filter(action=AuditEvent.Action.STAFF_BYPASS).exists()


def test_anonymous_cannot_reach_admin(db):
    response = Client().get("/admin/memory/memory/")
    assert response.status_code == 302


def test_staff_without_permissions_is_refused(make_user, memories):
    client = Client()
    client.force_login(make_user("intern", is_staff=True))
    assert client.get("/admin/memory/memory/").status_code == 403
    assert client.get("/admin/chat/turn/holdout-report/").status_code == 403


def test_a_preference_shows_its_facets_as_the_table_reads_them_and_whether_answers_apply_it(staff_client, make_user):
    carol = make_user("carol")
    scaled = store.write_memory(
        carol,
        kind="preference",
        statement="Wants amounts in thousands of euros.",
        author="user",
        facets={"scale": "k", "currency": "EUR"},
    )
    page = staff_client.get(f"/admin/memory/memory/{scaled.pk}/change/").content.decode()
    assert "Prefers amounts in thousands of euros (EUR)." in page
    assert "Amounts stay in USD as recorded (Atlas has no exchange rates); each answer with money says so." in page
