"""Memory-effect classes: each class's paraphrases (written blind by helper-blind-24, before the
change, without reading the code) replayed through the real path by eval_memory_effect, and each
must be followed: the records win over a corrected field (city, terms, limit) whatever the shape
of the answer; a facet changed or withdrawn in a later session in the user's words ("change my top
5 thing to top 8", "stop cutting lists at 3", "ignore what i said about dates"); a bare request
that is the whole of a session's first turn ("totals in millions pls") kept as standing; a
preference scoped to a kind of question, applied there only. A known gap is listed with why."""

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

CASES = Path(__file__).resolve().parents[1] / "fixtures" / "paraphrases" / "memory_effect_classes.jsonl"

CLASSES = {
    "corpus_wins_after_feedback": "the corrected field asked again: the records win, the note said to be out of date",
    "update_facet_later_session": "a facet given a new value in a later session: the new value holds, never the old",
    "forget_facet": "a facet withdrawn in a later session: it no longer shapes the answer",
    "bare_request_as_whole_turn": "a bare format request as a session's only turn: kept, and it shapes the next chat",
    "scoped_by_question_kind": "a preference for one kind of question: applied there, not elsewhere",
    # helper-82's rows, written after the change by a helper who never read the code (5 December)
    "layout_for_records": (
        "a newer layout for a kind of records named with 'for' ('bullet points for orders') replaces an older one"
        " for the same lists ('order lists as a table')"
    ),
    # helper-blind-112's rows (eighth session), written before the change by a helper who never read the code
    "scoped_by_status": (
        "a field asked for on questions about orders of one status ('when i ask about overdue orders'): shown "
        "there, never on an order count or total with no status"
    ),
    "scoped_by_place": (
        "a wish for the customers of a place ('for the uk customers (the leeds + manchester ones)', 'the texas "
        "accounts'): applied to those customers, never to a customer elsewhere"
    ),
    # helper-blind-117's rows, written after the change (the renewal date had no reader of a note against it)
    "corpus_wins_renewal_date": (
        "a renewal date corrected to another ('nah they extended, renews mar 2029 now', '31/10/2029', typed in chat "
        "after the question): the contract's date, and the note said to be out of date"
    ),
    # helper-blind-122's gate rows (ninth session), put in the memory-effect shape (the limit row asks for 8, not
    # the default 5, so that it can fail)
    "standing_by_reference": (
        "a one-off request made standing in the next turn of the same chat by pointing back ('keep doing that for"
        " everything', 'make that the default pls'): the next chat's answer follows it"
    ),
    # helper-blind-150's rows (eleventh session), written before the change by a helper who never read the code
    # (memory_effect_set22's 'leave the cents off amounts in general' was kept as a field left out, not a rounding;
    # memory_effect_set21's 'top ten' was kept with no list size)
    "cents_left_off": (
        "money asked for without cents in other words ('leave the cents off', 'take the cents off', 'lose the "
        "pennies'): the next chat's amounts are whole"
    ),
    "limit_in_words": (
        "a ranking size said in words ('top ten', 'a dozen is the right size', 'three is plenty', 'top seven'): the "
        "next chat's ranking has that many entries"
    ),
    # helper-blind-158's rows (eleventh session), written after the change (memory_effect_set23's "for the enterprise
    # accounts specifically, count cancelled orders in totals too" had been scoped to a town called Enterprise)
    "scoped_by_segment": (
        "a wish for the customers of one segment ('for the enterprise accounts', 'with my small business clients', "
        "'mid-market ones:', 'for mid market customers'): applied to that segment's customers, never to another's"
    ),
    "correction_remembered": (
        "a correction of a customer's field asked to be remembered ('thats old, X moved to Y. pls remember that')"
        " stays a correction, and the records still win"
    ),
    # helper-blind-179's rows (thirteenth session), written before the change by a helper who never read the code
    # (memory_effect_set26's misses: a region's note asked of a city in it; bullets wished mid-chat; a corrected
    # field asked again in other words)
    "region_scope_on_a_place_in_it": (
        "a wish for one region's customers ('north region: always show account codes', 'for west region customers "
        "show money in thousands'), asked of a city or a customer of that region: applied; elsewhere: not"
    ),
    "bullets_over_tables_said_mid_chat": (
        "a layout wished against the other after a data question, with a lasting reason ('tables r useless on my "
        "phone, bullets from now on'): the next chat's list has that layout"
    ),
    # helper-blind-191's rows, written after the change (memory_effect_set29: a table asked for comparisons, and a
    # comparison answered as one sentence)
    "layout_of_a_comparison": (
        "a layout asked for everything or for comparisons ('side by side columns', 'bullet points for comparisons'): "
        "a comparison of two customers, regions or periods shows its two sides that way"
    ),
    "corpus_wins_field_in_other_words": (
        "a corrected payment term, credit limit or city asked again in other words ('where is X based these days?'): "
        "the records win"
    ),
}

GAPS = {
    "mc191-02": (
        "known gap: 'when im comparing stuff pls put it in a table side by side' keeps nothing ('comparing' is no "
        "condition the gate reads as recurring)"
    ),
    "mc179-03": (
        "known gap: 'quick thing - east region accounts, dates as dd/mm/yyyy pls. the team over there reads them that "
        "way': the reason, what others do, is read as the turn's statement, so no request is kept"
    ),
    "mc179-04": "known gap: 'whenever its south region customers include ...': 'whenever its' sets no scope",
    "mc179-07": (
        "known gap: 'no tables for me pls - bullet points only, im mostly on the ipad' after a data question keeps "
        "nothing (the wish after a question in the same chat needs a standing word)"
    ),
    "mc179-12": "the question's customer has no order in October 2026 to list, so no layout can show",
    "mc179-13": "known gap (planner): 'how long does X get to pay its invoices?' is not read as the payment terms",
    "mc179-14": "known gap (planner): 'how much credit can X run up with us?' is read as a money question",
    "mc179-17": "known gap (planner): 'the most X can owe us before we stop shipping' is not read as the credit limit",
    "mc179-18": "known gap (planner): 'what town is X operating out of?': 'town' names no field",
    "mec-scoped_by_question_kind-1": (
        "known gap: 'when i ask about overdue orders, oldest first pls, always' keeps nothing (the sort with no "
        "verb after a condition is not read as a wish); and 'what's overdue for customers in the south' lists "
        "customers, not orders"
    ),
}


@pytest.mark.django_db(transaction=True)
def test_every_memory_effect_class_paraphrase_is_followed(corpus):
    rows = [json.loads(line) for line in CASES.read_text().splitlines() if line.strip()]
    assert {r["class"] for r in rows} == set(CLASSES)
    assert all(sum(r["class"] == c for r in rows) >= 5 for c in CLASSES)
    out = io.StringIO()
    call_command("eval_memory_effect", str(CASES), "--json", stdout=out)
    figures = json.loads(out.getvalue().strip().splitlines()[-1])
    failed = {line.split(":")[0]: line for line in figures["failures"]}
    assert figures["harmed"] == 0, figures["failures"]
    assert set(failed) == set(GAPS), figures["failures"]
