"""eval_gate: the labelled dev cases through the real gate, and the scoring rules themselves."""

import io
import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tests.factories import shared_benchmarks

# shared/ sits beside the repository (../shared), as for the developers and CI.
BENCH = shared_benchmarks() / "gate"
DEV, DEV2 = BENCH / "dev.jsonl", BENCH / "dev2.jsonl"
OWN = Path(__file__).resolve().parents[1] / "fixtures" / "gate_own_cases.jsonl"


def _run(*paths) -> tuple[dict, str]:
    out = io.StringIO()
    call_command("eval_gate", *[str(p) for p in paths], "--json", stdout=out)
    text = out.getvalue()
    return json.loads(text.strip().splitlines()[-1]), text


@pytest.mark.django_db
def test_dev_and_dev2_cases_meet_the_targets():
    summary, text = _run(DEV, DEV2)
    lines = DEV.read_text().splitlines() + DEV2.read_text().splitlines()
    assert summary["cases"] == sum(1 for line in lines if line.strip())
    assert summary["precision"] == 1.0, text
    assert summary["recall"] >= 0.95, text
    assert summary["expiry_accuracy"] == 1.0, text
    assert summary["clean_statements"] >= 0.98, text
    assert "precision" in text and "clean statements" in text
    # The replay leaves no users behind.
    assert not get_user_model().objects.filter(username__startswith="eval-gate-").exists()


@pytest.mark.django_db
def test_our_own_wordings_of_the_same_rules():
    """Cases we wrote ourselves (not the benchmark's sentences): other wordings of every rule."""
    summary, text = _run(OWN)
    assert summary["precision"] >= 0.97, text
    assert summary["recall"] >= 0.9, text
    assert summary["expiry_accuracy"] == 1.0, text
    assert summary["clean_statements"] >= 0.95, text


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "precision", "recall"),
    [
        # blind first run: precision 0.778, recall 0.773
        ("regression/gate_set2.jsonl", 0.92, 0.9),
        # blind first run (issue 17): precision 0.828, recall 0.741
        ("regression/gate_set3.jsonl", 0.96, 0.85),
        # blind first run: precision 0.944, recall 0.630; 0.958 / 0.704 before it was fixed against
        ("regression/gate_set6.jsonl", 1.0, 1.0),
        # blind first run: precision 0.809, recall 0.630; 0.870 / 0.630 before it was fixed against
        ("regression/gate_set7.jsonl", 1.0, 1.0),
        # held out until 3 Dec: 0.870 / 0.643 (first run 0.857 / 0.571); fixed against by class since
        ("regression/gate_set8.jsonl", 1.0, 0.89),
        # held out until 3 Dec: first run 0.885 / 0.679; fixed against by class since
        ("regression/gate_set9.jsonl", 1.0, 0.85),
        # held out until 4 Dec: first run 0.560 / 0.545 and 0.632 / 0.500; fixed against by class since
        ("regression/gate_set10.jsonl", 0.79, 0.77),
        ("regression/gate_set11.jsonl", 0.86, 0.9),
        # held out until 4 Dec (second session): first run 0.889 / 0.769 and 0.870 / 0.731; fixed
        # against by class since (helper-blind-15's paraphrases)
        ("regression/gate_set12.jsonl", 1.0, 0.96),
        ("regression/gate_set13.jsonl", 1.0, 1.0),
        # first run (4 Dec, second session) 0.667 / 0.500 and 0.654 / 0.640; fixed against by class since
        ("regression/gate_set14.jsonl", 0.94, 0.65),
        ("regression/gate_set15.jsonl", 0.8, 0.76),
        # held out until 4 Dec (third session): first run 0.900 / 0.750 and 0.846 / 0.846; fixed against
        # by class since (helper-blind-24's paraphrases)
        ("regression/gate_set16.jsonl", 0.95, 0.79),
        ("regression/gate_set17.jsonl", 0.88, 0.84),
        # held out until 4 Dec (fourth session): first run 0.816 / 0.900 and 0.849 / 0.800 (on 45af484);
        # fixed against by class since (helper-blind-27's paraphrases)
        ("regression/gate_set18.jsonl", 1.0, 0.96),
        ("regression/gate_set19.jsonl", 0.93, 0.86),
        # held out until 4 Dec (fifth session): first run 0.909 / 0.889 and 0.912 / 0.926 (on 9e0b938), 0.935 /
        # 0.852 and 0.912 / 0.926 on 01af3fd; fixed against by class since (helper-81's paraphrases)
        ("regression/gate_set20.jsonl", 0.93, 0.85),
        ("regression/gate_set21.jsonl", 0.93, 0.92),
        # written blind at the start of the fifth session (helper-77), first run on 01af3fd before any change:
        # 0.923 / 0.828 and 0.767 / 0.733; read late that session and fixed by class (helper-84's and -85's rows)
        ("regression/gate_set22.jsonl", 0.96, 0.86),
        ("regression/gate_set23.jsonl", 0.82, 0.76),
    ],
)
def test_a_regression_fixture_first_written_blind_keeps_its_measured_figures(name, precision, recall):
    """45 cases a helper wrote without reading the gate, fixed against since (a regression
    fixture, no longer held out); the figures after the fixes they led to, as a floor."""
    summary, text = _run(Path(__file__).resolve().parents[1] / "fixtures" / name)
    assert summary["cases"] == SET_SIZES.get(name, 45)
    assert summary["precision"] >= precision, text
    assert summary["recall"] >= recall, text
    assert summary["expiry_accuracy"] >= EXPIRY_FLOORS.get(name, 1.0), text
    assert summary["clean_statements"] == 1.0, text


