"""Forgetting and taking back, said in the chat: which note a forget finds, reversals and
withdrawals through the store, and what a forget with no match says."""

from datetime import timedelta

import pytest

from memory.gate import preview, run_gate
from memory.gate import reasons as rules
from memory.store import write_memory
from tests.memory.gate.store_helpers import AT, _analyse, _decisions, _event, _live


def _own_preference(user, statement, **fields):
    """A preference the user wrote themselves, straight through the store."""
    return write_memory(user, kind="preference", statement=statement, author="user", **fields)


@pytest.mark.django_db
def test_forget_in_conversation_removes_and_suppresses(make_user):
    user = make_user()
    run_gate(_event(user, "Remember that I handle the Iberian distributors."))
    run_gate(_event(user, "Always answer in metric units.", turn=2))
    iberian = next(m for m in _live(user) if "Iberian" in m.statement)
    message = preview(user, "Please forget that I handle the Iberian distributors.")
    assert message.message == "I've forgotten \u201cHandles the Iberian distributors.\u201d."
    assert len(_live(user)) == 2  # preview is read-only
    result = run_gate(_event(user, "Please forget that I handle the Iberian distributors.", session="b", turn=3))
    [left] = _live(user)
    assert "metric" in left.statement and result.forgotten == (iberian.pk,)
    # Neither the note's decision nor the forget's keeps the forgotten words for staff to read.
    logged = [
        (d.reason, d.admitted, d.statement, d.source_quote)
        for d in _decisions(user)
        if d.reason != "standing_preference"
    ]
    assert logged == [("explicit_request", True, "", ""), ("forget_request", True, "", "")]
    run_gate(_event(user, "Forget my unit preference.", session="c", turn=4))
    assert _live(user) == []


@pytest.mark.django_db
def test_an_ambiguous_forget_asks_which_note_and_deletes_none(make_user):
    user = make_user()
    run_gate(_event(user, "Remember that I handle the Iberian distributors."))
    run_gate(_event(user, "Remember that I handle the Nordic distributors.", turn=2))
    answer = preview(user, "Forget that I handle the distributors.")
    assert answer.message.startswith("More than one note could match that (")
    assert (
        "Handles the Iberian distributors." in answer.message and "Handles the Nordic distributors." in answer.message
    )
    assert answer.message.endswith("Which one should I forget? You can also remove it on the memory page.")
    result = run_gate(_event(user, "Forget that I handle the distributors.", session="b", turn=3))
    assert result.forgotten == () and len(_live(user)) == 2
    assert (_decisions(user)[-1].admitted, _decisions(user)[-1].reason) == (False, rules.FORGET_AMBIGUOUS)
    # Naming one of them settles it.
    result = run_gate(_event(user, "Forget that I handle the Nordic distributors.", session="b", turn=4))
    [left] = _live(user)
    assert "Iberian" in left.statement and len(result.forgotten) == 1


@pytest.mark.django_db
def test_forgetting_another_region_deletes_nothing(make_user):
    user = make_user()
    run_gate(_event(user, "Remember that I handle the Iberian distributors."))
    result = run_gate(_event(user, "Forget that I handle the Nordic resellers.", session="b", turn=2))
    assert result.forgotten == () and [m.statement for m in _live(user)] == ["Handles the Iberian distributors."]
    assert _decisions(user)[-1].reason == rules.FORGET_NO_MATCH


@pytest.mark.parametrize(
    "text",
    [
        "Forget that I handle the Nordic distributors.",  # the same words but one: another region
        "Forget the Lisbon office.",
        "Forget what I said about Q3.",
    ],
)
@pytest.mark.django_db
def test_a_forget_naming_something_no_note_holds_deletes_nothing(make_user, text):
    user = make_user()
    run_gate(_event(user, "Remember that I handle the Iberian distributors."))
    run_gate(_event(user, "Remember that I work from the Porto office.", turn=2))
    answer = preview(user, text)
    assert answer.message.startswith("I couldn't find a note like that")
    result = run_gate(_event(user, text, session="b", turn=3))
    assert result.forgotten == () and len(_live(user)) == 2


