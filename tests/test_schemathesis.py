"""The OpenAPI schema, its docs page, and a bounded schemathesis run against it.

Schemathesis generates requests from /api/schema/ and sends them in-process through the
WSGI app as an authenticated (token) user who owns a memory, a session and a turn; no
operation may answer with a server error.
"""

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error

from atlas.accounts.tokens import create_token
from chat.models import ChatSession, Turn
from memory import store
from memory.rls import acting_user

MAX_EXAMPLES = 20


@pytest.fixture
def wsgi_app(db):
    # Like Django's test client: keep the test's connection (and its transaction) open.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield WSGIHandler()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def api_user(make_user):
    return make_user("schemathesis")


@pytest.fixture
def owned_ids(api_user) -> dict[str, object]:
    """Ids of objects the API user owns, so generated requests reach past the 404."""
    memory = store.write_memory(api_user, kind="preference", statement="Always use metric units", author="user")
    with acting_user(api_user.pk):
        session = ChatSession.objects.create(user=api_user, title="Orders")
        turn = Turn.objects.create(session=session, user=api_user, question="Open orders?", answer="None.")
    return {"/api/memories/": memory.pk, "/api/sessions/": str(session.pk), "/api/turns/": turn.pk}


@pytest.fixture
def api_token(api_user) -> str:
    return create_token(api_user, name="schemathesis")[1]


@pytest.fixture
def api_schema(wsgi_app, api_user):
    return schemathesis.openapi.from_wsgi("/api/schema/", wsgi_app)


def fuzz_operation(operation, *, headers: dict[str, str], owned) -> None:
    """Generated requests for one operation; half of them on an object the user owns."""

    @given(case=operation.as_strategy(), use_owned=st.booleans())
    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    def call(case, use_owned):
        if use_owned and owned is not None and case.path_parameters:
            case.path_parameters = {**case.path_parameters, "id": owned}
        # Each example starts from the seeded state: its writes are rolled back.
        with transaction.atomic():
            response = case.call(headers=headers)
            transaction.set_rollback(True)
        case.validate_response(response, checks=[not_a_server_error])

    call()


def test_api_has_no_server_errors(api_schema, api_token, owned_ids):
    # One test over every operation (schemathesis' pytest loader does not run under pytest 9).
    headers = {"Authorization": f"Token {api_token}"}
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 16
    for operation in operations:
        owned = next((value for prefix, value in owned_ids.items() if operation.path.startswith(prefix)), None)
        fuzz_operation(operation, headers=headers, owned=owned)


def test_schema_is_openapi_3_and_lists_every_endpoint(client, db):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    document = response.json()
    assert document["openapi"].startswith("3.")
    paths = set(document["paths"])
    assert {
        "/api/memories/",
        "/api/memories/{id}/",
        "/api/memories/{id}/correct/",
        "/api/memories/export/",
        "/api/memories/delete-everything/",
        "/api/memory/pause/",
        "/api/memory/resume/",
        "/api/sessions/",
        "/api/sessions/{id}/turns/",
        "/api/turns/{id}/",
        "/api/turns/{id}/feedback/",
    } <= paths
    schemes = document["components"]["securitySchemes"]
    assert {"personalToken", "cookieAuth"} <= set(schemes)
    assert schemes["personalToken"] | {"description": ""} == {
        "type": "apiKey",
        "in": "header",
        "name": "Authorization",
        "description": "",
    }
    assert "/account/tokens/" in schemes["personalToken"]["description"]


def test_docs_page_uses_only_local_assets(client, db):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in page
    assert "https://" not in page and "http://" not in page
    # The Content-Security-Policy allows no inline style: the page's own rules come from a file.
    assert "<style" not in page and "/static/css/swagger.css" in page
    assert "style-src 'self'" in response.headers["Content-Security-Policy"]
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200
    assert "/api/schema/" in script.content.decode()
