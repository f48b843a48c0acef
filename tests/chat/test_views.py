"""The chat page and its partials, through the test client against the real turn pipeline."""

import html
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from chat.models import ChatSession, Feedback, Turn
from chat.turn import ask, start_session
from memory import store
from memory.models import Memory, Suppression

HTMX = {"HTTP_HX_REQUEST": "true"}
QUESTION = "What are Northline Freight's payment terms?"
AMBIGUOUS = "What are Northline's payment terms?"  # two customers match "Northline"


@pytest.fixture
def signed_in(client, alice):
    client.force_login(alice)
    return client


def preference(user, statement="Prefers dates as YYYY-MM-DD (ISO).", **fields):
    """A preference the answer to QUESTION acts on: its signing date is written as asked."""
    fields.setdefault("source_quote", "always write dates year-first please")
    fields.setdefault("source_at", timezone.now() - timedelta(days=5))
    fields.setdefault("facets", {"date_format": "iso"})
    return store.write_memory(user, kind="preference", statement=statement, subject="date_format", **fields)


def text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def recalled_turn(corpus, alice, settings):
    """A turn whose answer used one note from an earlier conversation."""
    settings.ATLAS_HOLDOUT = False  # the 10% hold-out would answer without the note
    memory = preference(alice)
    turn = ask(alice, session=None, question=QUESTION)
    assert turn.recalled_ids == [memory.pk]
    return turn, memory