@pytest.mark.parametrize(
    "text",
    [
        "Forget that I run distribution.",  # "run" is the review note's verb, nothing more
        "Forget that I'm off work.",  # "work" is the office note's verb
        "Forget that I'm on a work trip.",
    ],
)
@pytest.mark.django_db
def test_a_forget_sharing_only_a_verb_with_a_note_deletes_nothing(make_user, text):
    # Shared words count for less than meaning: one common verb is no match.
    user = make_user()
    run_gate(_event(user, "Remember that I run the weekly pipeline review."))
    run_gate(_event(user, "Remember that I work from the Porto office.", turn=2))
    result = run_gate(_event(user, text, session="b", turn=3))
    assert result.forgotten == () and len(_live(user)) == 2
    assert _decisions(user)[-1].reason == rules.FORGET_NO_MATCH


@pytest.mark.django_db
def test_a_forget_said_in_the_first_person_finds_the_note_written_in_the_third(make_user):
    # "I'm away until June" is read as "away until June" too, the way the note is written; and
    # the note's "June" is stored resolved ("until Sunday 31 May 2026"): a month is no name it lacks.
    user = make_user()
    run_gate(_event(user, "Remember that I'm on parental leave until June."))
    run_gate(_event(user, "Remember that I work from the Porto office.", turn=2))
    [leave] = [m for m in _live(user) if "leave" in m.statement]
    result = run_gate(_event(user, "Forget that I'm away until June.", session="b", turn=3))
    assert result.forgotten == (leave.pk,) and [m.statement for m in _live(user)] == ["Works from the Porto office."]


@pytest.mark.parametrize(
    ("note", "same"),
    [
        ("Remember that I approve refunds up to 1,000 euros.", "Forget that I approve refunds up to 1,000 euros."),
        ("Remember that I own account ACCT-10442.", "Forget account ACCT-10442."),
        ("Remember that I handle the US accounts.", "Forget that I handle the US accounts."),
        ("Remember that I work from the Porto office.", "Please erase what you know about my office."),
    ],
)
@pytest.mark.django_db
def test_a_forget_giving_the_notes_own_figure_or_code_deletes_it(make_user, note, same):
    user = make_user()
    run_gate(_event(user, note))
    [kept] = _live(user)
    result = run_gate(_event(user, same, session="b", turn=2))
    assert result.forgotten == (kept.pk,) and _live(user) == []


@pytest.mark.parametrize(
    ("note", "other"),
    [
        ("Remember that I approve refunds up to 1,000 euros.", "Forget that I approve refunds up to 500 euros."),
        ("Remember that I own account ACCT-10442.", "Forget that I own account ACCT-20817."),
        ("Remember that I handle the US accounts.", "Forget that I handle the UK accounts."),  # two letters
    ],
)
@pytest.mark.django_db
def test_a_forget_giving_another_figure_or_code_deletes_nothing(make_user, note, other):
    user = make_user()
    run_gate(_event(user, note))
    [kept] = _live(user)
    result = run_gate(_event(user, other, session="b", turn=2))
    assert result.forgotten == () and _live(user) == [kept]


@pytest.mark.django_db
def test_a_forget_naming_two_names_finds_the_note_holding_both(make_user):
    user = make_user()
    run_gate(_event(user, "Remember that I handle the Nordic and Baltic accounts."))
    result = run_gate(_event(user, "Forget that I handle the Nordic and Baltic accounts.", session="b", turn=2))
    assert len(result.forgotten) == 1 and _live(user) == []


@pytest.mark.django_db
def test_a_forget_is_matched_against_the_notes_live_when_it_was_said(make_user):
    user = make_user()
    run_gate(_event(user, "I'm in Singapore until Thursday for the trade fair."))  # until 20 March
    result = run_gate(_event(user, "Forget that I'm in Singapore.", session="b", turn=2, at=AT + timedelta(days=1)))
    assert len(result.forgotten) == 1 and _live(user) == []


@pytest.mark.django_db
def test_forget_with_no_match_says_so(make_user):
    user = make_user()
    run_gate(_event(user, "Remember that I handle the Iberian distributors."))
    answer = preview(user, "Forget my date format preference.")
    assert answer.message == (
        "I couldn't find a note like that in what I remember about you; the memory page lists everything."
    )
    run_gate(_event(user, "Forget my date format preference.", turn=2))
    assert len(_live(user)) == 1
    # Staff see the refusal with no statement and no quote of what the user asked to forget.
    refused = _decisions(user)[-1]
    assert (refused.reason, refused.statement, refused.source_quote) == (rules.FORGET_NO_MATCH, "", "")


