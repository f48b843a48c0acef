"""Money nouns (class revenue_noun): every noun the vocabulary calls revenue ("turnover", "income")
names the orders as "revenue" and "sales" do, so "turnover for the north in q2" is their total and
"bottom 3 customers by turnover" a ranking by it. The rows are helper-42's (not blind: written after
the change, see the report of 4 December); a blind helper's should join them."""

import pytest
from django.db.models import Sum

from chat.models import Order
from chat.turn import ask, start_session
from tests.chat.answering.conftest import blind_cases, judged, money, quarter_span

pytestmark = pytest.mark.turn


@pytest.mark.django_db
@pytest.mark.parametrize("case", blind_cases("revenue_noun", {}))
def test_the_revenue_noun_paraphrases(corpus, user, case):
    verdict, answer = judged(user, case)
    assert verdict == "correct", answer


@pytest.mark.django_db
def test_turnover_carries_to_a_follow_up_that_changes_the_period(corpus, user):
    session = start_session(user)
    ask(user, session=session, question="turnover for the west in q1 2025")
    answer = ask(user, session=session, question="same again for q2 2025").answer
    orders = Order.objects.filter(customer__region="west", ordered_on__range=quarter_span(2025, 2))
    assert money(orders.exclude(status="cancelled").aggregate(v=Sum("amount"))["v"]) in answer.split("\n")[0], answer
