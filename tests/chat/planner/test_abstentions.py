"""The query planner: each kind of abstention (a forecast, a word no slot reads, a figure no plan
computes, a person or an opinion), each naming what it could not do."""

import pytest

from chat import vocabulary as vocab
from chat.planner import Abstention, Filters, QueryPlan
from tests.chat.planner.helpers import plan


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("What sales should we expect in 2027?", vocab.FORECAST_REASON),
        ("How much will the West order next quarter?", vocab.FORECAST_REASON),
        ("Translate this memo into French", vocab.OUTSIDE_REASON),
        ("Is it going to rain in Leeds?", vocab.OUTSIDE_REASON),
        ("What is Kestrel Foods' share price?", vocab.NO_FIELD_REASON),
        ("How many staff does Saguaro Solar employ?", vocab.NO_FIELD_REASON),
        ("Which customers are in Narnia?", vocab.NO_PLAN_REASON),
        ("What's the credit limit?", vocab.NEEDS_CUSTOMER_REASON),
        ("Compare Kestrel Foods sales this year", vocab.NO_PLAN_REASON),  # a comparison needs two customers
    ],
)
def test_each_abstention_kind(corpus, question, reason):
    result = plan(question).result
    assert isinstance(result, Abstention) and result.reason == reason


@pytest.mark.django_db
def test_an_abstention_names_what_it_could_not_do(corpus):
    assert plan("How much are the contracts worth?").result.topic == "sum"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("Who owns Harborview Marine?", vocab.NO_FIELD_REASON),
        ("who heads up Tamarack Software these days", vocab.NO_FIELD_REASON),
        ("Would you recommend Lindqvist Robotics as a partner?", vocab.OPINION_REASON),
        ("Is Pecan Grove Farms a risky account?", vocab.OPINION_REASON),
        ("Should we give Saguaro Solar more credit?", vocab.OPINION_REASON),
        ("What is your recommendation on Harborview Marine?", vocab.OPINION_REASON),
    ],
)
def test_a_person_or_an_opinion_is_abstained_on_instead_of_showing_the_customer_card(corpus, question, reason):
    result = plan(question).result
    assert isinstance(result, Abstention) and result.reason == reason


@pytest.mark.django_db
def test_a_question_asking_for_a_figure_is_never_answered_with_a_policy_passage(corpus):
    from chat import turn

    question = "what is the typical credit limit on a contract"
    assert turn._passage_answer(question, Abstention(vocab.NO_PLAN_REASON, "")) is not None
    assert turn._passage_answer(question, Abstention(vocab.NO_PLAN_REASON, "average")) is None


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("What was the median order size in the South?", vocab.NO_PLAN_REASON),
        ("Which client's orders grew fastest in 2026?", vocab.NO_PLAN_REASON),
        ("Yearly sales for Harborview Marine", vocab.NO_PLAN_REASON),
        ("Will Tamarack Software likely renew?", vocab.FORECAST_REASON),
        ("Which segment has the biggest customers?", vocab.NO_PLAN_REASON),  # biggest by what?
    ],
)
def test_a_figure_no_plan_computes_is_abstained_on_instead_of_answering_a_nearby_question(corpus, question, reason):
    result = plan(question).result
    assert isinstance(result, Abstention) and result.reason == reason


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("Which of our customers are the most profitable?", "profitable"),  # an adjective no slot reads
        ("Why are Kestrel Foods' orders up this year?", "why"),  # a reason is asked for
        ("How many orders did Harborview Marine return this year?", "return"),  # a verb no status names
        ("Show the open orders we quietly wrote off", "quietly"),  # the first unread word is named
        ("Honestly, which customers stopped ordering this year?", "stopped"),  # read on after a filler word
        ("List our new customers in the South", "new"),  # "new" of New York counts only as the city
    ],
)
def test_a_word_no_slot_reads_abstains_and_names_the_word(corpus, question, word):
    assert plan(question).result == Abstention(vocab.UNREAD_WORD_REASON, word)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "question",
    [
        "What is the mean number of orders a customer places?",  # an average of counts
        "How many days does Tamarack Software get to settle an invoice?",  # counts days, not records
    ],
)
def test_a_count_of_something_other_than_records_abstains_and_gets_no_passage(corpus, question):
    from chat import turn

    result = plan(question).result
    assert isinstance(result, Abstention) and result.reason == vocab.NO_PLAN_REASON
    assert turn._passage_answer(question, result) is None


