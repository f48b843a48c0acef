"""Did you mean: a question understood but for one qualifying word is answered with one or two
one-click options in Atlas's words, through the clarify path ambiguous names use; picking an
option (by its id, or typing it) answers its plan. Questions outside the records are never
offered anything. Figures are computed here with the ORM."""

import pytest
from django.db.models import Count, Sum

from chat.models import ChatSession, Order, Turn
from chat.turn import ask, start_session
from memory.rls import acting_user
from tests.chat.answering.conftest import money, named_span, paraphrases

pytestmark = pytest.mark.turn

NEAR_MISSES = [
    "top customers by profitability",
    "who are our most loyal customers",
    "how many orders shipped late last month",
]


def top_customers(*, by_count: bool, limit: int = 5) -> list[tuple[str, object]]:
    orders = Order.objects.exclude(status="cancelled") if not by_count else Order.objects.all()
    value = Count("id") if by_count else Sum("amount")
    rows = orders.values("customer__name").annotate(v=value).order_by("-v", "customer__name")[:limit]
    return [(r["customer__name"], r["v"]) for r in rows]


def test_the_near_misses_are_the_helpers_paraphrases():
    assert set(NEAR_MISSES) <= {r["turns"][0] for r in paraphrases("near_miss")}


@pytest.mark.django_db
@pytest.mark.parametrize("question", NEAR_MISSES)
def test_a_near_miss_offers_one_or_two_options_and_answers_nothing(corpus, user, question):
    turn = ask(user, session=None, question=question)
    assert turn.kind == Turn.Kind.CLARIFY, turn.answer
    assert 1 <= len(turn.options) <= 2
    assert all(o["label"].endswith("?") and "??" not in o["label"] for o in turn.options)
    assert "$" not in turn.answer


@pytest.mark.django_db
@pytest.mark.parametrize("by_count", [False, True])
def test_picking_an_option_answers_its_plan(corpus, user, by_count):
    session = start_session(user)
    offered = ask(user, session=session, question="top customers by profitability")
    option = offered.options[1 if by_count else 0]
    answered = ask(user, session=session, question=option["label"], option_id=option["id"])
    assert answered.kind != Turn.Kind.CLARIFY
    for name, value in top_customers(by_count=by_count):
        shown = f"{value:,} orders" if by_count else money(value)
        assert f"{name}: {shown}" in answered.answer, answered.answer


@pytest.mark.django_db
def test_typing_the_option_answers_it_too(corpus, user):
    session = start_session(user)
    offered = ask(user, session=session, question="how many orders shipped late last month")
    answered = ask(user, session=session, question=offered.options[0]["label"])
    shipped = Order.objects.filter(status="shipped", ordered_on__range=named_span("last month")).count()
    assert answered.answer.startswith(f"{shipped:,} shipped orders"), answered.answer


@pytest.mark.django_db
@pytest.mark.parametrize("question", [r["turns"][0] for r in paraphrases("out_of_scope")])
def test_outside_the_records_nothing_is_offered(corpus, user, question):
    assert ask(user, session=None, question=question).kind != Turn.Kind.CLARIFY


@pytest.mark.django_db
def test_the_api_returns_the_options_and_a_pick_answers(corpus, alice, client_for):
    client = client_for(alice)
    with acting_user(alice.pk):
        session = ChatSession.objects.create(user=alice, title="t")
    url = f"/api/sessions/{session.pk}/turns/"
    offered = client.post(url, {"question": "who are our most loyal customers"}, format="json").json()
    assert [o["label"] for o in offered["options"]], offered
    option = offered["options"][0]
    answered = client.post(url, {"question": option["label"], "option_id": option["id"]}, format="json").json()
    name, value = top_customers(by_count=False)[0]
    assert f"{name}: {money(value)}" in answered["answer"], answered
