"""seed_demo: a deterministic, idempotent demo data set, with notes that show provenance."""

from datetime import UTC, datetime
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.models import Sum

from chat.demo_data import build_corpus
from chat.models import Contract, Customer, Document, Order
from memory.models import Memory
from memory.rls import acting_user


def _seed(*args) -> str:
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def _fingerprint():
    return (
        list(Customer.objects.order_by("account_code").values_list("account_code", "name", "city", "region")),
        Order.objects.count(),
        list(Order.objects.order_by("number").values_list("number", "amount", "status", "ordered_on")[::97]),
        Order.objects.aggregate(total=Sum("amount"))["total"],
        list(Contract.objects.order_by("customer__account_code").values_list("payment_terms", "renewal_date")),
        sorted(Document.objects.values_list("title", "text")),
    )


def _notes(username):
    user = get_user_model().objects.get(username=username)
    with acting_user(user.pk):
        return list(Memory.objects.filter(user=user).order_by("created_at"))


def test_generator_is_deterministic():
    assert build_corpus() == build_corpus()


def test_generator_shape():
    data = build_corpus()
    assert 35 <= len(data.customers) <= 50
    assert len(data.orders) == 3000
    assert len({o.number for o in data.orders}) == 3000
    assert len({c.account_code for c in data.customers}) == len(data.customers)
    assert len(data.contracts) == len(data.customers)
    assert 50 <= len(data.documents) <= 70
    assert {c.region for c in data.customers} == {"west", "east", "north", "south", "central"}
    assert {o.status for o in data.orders} == {"open", "shipped", "overdue", "cancelled", "paid"}
    northline = {c.name: c.city for c in data.customers if c.name.startswith("Northline")}
    assert northline == {"Northline Freight": "Portland", "Northline Logistics": "Leeds"}


@pytest.mark.django_db
def test_seed_loads_corpus_users_and_notes_idempotently():
    # How fast: `manage.py bench_seed_demo` (a benchmark figure, not a timed test).
    output = _seed()
    assert "Demo data loaded" in output

    assert Customer.objects.count() == len(build_corpus().customers)
    assert Order.objects.count() == 3000
    assert Document.objects.filter(embedding__isnull=False).count() == Document.objects.count() >= 50
    assert Customer.objects.get(account_code="ACCT-55310").name == "Brightwater Dental"
    assert Contract.objects.get(customer__name="Northline Freight").payment_terms == "net 45"
    user = get_user_model().objects.get(username="alice")
    assert user.check_password("atlas-demo-alice")

    alice = _notes("alice")
    statements = {m.statement for m in alice}
    assert {
        "Prefers short answers as bullet points.",
        "Northline Freight is on net 30 payment terms.",
        "Covers the western sales region.",
    } == statements
    correction = next(m for m in alice if m.kind == "correction")
    assert correction.created_at == datetime(2026, 3, 14, 15, tzinfo=UTC)
    assert correction.source_at == correction.created_at and correction.source_quote
    bob = _notes("bob")
    assert bob and not statements & {m.statement for m in bob}

    before = _fingerprint()
    _seed()
    assert _fingerprint() == before
    assert len(_notes("alice")) == 3 and len(_notes("bob")) == len(bob)
    assert "already loaded" in _seed("--if-empty")

    # Reloading the corpus gives the same rows: the generator is deterministic.
    _seed("--reset-corpus")
    assert _fingerprint() == before

    # A note the user forgot stays forgotten on the next seed.
    alice = get_user_model().objects.get(username="alice")
    with acting_user(alice.pk):
        Memory.objects.filter(user=alice, kind="correction").delete()
    _seed()
    assert "Northline Freight is on net 30 payment terms." not in {m.statement for m in _notes("alice")}
