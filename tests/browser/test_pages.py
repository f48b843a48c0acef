"""What a user does with Atlas's memory, in a real browser: the inline panel and the memory page."""

import json
import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from memory import selectors, store
from memory.models import GateDecision, SurfaceEvent
from memory.rls import acting_user

pytestmark = pytest.mark.browser

QUESTION = "What are Northline Freight's payment terms?"
DATES = "Prefers dates as YYYY-MM-DD (ISO)."


def remember(user, statement, *, kind="preference", quote="", days_ago=3, **fields):
    said = timezone.now() - timedelta(days=days_ago)
    return store.write_memory(
        user, kind=kind, statement=statement, source_quote=quote, source_at=said, created_at=said, **fields
    )


def ask(page, question):
    page.get_by_label("Ask Atlas").fill(question)
    page.get_by_role("button", name="Ask", exact=True).click()
    turn = page.locator(".turn").filter(has_text=question).last
    expect(turn).to_be_visible()
    return turn


def test_forget_a_note_from_the_answer_that_used_it(page, log_in, screenshot, corpus, alice):
    # Two notes this answer acts on: its signing date as asked, the customer's account code added.
    remember(alice, DATES, quote="always write dates year-first", facets={"date_format": "iso"})
    remember(
        alice, "Wants the account code shown.", quote="put the account code in", facets={"include": "account_code"}
    )
    log_in(alice)

    turn = ask(page, QUESTION)
    panel = turn.locator("details.recalled")
    summary = panel.locator(":scope > summary")
    expect(summary).to_have_text("Used 2 notes from earlier conversations")
    expect(panel).not_to_have_attribute("open", "")
    summary.click()
    note = panel.locator(".note").filter(has_text=DATES)
    expect(note).to_be_visible()
    expect(note).to_contain_text("from “always write dates year-first”")
    expect(note).to_contain_text("Shaped this answer: Wrote dates as YYYY-MM-DD (ISO)")
    expect(note.get_by_role("button", name="Forget this")).to_be_visible()
    screenshot("chat-panel.png")

    note.get_by_role("button", name="Forget this").click()
    expect(note).to_contain_text("Forgotten. Atlas won't learn this again.")
    expect(note.get_by_role("button", name="Forget this")).to_have_count(0)
    expect(panel).to_have_attribute("open", "")  # swapped in place, still open

    page.get_by_role("link", name="What Atlas remembers").click()
    expect(page.get_by_role("heading", name="What Atlas remembers about you")).to_be_visible()
    statements = page.locator(".memory-item .note-statement")
    expect(statements).to_have_text(["Wants the account code shown."])


def test_correct_a_note_inline_and_see_it_as_yours(page, log_in, corpus, alice):
    remember(
        alice,
        "Prefers detailed answers",
        quote="can you give me the full breakdown on this one",
        facets={"length": "detailed"},
    )
    log_in(alice)

    turn = ask(page, QUESTION)
    turn.locator("details.recalled > summary").click()
    note = turn.locator(".note").filter(has_text="Prefers detailed answers")
    note.get_by_text("Correct it").click()
    box = note.get_by_label("Corrected note")
    expect(box).to_have_value("Prefers detailed answers")
    box.fill("Prefers short answers unless I ask for detail")
    note.get_by_role("button", name="Save correction").click()
    expect(note).to_contain_text("Corrected. Atlas will use your wording from now on.")
    expect(note).to_contain_text("Prefers short answers unless I ask for detail")

    page.goto("/memory/")
    item = page.locator(".memory-item").filter(has_text="Prefers short answers unless I ask for detail")
    expect(item).to_be_visible()
    expect(item.locator(".author")).to_have_text("you")
    expect(page.locator(".memory-item .note-statement")).to_have_text(["Prefers short answers unless I ask for detail"])


