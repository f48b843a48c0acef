"""Where a view, forget or correction came from, and why a note was forgotten (chapter 98).

Through the real entry points: the memory page, the API, the conversation (the gate) and
the store; the inline panel's are in tests/chat/test_inline_surfaces.py.
"""

import html
import json
from datetime import timedelta
from urllib.parse import urlencode

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from memory import store, surfaces
from memory.gate import TurnEvent, run_gate
from memory.models import AuditEvent, ForgetReason, GateDecision, Memory, Suppression, SurfaceEvent
from memory.rls import acting_user

HTMX = {"HTTP_HX_REQUEST": "true"}
STATEMENT = "Prefers amounts in Danish kroner"


@pytest.fixture
def signed_in(client, alice):
    client.force_login(alice)
    return client


def written_by_rule(user, *, days_ago: int = 12) -> Memory:
    """A note as the gate leaves it: the row and the admitting decision that names its rule."""
    memory = store.write_memory(
        user,
        kind="preference",
        statement=STATEMENT,
        gate="rules",
        gate_version="1.0",
        created_at=timezone.now() - timedelta(days=days_ago),
        source_quote="show me that in kroner",
    )
    with acting_user(user.pk):
        GateDecision.objects.create(
            user=user,
            rule="standing_phrase",
            kind="preference",
            admitted=True,
            reason="standing_preference",
            statement=memory.statement,
            memory=memory,
            gate_version="1.0",
        )
    return memory


def events(user, action: str = "") -> list[SurfaceEvent]:
    with acting_user(user.pk):
        rows = SurfaceEvent.objects.filter(user=user).order_by("pk")
        return list(rows.filter(action=action) if action else rows)


def test_forget_records_what_wrote_the_note_its_kind_age_and_surface(alice):
    memory = written_by_rule(alice, days_ago=12)
    store.forget_memory(alice, memory.pk, reason="over-generalised", surface="page")
    [event] = events(alice, "forgotten")
    assert (event.surface, event.forget_reason, event.kind) == ("page", "over-generalised", "preference")
    assert (event.rule, event.rule_reason, event.gate_version) == ("standing_phrase", "standing_preference", "1.0")
    assert event.note_age_days == 12 and event.memory_id == memory.pk
    with acting_user(alice.pk):
        stored = json.dumps([str(v) for v in SurfaceEvent.objects.filter(pk=event.pk).values().get().values()])
    audit = AuditEvent.objects.get(user_id=alice.pk, action="forgotten")
    assert "kroner" not in stored.lower() and "kroner" not in audit.reason.lower()
    assert audit.reason == "page over-generalised"


def test_a_note_with_no_gate_decision_keeps_no_text_from_its_row(alice):
    # An imported note's ``gate`` field comes from the file: it is not copied into the record.
    memory = store.write_memory(alice, kind="context", statement="Covers Jutland", gate="secret-project-x")
    store.forget_memory(alice, memory.pk, surface="api")
    [event] = events(alice, "forgotten")
    assert (event.rule, event.rule_reason, event.forget_reason) == ("no-gate-decision", "", "")


@pytest.mark.parametrize("reason", ["over it", "Never-True", "memory page"])
def test_store_refuses_a_reason_outside_the_fixed_list_and_keeps_the_note(alice, reason):
    memory = written_by_rule(alice)
    with pytest.raises(ValidationError):
        store.forget_memory(alice, memory.pk, reason=reason)
    with acting_user(alice.pk):
        assert Memory.objects.filter(pk=memory.pk).exists()
    assert events(alice) == []


def test_forget_on_the_page_then_each_reason_is_one_more_click(signed_in, alice):
    for reason, label in ForgetReason.choices:
        memory = written_by_rule(alice)
        response = signed_in.post(reverse("memory:forget", args=[memory.pk]), **HTMX)
        body = response.content.decode()
        assert "Forgotten." in body and all(lbl in html.unescape(body) for _, lbl in ForgetReason.choices)
        with acting_user(alice.pk):
            assert not Memory.objects.filter(pk=memory.pk).exists()  # already gone, reason or not
        response = signed_in.post(reverse("memory:forget-reason", args=[memory.pk]), {"reason": reason}, **HTMX)
        assert response.status_code == 200
        assert f"Thanks, noted: “{label}”" in html.unescape(response.content.decode())
        assert "<html" not in response.content.decode()
        assert events(alice, "forgotten")[-1].forget_reason == reason
        assert events(alice, "forgotten")[-1].surface == "page"
    assert [e.forget_reason for e in events(alice, "forgotten")] == ForgetReason.values


def test_page_reason_without_javascript_redirects_back(signed_in, alice):
    memory = written_by_rule(alice)
    signed_in.post(reverse("memory:forget", args=[memory.pk]))
    response = signed_in.post(reverse("memory:forget-reason", args=[memory.pk]), {"reason": "unwanted"})
    assert response.status_code == 302 and response["Location"] == reverse("memory:page")
    assert events(alice, "forgotten")[-1].forget_reason == "unwanted"
    # Once given, the page stops asking.
    page = signed_in.get(reverse("memory:page") + f"?forgotten={memory.pk}").content.decode()
    assert 'id="forget-reason"' not in page


