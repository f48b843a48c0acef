"""eval_recall runs recall cases through the real write and recall paths and cleans up."""

import json
from io import StringIO

from django.contrib.auth import get_user_model
from django.core.management import call_command

from memory.models import Memory
from memory.rls import staff_bypass
from tests.factories import shared_benchmarks


def mem(key, kind, statement, **extra):
    return {"key": key, "kind": kind, "statement": statement, "written_at": "2026-03-02T09:00:00Z", **extra}


CASES = [
    {
        "id": "t-u1",
        "at": "2026-06-15T10:00:00Z",
        "memories": [
            mem("p1", "preference", "Prefers tables over prose."),
            mem("c1", "context", "Owns the Harbor Tools account (ACCT-20417)."),
            mem("k1", "correction", "Order SO-77001 was returned, not delivered."),
            mem("s1", "situation", "Working from the Lisbon office this week.", expires_at="2026-03-11T00:00:00Z"),
            mem("x1", "context", "Covers the Nordic accounts.", superseded=True),
        ],
        "queries": [
            {"q": "Status of ACCT-20417?", "relevant": ["c1"]},
            {"q": "What happened to SO-77001?", "relevant": ["k1"]},
            {"q": "Which office am I in?", "relevant": [], "must_not": ["s1"]},
            {"q": "Show me my Nordic accounts", "relevant": [], "must_not": ["x1"]},
        ],
    },
    {
        "id": "t-u2",
        "at": "2026-06-15T10:00:00Z",
        "memories": [mem("c1", "context", "Owns the Harbor Tools account (ACCT-20417).")],
        "queries": [{"q": "Harbor Tools account owner?", "relevant": ["c1"]}],
    },
]


def test_eval_recall_reports_recall_and_violations_and_leaves_nothing_behind(db, tmp_path):
    cases = tmp_path / "cases.jsonl"
    cases.write_text("".join(json.dumps(case) + "\n" for case in CASES))
    users_before = get_user_model().objects.count()
    out = StringIO()
    call_command("eval_recall", str(cases), "--k", "6", "--json", stdout=out)
    lines = out.getvalue().strip().splitlines()
    assert "recall@6 (micro)" in out.getvalue()
    result = json.loads(lines[-1])
    assert result["queries"] == 5
    assert result["recall_micro"] == 1.0
    assert result["must_not_violations"] == 0
    assert result["cross_user_violations"] == 0
    assert get_user_model().objects.count() == users_before
    with staff_bypass(actor_id=None, reason="test: check eval cleanup"):
        assert Memory.objects.count() == 0


# The shared labelled cases, relative to the repository's parent as `make eval` finds them.
DEV_CASES = shared_benchmarks() / "recall" / "dev.jsonl"


def test_the_shared_recall_dev_cases_keep_their_published_figures(db):
    """A regression check against the README's published dev figures (recall@6 1.000, no
    must_not or cross-user violations), measured through the real write and recall paths."""
    out = StringIO()
    call_command("eval_recall", str(DEV_CASES), "--k", "6", "--json", stdout=out)
    result = json.loads(out.getvalue().strip().splitlines()[-1])
    assert result["recall_micro"] == 1.0, out.getvalue()
    assert result["must_not_violations"] == 0, out.getvalue()
    assert result["cross_user_violations"] == 0, out.getvalue()