def test_export_json_holds_the_notes_with_provenance(page, log_in, alice):
    remember(alice, "Covers the western region", kind="context", quote="I look after the west")
    log_in(alice)
    page.goto("/memory/")
    with page.expect_download() as info:
        page.get_by_role("button", name="Export JSON").click()
    download = info.value
    assert re.fullmatch(r"atlas-memory-\d{4}-\d{2}-\d{2}\.json", download.suggested_filename)
    data = json.loads(open(download.path(), encoding="utf-8").read())
    [row] = data["memories"]
    assert row["statement"] == "Covers the western region"
    assert row["kind"] == "context"
    assert row["source_quote"] == "I look after the west"


def test_delete_everything_after_one_confirmation(page, log_in, screenshot, alice):
    remember(alice, "Prefers answers as a table", quote="can you put that in a table", subject="answer_format")
    remember(alice, "Covers the western region", kind="context", quote="I look after the west", days_ago=9)
    remember(
        alice,
        "Is preparing the quarter-end close",
        kind="situation",
        quote="I'm buried in the quarter-end close this week",
        days_ago=1,
        expires_at=timezone.now() + timedelta(days=29),
    )
    log_in(alice)
    page.goto("/memory/")
    for heading in ("Preferences", "Context", "Situations"):
        expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
    expect(page.locator(".memory-item").filter(has_text="quarter-end")).to_contain_text("Expires")
    screenshot("memory-page.png")

    page.get_by_role("link", name="Delete everything…").click()
    expect(page.get_by_role("heading", name="Delete everything Atlas remembers about you?")).to_be_visible()
    page.get_by_label("Also pause memory").check()
    page.get_by_role("button", name="Delete everything").click()

    expect(page.get_by_text("Deleted everything Atlas remembered about you. Memory is paused.")).to_be_visible()
    expect(page.get_by_role("heading", name="Atlas doesn't remember anything about you yet")).to_be_visible()
    expect(page.locator(".memory-item")).to_have_count(0)
    expect(page.get_by_role("switch")).to_have_attribute("aria-checked", "true")
    page.get_by_role("link", name="Chat", exact=True).click()
    expect(page.get_by_text("Memory is paused")).to_be_visible()


def test_a_second_user_never_sees_the_first_users_notes(page, log_in, corpus, alice, make_user):
    remember(alice, "Covers the Benelux accounts", kind="context", quote="I run Benelux")
    remember(alice, "Prefers answers as a table", quote="can you put that in a table", subject="answer_format")
    bob = make_user("bob")
    log_in(bob)

    turn = ask(page, QUESTION)
    expect(turn.locator("details.recalled")).to_have_count(0)
    page.goto("/memory/")
    expect(page.get_by_role("heading", name="Atlas doesn't remember anything about you yet")).to_be_visible()
    expect(page.locator(".memory-item")).to_have_count(0)
    expect(page.get_by_text("Benelux")).to_have_count(0)
    page.goto("/")
    expect(page.get_by_text("Benelux")).to_have_count(0)


def test_memory_page_controls_swap_in_place_and_work_by_keyboard(page, log_in, alice):
    remember(alice, "Prefers detailed answers", quote="can you give me the full breakdown on this one")
    remember(alice, "Covers the western region", kind="context", quote="I look after the west")
    log_in(alice)
    page.goto("/memory/")

    detailed = page.locator(".memory-item").filter(has_text="Prefers detailed answers")
    correct = detailed.get_by_text("Correct it")
    correct.focus()
    page.keyboard.press("Enter")  # the disclosure opens from the keyboard
    box = detailed.get_by_label("Corrected note")
    expect(box).to_have_value("Prefers detailed answers")
    box.fill("Prefers short answers")
    detailed.get_by_role("button", name="Save correction").click()
    corrected = page.locator(".memory-item").filter(has_text="Corrected. Atlas will use your wording from now on.")
    expect(corrected).to_contain_text("Prefers short answers")
    expect(corrected.locator(".author")).to_have_text("you")

    west = page.locator(".memory-item").filter(has_text="Covers the western region")
    west.get_by_role("button", name="Forget this").click()
    expect(page.get_by_text("Forgotten. Atlas won't learn this again.")).to_be_visible()

    switch = page.get_by_role("switch", name="Pause memory")
    switch.click()
    expect(page.get_by_role("switch", name="Pause memory")).to_have_attribute("aria-checked", "true")
    assert selectors.is_paused(alice)

    page.reload()
    expect(page.locator(".memory-item .note-statement")).to_have_text(["Prefers short answers"])


