"""Chat shorthand (class chat_shorthand): "hw" (how), "w" and "w/" (with), "tot" (total), "mth"
(month), "b4" (before), "custs", "amt", "rev" are read before any rule reads the question, also
beside a misspelt customer name; what was read is said.

The helper's paraphrases (helper-blind-16, written before the change, without reading the
planner) judged by the evaluation's own reader (atlas.tooling), on the day they were written."""

import pytest

pytestmark = pytest.mark.turn


@pytest.mark.django_db
def test_customers_with_orders_of_a_status_names_the_customers(corpus, user, on_4_december):
    from chat.models import Customer
    from chat.turn import ask

    answer = ask(user, session=None, question="custs w/ open orders in the south").answer
    having = Customer.objects.filter(region="south", orders__status="open").distinct()
    assert answer.startswith(f"{having.count()} customers with open orders"), answer
    assert all(name in answer for name in having.values_list("name", flat=True)), answer


@pytest.mark.django_db
def test_w_is_with_only_after_a_verb_of_doing_business(corpus, user, on_4_december):
    from atlas.normalise import normalise

    assert normalise("what has kestrel foods spent w us").text.endswith("spent with us")
    assert " w " in f" {normalise('orders in region w').text} "
