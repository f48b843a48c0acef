"""No request value in any log line, including Django's own loggers (issue 30: the request logger
wrote a DataError whose message quotes what was sent, before the 400 replaced the 500).

Requests go through the test client with the settings' logging; the console handler's output
is read as an operator would read it (format, context and filters as configured).
"""

import io
import logging

import pytest
from django.db import connection
from django.test import Client

import chat.turn

pytestmark = pytest.mark.django_db

# What a hostile client sends: a marker to look for, quotes, SQL and markup.
HOSTILE = "zq424242u424 Robert'); DROP TABLE memory_memory;-- <script>alert(1)</script>"
MARKER = "zq424242u424"


@pytest.fixture
def log_output():
    """Everything the configured console handler writes during the test, as text."""
    [handler] = [h for h in logging.getLogger().handlers if h.get_name() == "console"]
    stream = io.StringIO()
    previous = handler.setStream(stream)
    try:
        yield stream
    finally:
        handler.setStream(previous)


def test_a_data_error_quoting_the_question_is_logged_without_it(make_user, monkeypatch, log_output):
    def cast_to_integer(question: str) -> str:
        with connection.cursor() as cursor:  # PostgreSQL quotes the value in its message
            cursor.execute("SELECT %s::integer", [question])
        return question

    monkeypatch.setattr(chat.turn, "clean_question", cast_to_integer)
    client = Client(raise_request_exception=False)
    client.force_login(make_user())
    response = client.post("/ask/", {"question": HOSTILE})

    assert response.status_code == 400  # atlas.middleware: a value the database cannot hold
    text = log_output.getvalue()
    assert MARKER not in text and "Robert" not in text and "<script>" not in text
    assert "500 Internal Server Error POST /ask/" in text  # Django's request logger, redacted
    assert "django.db.utils.DataError [SQLSTATE 22P02]: (message withheld)" in text
    assert 'cursor.execute("SELECT %s::integer", [question])' in text  # the traceback is kept
    assert "request answered 400: invalid_value" in text


def test_a_hostile_path_is_logged_as_its_status_only(make_user, log_output):
    client = Client()
    client.force_login(make_user())
    assert client.get(f"/memory/{MARKER}/?q={MARKER}").status_code == 404
    assert client.get(f"/c/00000000-0000-0000-0000-000000000000/?q={MARKER}").status_code == 404
    text = log_output.getvalue()
    assert MARKER not in text
    assert "404 Not Found GET (no route)" in text
    assert "404 Not Found GET /c/<uuid:session_id>/" in text


def test_a_hostile_host_header_is_not_logged(log_output):
    response = Client().get("/login/", HTTP_HOST=f"{MARKER}.example")
    assert response.status_code == 400
    text = log_output.getvalue()
    assert MARKER not in text
    assert "request refused: DisallowedHost (details withheld)" in text


def test_sql_and_its_parameters_are_never_logged(log_output):
    logger = logging.getLogger("django.db.backends")
    previous = logger.level
    logger.setLevel(logging.DEBUG)
    try:
        logger.debug(
            "(%.3f) %s; args=%s; alias=%s",
            0.004,
            f"SELECT '{HOSTILE}'",
            (HOSTILE,),
            "default",
            extra={"duration": 0.004, "sql": f"SELECT '{HOSTILE}'", "params": (HOSTILE,), "alias": "default"},
        )
    finally:
        logger.setLevel(previous)
    text = log_output.getvalue()
    assert MARKER not in text
    assert "database statement (text withheld) in 0.004 s" in text


def test_another_librarys_quoted_values_are_withheld(log_output):
    logging.getLogger("django-q").error("Failed 'memory.tasks.gate_event' - %s", f'value "{HOSTILE}"')
    text = log_output.getvalue()
    assert MARKER not in text
    assert "Failed <withheld> - value <withheld>" in text
