"""In Chromium: a question whose conversation was deleted underneath it (delete-everything won
the race) shows the conflict's sentence in the form, keeps the question, and asking again
starts a new conversation; no console error, no CSP violation."""

import pytest
from playwright.sync_api import expect

import chat.turn
from chat.models import ChatSession, Turn
from memory import store
from memory.rls import acting_user
from tests.browser.conftest import watched_page

pytestmark = pytest.mark.browser

SENTENCE = "This conversation was deleted. Nothing was saved; start a new one."


@pytest.fixture
def page(browser, live_server, transactional_db):
    """The suite's page, except that Chromium's own line for the expected 409 is allowed."""
    expected = "console error: Failed to load resource: the server responded with a status of 409 (Conflict)"
    problems: list[str] = []
    yield from watched_page(browser, live_server, allowed=(expected,), seen=problems)
    assert problems.count(expected) == 1


def test_a_question_racing_delete_everything_says_so_and_asks_again_in_a_new_conversation(
    page, log_in, alice, monkeypatch
):
    log_in(alice)
    page.get_by_label("Ask Atlas").fill("Remember that I cover the Denver accounts")
    page.get_by_role("button", name="Ask", exact=True).click()
    page.wait_for_url("**/c/*/")
    with acting_user(alice.pk):
        first = ChatSession.objects.get()

    real, fired = chat.turn.clean_question, []

    def clean_then_delete(question: str) -> str:
        if not fired:
            fired.append(store.delete_everything(alice))
        return real(question)

    monkeypatch.setattr(chat.turn, "clean_question", clean_then_delete)
    page.get_by_label("Ask Atlas").fill("Remember that I cover the Porto accounts")
    page.get_by_role("button", name="Ask", exact=True).click()

    form = page.locator("#ask-form")
    expect(form.get_by_role("alert")).to_have_text(SENTENCE)
    expect(page.get_by_label("Ask Atlas")).to_have_value("Remember that I cover the Porto accounts")
    with acting_user(alice.pk):
        assert not ChatSession.objects.exists() and not Turn.objects.exists()

    page.get_by_role("button", name="Ask", exact=True).click()  # the same question, a new conversation
    page.wait_for_url(lambda url: "/c/" in url and str(first.pk) not in url)
    expect(page.locator(".turn").filter(has_text="Porto")).to_be_visible()
    with acting_user(alice.pk):
        assert [t.question for t in Turn.objects.all()] == ["Remember that I cover the Porto accounts"]
