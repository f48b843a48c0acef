"""A contract's facts asked two at a time ("when was it signed and when does it renew?") or in
other words ("how many days does X get to pay?", "when is X's contract up?"): each fact asked is
given, from the records.

The questions were written by a helper who never read the planner
(tests/fixtures/paraphrases/answer_spans_and_fields.jsonl, classes two_fields and
lookup_paraphrase); each value is read here from the contract with the ORM."""

import json
from pathlib import Path

import pytest

from chat.models import Contract
from chat.turn import ask

pytestmark = pytest.mark.turn

CASES = Path(__file__).resolve().parents[2] / "fixtures" / "paraphrases" / "answer_spans_and_fields.jsonl"
ROWS = [json.loads(line) for line in CASES.read_text().splitlines() if line.strip()]
# Two still abstain, naming the word they cannot read ("how long ... under contract", "before we
# stop shipping"): an honest abstention, kept here so that reading them shows up.
UNREAD = ("how long have we had", "before we stop shipping")
ASKED = [
    pytest.param(r, marks=pytest.mark.xfail(strict=True, reason="abstains, naming the unread word"))
    if any(u in r["question"] for u in UNREAD)
    else r
    for r in ROWS
    if r["class"] in ("two_fields", "lookup_paraphrase")
]


def shown(contract, field):
    """How the answer writes the field's value (the offline responder's default formats)."""
    if field == "signed":
        return f"{contract.signed_on.day} {contract.signed_on:%b %Y}"
    if field == "renewal_date":
        return f"{contract.renewal_date.day} {contract.renewal_date:%b %Y}"
    if field == "credit_limit":
        return f"${contract.credit_limit:,.2f}"
    return contract.payment_terms


@pytest.mark.django_db
@pytest.mark.parametrize("row", ASKED, ids=lambda r: r["question"][:40])
def test_each_contract_fact_asked_is_given(corpus, make_user, row):
    answer = ask(make_user(), session=None, question=row["question"]).answer
    contract = Contract.objects.filter(customer__name=row["customer"]).order_by("-signed_on").first()
    for field in row["fields"]:
        assert shown(contract, field) in answer, (field, answer)


@pytest.mark.django_db
@pytest.mark.parametrize("question", [u for r in ROWS for u in UNREAD if u in r["question"] for _ in [r]])
def test_what_it_cannot_read_it_says_so_and_asserts_no_figure(corpus, make_user, question):
    row = next(r for r in ROWS if question in r["question"])
    answer = ask(make_user(), session=None, question=row["question"]).answer
    assert answer.startswith("I can't answer that") and "$" not in answer, answer


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "customers"),
    [
        ("What credit limits do the Pinecrest Medical Group and Mercer Textile Works contracts set?", 2),
        ("what payment terms did we agree with kestrel foods?", 1),
        ("which terms does the northline freight contract specify?", 1),
        ("what credit limit did we grant to saguaro solar?", 1),
        ("how much credit do we allow harborview marine?", 1),
    ],
)
def test_a_verb_of_what_a_contract_sets_is_read(corpus, make_user, question, customers):
    """The verbs a contract's terms are set with (set, agree, specify, grant, allow) are read."""
    answer = ask(make_user(), session=None, question=question).answer
    contracts = Contract.objects.filter(customer__name__in=[c.name for c in _named(question)])
    assert len({c.customer_id for c in contracts}) == customers
    for contract in contracts.order_by("customer_id", "-signed_on").distinct("customer_id"):
        field = "payment_terms" if "terms" in question else "credit_limit"
        assert shown(contract, field) in answer, answer


def _named(question):
    from chat.models import Customer

    return [c for c in Customer.objects.all() if c.name.lower() in question.lower()]