def test_forget_works_without_javascript(browser, live_server, transactional_db, alice):
    remember(alice, "Covers the western region", kind="context", quote="I look after the west")
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto("/login/")
        page.get_by_label("Username").fill("alice")
        page.get_by_label("Password").fill("pw-alice")
        page.get_by_role("button", name="Log in").click()
        page.goto("/memory/")
        page.get_by_role("button", name="Forget this").click()
        expect(page.get_by_role("status")).to_contain_text("Forgotten. Atlas won't learn this again.")
        expect(page.locator(".memory-item")).to_have_count(0)
    finally:
        context.close()


def test_api_docs_render_under_the_content_security_policy(page, log_in, alice):
    # Swagger UI from local files only; the fixture fails the test on any CSP violation.
    log_in(alice)
    page.goto("/api/docs/")
    page.get_by_text("/api/memories/", exact=True).first.wait_for()
    assert page.evaluate("getComputedStyle(document.body).margin") == "0px"


def test_forget_inline_with_a_reason_and_see_it_in_the_staff_report(
    page, log_in, screenshot, corpus, alice, make_user, settings
):
    settings.ATLAS_HOLDOUT = False  # the answer must use the note
    note = remember(alice, DATES, quote="always write dates year-first", facets={"date_format": "iso"})
    with acting_user(alice.pk):  # as the gate stores it: the decision that wrote the note names its rule
        GateDecision.objects.create(
            user=alice, rule="standing_phrase", reason="standing_preference", admitted=True, memory=note
        )
    log_in(alice)
    turn = ask(page, QUESTION)
    panel = turn.locator("details.recalled")
    with page.expect_response(re.compile(r"/notes/viewed/$")) as viewed:
        panel.locator(":scope > summary").click()
    assert viewed.value.status == 204
    item = panel.locator(".note").filter(has_text=DATES)
    item.get_by_role("button", name="Forget this").click()
    expect(item).to_contain_text("Forgotten. Atlas won't learn this again.")
    screenshot("chat-forget-reasons.png")
    item.get_by_role("button", name="I said it once, it's not a rule").click()
    expect(item).to_contain_text("Thanks, noted: “I said it once, it's not a rule”")
    expect(item.get_by_role("button")).to_have_count(0)

    page.context.clear_cookies()
    log_in(make_user("staff", is_staff=True, is_superuser=True))
    page.goto("/admin/memory/surfaceevent/")
    page.get_by_role("link", name="Two-surfaces report").click()
    reasons = page.locator("#reasons-table")
    expect(reasons.locator("#reason-over-generalised")).to_contain_text("1 100.0%", use_inner_text=True)
    expect(reasons.locator("caption")).to_contain_text("1 forget, 1 with a reason, 0 without")
    expect(page.locator("#action-forgotten")).to_contain_text(
        "Memories forgotten 1 0 0 0 0 1 100.0%", use_inner_text=True
    )
    expect(page.locator("#action-opened")).to_contain_text("Times the notes were opened 1 0", use_inner_text=True)
    expect(page.locator("#rules-table .rule-row")).to_contain_text(
        "standing_phrase standing_preference 1 1 100.0%", use_inner_text=True
    )
    expect(page.locator("#reasons-chart")).to_be_visible()

    seed_a_fortnight(make_user("bob"))  # a fuller picture for the README's screenshot
    page.reload()
    expect(page.locator("#rules-table")).to_contain_text("(stands out)")
    screenshot("surfaces-report.png")


