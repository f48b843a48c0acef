"""The security probe's findings of issue 30, each with the request that failed before:

- a token that is not UTF-8 was a 500 HTML page on any API endpoint;
- the token-creation throttle counted X-Forwarded-For, which the client sets;
- the browsable API was on with DEBUG off;
- pages and API answers holding a user's data carried no Cache-Control;
- delete-everything took {"confirm": "yes"} or 1 as agreement;
- bidi control characters saved through Correct (and import) were kept raw.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from memory import store
from memory.gate.policy import visible_text
from memory.models import Memory
from memory.rls import acting_user

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
ZERO = "00000000-0000-0000-0000-000000000000"
# The schema and its docs page are public documents (no user data): they read no token.
PUBLIC_ENDPOINTS = [("get", "/api/schema/"), ("get", "/api/docs/")]
API_ENDPOINTS = [
    ("get", "/api/tokens/"),
    ("delete", "/api/tokens/1/"),
    ("get", "/api/memories/"),
    ("get", "/api/memories/export/"),
    ("post", "/api/memories/delete-everything/"),
    ("get", "/api/memories/1/"),
    ("delete", "/api/memories/1/"),
    ("post", "/api/memories/1/correct/"),
    ("get", "/api/memory/control/"),
    ("post", "/api/memory/pause/"),
    ("post", "/api/memory/resume/"),
    ("get", "/api/sessions/"),
    ("post", "/api/sessions/"),
    ("get", f"/api/sessions/{ZERO}/"),
    ("get", f"/api/sessions/{ZERO}/turns/"),
    ("post", f"/api/sessions/{ZERO}/turns/"),
    ("get", "/api/turns/1/"),
    ("post", "/api/turns/1/feedback/"),
]


def test_every_api_url_is_in_the_probe():
    from django.urls import get_resolver

    api = get_resolver().url_patterns
    [included] = [p for p in api if str(p.pattern) == "api/"]
    assert len(included.url_patterns) == len({path for _, path in API_ENDPOINTS + PUBLIC_ENDPOINTS})


@pytest.mark.parametrize(("method", "path"), API_ENDPOINTS)
def test_a_token_that_is_not_utf8_is_a_json_401(method, path):
    client = APIClient(raise_request_exception=False)
    # The header as a WSGI server hands it over: bytes \xff\xfe read as latin-1.
    response = getattr(client, method)(path, HTTP_AUTHORIZATION="Token \xff\xfe")
    assert response.status_code == 401
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "Invalid token."}


@pytest.mark.parametrize(("method", "path"), PUBLIC_ENDPOINTS)
def test_the_public_documents_ignore_a_token_that_is_not_utf8(method, path):
    response = getattr(APIClient(raise_request_exception=False), method)(path, HTTP_AUTHORIZATION="Token \xff\xfe")
    assert response.status_code == 200


@pytest.fixture
def fresh_throttle():
    cache.clear()
    yield
    cache.clear()


def _create_token(client: APIClient, forwarded_for: str) -> int:
    body = {"username": "nobody", "password": "wrong", "name": "x"}
    return client.post("/api/tokens/", body, format="json", HTTP_X_FORWARDED_FOR=forwarded_for).status_code


def test_the_token_throttle_counts_the_connection_not_x_forwarded_for(fresh_throttle, settings):
    settings.AXES_ENABLED = False  # the sign-in lockout would answer first; the throttle is the subject
    client = APIClient()
    codes = [_create_token(client, f"198.51.100.{i}") for i in range(14)]
    assert codes == [401] * 10 + [429] * 4


def test_behind_a_tls_proxy_the_throttle_counts_the_address_the_proxy_saw(fresh_throttle, settings):
    settings.AXES_ENABLED = False
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    client = APIClient()
    # The client's own (spoofed) entries vary; the proxy appends the real address last.
    codes = [_create_token(client, f"10.9.9.{i}, 203.0.113.7") for i in range(12)]
    assert codes == [401] * 10 + [429] * 2
    assert _create_token(client, "10.9.9.1, 203.0.113.8") == 401  # another real client


@pytest.mark.parametrize(("behind_proxy", "expected"), [("false", 0), ("true", 1)])
def test_num_proxies_follows_the_deployment(behind_proxy, expected):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "PYTEST"))}
    env |= {"DEBUG": "false", "SECRET_KEY": "x" * 60, "ATLAS_BEHIND_TLS_PROXY": behind_proxy}
    code = (
        "import django; django.setup(); from rest_framework.settings import api_settings as a; "
        "print(a.NUM_PROXIES, [c.__name__ for c in a.DEFAULT_RENDERER_CLASSES])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env | {"DJANGO_SETTINGS_MODULE": "atlas.settings"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split(" ", 1)
    assert int(out[0]) == expected
    assert out[1].strip() == "['JSONRenderer']"  # no browsable API with DEBUG off


@pytest.mark.parametrize(
    ("method", "path", "data"),
    [
        ("get", "/", {}),
        ("get", "/memory/", {}),
        ("post", "/memory/export/", {"fmt": "json"}),
        ("post", "/memory/export/", {"fmt": "text"}),
        ("get", "/account/tokens/", {}),
    ],
)
def test_pages_holding_a_users_data_are_never_stored(client, alice, method, path, data):
    store.write_memory(alice, kind="context", statement="Covers the western region")
    client.force_login(alice)
    response = getattr(client, method)(path, data)
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]


@pytest.mark.parametrize("token", [False, True])
def test_api_answers_are_never_stored(alice, client_for, token):
    response = client_for(alice, token=token).get("/api/memories/")
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]


@pytest.mark.parametrize("confirm", ["yes", 1, "1", "true", "on", "True", None, [True], {"value": True}])
def test_delete_everything_confirms_only_with_json_true(alice, client_for, confirm):
    store.write_memory(alice, kind="context", statement="Covers the western region")
    response = client_for(alice).post("/api/memories/delete-everything/", {"confirm": confirm}, format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["confirm"]
    with acting_user(alice.pk):
        assert Memory.objects.count() == 1


def test_delete_everything_with_json_true_deletes(alice, client_for):
    store.write_memory(alice, kind="context", statement="Covers the western region")
    response = client_for(alice).post("/api/memories/delete-everything/", {"confirm": True}, format="json")
    assert response.status_code == 200 and response.json()["memories"] == 1


BIDI = "Prefers amounts in \u202eeuros\u202c\u200b and \u2066tables\u2069\u0007"
CLEAN = "Prefers amounts in euros and tables"


def _statements(user) -> list[str]:
    with acting_user(user.pk):
        return [m.statement for m in Memory.objects.filter(superseded_by__isnull=True)]


def test_a_correction_through_the_api_is_cleaned_like_the_gate_cleans(alice, client_for):
    old = store.write_memory(alice, kind="preference", statement="Prefers amounts in dollars")
    response = client_for(alice).post(f"/api/memories/{old.pk}/correct/", {"statement": BIDI}, format="json")
    assert response.status_code == 201
    assert _statements(alice) == [CLEAN] == [visible_text(BIDI)]


def test_a_correction_on_the_page_is_cleaned(client, alice):
    old = store.write_memory(alice, kind="preference", statement="Prefers amounts in dollars")
    client.force_login(alice)
    client.post(f"/memory/{old.pk}/correct/", {"statement": BIDI})
    assert _statements(alice) == [CLEAN]