@pytest.mark.parametrize("reason", ["", "because", "never_true"])
def test_page_reason_outside_the_list_is_400(signed_in, alice, reason):
    memory = written_by_rule(alice)
    signed_in.post(reverse("memory:forget", args=[memory.pk]), **HTMX)
    response = signed_in.post(reverse("memory:forget-reason", args=[memory.pk]), {"reason": reason}, **HTMX)
    assert response.status_code == 400
    assert events(alice, "forgotten")[-1].forget_reason == ""


def test_reason_for_a_note_you_did_not_forget_is_404(signed_in, alice, bob):
    bobs = written_by_rule(bob)
    store.forget_memory(bob, bobs.pk, surface="page")
    url = reverse("memory:forget-reason", args=[bobs.pk])
    assert signed_in.post(url, {"reason": "unwanted"}).status_code == 404
    assert events(bob, "forgotten")[-1].forget_reason == ""
    mine = written_by_rule(alice)  # alive, never forgotten
    assert signed_in.post(reverse("memory:forget-reason", args=[mine.pk]), {"reason": "unwanted"}).status_code == 404


def test_forget_reason_needs_post_and_sign_in(client, alice):
    memory = written_by_rule(alice)
    url = reverse("memory:forget-reason", args=[memory.pk])
    assert client.post(url, {"reason": "unwanted"})["Location"].startswith(reverse("login"))
    client.force_login(alice)
    assert client.get(url).status_code == 405


@pytest.mark.parametrize("reason", ForgetReason.values + [""])
def test_api_forget_takes_each_reason(alice, client_for, reason):
    memory = written_by_rule(alice)
    query = f"?{urlencode({'reason': reason})}" if reason else ""
    assert client_for(alice, token=True).delete(f"/api/memories/{memory.pk}/{query}").status_code == 204
    [event] = events(alice, "forgotten")
    assert (event.surface, event.forget_reason, event.rule) == ("api", reason, "standing_phrase")


def test_corrections_record_their_surface(signed_in, alice, client_for):
    first = written_by_rule(alice)
    response = signed_in.post(reverse("memory:correct", args=[first.pk]), {"statement": "Prefers euros"}, **HTMX)
    assert response.status_code == 200
    second = written_by_rule(alice)
    response = client_for(alice).post(f"/api/memories/{second.pk}/correct/", {"statement": "Prefers pounds"})
    assert response.status_code == 201
    corrected = events(alice, "corrected")
    assert [(e.surface, e.memory_id, e.rule) for e in corrected] == [
        ("page", first.pk, "standing_phrase"),
        ("api", second.pk, "standing_phrase"),
    ]


def test_views_of_the_page_and_the_api_are_counted_with_the_notes_shown(signed_in, alice, client_for):
    written_by_rule(alice)
    store.write_memory(alice, kind="context", statement="Covers the Faroe accounts")
    assert signed_in.get(reverse("memory:page")).status_code == 200
    assert client_for(alice).get("/api/memories/").status_code == 200
    assert [(e.surface, e.notes) for e in events(alice, "viewed")] == [("page", 2), ("api", 2)]


def test_forget_in_conversation_is_recorded_as_such(alice):
    at = timezone.now()
    event = dict(user_id=alice.pk, session_key="s1", at=at, filters={}, feedback_kind="", feedback_comment="")
    run_gate(TurnEvent(turn_id=1, text="Remember that I handle the Iberian distributors.", **event))
    run_gate(TurnEvent(turn_id=2, text="Please forget that I handle the Iberian distributors.", **event))
    [forgotten] = events(alice, "forgotten")
    assert (forgotten.surface, forgotten.forget_reason, forgotten.kind) == ("conversation", "", "context")
    assert forgotten.rule and forgotten.rule_reason and forgotten.gate_version


def test_delete_everything_removes_the_users_records_and_only_theirs(alice, bob):
    for user in (alice, bob):
        store.forget_memory(user, written_by_rule(user).pk, reason="never-true")
        surfaces.record_view(user, surface="page", notes=3)
    counts = store.delete_everything(alice)
    assert counts["surface_events"] == 2
    assert events(alice) == [] and len(events(bob)) == 2
    with acting_user(alice.pk):
        assert not Suppression.objects.filter(user=alice).exists()
    # The audit keeps the forget as codes only, no reason text the user wrote.
    assert AuditEvent.objects.get(user_id=alice.pk, action="forgotten").reason == "page never-true"


def test_staff_forget_in_the_admin_is_recorded_as_admin_with_the_actor(alice, make_user):
    memory = written_by_rule(alice)
    staff = make_user("staff", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(staff)
    response = client.post(
        "/admin/memory/memory/", {"action": "forget_with_suppression", "_selected_action": [memory.pk]}
    )
    assert response.status_code == 302
    [event] = events(alice, "forgotten")
    assert (event.surface, event.forget_reason, event.rule) == ("admin", "", "standing_phrase")
    assert AuditEvent.objects.filter(actor_id=staff.pk, memory_id=memory.pk, reason="forget via admin").exists()