@pytest.mark.django_db
@pytest.mark.usefixtures("corpus")  # the customers' names: what a correction is about
def test_a_correction_corrected_again_replaces_the_first_and_venting_is_not_kept():
    """helper-92's rows (sixth session, written blind before the change): a second incorrect-answer
    comment on the same customer's same field ("my bad earlier, kestrel's limit is 125k") replaces the
    first correction; a comment that only vents ("this is garbage") keeps nothing."""
    summary, text = _run(
        Path(__file__).resolve().parents[1] / "fixtures" / "paraphrases" / "gate_feedback_classes.jsonl"
    )
    assert summary["cases"] == 12
    assert summary["precision"] == 1.0, text
    assert summary["recall"] == 1.0, text


@pytest.mark.django_db
@pytest.mark.usefixtures("corpus")  # with the demo data, as `manage.py eval_gate` runs: corrections name the customer
@pytest.mark.parametrize(
    ("name", "precision", "recall"),
    [
        # written blind at the start of the sixth session (helper-86), first run on e768489 before any change:
        # 0.889 / 0.920 and 0.786 / 0.909; read that session and fixed by class (helper-92's and -93's rows)
        ("regression/gate_set24.jsonl", 0.96, 0.92),
        ("regression/gate_set25.jsonl", 0.91, 0.9),
        # written blind at the start of the seventh session (helper-95), first run on d94c9ab before any change:
        # 0.875 / 0.793 and 0.967 / 0.867; read that session and fixed by class (helper-blind-99's rows)
        ("regression/gate_set26.jsonl", 0.93, 0.82),
        ("regression/gate_set27.jsonl", 0.96, 0.9),
        # gate_set28 (helper-101, written mid-seventh-session, first run on 2779915: 0.857 / 0.655) and gate_set30
        # (helper-107, first run on e217547 before any change: 0.826 / 0.900), read in the eighth session and fixed
        # by class (helper-blind-110's and -112's rows): 0.935 / 0.828 and 0.955 / 1.000
        ("regression/gate_set28.jsonl", 0.93, 0.82),
        ("regression/gate_set30.jsonl", 0.95, 1.0),
        # gate_set32 and gate_set33 (helper-119, 30 cases each, written at the start of the ninth session, first run
        # on 5e6a4db before any change: 0.611 / 0.421 and 0.778 / 0.316), read that session and fixed by class
        # (helper-blind-122's, -123's, -125's and -129's rows): 0.905 / 0.842 and 0.933 / 0.684
        ("regression/gate_set32.jsonl", 0.9, 0.84),
        ("regression/gate_set33.jsonl", 0.93, 0.68),
        # gate_set29 (helper-107, first run on e217547: 0.947 / 0.944), gate_set31 (helper-115, first run on 5dc95a8:
        # 0.905 / 0.882) and gate_set34 (helper-126, first run on 53108a7: 0.846 / 0.588), held out unread until the
        # tenth session, then read and fixed by class: 1.000 / 1.000, 1.000 / 0.941, 0.895 / 0.882
        ("regression/gate_set29.jsonl", 1.0, 1.0),
        ("regression/gate_set31.jsonl", 1.0, 0.94),
        ("regression/gate_set34.jsonl", 0.89, 0.88),
        # gate_set35/36 (helper-131, first run on 8bf6738 before any change: 0.929 / 0.733 and 0.846 / 0.600) and
        # gate_set37/38 (helper-137, written mid-session, first run on 78fe9fe: 0.688 / 0.529 and 0.800 / 0.611),
        # read in the tenth session and fixed by class (helper-blind-135, -136, -139, -141's rows)
        ("regression/gate_set35.jsonl", 1.0, 0.8),
        ("regression/gate_set36.jsonl", 0.94, 0.86),
        ("regression/gate_set37.jsonl", 0.86, 0.64),
        ("regression/gate_set38.jsonl", 0.88, 0.77),
        # gate_set39 (helper-144, first run on d6d9d4f: 0.812 / 0.632), held out unread until the eleventh session, and
        # gate_set40/41 (helpers 146/147, first run on 04a2190 before any change: 0.833 / 0.710 and 0.903 / 0.774),
        # read in the eleventh session and fixed by class (helper-blind-149's and -150's rows)
        ("regression/gate_set39.jsonl", 0.87, 0.68),
        ("regression/gate_set40.jsonl", 1.0, 0.9),
        ("regression/gate_set41.jsonl", 0.97, 0.9),
        # gate_set42 (helper-153, written mid-session, first run on 51804e1: 0.897 / 0.828, the same as on 04a2190:
        # the session's earlier class fixes changed nothing on it), then read and fixed by class
        ("regression/gate_set42.jsonl", 0.96, 0.89),
        # gate_set43 (helper-156, first run on ea37e9f: 0.905 / 0.548, the same on a0c53c1), held out unread until the
        # twelfth session, then read and fixed by class (helper-blind-163's and -164's rows)
        ("regression/gate_set43.jsonl", 0.93, 0.83),
        # gate_set44/45 (helpers 160 and 161, first run on a0c53c1 before any change: 0.889 / 0.750 and 0.739 / 0.531;
        # their situations' end dates converted to the eval's window, which changed no precision or recall), run again
        # on 0bd4b03 after the first classes (0.889 / 0.750 and 0.783 / 0.562), then read and fixed by class
        ("regression/gate_set44.jsonl", 0.93, 0.84),
        ("regression/gate_set45.jsonl", 0.91, 0.68),
        # gate_set46 (helper-166, first run on 0bd4b03: 0.806 / 0.781, the same on 0f890d6), held out unread until the
        # thirteenth session; gate_set47 (helper-171, written before that session's changes, first run on 0f890d6:
        # 0.875 / 0.903); both then read and fixed by class (helper-blind-174's, -175's and -176's rows)
        ("regression/gate_set46.jsonl", 0.9, 0.9),
        ("regression/gate_set47.jsonl", 0.96, 0.96),
        # gate_set48 (helper-172, first run on 0f890d6: 0.871 / 0.844; 0.875 / 0.875 on 14e3ca5) and gate_set49
        # (helper-177, first run on 0f890d6: 0.806 / 0.781, the same on 14e3ca5), held out unread until the fourteenth
        # session; gate_set50 (helper-182, written before that session's changes, first run on 14e3ca5: 0.909 /
        # 0.882); all three then read and fixed by class (helper-blind-185's and -186's rows). gate_set50 expects two
        # notes where one sentence names two facets ("a table, newest first"); Atlas keeps one note with both facets,
        # as the preferences issue asks, so those two rows stay misses.
        ("regression/gate_set48.jsonl", 0.96, 0.96),
        ("regression/gate_set49.jsonl", 0.96, 0.93),
        ("regression/gate_set50.jsonl", 0.93, 0.9),
        # gate_set51 (helper-183, written before the fourteenth session's changes, first run on 14e3ca5: 0.900 /
        # 0.818; 0.903 / 0.849 after the session's first classes, unread), then read and fixed by class
        # (helper-blind-190's rows and its own sentences)
        ("regression/gate_set51.jsonl", 0.96, 0.93),
    ],
)
def test_a_regression_fixture_read_with_the_demo_data_keeps_its_measured_figures(name, precision, recall):
    test_a_regression_fixture_first_written_blind_keeps_its_measured_figures(name, precision, recall)


