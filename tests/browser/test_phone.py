"""Atlas on a phone (390x844): no sideways scrolling on the chat, memory and token pages."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_pages import QUESTION, ask, remember

pytestmark = pytest.mark.browser

LONG_NOTE = (
    "Prefers every answer about the Northline-Freight-International-Holdings-Consolidated account "
    "as a table with amounts in euros"
)


@pytest.fixture
def phone(page):
    page.set_viewport_size({"width": 390, "height": 844})
    return page


def page_width(page) -> int:
    return page.evaluate("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")


def test_chat_and_memory_pages_fit_a_phone(phone, log_in, screenshot, corpus, alice):
    remember(
        alice,
        LONG_NOTE,
        quote="put Northline-Freight-International-Holdings-Consolidated in a table",
        facets={"date_format": "iso"},  # the answer below writes its signing date as asked
    )
    log_in(alice)
    ask(phone, QUESTION + " " + "x" * 60)  # a long title in the sidebar, a long word in the question
    assert page_width(phone) <= 390
    ask(phone, QUESTION)  # an answer the note shapes, so its panel is there to open
    phone.locator("details.recalled > summary").last.click()
    assert page_width(phone) <= 390
    screenshot("phone-chat.png")

    phone.get_by_role("link", name="What Atlas remembers").click()
    expect(phone.get_by_role("heading", name="What Atlas remembers about you")).to_be_visible()
    assert page_width(phone) <= 390
    screenshot("phone-memory.png")

    phone.goto("/account/tokens/")
    phone.get_by_label("Name").fill("phone")
    phone.get_by_role("button", name="Create token").click()
    assert phone.get_by_label("Token").input_value().startswith("atlas_")
    assert page_width(phone) <= 390