def test_anonymous_is_sent_to_login(client, corpus, make_user):
    bob = make_user("bob")
    session = start_session(bob)
    for method, url in [
        ("get", reverse("chat:home")),
        ("get", reverse("chat:session", args=[session.pk])),
        ("post", reverse("chat:ask-new")),
        ("post", reverse("chat:ask", args=[session.pk])),
        ("post", reverse("chat:feedback", args=[1])),
        ("post", reverse("chat:forget-note", args=[1, 1])),
        ("post", reverse("chat:correct-note", args=[1, 1])),
    ]:
        response = getattr(client, method)(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login"))


def test_wrong_method_is_405(signed_in, recalled_turn):
    turn, memory = recalled_turn
    for method, url in [
        ("post", reverse("chat:home")),
        ("post", reverse("chat:session", args=[turn.session_id])),
        ("get", reverse("chat:ask-new")),
        ("get", reverse("chat:ask", args=[turn.session_id])),
        ("get", reverse("chat:feedback", args=[turn.pk])),
        ("get", reverse("chat:forget-note", args=[turn.pk, memory.pk])),
        ("get", reverse("chat:correct-note", args=[turn.pk, memory.pk])),
    ]:
        assert getattr(signed_in, method)(url).status_code == 405, url


def test_home_is_a_new_chat_with_past_chats_in_the_sidebar(signed_in, alice, corpus):
    ask(alice, session=None, question="Show me Kestrel Foods orders last quarter")
    page = text(signed_in.get(reverse("chat:home")))
    assert '<h1 id="conversation-heading">New chat</h1>' in page
    assert "Show me Kestrel Foods orders last quarter</a>" in page
    assert 'id="ask-form"' in page


def test_asking_without_javascript_saves_the_turn_and_redirects(signed_in, alice, corpus, as_user):
    response = signed_in.post(reverse("chat:ask-new"), {"question": QUESTION})
    with as_user(alice.pk):
        turn = Turn.objects.get()
    assert response["Location"] == reverse("chat:session", args=[turn.session_id]) + f"#turn-{turn.pk}"
    page = text(signed_in.get(reverse("chat:session", args=[turn.session_id])))
    assert QUESTION in page
    assert turn.answer.splitlines()[0] in page


def test_asking_with_htmx_returns_the_turn_and_a_fresh_form(signed_in, alice, corpus, as_user):
    session = start_session(alice)
    response = signed_in.post(reverse("chat:ask", args=[session.pk]), {"question": QUESTION}, **HTMX)
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body
    assert body.lstrip().startswith('<li class="turn" id="turn-')
    assert 'id="ask-form"' in body and 'hx-swap-oob="true"' in body
    with as_user(alice.pk):
        assert Turn.objects.filter(session=session).count() == 1


def test_first_question_with_htmx_redirects_to_the_new_session(signed_in, alice, corpus, as_user):
    response = signed_in.post(reverse("chat:ask-new"), {"question": QUESTION}, **HTMX)
    with as_user(alice.pk):
        session = ChatSession.objects.get()
    assert response["HX-Redirect"] == reverse("chat:session", args=[session.pk])


@pytest.mark.parametrize(("question", "message"), [("x" * 2001, "at most 2000 characters"), ("  ", "Type a question")])
def test_bad_question_is_a_400_form_error(signed_in, alice, corpus, as_user, question, message):
    plain = signed_in.post(reverse("chat:ask-new"), {"question": question})
    assert plain.status_code == 400 and message in text(plain)
    htmx = signed_in.post(reverse("chat:ask-new"), {"question": question}, **HTMX)
    assert htmx.status_code == 400 and message in text(htmx)
    assert htmx["HX-Retarget"] == "#ask-form"
    with as_user(alice.pk):
        assert not Turn.objects.exists()


def test_another_users_session_is_404(signed_in, corpus, make_user):
    bob = make_user("bob")
    session = start_session(bob)
    assert signed_in.get(reverse("chat:session", args=[session.pk])).status_code == 404
    assert signed_in.post(reverse("chat:ask", args=[session.pk]), {"question": QUESTION}).status_code == 404


def test_panel_shows_the_note_as_the_responder_saw_it_with_provenance(signed_in, recalled_turn):
    turn, memory = recalled_turn
    page = text(signed_in.get(reverse("chat:session", args=[turn.session_id])))
    assert "Used 1 note from earlier conversations" in page
    assert "Prefers dates as YYYY-MM-DD (ISO)." in page
    noted_on = f"{timezone.localtime(memory.created_at):%-d %b}"
    assert f">{noted_on}</time> from “always write dates year-first please” · " in page
    assert "Shaped this answer: Wrote dates as YYYY-MM-DD (ISO)" in page
    assert "Forget this" in page and "Correct it" in page


def test_panel_counts_notes_in_the_plural(signed_in, alice, corpus, settings):
    settings.ATLAS_HOLDOUT = False
    preference(alice)
    store.write_memory(
        alice, kind="preference", statement="Wants the account code shown.", facets={"include": "account_code"}
    )
    store.write_memory(
        alice, kind="preference", statement="Prefers amounts in euros (EUR).", facets={"currency": "EUR"}
    )
    turn = ask(alice, session=None, question=QUESTION)
    page = text(signed_in.get(reverse("chat:session", args=[turn.session_id])))
    # The euros note is recalled but the answer has no amount: it shaped nothing and is not listed.
    assert "Used 2 notes from earlier conversations" in page
    assert "Prefers amounts in euros" not in page


def test_forget_from_the_panel_deletes_and_suppresses(signed_in, alice, recalled_turn, as_user):
    turn, memory = recalled_turn
    response = signed_in.post(reverse("chat:forget-note", args=[turn.pk, memory.pk]), **HTMX)
    body = text(response)
    assert body.lstrip().startswith(f'<details class="recalled" id="notes-used-{turn.pk}" open>')
    assert "Forgotten. Atlas won't learn this again." in body
    assert "Forget this" not in body
    with as_user(alice.pk):
        assert not Memory.objects.filter(pk=memory.pk).exists()
        assert Suppression.objects.count() == 1
    page = text(signed_in.get(reverse("chat:session", args=[turn.session_id])))
    assert "You asked Atlas to forget this note." in page


def test_a_double_submitted_forget_in_the_panel_is_not_an_error(signed_in, alice, recalled_turn, as_user):
    turn, memory = recalled_turn
    url = reverse("chat:forget-note", args=[turn.pk, memory.pk])
    signed_in.post(url, **HTMX)
    again = signed_in.post(url, **HTMX)
    assert again.status_code == 200
    assert "Forgotten. Atlas won't learn this again." in text(again)
    with as_user(alice.pk):
        assert Suppression.objects.count() == 1


def test_correct_from_the_panel_swaps_in_the_users_wording(signed_in, alice, recalled_turn, as_user):
    turn, memory = recalled_turn
    url = reverse("chat:correct-note", args=[turn.pk, memory.pk])
    body = text(signed_in.post(url, {"statement": "Prefers short bullet lists"}, **HTMX))
    assert "Corrected. Atlas will use your wording from now on." in body
    assert "Prefers short bullet lists" in body
    with as_user(alice.pk):
        new = Memory.objects.get(pk=memory.pk).superseded_by
    assert new.statement == "Prefers short bullet lists" and new.author == "user"
    page = text(signed_in.get(reverse("chat:session", args=[turn.session_id])))
    link = f'<a href="{reverse("memory:page")}#memory-{new.pk}">Prefers short bullet lists</a>'
    assert f"Since corrected to “{link}”" in page


def test_oversized_correction_is_a_400_and_keeps_the_note(signed_in, alice, recalled_turn, as_user):
    turn, memory = recalled_turn
    url = reverse("chat:correct-note", args=[turn.pk, memory.pk])
    for extra in ({}, HTMX):
        response = signed_in.post(url, {"statement": "x" * 501}, **extra)
        assert response.status_code == 400
        assert "at most 500 characters" in text(response)
    with as_user(alice.pk):
        assert Memory.objects.get(pk=memory.pk).superseded_by_id is None


def test_another_users_turn_or_note_is_404(signed_in, alice, recalled_turn, make_user, client, as_user):
    turn, memory = recalled_turn
    bob = make_user("bob")
    client.force_login(bob)
    assert client.post(reverse("chat:forget-note", args=[turn.pk, memory.pk])).status_code == 404
    assert client.post(reverse("chat:correct-note", args=[turn.pk, memory.pk]), {"statement": "x"}).status_code == 404
    assert client.post(reverse("chat:feedback", args=[turn.pk]), {"kind": "helpful"}).status_code == 404
    assert client.get(reverse("chat:session", args=[turn.session_id])).status_code == 404
    with as_user(alice.pk):
        assert Memory.objects.filter(pk=memory.pk).exists()


def test_a_note_the_turn_did_not_use_is_404(signed_in, alice, recalled_turn, as_user):
    turn, _ = recalled_turn
    other = store.write_memory(alice, kind="context", statement="Covers the western region")
    assert signed_in.post(reverse("chat:forget-note", args=[turn.pk, other.pk])).status_code == 404
    with as_user(alice.pk):
        assert Memory.objects.filter(pk=other.pk).exists()


def test_feedback_is_saved_and_the_partial_thanks(signed_in, alice, recalled_turn, as_user):
    turn, _ = recalled_turn
    body = text(signed_in.post(reverse("chat:feedback", args=[turn.pk]), {"kind": "helpful"}, **HTMX))
    assert body.lstrip().startswith(f'<div class="feedback" id="feedback-{turn.pk}">')
    assert "Thanks: marked helpful." in body
    signed_in.post(reverse("chat:feedback", args=[turn.pk]), {"kind": "incorrect", "comment": "Northline is net 45"})
    with as_user(alice.pk):
        feedback = Feedback.objects.get(turn=turn)
    assert (feedback.kind, feedback.comment) == ("incorrect", "Northline is net 45")


def test_bad_feedback_is_400(signed_in, recalled_turn):
    turn, _ = recalled_turn
    url = reverse("chat:feedback", args=[turn.pk])
    assert signed_in.post(url, {"kind": "love-it"}, **HTMX).status_code == 400
    assert signed_in.post(url, {"kind": "incorrect", "comment": "x" * 2001}).status_code == 400


def test_statement_with_html_is_shown_as_text(signed_in, alice, corpus, settings):
    settings.ATLAS_HOLDOUT = False
    preference(alice, "Prefers <script>alert(1)</script> answers")
    turn = ask(alice, session=None, question=QUESTION)
    assert turn.recalled
    page = signed_in.get(reverse("chat:session", args=[turn.session_id])).content.decode()
    assert "<script>alert(1)" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_memory_updated_line_links_to_the_note(signed_in, alice, corpus):
    turn = ask(alice, session=None, question=QUESTION)
    memory = store.write_memory(
        alice, kind="context", statement="Looks after the Northline account", source_turn=turn.pk
    )
    page = text(signed_in.get(reverse("chat:session", args=[turn.session_id])))
    assert f'Memory updated: <a href="{reverse("memory:page")}#memory-{memory.pk}">' in page


def test_chat_page_says_when_memory_is_paused(signed_in, alice, corpus):
    store.set_paused(alice, paused=True)
    assert "Memory is paused" in text(signed_in.get(reverse("chat:home")))


def test_clarify_turn_offers_its_options_as_buttons_that_ask(signed_in, alice, corpus, as_user):
    turn = ask(alice, session=None, question=AMBIGUOUS)
    assert turn.kind == "clarify"
    page = text(signed_in.get(reverse("chat:session", args=[turn.session_id])))
    assert turn.answer.splitlines()[0] in page
    first = turn.options[0]
    assert f'<button type="submit" class="secondary">{first["label"]}</button>' in page
    assert f'<input type="hidden" name="option" value="{first["id"]}">' in page

    response = signed_in.post(
        reverse("chat:ask", args=[turn.session_id]), {"question": first["label"], "option": first["id"]}, **HTMX
    )
    assert response.status_code == 200
    with as_user(alice.pk):
        answered = Turn.objects.filter(session_id=turn.session_id).order_by("-pk").first()
    assert answered.kind == "answer"
    assert "Northline" in answered.answer


def test_chat_page_query_count_does_not_grow_with_turns(signed_in, alice, corpus, django_assert_num_queries):
    preference(alice)
    turn = ask(alice, session=None, question=QUESTION)
    url = reverse("chat:session", args=[turn.session_id])
    with django_assert_num_queries(11):
        signed_in.get(url)
    for question in ["What is our policy on free delivery?", "Show me Kestrel Foods orders last quarter"]:
        later = ask(alice, session=turn.session, question=question)
        signed_in.post(reverse("chat:feedback", args=[later.pk]), {"kind": "helpful"})
    with django_assert_num_queries(11):
        signed_in.get(url)


def test_a_fresh_turn_polls_its_gate_status_until_the_gate_decides(signed_in, alice, corpus, as_user):
    turn = ask(alice, session=None, question="Show me Northline Freight orders in the west last quarter")
    url = reverse("chat:gate-status", args=[turn.pk])
    pending = text(signed_in.get(url + "?poll=1", **HTMX))
    assert f'id="memory-updates-{turn.pk}"' in pending and f'hx-get="{url}?poll=2"' in pending
    assert "<html" not in pending  # only the partial
    with as_user(alice.pk):
        memory = store.write_memory(alice, kind="context", statement="Looks after Northline", source_turn=turn.pk)
    decided = text(signed_in.get(url + "?poll=2", **HTMX))
    assert "hx-get" not in decided and f"#memory-{memory.pk}" in decided


def test_a_turn_the_gate_was_not_queued_for_never_polls(signed_in, alice, corpus):
    turn = ask(alice, session=None, question=QUESTION)  # nothing for the gate to read
    assert turn.gate_queued is False
    url = reverse("chat:gate-status", args=[turn.pk])
    assert "hx-get" not in text(signed_in.get(url + "?poll=1", **HTMX))


def test_gate_status_polling_stops_after_a_few_tries_and_for_old_turns(signed_in, alice, corpus, as_user):
    turn = ask(alice, session=None, question="Show me Northline Freight orders in the west last quarter")
    url = reverse("chat:gate-status", args=[turn.pk])
    assert "hx-get" not in text(signed_in.get(url + "?poll=6", **HTMX))
    with as_user(alice.pk):
        Turn.objects.filter(pk=turn.pk).update(created_at=timezone.now() - timedelta(minutes=5))
    assert "hx-get" not in text(signed_in.get(url + "?poll=1", **HTMX))


def test_gate_status_is_the_owners_only_and_get_only(client, signed_in, alice, corpus, make_user):
    turn = ask(alice, session=None, question=QUESTION)
    url = reverse("chat:gate-status", args=[turn.pk])
    assert signed_in.post(url).status_code == 405
    client.logout()
    assert client.get(url).status_code == 302
    client.force_login(make_user())
    assert client.get(url).status_code == 404