def seed_a_fortnight(user) -> None:
    """Another user's views, forgets and gate writes, so the report has something to compare."""
    now = timezone.now()
    # (rule, reason code, notes written, forgets as (reason, surface, age in days))
    rules = [
        ("repeated_filter", "repeated_in_3_sessions", 30, [("over-generalised", "inline", 4)] * 9),
        ("standing_phrase", "standing_preference", 40, [("no-longer-true", "inline", 12)] * 3),
        ("explicit", "explicit_request", 60, [("unwanted", "page", 2)] * 2 + [("", "inline", 8)] * 2),
        ("correction", "correction", 20, [("never-true", "api", 5)]),
    ]
    events, decisions = [], []
    for rule, code, written, forgets in rules:
        decisions += [
            GateDecision(user=user, rule=rule, reason=code, admitted=True, created_at=now - timedelta(days=14))
            for _ in range(written)
        ]
        events += [
            SurfaceEvent(
                user=user,
                action="forgotten",
                surface=surface,
                forget_reason=reason,
                rule=rule,
                rule_reason=code,
                kind="preference",
                note_written_at=now - timedelta(days=14),
                note_age_days=age,
                at=now - timedelta(days=14 - age),
            )
            for reason, surface, age in forgets
        ]
    events += [SurfaceEvent(user=user, action="viewed", surface="inline", notes=2) for _ in range(60)]
    events += [SurfaceEvent(user=user, action="viewed", surface="page", notes=9) for _ in range(8)]
    events += [SurfaceEvent(user=user, action="corrected", surface="inline") for _ in range(7)]
    events += [SurfaceEvent(user=user, action="corrected", surface="page")]
    with acting_user(user.pk):
        GateDecision.objects.bulk_create(decisions)
        SurfaceEvent.objects.bulk_create(events)


def test_memory_updated_appears_under_the_turn_without_a_reload(page, log_in, corpus, alice):
    """The gate runs after the turn (here: the queued task run by hand, as the worker would); the
    page polls the turn's gate status and shows the line, then stops polling."""
    from django_q.models import OrmQ

    from memory.tasks import GATE_TASK, gate_event

    log_in(alice)
    turn = ask(page, "Remember that I prefer amounts in thousands")
    expect(turn.locator(".gate-message")).to_contain_text("I'll remember that")
    status = turn.locator(".memory-updates")
    expect(status).to_have_attribute("hx-get", re.compile(r"/gate/\?poll=\d"))
    page.evaluate("window.__atlas_marker = 1")  # a reload would drop it

    queued = [q for q in OrmQ.objects.all() if q.task["func"] == GATE_TASK]
    assert len(queued) == 1
    gate_event(*queued[0].task["args"])

    line = turn.locator(".memory-updated")
    expect(line).to_contain_text("Memory updated:", timeout=10_000)
    expect(line.get_by_role("link")).to_contain_text("thousands")
    expect(turn.locator(".memory-updates")).not_to_have_attribute("hx-get", re.compile(".*"))
    assert page.evaluate("window.__atlas_marker") == 1


def test_a_preference_said_in_one_chat_shapes_the_answer_in_the_next(page, log_in, corpus, alice, monkeypatch):
    from django_q.conf import Conf

    monkeypatch.setattr(Conf, "SYNC", True)  # the write gate runs as the turn commits, as a worker would
    log_in(alice)
    said = ask(page, "From now on, show amounts in thousands please.")
    expect(said).to_contain_text("Noted")
    page.get_by_role("link", name="New chat").click()

    turn = ask(page, "What's the total value of Kestrel Foods' orders?")
    expect(turn.locator(".answer")).to_contain_text(re.compile(r"total \$[\d,]+\.\dk"))
    panel = turn.locator("details.recalled")
    expect(panel.locator(":scope > summary")).to_have_text("Used 1 note from earlier conversations")
    panel.locator(":scope > summary").click()
    expect(panel.locator(".note")).to_have_count(1)
    expect(panel.locator(".note")).to_contain_text("Prefers amounts in thousands")
    expect(panel.locator(".note")).to_contain_text("Shaped this answer: Showed amounts in thousands")
