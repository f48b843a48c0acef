"""Document search over the seeded demo corpus: by identifier and by meaning."""

import dataclasses

import pytest
from django.core.exceptions import ValidationError

from chat.corpus import Passage, search_documents
from chat.models import Customer


def _customer(name):
    return Customer.objects.get(name=name)


@pytest.mark.django_db
def test_account_code_finds_that_customers_documents_first(corpus):
    passages = search_documents("ACCT-55310")
    assert passages
    assert passages[0].customer_id == _customer("Brightwater Dental").pk
    assert "Brightwater Dental" in passages[0].text


@pytest.mark.django_db
def test_order_number_finds_the_note_that_mentions_it(corpus):
    note = next(d for d in corpus.documents if d.title == "Account note: Northline Logistics invoice dispute")
    number = next(word for word in note.text.split() if word.startswith("SO-"))
    passages = search_documents(f"what is going on with {number}?")
    assert passages[0].title == note.title


@pytest.mark.django_db
@pytest.mark.parametrize(
    "question, expected_title",
    [
        (
            "When do we stop accepting new orders from a customer who hasn't paid?",
            "Policy memo: overdue invoices and credit hold",
        ),
        ("Who can sign off on a bigger price reduction for a client?", "Policy memo: discount approval thresholds"),
        ("Can a customer send back goods after delivery?", "Policy memo: cancellations and returns"),
    ],
)
def test_search_finds_policy_by_meaning(corpus, question, expected_title):
    titles = [p.title for p in search_documents(question, limit=3)]
    assert expected_title in titles


@pytest.mark.django_db
def test_contract_question_returns_the_contract_summary_with_its_terms(corpus):
    passages = search_documents("Northline Freight payment terms")
    top = passages[0]
    assert top.customer_id == _customer("Northline Freight").pk
    assert "net 45" in top.text


@pytest.mark.django_db
def test_passages_are_ranked_and_bounded(corpus):
    passages = search_documents("credit limit approval", limit=4)
    assert 1 <= len(passages) <= 4
    assert all(isinstance(p, Passage) for p in passages)
    scores = [p.score for p in passages]
    assert scores == sorted(scores, reverse=True)
    assert all(0 < s <= 1 for s in scores)
    with pytest.raises(dataclasses.FrozenInstanceError):
        passages[0].score = 2


@pytest.mark.django_db
def test_unrelated_question_returns_few_or_no_passages(corpus):
    assert len(search_documents("xylophone quantum banana recipe")) <= 2


@pytest.mark.django_db
@pytest.mark.parametrize("query", ["", "   ", "x" * 2001])
def test_bad_query_is_rejected(corpus, query):
    with pytest.raises(ValidationError):
        search_documents(query)