# Sets whose bounds the gate does not all read yet ("monday-wednesday", a site visit "until friday"
# said in a later turn): the expiry accuracy after the fixes, as a floor.
# The sets of another size than 45 (the eighth session's helpers wrote 30 a set).
SET_SIZES = {f"regression/gate_set{n}.jsonl": 30 for n in (29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39)}
EXPIRY_FLOORS = {
    "regression/gate_set45.jsonl": 0.95,  # "going on leave from tomorrow, no idea when i'm back" reads no end as one
    "regression/gate_set49.jsonl": 0.96,  # "covering X while she's out, she's back on the 14th": her return, not read
    "regression/gate_set34.jsonl": 0.94,
    "regression/gate_set33.jsonl": 0.92,
    "regression/gate_set28.jsonl": 0.96,
    "regression/gate_set14.jsonl": 0.88,
    "regression/gate_set15.jsonl": 0.88,
    "regression/gate_set17.jsonl": 0.9,
    "regression/gate_set18.jsonl": 0.96,
    "regression/gate_set21.jsonl": 0.96,
    "regression/gate_set22.jsonl": 0.96,
    "regression/gate_set25.jsonl": 0.95,
    "regression/gate_set26.jsonl": 0.96,
}


def _case(case_id, turns, expect):
    return json.dumps({"id": case_id, "turns": turns, "expect": expect})


