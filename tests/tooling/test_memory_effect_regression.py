"""eval_memory_effect on memory_effect_set2 (and set3): 40 (30) cases a helper wrote without reading the code,
fixed against since (a regression fixture, no longer held out); the figures after the fixes, as
a floor. Blind first run: followed when stored 0.786, end to end 0.407; before it was fixed
against: 0.800 and 0.444, 20 of 40 not stored."""

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

SET2 = Path(__file__).resolve().parents[1] / "fixtures" / "regression" / "memory_effect_set2.jsonl"
SET3 = SET2.with_name("memory_effect_set3.jsonl")
SET5 = SET2.with_name("memory_effect_set5.jsonl")
SET4, SET6, SET7, SET8, SET9, SET10, SET11, SET12, SET13, SET14, SET15, SET16, SET17, SET18, SET19, SET20 = (
    SET2.with_name(f"memory_effect_set{n}.jsonl") for n in (4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20)
)
SET21, SET22, SET23, SET24, SET25, SET26, SET27, SET28, SET29 = (
    SET2.with_name(f"memory_effect_set{n}.jsonl") for n in (21, 22, 23, 24, 25, 26, 27, 28, 29)
)
# Cases whose check the offline answers cannot judge, by id and why (any other harmed case fails the set).
UNJUDGEABLE = {
    "me29-21": (
        "a forgotten 'city in brackets' note checked on a list of customers by payment terms: Atlas lists customers "
        "with their city, region and segment by default, so with no note at all the answer names every city too"
    ),
    "me27-22": (
        "a 40-word limit forgotten, asked of an order list: the list is a table the word count does not read, and with "
        "no note at all the same question is answered in 18 words"
    ),
}


def _figures(path: Path) -> tuple[dict, str]:
    out = io.StringIO()
    call_command("eval_memory_effect", str(path), "--json", stdout=out)
    text = out.getvalue()
    return json.loads(text.strip().splitlines()[-1]), text


