"""The panel under an answer: inline forget with an optional reason, inline correction, and the
panel's opening, each recorded with its surface (chapter 98). Turns are stored rows here (the
panel reads only the saved turn); the real pipeline's turns are in test_views.py."""

import html

import pytest
from django.urls import reverse

from chat.models import ChatSession, Turn
from memory import store
from memory.models import ForgetReason, Memory, SurfaceEvent
from memory.rls import acting_user

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def signed_in(client, alice):
    client.force_login(alice)
    return client


def recalled_turn(user, *statements: str) -> tuple[Turn, list[Memory]]:
    """A saved answer that used these notes, as the turn pipeline stores it."""
    memories = [store.write_memory(user, kind="preference", statement=s, source_quote=s.lower()) for s in statements]
    rows = [
        {
            "memory_id": m.pk,
            "kind": m.kind,
            "statement": m.statement,
            "written_at": m.created_at.isoformat(),
            "source_quote": m.source_quote,
            "influence": "shaped-format",
        }
        for m in memories
    ]
    with acting_user(user.pk):
        session = ChatSession.objects.create(user=user)
        turn = Turn.objects.create(session=session, user=user, question="q", answer="a", recalled=rows)
    return turn, memories


@pytest.fixture
def turn(alice):
    return recalled_turn(alice, "Prefers answers as a table", "Prefers amounts in euros")


def events(user, action: str) -> list[SurfaceEvent]:
    with acting_user(user.pk):
        return list(SurfaceEvent.objects.filter(user=user, action=action).order_by("pk"))


def forget_url(turn, memory) -> str:
    return reverse("chat:forget-note", args=[turn.pk, memory.pk])


def reason_url(turn, memory) -> str:
    return reverse("chat:forget-note-reason", args=[turn.pk, memory.pk])


@pytest.mark.parametrize(("reason", "label"), ForgetReason.choices)
def test_inline_forget_then_a_reason(signed_in, alice, turn, reason, label):
    turn, (table, _) = turn
    body = html.unescape(signed_in.post(forget_url(turn, table), **HTMX).content.decode())
    assert body.lstrip().startswith(f'<details class="recalled" id="notes-used-{turn.pk}"')
    assert "Forgotten. Atlas won't learn this again." in body
    assert all(choice in body for _, choice in ForgetReason.choices)
    [event] = events(alice, "forgotten")
    assert (event.surface, event.forget_reason, event.memory_id) == ("inline", "", table.pk)
    response = signed_in.post(reason_url(turn, table), {"reason": reason}, **HTMX)
    assert response.status_code == 200
    assert f"Thanks, noted: “{label}”" in html.unescape(response.content.decode())
    assert events(alice, "forgotten")[0].forget_reason == reason


def test_inline_reason_outside_the_list_is_400_and_keeps_asking(signed_in, alice, turn):
    turn, (table, _) = turn
    signed_in.post(forget_url(turn, table), **HTMX)
    response = signed_in.post(reason_url(turn, table), {"reason": "I just don't like it"}, **HTMX)
    assert response.status_code == 400
    assert "It was never true" in html.unescape(response.content.decode())
    assert events(alice, "forgotten")[0].forget_reason == ""


def test_inline_reason_for_a_note_of_another_answer_or_user_is_404(signed_in, alice, bob, turn):
    turn, (table, euros) = turn
    bobs_turn, (bobs,) = recalled_turn(bob, "Prefers miles")
    store.forget_memory(bob, bobs.pk, surface="inline")
    assert signed_in.post(reason_url(bobs_turn, bobs), {"reason": "unwanted"}).status_code == 404
    assert signed_in.post(reason_url(turn, bobs), {"reason": "unwanted"}).status_code == 404
    assert signed_in.post(reason_url(turn, euros), {"reason": "unwanted"}).status_code == 404  # not forgotten
    assert events(bob, "forgotten")[0].forget_reason == ""


def test_inline_forget_without_javascript_offers_the_reasons_on_the_page(signed_in, alice, turn):
    turn, (table, _) = turn
    response = signed_in.post(forget_url(turn, table))
    assert response.status_code == 302
    page = html.unescape(signed_in.get(response["Location"]).content.decode())
    assert "It was true, not any more" in page and reason_url(turn, table) in page
    response = signed_in.post(reason_url(turn, table), {"reason": "no-longer-true"})
    assert response.status_code == 302
    assert events(alice, "forgotten")[0].forget_reason == "no-longer-true"
    page = html.unescape(signed_in.get(reverse("chat:session", args=[turn.session_id])).content.decode())
    assert reason_url(turn, table) not in page and "You asked Atlas to forget this note." in page


def test_inline_correction_is_recorded_as_inline(signed_in, alice, turn):
    turn, (table, _) = turn
    url = reverse("chat:correct-note", args=[turn.pk, table.pk])
    assert signed_in.post(url, {"statement": "Prefers answers as bullet points"}, **HTMX).status_code == 200
    [event] = events(alice, "corrected")
    assert (event.surface, event.memory_id, event.kind) == ("inline", table.pk, "preference")


def test_opening_the_panel_is_an_htmx_request_counted_as_an_inline_view(signed_in, alice, turn):
    turn, _ = turn
    page = signed_in.get(reverse("chat:session", args=[turn.session_id])).content.decode()
    url = reverse("chat:notes-viewed", args=[turn.pk])
    assert f'hx-post="{url}" hx-trigger="toggle once" hx-swap="none"' in page
    response = signed_in.post(url, **HTMX)
    assert response.status_code == 204 and response.content == b""
    assert [(e.surface, e.notes) for e in events(alice, "viewed")] == [("inline", 2)]


def test_panel_view_needs_post_sign_in_and_your_own_turn(client, alice, bob, turn):
    turn, _ = turn
    url = reverse("chat:notes-viewed", args=[turn.pk])
    assert client.post(url)["Location"].startswith(reverse("login"))
    client.force_login(bob)
    assert client.post(url).status_code == 404
    client.force_login(alice)
    assert client.get(url).status_code == 405
    assert events(alice, "viewed") == [] and events(bob, "viewed") == []