@pytest.mark.django_db
def test_a_forget_naming_a_preferences_subject_picks_that_preference(make_user):
    user = make_user()
    # Neither note says "Swiss franc": the subject and value the request names (currency, CHF) find it.
    _own_preference(user, "Likes figures in the Alpine money.", subject="currency", value="CHF")
    _own_preference(user, "Likes rows and columns with a header line.", subject="answer_format", value="table")
    result = run_gate(_event(user, "Forget my Swiss franc preference.", session="b", turn=2))
    assert [m.statement for m in _live(user)] == ["Likes rows and columns with a header line."]
    assert len(result.forgotten) == 1


@pytest.mark.django_db
def test_never_mind_takes_a_wish_back_and_claims_nothing_when_there_is_none(make_user):
    user = make_user()
    run_gate(_event(user, "From now on use charts."))
    run_gate(_event(user, "Never mind the charts.", session="b", turn=2))
    assert _live(user) == []
    run_gate(_event(user, "Never mind the charts.", session="c", turn=3))
    assert _live(user) == []  # no "Does not want the charts." in its place


@pytest.mark.django_db
def test_never_mind_then_stop_with_nothing_to_take_back_is_a_does_not_want(make_user):
    # "Never mind, stop using charts": no wish to withdraw, but "stop" still asks for no charts.
    user = make_user()
    run_gate(_event(user, "Never mind, stop using charts."))
    assert [m.statement for m in _live(user)] == ["Does not want charts."]


@pytest.mark.django_db
def test_a_reversal_forgets_the_preference_through_the_store(make_user):
    user = make_user()
    run_gate(_event(user, "Going forward, always add a pie chart."))
    [memory] = _live(user)
    answer = preview(user, "You can drop the pie charts now.")
    assert answer.message == (
        f"Done: I've dropped your preference \u201c{memory.statement}\u201d and won't apply it any more."
    )
    result = run_gate(_event(user, "You can drop the pie charts now.", session="b", turn=2))
    assert _live(user) == [] and result.forgotten == (memory.pk,)
    # Forgotten through the store: suppressed, so the rules do not bring it back.
    run_gate(_event(user, "Always add a pie chart.", session="c", turn=3))
    refused = _decisions(user)[-1]
    assert _live(user) == [] and (refused.reason, refused.statement, refused.source_quote) == ("suppressed", "", "")


@pytest.mark.django_db
def test_a_reversal_naming_no_subject_withdraws_the_preference_it_matches(make_user):
    user = make_user()
    run_gate(_event(user, "Always use abbreviations for states."))
    run_gate(_event(user, "From now on, amounts in euros.", turn=2))
    result = run_gate(_event(user, "Stop the abbreviations for states.", session="b", turn=3))
    [left] = _live(user)
    assert "euros" in left.statement and len(result.forgotten) == 1
    assert _decisions(user)[-1].reason == rules.REVERSAL


@pytest.mark.django_db
def test_stopping_what_a_note_already_refuses_keeps_the_note(make_user):
    user = make_user()
    run_gate(_event(user, "Never show me bar charts."))
    [memory] = _live(user)
    assert memory.statement.startswith("Does not want")
    shown = preview(user, "Please stop sending me bar charts.")
    assert shown is None or "dropped" not in shown.message
    result = run_gate(_event(user, "Please stop sending me bar charts.", session="b", turn=2))
    assert result.forgotten == () and [m.pk for m in _live(user)] == [memory.pk]


@pytest.mark.django_db
def test_a_reversal_of_a_value_not_held_keeps_the_other_value(make_user):
    user = make_user()
    run_gate(_event(user, "Always give me answers as bullet points."))
    [bullets] = _live(user)
    result = run_gate(_event(user, "No more tables please.", session="b", turn=2))
    # Nothing to withdraw: the "does not want" is kept beside the bullet points, not instead of them.
    assert result.forgotten == () and result.superseded == ()
    assert sorted(m.statement for m in _live(user)) == ["Does not want tables.", bullets.statement]


@pytest.mark.django_db
def test_a_reversal_withdraws_the_preference_with_its_subject_and_value_whatever_its_wording(make_user):
    user = make_user()
    note = _own_preference(user, "Likes rows and columns with a header line.", subject="answer_format", value="table")
    # Another preference shares the word, but not the subject and value.
    other = _own_preference(user, "Prefers a totals row under tables.")
    result = run_gate(_event(user, "No more tables please.", session="b", turn=2))
    assert result.forgotten == (note.pk,) and _live(user) == [other]