# Each set's floors: cases, followed when stored, end to end, at most this many not stored; and
# harmed 0. memory_effect_set3 was held out twice (0.857 / 0.500 first, 0.900 / 0.750 with one
# harmed case on the final code), then fixed against: a scope said "when im asking", "whenever"
# read as "never", a request after its condition ("every time u list customers i need the acct code").
# memory_effect_set5 was held out until 4 December (first run 0.700 / 0.636, harmed 0, 4 not
# stored), then fixed against by class: everyday currency names, cancelled orders in casual words,
# "update my money setting to thousands".
# memory_effect_set4, 6 and 7 were held out until 4 December (third session; first runs 0.909 / 0.769,
# 0.769 / 0.556 with one harmed, 0.789 / 0.789 with one harmed), then fixed against by class (corpus
# wins on any field, updates and withdrawals in a later session, a bare request opening a session,
# spend as a scope): 0.909 / 0.769, 0.923 / 0.667, 0.895 / 0.895, none harmed.
FLOORS = [
    (SET2, 40, 1.0, 0.888, 8),
    (SET3, 30, 1.0, 0.875, 4),
    (SET5, 24, 0.81, 0.81, 2),
    (SET4, 30, 0.9, 0.76, 7),
    (SET6, 30, 0.92, 0.66, 7),
    (SET7, 30, 0.89, 0.89, 1),
    # memory_effect_set8: first run (4 December, third session) 0.882 / 0.789, harmed 2; its two harmed cases
    # were read: a field shown outside its scope (a scope named by a contract's field, "someones credit limit";
    # "a list of customers" as a scope of its own): 0.882 / 0.789, harmed 0.
    (SET8, 30, 0.88, 0.78, 5),
    # memory_effect_set9: first run (4 December, fourth session, 9e0b938) 0.857 / 0.667, harmed 0, 7 not
    # stored; read and fixed by class (a date shown as a format's example is no period, a lasting reason makes
    # a format standing, a value found wanting then replaced, "May" is a long date, a refusal kept short for a
    # user who wants short answers): 0.938 / 0.833.
    (SET9, 30, 0.93, 0.83, 4),
    # memory_effect_set10: written blind during the fourth session, first run on its final code (5b3f138):
    # 0.938 / 0.833, harmed 1 ("forget the top 3 rule" refused as an instruction to the system, so the
    # ranking stayed at 3); that case read and fixed by class: 0.938 / 0.833, harmed 0.
    (SET10, 30, 0.93, 0.83, 5),
    # memory_effect_set11 (helper-79): written blind at the start of the fifth session, first run on 01af3fd
    # before any change: 0.947 / 0.900, harmed 1, 2 not stored. Read and fixed by class: a layout for "orders"
    # named with "for" is scoped as "order lists" is (the harmed case: a newer "bullet points for orders" lost to
    # an older "order lists as a table"); a correction asked to be remembered stays a correction; "customers in
    # denver and kansas city" lists both cities: 1.000 / 1.000, harmed 0.
    (SET11, 30, 1.0, 1.0, 1),
    # memory_effect_set12 (helper-88): written blind at the start of the sixth session, first run on e768489
    # before any change: 0.944 / 0.850, harmed 2, 5 not stored. Its harmed cases read and fixed by class: a
    # field asked for "when i list customers" is scoped to customer lists (it had been shown beside an order
    # list), and "stop adding the account codes" replaces the note that added them; with the gate's classes of
    # that session ("oldest to newest", a polite question with a standing marker): 1.000 / 0.950, harmed 0.
    (SET12, 30, 1.0, 0.95, 4),
    # memory_effect_set13 (helper-97): written blind at the start of the seventh session, first run on d94c9ab
    # before any change: 0.944 / 0.850, harmed 2, 5 not stored. Its harmed cases read and fixed by class: a
    # condition on questions ("rule for contract questions:") scopes the note, and "nvm on the portuguese,
    # forget i asked" withdraws it: 1.000 / 0.950, harmed 0.
    (SET13, 30, 1.0, 0.95, 3),
    # memory_effect_set14 (helper-103): written blind mid-session, first run on 2779915 (the session's code
    # then): 0.923 / 0.706, harmed 2, 5 not stored. Its harmed cases read and fixed by class: "drop the
    # account-code habit" withdraws the note it points at, and "smallest amount to biggest" is a sort (it had
    # kept no facet, so the older "newest first" still sorted the list): 0.929 / 0.765, harmed 0.
    (SET14, 24, 0.92, 0.76, 4),
    # memory_effect_set15 (helper-109): written blind at the start of the eighth session, first run on e217547
    # before any change: 0.750 / 0.706, harmed 2, 3 not stored. Read and fixed by class: scopes by an order's
    # status and by a place's customers (both had been applied to every answer: the harmed cases), a field
    # swapped for another, each customer's total, renewal dates against a note: 0.941 / 0.941, harmed 0.
    (SET15, 28, 0.94, 0.94, 1),
    # memory_effect_set17 (helper-121): written blind at the start of the ninth session, first run on 5e6a4db before
    # any change: 0.769 / 0.556, harmed 0, 7 not stored. Read and fixed by class (a condition run into its request
    # with no comma or said without its subject, "totals" as a scope, a date example said to be today, the gate's
    # keep requests and standing markers): 0.824 / 0.778, harmed 0, 2 not stored.
    (SET17, 28, 0.82, 0.77, 2),
    # memory_effect_set18 (helper-127): written blind mid-session, first run on 53108a7: 0.923 / 0.632, harmed 1, 9
    # not stored. Its harmed case read and fixed by class: a label opening the message without "for" ("anything to do
    # with overdue stuff -> show me each customer's credit limit") scopes the wish (it had been shown beside a list
    # of customers by city): 0.923 / 0.632, harmed 0.
    (SET18, 28, 0.92, 0.68, 8),
    # memory_effect_set16 (helper-114, first run on 5dc95a8: 1.000 / 0.647, 8 not stored), held out unread until the
    # tenth session, then read: its misses were the gate's (a standing mark as the user's own end, "til i say
    # otherwise"; "permanently." after a complaint; conditions "when we're talking contracts", "whenever im chasing
    # overdue orders"; "the oldest at the top"; "leave the canceled ones in"): 1.000 / 0.941, 2 not stored.
    (SET16, 28, 1.0, 0.94, 2),
    # memory_effect_set19 (helper-132, first run on 8bf6738 before any change: 1.000 / 0.882, harmed 0, 5 not stored)
    # and memory_effect_set20 (helper-138, written mid-session, first run on 78fe9fe: 0.818 / 0.500, harmed 2, 9 not
    # stored; its harmed cases: "west coast accounts" was no scope, and "pls forget that earlier instruction" was
    # refused as an instruction to the system, so the old note stayed), read and fixed by class.
    (SET19, 28, 1.0, 0.88, 4),
    (SET20, 28, 0.92, 0.72, 6),
    # memory_effect_set21 (helper-144, first run on d6d9d4f: 0.923 / 0.750, harmed 0, 7 not stored), held out unread
    # until the eleventh session, and memory_effect_set22 (helper-148, first run on 04a2190 before any change: 0.938 /
    # 0.938, harmed 1: 'ditch teh thing about counting cancelled orders' was read as the wish again), read and fixed
    # by class (cents left off, list sizes in words, a withdrawal asked as a question, customers each with their
    # figure); set21's remaining misses are volunteered roles (not kept, by policy) and a customer's fact asked to
    # be remembered.
    (SET21, 24, 1.0, 0.81, 6),
    (SET22, 24, 1.0, 1.0, 1),
    # memory_effect_set23 (helper-154, written mid-session, first run on 51804e1: 0.846 / 0.688, harmed 0, 5 not
    # stored; the same on 04a2190), read and fixed by class (a segment's customers as a scope, a customer's field
    # asked to be remembered kept as a correction, "for any top-N type question just give me 4").
    (SET23, 24, 0.93, 0.93, 2),
    # memory_effect_set24 (helper-157, first run on ea37e9f: 1.000 / 0.733, harmed 0, 7 not stored; the same on
    # a0c53c1), held out unread until the twelfth session, then read and fixed by class (a polite request at a session's
    # start, "too long for me", "count also the cancelled", a customer's field volunteered "<new>, not <old>", a new
    # list size with the old one found wanting after it); the two left are volunteered roles (not kept, by policy).
    (SET24, 24, 1.0, 1.0, 2),
    # memory_effect_set25 (helper-162, first run on a0c53c1 before any change: 1.000 / 0.750, harmed 1, 5 not stored;
    # the same on 0bd4b03), read for its harmed case (a currency-code wish kept showing after "forget it": the symbol
    # turned down beside it had become a note against dollars, and "the USD-code thing" named no display) and fixed by
    # class; its five not stored are wordings no row reads yet.
    (SET25, 24, 1.0, 0.75, 5),
    # memory_effect_set26 (helper-167, first run on 0bd4b03: 0.867 / 0.812, harmed 0, 4 not stored; the same on
    # a0c53c1 and 0f890d6) and memory_effect_set27 (helper-173, written before the thirteenth session's changes, first
    # run on 0f890d6: 1.000 / 0.941, harmed 1, 3 not stored), held out until that session, then read; me27's harmed
    # case is one the check cannot judge (UNJUDGEABLE).
    (SET26, 24, 0.93, 0.87, 3),
    (SET27, 24, 1.0, 1.0, 1),
    # memory_effect_set28 (helper-178, first run on 0f890d6: 0.895 / 0.895, harmed 0, 1 not stored; the same on
    # 14e3ca5), held out until the fourteenth session, then read: a total for two years said with "and", a split
    # "across our segments", and a dated period label under a long-date note; its one not stored is a patch said
    # with "fyi" and no request to keep it (optional by the gate's policy).
    (SET28, 24, 1.0, 1.0, 1),
    # memory_effect_set29 (helper-184, written before the fourteenth session's changes, first run on 14e3ca5: 0.867 /
    # 0.812, harmed 1, 4 not stored; 0.933 / 0.875 after the session's first classes, unread), then read: a layout
    # asked for now shapes a comparison's two sides; its harmed case is one the check cannot judge (UNJUDGEABLE); of
    # its four not stored, two are patches said with "fyi"/"btw" and no request to keep them, one a note the gate keeps
    # in other words ("in answers about contracts" for "renewal dates"), one a scoped wish asked as a question.
    (SET29, 24, 1.0, 0.93, 4),
]


@pytest.fixture
def corpus_each(transactional_db):
    """The demo corpus for one transactional test: the flush after the test removes it, so each
    set is its own test (the two workers share the sets) and loads the corpus again."""
    from chat.demo_data import build_corpus, load_corpus
    from chat.tools import clear_customer_index

    load_corpus(build_corpus())
    yield
    clear_customer_index()


@pytest.mark.parametrize(
    ("path", "cases", "followed", "end_to_end", "not_stored"), FLOORS, ids=[row[0].stem for row in FLOORS]
)
def test_a_memory_effect_regression_set_keeps_its_figures_after_the_fixes(
    corpus_each, path, cases, followed, end_to_end, not_stored
):
    figures, text = _figures(path)
    assert figures["cases"] == cases
    harmed = {failure.split(":")[0] for failure in figures["failures"] if ": harmed" in failure}
    assert harmed <= UNJUDGEABLE.keys(), text
    assert figures["followed_when_stored"] >= followed, text
    assert figures["end_to_end"] >= end_to_end, text
    assert figures["not_stored"] <= not_stored, text
