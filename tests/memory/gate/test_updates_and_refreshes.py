"""A note said again refreshes; a new value supersedes; an update says what it replaces."""

from datetime import timedelta

import pytest

from memory.gate import preview, run_gate
from memory.gate import reasons as rules
from memory.models import AuditEvent
from memory.rls import acting_user
from memory.store import write_memory
from tests.memory.gate.store_helpers import AT, _decisions, _event, _live


@pytest.mark.django_db
def test_restatement_refreshes_instead_of_copying(make_user):
    user = make_user()
    run_gate(_event(user, "Always give distances in kilometres.", session="a"))
    later = AT + timedelta(days=5)
    result = run_gate(_event(user, "As I said, always use kilometres for distances.", session="b", at=later))
    [memory] = _live(user, later)
    assert result.refreshed == (memory.pk,) and result.written == ()
    assert memory.refreshed_at == later
    with acting_user(user.pk):
        assert AuditEvent.objects.filter(memory_id=memory.pk, action="refreshed").exists()


@pytest.mark.django_db
def test_a_paraphrase_of_a_note_refreshes_it_instead_of_copying(make_user):
    user = make_user()
    run_gate(_event(user, "Remember that I handle the Iberian distributors."))
    later = AT + timedelta(days=1)
    result = run_gate(_event(user, "Note that I manage the Iberian distributors.", session="b", at=later))
    [memory] = _live(user, later)
    assert result.refreshed == (memory.pk,) and result.written == ()
    assert (memory.statement, memory.subject) == ("Handles the Iberian distributors.", "coverage")


@pytest.mark.django_db
def test_restating_an_open_ended_situation_extends_its_expiry(make_user):
    user = make_user()
    run_gate(_event(user, "I'm on parental leave for a while."))
    [memory] = _live(user)
    assert memory.expires_at == AT + timedelta(days=30)
    later = AT + timedelta(days=5)
    result = run_gate(_event(user, "I'm on parental leave for a while.", session="b", at=later))
    assert result.refreshed == (memory.pk,) and result.written == ()
    # Still there 32 days after the first mention: the clock starts again at the restatement.
    [kept] = _live(user, AT + timedelta(days=32))
    assert kept.pk == memory.pk and kept.expires_at == later + timedelta(days=30)
    assert _live(user, later + timedelta(days=31)) == []


@pytest.mark.django_db
def test_a_new_name_to_be_called_replaces_the_old_one(make_user):
    user = make_user()
    run_gate(_event(user, "Call me Alex from now on."))
    later = AT + timedelta(days=2)
    [alex] = _live(user)
    result = run_gate(_event(user, "Call me Sam from now on.", session="b", at=later))
    assert [m.statement for m in _live(user, later)] == ["Wants to be called Sam."]
    assert result.superseded == (alex.pk,)


@pytest.mark.django_db
def test_new_preference_on_the_same_subject_supersedes(make_user):
    user = make_user()
    run_gate(_event(user, "From now on answer in German."))
    later = AT + timedelta(days=3)
    result = run_gate(_event(user, "Going forward I'd prefer answers in English.", session="b", at=later))
    [memory] = _live(user, later)
    assert "English" in memory.statement and len(result.superseded) == 1


@pytest.mark.django_db
def test_rule_never_supersedes_what_the_user_wrote(make_user):
    user = make_user()
    write_memory(user, kind="preference", statement="Prefers amounts in euros.", author="user", subject="currency")
    result = run_gate(_event(user, "Always show amounts in dollars."))
    [memory] = _live(user)
    assert "euros" in memory.statement and result.written == ()
    refused = _decisions(user)[-1]
    assert (refused.reason, refused.admitted) == (rules.USER_AUTHORED, False)


@pytest.mark.django_db
def test_a_refresh_is_audited_with_the_rule_that_said_it_again(make_user):
    user = make_user()
    run_gate(_event(user, "Always show amounts in euros."))
    run_gate(_event(user, "Always show amounts in euros.", session="b", turn=2))
    with acting_user(user.pk):
        reasons = list(AuditEvent.objects.filter(user_id=user.pk, action="refreshed").values_list("reason", flat=True))
    assert reasons == ["preference"]
    [memory] = _live(user)
    assert [(d.reason, d.memory_id) for d in _decisions(user)][-1] == (rules.REFRESHED, memory.pk)


@pytest.mark.django_db
def test_an_update_names_every_note_it_replaces(make_user):
    user = make_user()
    write_memory(user, kind="preference", statement="Prefers amounts in euros.", subject="currency", value="EUR")
    write_memory(user, kind="preference", statement="Prefers amounts in pounds.", subject="currency", value="GBP")
    message = preview(user, "Switch my currency to NZD.").message
    assert message.startswith("Updated: I'll remember that you prefer NZD, replacing \u201c")
    assert "\u201d; \u201c" in message and "euros" in message and "pounds" in message


