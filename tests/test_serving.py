"""Production-mode pieces that need no server: the secret key, /healthz, error pages, log context."""

import logging
import os
import stat

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, RequestFactory
from django.views.defaults import server_error

from atlas.logcontext import ContextFilter, log_step
from atlas.serving import load_or_create_secret_key


def test_secret_key_is_generated_once_private_and_reused(tmp_path):
    path = tmp_path / "data" / "secret_key"
    key = load_or_create_secret_key(path)
    assert len(key) >= 50
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert load_or_create_secret_key(path) == key
    path.write_text("short\n")
    with pytest.raises(ImproperlyConfigured, match="no usable secret key"):
        load_or_create_secret_key(path)


def test_healthz_names_the_missing_worker(db):
    # No django-q2 cluster runs beside the tests: the check must say so, not pass.
    response = Client().get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "failing"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["cache"] == "ok"
    assert body["checks"]["embedding_model"] == "ok"
    assert "no worker cluster" in body["checks"]["worker"]
    assert response["Cache-Control"].startswith("max-age=0")
    assert Client().post("/healthz").status_code == 405


def test_unknown_page_is_a_404_in_the_sites_look(alice):
    client = Client()
    client.force_login(alice)
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "Page not found" in page and 'class="topbar"' in page and "What Atlas remembers" in page


def test_expired_form_is_a_403_that_says_what_to_do(alice):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/login/", {"username": "alice", "password": "pw-alice"})
    assert response.status_code == 403
    assert "This form has expired" in response.content.decode()


def test_server_error_page_stands_alone_in_the_sites_look():
    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    page = response.content.decode()
    assert "Something went wrong" in page and "css/atlas" in page


def test_log_lines_carry_request_user_turn_and_step_not_text(alice, caplog):
    client = Client()
    client.force_login(alice)
    response = client.get("/memory/")
    assert len(response["X-Request-ID"]) == 12

    record = logging.LogRecord("chat.turn", logging.ERROR, __file__, 1, "turn failed: database", None, None)
    with log_step("gate", turn_id=41, user_id=alice.pk):
        ContextFilter().filter(record)
    assert (record.turn_id, record.user_id, record.step) == ("41", str(alice.pk), "gate")
    after = logging.LogRecord("chat.turn", logging.ERROR, __file__, 1, "x", None, None)
    ContextFilter().filter(after)
    assert after.turn_id == "-" and after.step == "-"


def test_log_lines_written_during_a_turn_name_the_turn(alice):
    from chat.turn import ask

    before = logging.LogRecord("chat.turn", logging.WARNING, __file__, 1, "earlier", None, None)
    ContextFilter().filter(before)  # whatever an earlier test on this thread left
    with log_step("turn", user_id=alice.pk):
        turn = ask(alice, session=None, question="Remember that I cover the Nordic accounts")
        record = logging.LogRecord("chat.turn", logging.WARNING, __file__, 1, "slow step", None, None)
        ContextFilter().filter(record)
    assert (record.turn_id, record.step) == (str(turn.pk), "turn")
    assert "Nordic" not in record.getMessage()
    after = logging.LogRecord("chat.turn", logging.WARNING, __file__, 1, "later", None, None)
    ContextFilter().filter(after)
    assert after.turn_id == before.turn_id != str(turn.pk)  # the block ends with the turn it started
