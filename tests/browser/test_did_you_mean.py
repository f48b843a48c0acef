"""Did you mean, in a real browser: a near miss shows one or two options as buttons; clicking
one answers its plan (figures from the ORM)."""

import pytest
from django.db.models import Sum
from playwright.sync_api import expect

from chat.models import Order
from tests.browser.test_pages import ask

pytestmark = pytest.mark.browser


def test_clicking_a_did_you_mean_option_answers_it(page, log_in, corpus, alice):
    log_in(alice)
    offered = ask(page, "who are our most loyal customers")
    buttons = offered.get_by_role("button")
    expect(buttons.first).to_be_visible()
    label = buttons.first.inner_text()
    assert label.startswith("Top 5 customers by order value")
    buttons.first.click()
    answered = page.locator(".turn").filter(has_text="cancelled orders left out").last
    expect(answered).to_be_visible()
    top = (
        Order.objects.exclude(status="cancelled")
        .values("customer__name")
        .annotate(v=Sum("amount"))
        .order_by("-v")
        .first()
    )
    expect(answered).to_contain_text(f"{top['customer__name']}: ${top['v']:,.2f}")