@pytest.mark.django_db
def test_an_update_replaces_the_note_on_the_same_subject(make_user):
    user = make_user()
    run_gate(_event(user, "Remember that I work out of the Graz office."))
    later = AT + timedelta(days=20)
    answer = preview(user, "I've moved to the Linz office now, please update that.")
    assert answer.message == (
        "Updated: I'll remember that you have moved to the Linz office now, "
        "replacing \u201cWorks out of the Graz office.\u201d."
    )
    result = run_gate(_event(user, "I've moved to the Linz office now, please update that.", session="b", at=later))
    [memory] = _live(user, later)
    assert "Linz" in memory.statement and len(result.superseded) == 1
    assert (memory.subject, memory.author) == ("office", "user")


@pytest.mark.django_db
def test_what_atlas_says_it_replaces_is_what_the_store_replaces(make_user):
    user = make_user()
    run_gate(_event(user, "Remember that I handle the Acme account."))
    # Coverage holds several accounts: a second one is added, nothing is replaced.
    text = "Remember that I cover Globex."
    assert preview(user, text).message == "I'll remember that you cover Globex."
    run_gate(_event(user, text, session="b", turn=2))
    assert sorted(m.statement for m in _live(user)) == ["Covers Globex.", "Handles the Acme account."]
    # Said again, it is refreshed, not written twice.
    assert preview(user, text).message == "I already remember that you cover Globex."
    result = run_gate(_event(user, text, session="c", turn=3))
    assert len(result.refreshed) == 1 and len(_live(user)) == 2


@pytest.mark.parametrize("text", ["I never want tables.", "Remember that I don't want tables."])
@pytest.mark.django_db
def test_a_preference_turned_round_replaces_the_one_it_contradicts(make_user, text):
    user = make_user()
    run_gate(_event(user, "From now on use tables."))
    [tables] = _live(user)
    result = run_gate(_event(user, text, session="b", turn=2))
    assert [m.statement for m in _live(user)] == ["Does not want tables."]
    assert result.superseded == (tables.pk,) and result.refreshed == ()


@pytest.mark.django_db
def test_a_note_naming_no_team_never_replaces_the_users_team(make_user):
    user = make_user()
    run_gate(_event(user, "Remember that I'm on the treasury team."))
    run_gate(_event(user, "Remember that I'm still fairly new to the team.", session="b", turn=2))
    assert "Is on the treasury team." in [m.statement for m in _live(user)]
    run_gate(_event(user, "Remember that I'm on the payroll team.", session="c", turn=3))
    assert "Is on the treasury team." not in [m.statement for m in _live(user)]


@pytest.mark.django_db
def test_switching_a_value_supersedes_the_old_preference(make_user):
    user = make_user()
    run_gate(_event(user, "From now on show amounts in Swiss francs."))
    later = AT + timedelta(days=2)
    run_gate(_event(user, "please switch my currency to Danish kroner", session="b", at=later))
    [memory] = _live(user, later)
    assert (memory.subject, memory.value) == ("currency", "DKK")


@pytest.mark.django_db
def test_an_update_says_what_it_replaces_and_nothing_when_it_is_already_so(make_user):
    user = make_user()
    write_memory(user, kind="preference", statement="Prefers amounts in euros.", subject="currency", value="EUR")
    answer = preview(user, "Switch my currency to NZD.")
    assert (
        answer.message == "Updated: I'll remember that you prefer NZD, replacing \u201cPrefers amounts in euros.\u201d."
    )
    other = make_user()
    write_memory(other, kind="preference", statement="Prefers NZD.", subject="currency", value="NZD")
    assert preview(other, "Switch my currency to NZD.").message == "I already remember that you prefer NZD."


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("first", "then", "facets"),
    [
        ("Keep replies to 30 words max from now on.", "hmm, 45 would be better", {"length": "short", "max_words": 45}),
        ("Top 10 in every ranking, as a rule.", "let's go with 4", {"limit": 4}),
        ("Top 10 in every ranking, as a rule.", "can we halve that? so 5", {"limit": 5}),
    ],
)
def test_a_bare_number_updates_the_kept_note_that_holds_a_number(make_user, first, then, facets):
    user = make_user()
    run_gate(_event(user, first))
    later = AT + timedelta(days=3)
    run_gate(_event(user, then, session="b", at=later))
    [memory] = _live(user, later)
    assert memory.facets == facets


@pytest.mark.django_db
def test_a_bare_number_with_no_note_holding_one_keeps_nothing(make_user):
    user = make_user()
    run_gate(_event(user, "Amounts in euros from now on."))
    later = AT + timedelta(days=3)
    run_gate(_event(user, "actually 6 is better", session="b", at=later))
    [memory] = _live(user, later)
    assert memory.facets == {"currency": "EUR"}
