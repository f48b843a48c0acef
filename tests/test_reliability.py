"""Reliability and abuse: races, outages and hostile input through the HTTP API (loopback, in-process).

Each test reproduces a failure of issue 14 and checks what a user would notice: no 500, nothing
of theirs left after delete-everything, one clear answer per request.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.core.cache import caches
from django.db import connection, connections
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from chat.models import ChatSession, Turn
from memory.models import GateDecision, GateEvent, Memory, MemoryControl
from memory.rls import acting_user, staff_bypass
from memory.store import write_memory

REMEMBER = "Remember that I cover the Nordic accounts"


def api(user, **defaults) -> APIClient:
    client = APIClient(raise_request_exception=False, **defaults)
    client.force_login(user)
    return client


def in_parallel(calls: list[Callable[[], object]]) -> list[object]:
    """Run the calls at once, each in its own thread with its own database connection."""
    results: list[object] = [None] * len(calls)
    start = threading.Barrier(len(calls))

    def run(index: int, call: Callable[[], object]) -> None:
        try:
            start.wait()
            results[index] = call()
        except Exception as exc:  # reported as the result, so the test shows it
            results[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


@pytest.fixture
def make_user(django_user_model):
    """Users without a password (no hashing: these tests sign in with force_login)."""
    counter = iter(range(1, 10_000))

    def make(username: str | None = None, **extra):
        return django_user_model.objects.create(username=username or f"rel{next(counter)}", **extra)

    return make


@pytest.fixture
def sync_gate(monkeypatch):
    """Queued gate tasks run in-process right after their transaction commits, as a worker would."""
    from django_q.conf import Conf

    monkeypatch.setattr(Conf, "SYNC", True)


# --- delete everything wins every race -------------------------------------------------------


def _survivors(user) -> dict[str, int]:
    """What of the user predates their last deletion, in every table and in the cache."""
    with staff_bypass(actor_id=None, reason="test: count survivors"):
        # No deletion recorded (it failed): everything of the user is a survivor.
        deleted_at = MemoryControl.objects.get(user=user).deleted_at or timezone.now()
        sessions = set(ChatSession.objects.filter(user=user).values_list("pk", flat=True))
        turns = set(Turn.objects.filter(user=user).values_list("pk", flat=True))
        found = {
            "sessions": ChatSession.objects.filter(user=user, created_at__lte=deleted_at).count(),
            "turns": Turn.objects.filter(user=user, created_at__lte=deleted_at).count(),
            "memories": Memory.objects.filter(user=user, source_at__lte=deleted_at).count()
            + Memory.objects.filter(user=user, source_at__isnull=True, created_at__lte=deleted_at).count(),
            "gate_decisions": GateDecision.objects.filter(user=user)
            .exclude(source_turn__in=turns)
            .exclude(created_at__gt=deleted_at, source_turn__isnull=True)
            .count(),
            "gate_events": GateEvent.objects.filter(user=user).count(),
        }
    with connection.cursor() as cur:
        cur.execute("SELECT cache_key FROM atlas_cache WHERE cache_key LIKE %s", [f"%atlas:state:{user.pk}:%"])
        keys = [row[0] for row in cur.fetchall()]
    found["cache"] = sum(1 for key in keys if key.rsplit(":", 1)[1] not in {str(s) for s in sessions})
    return found


@pytest.mark.django_db(transaction=True)
def test_delete_everything_wins_every_race_with_a_remember_turn(make_user, sync_gate):
    """40 races: a "remember that" turn, then 0-39 ms later delete-everything. Nothing older survives."""
    users = [make_user(f"racer{i}") for i in range(40)]
    statuses: list[tuple[int, int]] = []
    totals: dict[str, int] = {}
    for trial, user in enumerate(users):
        turn_client, delete_client = api(user), api(user)
        session_id = turn_client.post("/api/sessions/", {}, format="json").json()["id"]

        def turn(client=turn_client, session_id=session_id):
            return client.post(f"/api/sessions/{session_id}/turns/", {"question": REMEMBER}, format="json")

        def delete(client=delete_client, offset=trial * 0.001):
            time.sleep(offset)  # the race's offset: the turn reaches its transaction first in some trials
            return client.post("/api/memories/delete-everything/", {"confirm": True}, format="json")

        asked, deleted = in_parallel([turn, delete])
        statuses.append((asked.status_code, deleted.status_code))
        for table, count in _survivors(user).items():
            totals[table] = totals.get(table, 0) + count
    assert all(d == 200 and a in (201, 404, 409) for a, d in statuses), statuses
    assert totals == dict.fromkeys(totals, 0)


@pytest.mark.django_db(transaction=True)
def test_twenty_parallel_turns_in_one_session_keep_a_consistent_state(make_user):
    from chat.state import load_state

    user = make_user()
    session_id = api(user).post("/api/sessions/", {}, format="json").json()["id"]
    clients = [api(user) for _ in range(20)]
    questions = [f"Which orders are open for account {n}?" for n in range(20)]
    responses = in_parallel(
        [
            lambda c=c, q=q: c.post(f"/api/sessions/{session_id}/turns/", {"question": q}, format="json")
            for c, q in zip(clients, questions, strict=True)
        ]
    )
    assert [r.status_code for r in responses] == [201] * 20
    with acting_user(user.pk):
        turns = list(Turn.objects.filter(session_id=session_id).order_by("pk"))
    state = load_state(user.pk, session_id)
    assert state.last_turn_id == turns[-1].pk
    assert state.recent_questions == [t.question for t in turns[-len(state.recent_questions) :]]
    assert len(state.recent_questions) == 3


@pytest.mark.django_db(transaction=True)
def test_twenty_parallel_forgets_of_one_note_answer_forgotten_once_and_already_forgotten(make_user):
    user = make_user()
    memory = write_memory(user, kind="context", statement="Covers the Andes accounts.", author="user")
    clients = [api(user) for _ in range(20)]
    responses = in_parallel([lambda c=c: c.delete(f"/api/memories/{memory.pk}/") for c in clients])
    codes = sorted(r.status_code for r in responses)
    assert codes == [200] * 19 + [204]
    assert all(r.json()["code"] == "already_forgotten" for r in responses if r.status_code == 200)


@pytest.mark.django_db(transaction=True)
def test_forgets_mixed_with_corrections_never_fail(make_user):
    user = make_user()
    memory = write_memory(user, kind="context", statement="Covers the Andes accounts.", author="user")
    clients = [api(user) for _ in range(10)]
    calls = []
    for n, client in enumerate(clients):
        if n % 2:
            calls.append(lambda c=client: c.delete(f"/api/memories/{memory.pk}/"))
        else:
            calls.append(
                lambda c=client, n=n: c.post(
                    f"/api/memories/{memory.pk}/correct/", {"statement": f"Covers {n} Andes accounts."}, format="json"
                )
            )
    codes = [r.status_code for r in in_parallel(calls)]
    # Forgotten, already forgotten, corrected, already replaced (400) or forgotten meanwhile (410).
    assert set(codes) <= {200, 204, 201, 400, 410} and 500 not in codes, codes


# --- outages ------------------------------------------------------------------------------------


def _with_database_down(call: Callable[[], object]) -> object:
    """Run ``call`` in a thread whose database connection points at a server that is not there."""
    from django.db.backends.postgresql.base import DatabaseWrapper

    def run():
        connections["default"] = DatabaseWrapper({**connection.settings_dict, "HOST": "/nonexistent"}, "default")
        return call()

    return in_parallel([run])[0]


@pytest.mark.django_db(transaction=True)
def test_database_down_is_a_503_page_and_a_json_503_never_a_traceback(make_user, client):
    user = make_user()
    client.raise_request_exception = False
    client.force_login(user)  # the session middleware will fail to load this session
    page = _with_database_down(lambda: client.get("/"))
    assert page.status_code == 503 and page["Retry-After"]
    assert "reach its database right now" in page.content.decode() and "Traceback" not in page.content.decode()
    answer = _with_database_down(lambda: client.get("/api/memories/"))
    assert answer.status_code == 503 and answer.json()["code"] == "database_unavailable"


@pytest.mark.django_db
@override_settings(
    CACHES={"default": {"BACKEND": "atlas.cache.TolerantRedisCache", "LOCATION": "redis://127.0.0.1:1/0"}}
)
def test_redis_down_means_no_session_state_and_delete_everything_still_works(
    make_user, django_capture_on_commit_callbacks
):
    from django_q.models import OrmQ

    user = make_user()
    client = api(user)
    session_id = client.post("/api/sessions/", {}, format="json").json()["id"]
    asked = client.post(f"/api/sessions/{session_id}/turns/", {"question": "Which orders are open?"}, format="json")
    assert asked.status_code == 201
    with django_capture_on_commit_callbacks(execute=True):
        deleted = client.post("/api/memories/delete-everything/", {"confirm": True}, format="json")
    assert deleted.status_code == 200 and deleted.json()["session_state"] == 0
    # The state purge is retried once Redis is back (entries written before the outage go then).
    assert [q.task["args"] for q in OrmQ.objects.all() if q.func() == "chat.tasks.purge_state"] == [(user.pk,)]


@pytest.mark.django_db
@pytest.mark.redis
@override_settings(
    CACHES={"default": {"BACKEND": "atlas.cache.TolerantRedisCache", "LOCATION": "redis://127.0.0.1:6379/14"}}
)
def test_delete_everything_removes_every_session_state_entry_from_redis(make_user):
    from chat.state import SessionState, save_state

    alice, bob = make_user("alice-redis"), make_user("bob-redis")
    for n in range(30):
        save_state(alice.pk, f"s{n}", SessionState(recent_questions=[f"question {n}"]))
    save_state(bob.pk, "s0", SessionState(recent_questions=["bob's question"]))
    counts = api(alice).post("/api/memories/delete-everything/", {"confirm": True}, format="json").json()
    redis = caches["default"]._cache.get_client()
    assert counts["session_state"] == 30
    assert list(redis.scan_iter(match=f"*atlas:state:{alice.pk}:*")) == []
    assert len(list(redis.scan_iter(match=f"*atlas:state:{bob.pk}:*"))) == 1
    redis.flushdb()


@pytest.mark.django_db
def test_corrections_while_the_embedder_is_down_are_a_503(make_user, settings):
    from memory.embeddings import get_embedder

    user = make_user()
    memory = write_memory(user, kind="context", statement="Covers the Andes accounts.", author="user")
    settings.ATLAS_EMBEDDER, settings.ATLAS_EMBEDDING_URL = "http", "http://127.0.0.1:9/embeddings"
    get_embedder.cache_clear()
    try:
        response = api(user).post(
            f"/api/memories/{memory.pk}/correct/", {"statement": "Covers the Patagonia accounts."}, format="json"
        )
        page = api(user).post(f"/memory/{memory.pk}/correct/", {"statement": "Covers the Patagonia accounts."})
    finally:
        get_embedder.cache_clear()
    assert response.status_code == 503 and response.json()["code"] == "embedder_unavailable"
    assert page.status_code == 503 and "embedding model is unavailable" in page.content.decode()
    with acting_user(user.pk):
        assert list(Memory.objects.values_list("statement", flat=True)) == ["Covers the Andes accounts."]


# --- hostile input ------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", ["turns", "delete-everything", "feedback"])
@pytest.mark.parametrize("body", ["[" * 5000, '{"question": ', '{"a": [1, 2,]}'])
def test_json_that_does_not_parse_or_nests_absurdly_is_a_400(make_user, endpoint, body):
    user = make_user()
    client = api(user)
    session_id = client.post("/api/sessions/", {}, format="json").json()["id"]
    with acting_user(user.pk):
        turn = Turn.objects.create(session_id=session_id, user=user, question="Which orders are open?")
    path = {
        "turns": f"/api/sessions/{session_id}/turns/",
        "delete-everything": "/api/memories/delete-everything/",
        "feedback": f"/api/turns/{turn.pk}/feedback/",
    }[endpoint]
    response = client.post(path, body, content_type="application/json")
    assert response.status_code == 400 and "JSON parse error" in response.json()["detail"]


@pytest.mark.django_db
def test_a_question_of_only_invisible_characters_is_refused_as_empty(make_user):
    client = api(make_user())
    session_id = client.post("/api/sessions/", {}, format="json").json()["id"]
    for question in ("\u200b", "\u200b\u200d\ufeff", " \u2800 "):
        response = client.post(f"/api/sessions/{session_id}/turns/", {"question": question}, format="json")
        assert response.status_code == 400 and "Type a question first" in str(response.json())


@pytest.mark.django_db
def test_include_superseded_works_without_include_expired(make_user):
    from memory.store import correct_memory

    user = make_user()
    old = write_memory(user, kind="preference", statement="Prefers metric units.", author="user")
    correct_memory(user, old.pk, statement="Prefers imperial units.")
    listed = api(user).get("/api/memories/?include_superseded=true").json()["results"]
    assert sorted(m["statement"] for m in listed) == ["Prefers imperial units.", "Prefers metric units."]


@pytest.mark.django_db
def test_options_on_the_api_docs_is_not_a_500(make_user):
    assert api(make_user()).options("/api/docs/").status_code < 500


@pytest.fixture
def staff_client(make_user, client):
    staff = make_user("staff", is_staff=True, is_superuser=True)
    client.raise_request_exception = False
    client.force_login(staff)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "codes"),
    [
        ("/admin/memory/memory/?kind=%00", {400}),
        ("/admin/memory/gatedecision/?reason=%00", {400}),
        ("/admin/memory/memory/?created_at__year=99999999999", {302, 400}),
        ("/admin/memory/auditevent/?at__year=99999999999", {302, 400}),
        ("/admin/memory/memory/abc/change/", {404}),
        ("/admin/memory/gatedecision/abc/change/", {404}),
        ("/admin/chat/feedback/abc/change/", {404}),
        ("/admin/django_q/success/", {404}),
        ("/admin/django_q/ormq/", {404}),
    ],
)
def test_admin_filters_and_ids_that_do_not_parse_are_400_or_404(staff_client, url, codes):
    assert staff_client.get(url).status_code in codes


@pytest.mark.django_db
def test_a_nul_in_any_query_string_is_a_clear_400(make_user):
    response = api(make_user()).get("/api/memories/?kind=%00")
    assert response.status_code == 400 and response.json()["code"] == "invalid_query"
