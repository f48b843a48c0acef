"""Rankings and breakdowns by the customers' city (class group_by_city): "top 5 cities by rev
this yr", "which city brings in the most" (one city: the question asks for one), "break down
2025 sales by city" (every city), "overdue $ by city, biggest first" (every city, in order),
"seattle vs portland". Every figure and order is computed here with the ORM."""

from datetime import date

import pytest
from django.db.models import Avg, Count, Sum
from django.utils import timezone

from chat.models import Order
from chat.turn import ask
from tests.chat.answering.conftest import money, month_span, named_span, paraphrases

pytestmark = pytest.mark.turn


def by_city(orders, measure="sum"):
    """(city, value) for every city with orders, largest first (ties by name); the caller
    leaves cancelled orders out of revenue."""
    value = Count("id") if measure == "count" else Sum("amount")
    rows = orders.values("customer__city").annotate(v=value).order_by("-v", "customer__city")
    return [(r["customer__city"], r["v"]) for r in rows]


def revenue(**lookups):
    return by_city(Order.objects.filter(**lookups).exclude(status="cancelled"))


def shown(value) -> str:
    return money(value) if not isinstance(value, int) else f"{value} order"


def in_order(answer: str, names: list[str]) -> bool:
    places = [answer.find(f" {name}: ") for name in names]
    return all(p >= 0 for p in places) and places == sorted(places)


def this_year():
    return named_span("this year")


def test_the_cases_are_the_class_paraphrases():
    written = {r["turns"][0] for r in paraphrases("group_by_city")}
    assert written == set(RANKED) | set(ONE) | set(EVERY) | {"avg order value seattle vs portland this yr"}


# question -> the cities and values its top N shows, in order
RANKED = {
    "top 5 cities by rev this yr": lambda: revenue(ordered_on__range=this_year())[:5],
    "top 3 cities by order count in 2025?": lambda: by_city(Order.objects.filter(ordered_on__year=2025), "count")[:3],
    "bottom 3 cities by revenue last yr": lambda: revenue(ordered_on__year=date.today().year - 1)[::-1][:3],
}
# question -> (the one city asked for, "highest" or "lowest")
ONE = {
    "which city brings in the most": lambda: (revenue()[0], "highest"),
    "Which city had the lowest sales last quarter?": lambda: (
        revenue(ordered_on__range=named_span("last quarter"))[-1],
        "lowest",
    ),
    "which city has the most overdue orders rn": lambda: (
        by_city(Order.objects.filter(status="overdue"), "count")[0],
        "highest",
    ),
    "which city placed the most orders in 2025": lambda: (
        by_city(Order.objects.filter(ordered_on__year=2025), "count")[0],
        "highest",
    ),
}
# question -> every city with its value (in the order the answer must give when it is a ranking)
EVERY = {
    "break down 2025 sales by city": lambda: revenue(ordered_on__year=2025),
    "overdue $ by city, biggest first": lambda: by_city(Order.objects.filter(status="overdue")),
    "number of orders by city this month": lambda: by_city(
        Order.objects.filter(ordered_on__range=month_span(timezone.localdate().year, timezone.localdate().month)),
        "count",
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("question", list(RANKED), ids=[q[:40] for q in RANKED])
def test_a_top_n_of_cities_shows_each_with_its_value_in_order(corpus, user, question):
    answer = ask(user, session=None, question=question).answer
    rows = RANKED[question]()
    assert in_order(answer, [city for city, _ in rows]), answer
    assert all(f"{city}: {shown(value)}" in answer for city, value in rows), answer


@pytest.mark.django_db
@pytest.mark.parametrize("question", list(ONE), ids=[q[:40] for q in ONE])
def test_which_city_asks_for_one(corpus, user, question):
    answer = ask(user, session=None, question=question).answer
    (city, value), word = ONE[question]()
    assert answer.startswith(f"{city} had the {word} "), answer
    assert money(value) in answer if not isinstance(value, int) else f": {value} " in answer, answer


@pytest.mark.django_db
@pytest.mark.parametrize("question", list(EVERY), ids=[q[:40] for q in EVERY])
def test_a_breakdown_by_city_shows_every_city(corpus, user, question):
    answer = ask(user, session=None, question=question).answer
    rows = EVERY[question]()
    if not rows:
        assert answer.startswith("No orders "), answer
        return
    assert all(f"{city}: {shown(value)}" in answer for city, value in rows), answer
    if "first" in question:
        assert in_order(answer, [city for city, _ in rows]), answer


@pytest.mark.django_db
def test_two_cities_side_by_side(corpus, user):
    answer = ask(user, session=None, question="avg order value seattle vs portland this yr").answer
    orders = Order.objects.filter(ordered_on__range=this_year()).exclude(status="cancelled")
    for city in ("Seattle", "Portland"):
        mean = orders.filter(customer__city=city).aggregate(v=Avg("amount"))["v"]
        assert f"{city} averaging {money(round(mean, 2))} an order" in answer, answer