@pytest.mark.django_db
def test_a_reversal_naming_only_a_subject_withdraws_that_subjects_preference_whatever_its_value(make_user):
    user = make_user()
    francs = _own_preference(user, "Likes figures in the Alpine money.", subject="currency", value="CHF")
    # Another note shares the request's words, not its subject.
    rates = _own_preference(user, "Needs the currency conversion rate shown.")
    result = run_gate(_event(user, "I don't need the currency conversion any more.", session="b", turn=2))
    assert result.forgotten == (francs.pk,) and _live(user) == [rates]


@pytest.mark.django_db
def test_a_reversal_with_nothing_to_withdraw_is_refused_with_its_reason(make_user):
    user = make_user()
    result = run_gate(_event(user, "Don't answer in French any more."))
    assert result.forgotten == () and result.written == () and _live(user) == []
    assert [(d.admitted, d.reason, d.source_quote) for d in _decisions(user)] == [(False, rules.REVERSAL_NO_MATCH, "")]


@pytest.mark.django_db
def test_forgetting_a_filter_habit_picks_the_filter_note_not_a_note_sharing_its_word(make_user):
    from memory.gate.forget import match_for_forget

    user = make_user()
    habit = write_memory(
        user, kind="context", statement="Usually filters by status: overdue.", subject="filter_status", value="overdue"
    )
    write_memory(user, kind="context", statement="Reports the order status to Dana.", author="user")
    # The filter the note is about is named: that note, not the one that also says "status".
    matches, reason = match_for_forget(user, "Forget the status thing.", now=AT)
    assert (reason, [m.pk for m in matches]) == (rules.FORGET_REQUEST, [habit.pk])


def test_a_stop_with_nothing_to_withdraw_stands_as_a_does_not_want():
    for text, fallback in [
        ("Stop giving me pie charts.", "Does not want pie charts."),
        ("Stop replying in French.", "Does not want answers in French."),
        ("Please stop responding in German.", "Does not want answers in German."),
    ]:
        [finding] = _analyse(text)
        assert finding.action == "reverse"
        assert finding.extra["fallback"].statement == fallback


@pytest.mark.django_db
def test_a_stop_with_nothing_to_withdraw_is_stored_as_a_does_not_want(make_user):
    user = make_user()
    result = run_gate(_event(user, "Stop giving me pie charts."))
    [memory] = _live(user)
    assert result.written == (memory.pk,) and memory.statement == "Does not want pie charts."
    assert (memory.subject, memory.value) == ("answer_format", "chart")


@pytest.mark.django_db
def test_a_reversal_withdraws_the_preference_live_when_it_was_said(make_user):
    # Read at the turn's time: a note live then is withdrawn, though it has expired since,
    # and not the other note that only shares the word.
    user = make_user()
    note = write_memory(
        user,
        kind="preference",
        statement="Likes rows and columns with a header line.",
        subject="answer_format",
        value="table",
        expires_at=AT + timedelta(days=10),
    )
    write_memory(user, kind="preference", statement="Prefers a totals row under tables.", author="user")
    result = run_gate(_event(user, "No more tables please."))
    assert result.forgotten == (note.pk,)


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("Forget about the Lyon office.", "Lyon office"),
        ("Forget that I said I cover Iberia.", "I cover Iberia"),
        ("Forget what I said about Porto.", "Porto"),
    ],
)
def test_a_forget_request_names_its_target_without_the_words_that_lead_to_it(text, target):
    [finding] = _analyse(text)
    assert (finding.action, finding.statement) == ("forget", target)


@pytest.mark.django_db
def test_withdrawing_a_preference_that_was_never_set_writes_the_does_not_want(make_user):
    user = make_user()
    run_gate(_event(user, "Stop using abbreviations in answers."))
    assert [m.statement for m in _live(user)] == ["Does not want abbreviations in answers."]
    [decision] = _decisions(user)
    assert (decision.rule, decision.kind, decision.reason, decision.admitted) == (
        "preference",
        "preference",
        "standing_preference",
        True,
    )
    # Said again, the note already agrees: acknowledged, nothing dropped.
    answer = preview(user, "Stop using abbreviations in answers.")
    assert (answer.message, answer.standalone) == ("Noted: you don't want abbreviations in answers.", False)