@pytest.mark.django_db
def test_an_unknown_measure_of_orders_is_not_answered_with_a_policy_passage(corpus):
    from chat import turn

    question = "What is the average shipping delay on cold-chain orders?"
    result = plan(question).result
    assert isinstance(result, Abstention) and result.figure
    assert turn._passage_answer(question, result) is None
    assert turn._passage_answer(question, Abstention(result.reason, result.topic)) is not None


@pytest.mark.django_db
@pytest.mark.parametrize("question", ["Project our revenue.", "Can you project the revenue of the enterprise segment?"])
def test_project_as_a_verb_is_a_forecast_not_an_unread_word(corpus, question):
    assert plan(question).result.reason == vocab.FORECAST_REASON


@pytest.mark.django_db
def test_who_founded_a_customer_abstains_naming_founders(corpus):
    assert plan("Who founded Magnolia Home Health?").result == Abstention(vocab.NO_FIELD_REASON, "founders")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("How many do we have in the West?", "how many"),  # counts nothing the records hold
        ("average credit limit of clients with late orders", "average"),  # contracts hold no order status
    ],
)
def test_an_abstention_on_a_figure_names_the_figure(corpus, question, topic):
    assert plan(question).result == Abstention("no-plan", topic)


@pytest.mark.django_db
@pytest.mark.parametrize("question", ["And net 30?", "and net-30?"])
def test_payment_terms_after_a_plan_without_terms_abstain(corpus, question):
    # Orders of customers on given terms: no plan computes them, and the West is not to be dropped.
    last = QueryPlan("list", "orders", Filters(region="west"))
    planned = plan(question, last_plan=last, carried={"region": "west"})
    assert planned.follow_up and planned.result == Abstention("no-plan", "payment terms")


@pytest.mark.django_db
def test_a_forecast_abstention_keeps_the_filters_it_stated(corpus):
    planned = plan("How many orders will the West send us next month?")
    assert planned.result == Abstention("forecast", "future")
    assert planned.stated == {"region": "west", "period": "next month|2027-01-01|2027-01-31"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "question",
    [
        "How much will Kestrel Foods spend?",  # "will", no period ahead
        "What revenue are we going to see next quarter?",  # a period ahead, no "will"
    ],
)
def test_either_sign_of_the_future_alone_makes_an_orders_question_a_forecast(corpus, question):
    assert plan(question).result == Abstention("forecast", "future")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "question",
    [
        "Which customers on net 60 have orders that aren't cancelled?",
        "Which customers on net 60 excluding cancelled orders?",
        "Which net 30 customers have overdue orders?",
    ],
)
def test_payment_terms_with_a_condition_on_orders_abstain_rather_than_list_every_customer_on_them(corpus, question):
    # The condition on orders cannot be combined with the terms; listing all on net 60 would be wrong.
    assert plan(question).result == Abstention("no-plan", "payment terms")


@pytest.mark.django_db
def test_a_money_verb_alone_makes_a_question_about_the_future_a_forecast(corpus):
    # No orders named: "sell" is what makes it about the records, and next month has no sales yet.
    assert plan("How much will we sell next month?").result == Abstention("forecast", "future")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("Which customers have fewer than 3 orders?", "fewer than 3 orders"),
        ("Which customers placed at most 2 orders?", "at most 2 orders"),
    ],
)
def test_a_ceiling_on_the_number_of_orders_is_abstained_on_not_dropped(corpus, question, topic):
    # No plan has a ceiling on an order count: without one, every customer's orders were listed.
    assert plan(question).result == Abstention(vocab.NO_PLAN_REASON, topic)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "question",
    [
        "are we allowed to charge late fees on overdue invoices",
        "r we allowed to bill kestrel foods for shipping",
        "are we permitted to invoice cancelled orders",
    ],
)
def test_asking_leave_is_a_question_for_the_documents_never_a_figure(corpus, question):
    # "Are we allowed to charge late fees on overdue invoices" was answered with the overdue total.
    result = plan(question).result
    assert not (isinstance(result, QueryPlan) and result.subject == "orders"), result
