"""The two-surfaces report's figures on seeded views, forgets, corrections and gate decisions."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from memory import report, store
from memory.models import AuditEvent, GateDecision, SurfaceEvent
from memory.rls import acting_user, staff_bypass

STANDING, EXPLICIT = "standing_preference", "explicit_request"
# (surface, reason given, rule that wrote the note, the note's age in days when forgotten)
FORGETS = [
    ("inline", "over-generalised", STANDING, 2),
    ("inline", "over-generalised", STANDING, 3),
    ("inline", "over-generalised", STANDING, 10),
    ("inline", "no-longer-true", EXPLICIT, 20),
    ("inline", "", STANDING, 5),
    ("inline", "", STANDING, 40),  # forgotten, but not within 30 days
    ("page", "never-true", EXPLICIT, 1),
    ("page", "unwanted", "user-correction", 3),  # no gate decision: no denominator
    ("api", "over-generalised", STANDING, 29),
    ("conversation", "", EXPLICIT, 45),
]


def seed(user, *, forgets=(), views=(), corrections=(), written=(), days_ago: int = 1) -> None:
    """views: (surface, notes shown); corrections: surfaces; written: (rule, reason code, how many)."""
    at = timezone.now() - timedelta(days=days_ago)
    with acting_user(user.pk):
        for surface, reason, rule, age in forgets:
            SurfaceEvent.objects.create(
                user=user,
                action="forgotten",
                surface=surface,
                forget_reason=reason,
                rule=rule,
                rule_reason=rule if rule != "user-correction" else "",
                kind="preference",
                note_written_at=at - timedelta(days=age),
                note_age_days=age,
                at=at,
            )
        for surface, notes in views:
            SurfaceEvent.objects.create(user=user, action="viewed", surface=surface, notes=notes, at=at)
        for surface in corrections:
            SurfaceEvent.objects.create(user=user, action="corrected", surface=surface, at=at)
        for rule, reason, count in written:
            for _ in range(count):
                GateDecision.objects.create(
                    user=user,
                    rule=rule,
                    reason=reason,
                    admitted=True,
                    gate_version="1.0",
                    created_at=at - timedelta(days=5),
                )


@pytest.fixture
def seeded(make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    seed(alice, forgets=FORGETS[:5], views=[("page", 5), ("page", 3)], corrections=["inline", "page"])
    seed(
        bob,
        forgets=FORGETS[5:],
        views=[("inline", 2)] * 4,
        corrections=["inline", "inline"],
        written=[(STANDING, STANDING, 8), (EXPLICIT, EXPLICIT, 20)],
    )
    # Decisions that wrote nothing, or refused: never part of "written".
    seed(alice, written=[(STANDING, "duplicate_refreshed", 5), ("forget", "forget_request", 1)])
    with acting_user(alice.pk):
        GateDecision.objects.create(user=alice, rule=STANDING, reason="single_occurrence", admitted=False)
    # Carol deletes everything: none of this may count.
    seed(
        carol,
        forgets=[("inline", "over-generalised", STANDING, 1)] * 3,
        views=[("page", 9)],
        written=[(STANDING, STANDING, 3)],
    )
    return alice, bob, carol


def compute(**kwargs) -> report.SurfacesReport:
    with staff_bypass(actor_id=None, reason="test: surfaces report"):
        return report.surfaces_report(**kwargs)


def actions(result) -> dict[str, dict[str, int]]:
    surfaces = [value for value, _ in result.surfaces]
    return {row.key: dict(zip(surfaces, row.by_surface, strict=True)) for row in result.actions}


def test_a_deleted_users_records_count_for_nothing(seeded):
    _, _, carol = seeded
    assert compute().forgets == 13  # carol's 3 are there before her delete-everything
    counts = store.delete_everything(carol)
    assert counts["surface_events"] == 4
    result = compute()
    assert result.forgets == 10
    assert actions(result)["viewed"]["page"] == 8
    assert sum(row.written for row in result.rules) == 28


def test_actions_by_surface(seeded):
    store.delete_everything(seeded[2])
    result = compute()
    by_action = actions(result)
    assert by_action["opened"] == {"inline": 4, "page": 2, "api": 0, "conversation": 0, "admin": 0}
    assert by_action["viewed"] == {"inline": 8, "page": 8, "api": 0, "conversation": 0, "admin": 0}
    assert by_action["forgotten"] == {"inline": 6, "page": 2, "api": 1, "conversation": 1, "admin": 0}
    assert by_action["corrected"] == {"inline": 3, "page": 1, "api": 0, "conversation": 0, "admin": 0}
    forgotten = next(row for row in result.actions if row.key == "forgotten")
    assert (forgotten.total, forgotten.inline.rate) == (10, 0.6)
    assert forgotten.inline.low == pytest.approx(0.3127, abs=1e-4)
    assert forgotten.inline.high == pytest.approx(0.8318, abs=1e-4)


def test_forget_reasons_with_shares_and_intervals(seeded):
    store.delete_everything(seeded[2])
    result = compute()
    assert (result.forgets, result.with_reason, result.no_reason) == (10, 7, 3)
    shares = {row.reason: (row.share.count, row.share.total) for row in result.reasons}
    assert shares == {
        "over-generalised": (4, 7),
        "no-longer-true": (1, 7),
        "unwanted": (1, 7),
        "never-true": (1, 7),
    }
    top = result.reasons[0]
    assert top.heading == "Over-generalised from one instance" and top.share.percent == "57.1%"
    assert (top.share.low, top.share.high) == pytest.approx((0.2505, 0.8418), abs=1e-4)


def test_forget_rate_by_rule_counts_only_forgets_within_30_days(seeded):
    store.delete_everything(seeded[2])
    result = compute()
    rows = {(row.rule, row.rule_reason): row for row in result.rules}
    standing, explicit = rows[(STANDING, STANDING)], rows[(EXPLICIT, EXPLICIT)]
    assert (standing.written, standing.forgotten.count, standing.forgotten.rate) == (8, 5, 0.625)
    # over-generalised, no-longer-true, unwanted, never-true, none given
    assert standing.by_reason == [4, 0, 0, 0, 1]
    assert (explicit.written, explicit.forgotten.count, explicit.forgotten.rate) == (20, 2, 0.1)
    assert explicit.by_reason == [0, 1, 0, 1, 0]
    correction = rows[("user-correction", "")]
    assert (correction.written, correction.forgotten.count, correction.forgotten.rate) == (0, 1, None)
    assert (result.overall_forget_rate.count, result.overall_forget_rate.total) == (7, 28)
    # The rule that writes notes people throw away stands out, and comes first.
    assert standing.stands_out and not explicit.stands_out
    assert result.rules[0] is standing
    assert set(rows) == {(STANDING, STANDING), (EXPLICIT, EXPLICIT), ("user-correction", "")}


def test_the_period_leaves_out_older_events(seeded):
    alice = seeded[0]
    seed(alice, forgets=[("page", "never-true", STANDING, 3)], views=[("page", 4)], days_ago=60)
    assert compute().forgets == 14
    recent = compute(since=timezone.now() - timedelta(days=30))
    assert recent.forgets == 13
    assert actions(recent)["viewed"]["page"] == 17


def test_staff_report_page_shows_the_tables_and_charts(seeded, make_user):
    store.delete_everything(seeded[2])
    staff = make_user("staff", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(staff)
    response = client.get("/admin/memory/surfaceevent/report/?period=all")
    assert response.status_code == 200
    page = response.content.decode()
    for table in ("surfaces-table", "reasons-table", "rules-table"):
        assert f'id="{table}"' in page
    assert 'id="reasons-chart"' in page and 'id="rules-chart"' in page
    assert "57.1%" in page and "62.5%" in page and "(stands out)" in page
    assert "<script" not in page.split('id="surfaces-charts"')[1]
    assert AuditEvent.objects.filter(action="staff-bypass", reason="admin: two-surfaces report").exists()
    assert "Two-surfaces report" in client.get("/admin/chat/turn/").content.decode()


def test_non_staff_cannot_see_the_report(make_user):
    client = Client()
    client.force_login(make_user("mallory"))
    response = client.get("/admin/memory/surfaceevent/report/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_staff_report_over_chosen_dates(seeded, make_user):
    store.delete_everything(seeded[2])
    alice = seeded[0]
    seed(alice, forgets=[("page", "never-true", STANDING, 3)] * 2, days_ago=60)
    client = Client()
    client.force_login(make_user("staff", is_staff=True, is_superuser=True))
    today = timezone.now().date()
    window = {"since": today - timedelta(days=90), "until": today - timedelta(days=30)}
    page = client.get("/admin/memory/surfaceevent/report/", window).content.decode()
    assert "Forget reasons: 2 forgets, 2 with a reason, 0 without" in page
    page = client.get("/admin/memory/surfaceevent/report/", {"since": today - timedelta(days=30)}).content.decode()
    assert "Forget reasons: 10 forgets, 7 with a reason, 3 without" in page


@pytest.mark.parametrize(
    "query",
    [
        {"since": "yesterday"},
        {"until": "99999999999"},
        {"since": "2026-05-02", "until": "2026-05-01"},
        {"period": "%00"},
    ],
)
def test_staff_report_refuses_a_period_that_does_not_parse(make_user, query):
    client = Client()
    client.force_login(make_user("staff", is_staff=True, is_superuser=True))
    assert client.get("/admin/memory/surfaceevent/report/", query).status_code == 400
