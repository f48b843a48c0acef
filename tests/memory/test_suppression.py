"""Forgotten stays forgotten, but only for what was forgotten (chapter 98)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from memory.rls import acting_user
from memory.selectors import live_memories
from memory.store import forget_memory, write_memory
from memory.suppression import is_suppressed, suppress
from tests.factories import make_memory

pytestmark = pytest.mark.django_db


def forget(user, statement: str, *, kind: str = "preference") -> None:
    forget_memory(user, make_memory(user, statement, kind=kind).pk)


@pytest.mark.parametrize(
    ("forgotten", "candidate", "kind", "suppressed"),
    [
        ("Prefers metric units", "Prefers metric units", "preference", True),
        ("Prefers metric units", "prefers metric units.", "preference", True),
        ("Prefers metric units", "I prefer metric units", "preference", True),
        ("Prefers metric units", "Wants measurements in metric", "preference", True),
        ("Prefers metric units", "Prefers imperial units", "preference", False),
        ("Prefers metric units", "Wants measurements in imperial", "preference", False),
        ("Prefers metric units", "Does not want metric units", "preference", False),
        ("Payment terms for Acme are net 45", "Payment terms for Acme are net 45 days", "context", True),
        ("Payment terms for Acme are net 45", "Payment terms for Acme are net 30", "context", False),
        ("Payment terms for Acme are net 45", "Payment terms for Globex are net 45", "context", False),
        ("Acme pays on net 45 terms", "Globex pays on net 45 terms", "context", False),
        ("Acme pays on net 45 terms", "Acme pays on net 45", "context", True),
        ("Prefers amounts in euros", "Prefers amounts in dollars", "preference", False),
        ("Covers the western region", "Covers the eastern region", "context", False),
        ("Prefers short answers", "Prefers answers as a table", "preference", False),
        # "n't" and "not" are one negation; a number glued to its unit is still that number.
        ("Does not want charts in answers", "Doesn't want charts in answers", "preference", True),
        (
            "Does not want charts for Globex",
            "Doesn\u2019t want charts for Globex",
            "preference",
            True,
        ),  # typed on a phone
        ("Flags orders over $500", "Flags orders over 500 dollars", "context", True),
        ("Doesn't want charts in answers", "Wants charts in answers", "preference", False),
        ("Flags shipments over 20 kg", "Flags shipments over 20kg", "context", True),
        ("Flags shipments over 20kg", "Flags shipments over 30kg", "context", False),
        # Acronyms that spell common words are still names.
        ("Sends the US report on Fridays", "Sends the IT report on Fridays", "context", False),
        # Codes with digits are names too.
        ("Owns the ACCT-20417 account", "Owns the ACCT-30518 account", "context", False),
        ("Owns the ACCT-20417 account", "Owns account ACCT-20417", "context", True),
        ("Flags parcels over 20kg to Leeds", "Flags parcels over 20kg to Porto", "context", False),
        # A thousands separator is the same number; each word after a number, code, unit or
        # negation is still read (the name that differs comes last).
        ("Flags orders over 1,000 euros", "Flags orders over 1000 euros", "context", True),
        ("Flags orders over 1,000 for Globex", "Flags orders over 1,000 for Initech", "context", False),
        ("Owns ACCT-20417 with Globex", "Owns ACCT-20417 with Initech", "context", False),
        ("Doesn't want charts for Globex", "Doesn't want charts for Initech", "preference", False),
        ("Does not want charts for Globex", "Does not want charts for Initech", "preference", False),
        ("Wants metric units for Globex", "Wants metric units for Initech", "preference", False),
    ],
)
def test_suppression_matches_paraphrases_not_the_one_word_that_differs(
    make_user, forgotten, candidate, kind, suppressed
):
    user = make_user()
    forget(user, forgotten, kind=kind)
    assert is_suppressed(user, kind=kind, statement=candidate) is suppressed


def test_suppression_uses_a_given_embedding(make_user):
    from memory.embeddings import embed_one

    user = make_user()
    forget(user, "Prefers metric units")
    vector = embed_one("I prefer metric units")
    assert is_suppressed(user, kind="preference", statement="I prefer metric units", embedding=vector)


def test_suppression_is_per_user(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    forget(alice, "Prefers metric units")
    assert not is_suppressed(bob, kind="preference", statement="Prefers metric units")


def test_suppression_lasts_365_days(make_user):
    user = make_user()
    forget(user, "Prefers metric units")
    now = timezone.now()
    assert is_suppressed(user, kind="preference", statement="Prefers metric units", now=now + timedelta(days=364))
    assert not is_suppressed(user, kind="preference", statement="Prefers metric units", now=now + timedelta(days=366))


def test_an_explicit_write_is_honoured_over_a_suppression(make_user):
    """The gate decides; the store writes what it is told (the user's own 'remember that')."""
    user = make_user()
    forget(user, "Prefers metric units")
    memory = write_memory(user, kind="preference", statement="Prefers metric units", author="user")
    with acting_user(user.pk):
        assert [m.pk for m in live_memories(user)] == [memory.pk]
    # The write does not lift the suppression: a rule-written repeat is still refused.
    assert is_suppressed(user, kind="preference", statement="Prefers metric units")


def test_the_loose_match_needs_the_same_kind(make_user):
    """A paraphrase below the 0.88 cosine matches only a suppression of the same kind: a
    forgotten preference does not hide a context note that happens to share its content."""
    user = make_user()
    forget(user, "Prefers metric units", kind="preference")
    assert is_suppressed(user, kind="preference", statement="Wants measurements in metric")
    assert not is_suppressed(user, kind="context", statement="Wants measurements in metric")


def test_a_forgotten_preference_is_recognised_in_other_words_by_its_subject_and_value(make_user):
    """ "Prefers amounts in euros" forgotten: "Wants figures in EUR" (same subject and value) stays
    forgotten; another currency, or the same words on a note of another kind, do not."""
    user = make_user()
    memory = make_memory(user, "Prefers amounts in euros", subject="currency", value="EUR")
    forget_memory(user, memory.pk)
    same = {"statement": "Wants figures in EUR", "subject": "currency"}
    assert is_suppressed(user, kind="preference", value="EUR", **same)
    assert not is_suppressed(user, kind="preference", value="USD", **same)
    assert not is_suppressed(user, kind="context", value="EUR", **same)


def test_a_forgotten_note_is_found_among_several_suppressions(make_user):
    user = make_user()
    forget(user, "Prefers metric units")
    forget(user, "Payment terms for Acme are net 45", kind="context")
    assert is_suppressed(user, kind="context", statement="Payment terms for Acme are net 45 days")


@pytest.mark.parametrize(
    ("forgotten", "opposite"),
    [("Prefers tables.", "Does not want tables."), ("Does not want tables.", "Wants answers as tables.")],
)
def test_a_forgotten_preference_never_blocks_its_opposite_on_the_same_value(make_user, forgotten, opposite):
    """Forgetting "Prefers tables" and then saying "never use tables" is a new wish, not the
    forgotten one again, although both are about answer_format = table."""
    user = make_user()
    memory = make_memory(user, forgotten, subject="answer_format", value="table")
    forget_memory(user, memory.pk)
    table = {"kind": "preference", "subject": "answer_format", "value": "table"}
    assert is_suppressed(user, statement=forgotten, **table)
    assert not is_suppressed(user, statement=opposite, **table)


def test_a_forgotten_subject_without_a_value_does_not_stand_for_every_note_on_it(make_user):
    """ "Wants to be addressed formally" (address, no value) forgotten: "Wants to be called by their
    first name" (address, no value either) is another wish and may still be learned."""
    user = make_user()
    memory = make_memory(user, "Wants to be addressed formally", subject="address", value="")
    forget_memory(user, memory.pk)
    assert not is_suppressed(
        user, kind="preference", statement="Wants to be called by their first name", subject="address", value=""
    )


def test_a_note_with_no_embedding_is_suppressed_by_its_statement(make_user):
    user = make_user()
    memory = make_memory(user, "Prefers metric units")
    memory.embedding = None  # as an imported row is before its embedding is computed
    with acting_user(user.pk):
        suppress(memory)
    assert is_suppressed(user, kind="preference", statement="I prefer metric units")


def test_a_forgotten_preference_is_recognised_in_other_words_by_its_facets_and_scope(make_user):
    user = make_user()
    note = write_memory(
        user,
        kind="preference",
        statement="Prefers amounts in thousands of euros (EUR).",
        author="rule",
        facets={"scale": "k", "currency": "EUR"},
    )
    forget_memory(user, note.pk)
    said = {"kind": "preference", "statement": "Wants figures shown as EUR in k."}
    assert is_suppressed(user, **said, facets={"currency": "EUR", "scale": "k"})
    # fewer facets, another value or another scope is another preference
    assert not is_suppressed(user, **said, facets={"scale": "k"})
    assert not is_suppressed(user, **said, facets={"scale": "m", "currency": "EUR"})
    assert not is_suppressed(user, **said, facets={"scale": "k", "currency": "EUR"}, scope="contracts")
