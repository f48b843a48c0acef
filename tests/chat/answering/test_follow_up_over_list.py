"""Follow-ups over a list, a breakdown or a ranking keep every earlier slot and change one
(class follow_up_over_list): "how much is that in total" / "how many is that" after a list,
"list them" after a count, "which one was lowest" after a breakdown, "break it down by region"
after a total, "same for 2025" after a ranking, "which ones the biggest" after a list of
orders, "sort those by amount". Every figure is computed here with the ORM."""

from datetime import timedelta

import pytest
from django.db.models import Count, Sum
from django.utils import timezone

from chat.models import Customer, Order
from chat.turn import ask, start_session
from tests.chat.answering.conftest import money, month_span, named_span, paraphrases

pytestmark = pytest.mark.turn


def conversation(user, turns):
    session = start_session(user)
    return [ask(user, session=session, question=q).answer for q in turns][-1]


def last_month():
    last = timezone.localdate().replace(day=1) - timedelta(days=1)
    return month_span(last.year, last.month)


def total(orders) -> str:
    return money(orders.aggregate(v=Sum("amount"))["v"])


def revenue(orders):
    return orders.exclude(status="cancelled")


def groups(orders, key: str, measure=None):
    """(label, value) per group, largest first (by the sum of amounts unless told)."""
    rows = orders.values(key).annotate(v=measure or Sum("amount")).order_by("-v", key)
    return [(r[key], r["v"]) for r in rows]


def listed(answer: str, orders) -> bool:
    """Every order, or the count and the ten newest when there are more than ten."""
    n = orders.count()
    newest = orders.order_by("-ordered_on", "-number").values_list("number", flat=True)[:10]
    return first_of(answer).startswith(f"{n} ") and all(number in answer for number in newest)


def first_of(answer: str) -> str:
    return answer.split("\n")[0]


# first turn -> a check of the last answer, given it
CHECKS = {
    "list overdue orders for coral reef": lambda a: (
        total(Order.objects.filter(customer__name="Coral Reef Hospitality", status="overdue")) in first_of(a)
    ),
    "which customers r in the north region": lambda a: (
        f"{Customer.objects.filter(region='north').count()} customers in the North region" in first_of(a)
    ),
    "sales by region this yr": lambda a: first_of(a).startswith(
        groups(revenue(Order.objects.filter(ordered_on__range=named_span("this year"))), "customer__region")[-1][
            0
        ].title()
        + " had the lowest"
    ),
    "how many enterprise customers do we have": lambda a: all(
        name in a for name in Customer.objects.filter(segment="enterprise").values_list("name", flat=True)
    ),
    "whats the total overdue amount": lambda a: all(
        f"{region.title()}: {money(value)}" in a
        for region, value in groups(Order.objects.filter(status="overdue"), "customer__region")
    ),
    "top 5 customers by revenue this year": lambda a: (
        all(
            f"{name}: {money(value)}" in a
            for name, value in groups(revenue(Order.objects.filter(ordered_on__year=2025)), "customer__name")[:5]
        )
        and "in 2025" in first_of(a)
    ),
    "open orders for sierra outdoor": lambda a: (
        (o := Order.objects.filter(customer__name="Sierra Outdoor Co.", status="open").order_by("-amount").first())
        and o.number in first_of(a)
        and money(o.amount) in first_of(a)
    ),
    "customers in denver?": lambda a: (
        total(revenue(Order.objects.filter(customer__city="Denver", ordered_on__range=named_span("this year"))))
        in first_of(a)
    ),
    "sales in the west last month": lambda a: first_of(a).startswith(
        groups(
            revenue(Order.objects.filter(customer__region="west", ordered_on__range=last_month())), "customer__name"
        )[-1][0]
        + " had the lowest"
    ),
    "revenue by segment in q3": lambda a: first_of(a).startswith(
        groups(revenue(Order.objects.filter(ordered_on__range=named_span("q3"))), "customer__segment")[0][
            0
        ].capitalize()
        + " had the highest"
    ),
    "how many open orders does the east have": lambda a: listed(
        a, Order.objects.filter(customer__region="east", status="open")
    ),
}


def test_the_cases_are_the_class_paraphrases():
    assert {r["turns"][0] for r in paraphrases("follow_up_over_list")} == set(CHECKS)


@pytest.mark.django_db
@pytest.mark.parametrize("case", paraphrases("follow_up_over_list"), ids=lambda c: " / ".join(c["turns"])[:60])
def test_a_follow_up_over_a_list_keeps_the_earlier_slots(corpus, user, case):
    answer = conversation(user, case["turns"])
    assert CHECKS[case["turns"][0]](answer), answer


@pytest.mark.django_db
def test_sort_those_by_amount_then_the_total(corpus, user):
    turns = ["list overdue orders for gateway auto", "sort those by amount", "how much is that in total"]
    session = start_session(user)
    listed, ordered, summed = (ask(user, session=session, question=q).answer for q in turns)
    orders = Order.objects.filter(customer__name="Gateway Auto Parts", status="overdue")
    numbers = list(orders.order_by("-amount").values_list("number", flat=True))
    assert [ordered.find(n) for n in numbers] == sorted(ordered.find(n) for n in numbers), ordered
    assert all(ordered.find(n) >= 0 for n in numbers), ordered
    assert total(orders) in first_of(summed), summed


@pytest.mark.django_db
def test_how_many_is_that_after_a_list_of_orders(corpus, user):
    answer = conversation(user, ["list the overdue orders for coral reef", "how many is that"])
    n = Order.objects.filter(customer__name="Coral Reef Hospitality", status="overdue").count()
    assert first_of(answer).startswith(f"{n} overdue orders for Coral Reef Hospitality"), answer


@pytest.mark.django_db
def test_a_count_per_group_then_which_one_was_lowest(corpus, user):
    answer = conversation(user, ["number of orders by region in 2025", "which one was lowest"])
    rows = groups(Order.objects.filter(ordered_on__year=2025), "customer__region", Count("id"))
    assert first_of(answer).startswith(f"{rows[-1][0].title()} had the lowest number of orders"), answer


@pytest.mark.django_db
def test_how_much_is_that_after_a_list_of_customers_is_their_orders_total(corpus, user):
    answer = conversation(user, ["which customers are in boston", "how much is that in total"])
    assert total(revenue(Order.objects.filter(customer__city="Boston"))) in first_of(answer), answer


@pytest.mark.django_db
def test_which_one_was_biggest_after_a_count_of_customers_ranks_those_customers_by_value(corpus, user):
    # Once abstained on (never the largest order); since planner-dec4b "which one" after customers
    # counted ranks those customers, by order value as helper-blind-16's truths read "the biggest of
    # those", and the answer names that measure.
    answer = conversation(user, ["how many customers in the west", "which one was biggest"])
    rows = groups(revenue(Order.objects.filter(customer__region="west")), "customer__name", Sum("amount"))
    assert first_of(answer).startswith(f"{rows[0][0]} had the highest order value in the West region"), answer