@pytest.mark.django_db
def test_scoring_counts_misses_duplicates_and_expiry_errors(tmp_path):
    cases = [
        # A correct standing preference: a true positive.
        _case(
            "own-1",
            [{"session": "x", "at": "2026-09-01T08:00:00Z", "text": "From now on give revenue in yen."}],
            [{"kind": "preference", "mentions": ["yen"], "expires": None}],
        ),
        # Labelled as owed, but the gate rightly writes nothing for one request: a miss.
        _case(
            "own-2",
            [{"session": "x", "at": "2026-09-01T08:00:00Z", "text": "Show that as a table."}],
            [{"kind": "preference", "mentions": ["table"], "expires": None}],
        ),
        # Written with a dated expiry but labelled as permanent: matched, and an expiry error.
        _case(
            "own-3",
            [{"session": "x", "at": "2026-09-01T08:00:00Z", "text": "I'm in Rome this week."}],
            [{"kind": "situation", "mentions": ["Rome"], "expires": None}],
        ),
        # Labelled as nothing: the written memory is a false positive.
        _case(
            "own-4",
            [{"session": "x", "at": "2026-09-01T08:00:00Z", "text": "Remember that I run the Tuesday pricing call."}],
            [],
        ),
    ]
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(cases) + "\n")
    summary, text = _run(path)
    assert summary["live"] == 3 and summary["matched"] == 2
    assert summary["precision"] == pytest.approx(2 / 3, abs=1e-3)
    assert summary["recall"] == pytest.approx(2 / 3, abs=1e-3)
    assert summary["expiry_accuracy"] == 0.5
    assert "FAIL own-2" in text and "false positive" in text and "wrong expiry" in text
    assert summary["statements"] == 3 and summary["clean_statements"] == 1.0


@pytest.mark.django_db
def test_an_unclean_statement_is_reported(tmp_path):
    # Filters are stored as the session state named them; a first-person value fails the lint.
    turns = [
        {"session": s, "at": f"2026-09-0{n}T08:00:00Z", "text": "Orders?", "filters": {"owner": "my team"}}
        for n, s in enumerate(["a", "b", "c"], start=1)
    ]
    path = tmp_path / "cases.jsonl"
    path.write_text(_case("own-5", turns, [{"kind": "context", "mentions": ["owner"], "expires": None}]) + "\n")
    summary, text = _run(path)
    assert summary["clean_statements"] == 0.0 and "unclean statement" in text
