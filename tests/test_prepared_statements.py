"""Server-side binding and prepared statements (atlas/db.py): on for persistent connections,
off with one connection per request (PgBouncer in transaction mode), and Row Level Security
holds for a statement prepared under one acting user and run under another."""

import pytest
from django.db import connection

from atlas.db import PREPARE_AFTER, database_settings
from atlas.settings import BASE_DIR
from memory.models import Memory
from memory.rls import acting_user
from memory.store import write_memory


def _options(**environ):
    app, _ = database_settings(BASE_DIR, environ)
    return app["OPTIONS"]


def test_persistent_connections_bind_server_side_and_prepare():
    options = _options()
    assert options["server_side_binding"] is True and options["prepare_threshold"] == PREPARE_AFTER


def test_one_connection_per_request_prepares_nothing():
    options = _options(ATLAS_CONN_MAX_AGE="0")
    assert options["server_side_binding"] is True and options["prepare_threshold"] is None


def test_server_binding_can_be_turned_off():
    options = _options(ATLAS_DB_SERVER_BINDING="false")
    assert "server_side_binding" not in options and "prepare_threshold" not in options


@pytest.mark.django_db
def test_a_statement_prepared_for_one_user_shows_another_user_only_their_rows(make_user):
    if connection.settings_dict["OPTIONS"].get("prepare_threshold") is None:
        pytest.skip("prepared statements are off in this configuration")
    alice, bob = make_user(), make_user()
    for user in (alice, bob):
        with acting_user(user.pk):
            write_memory(user, kind="context", statement=f"Covers region {user.pk}")
    for _ in range(PREPARE_AFTER + 2):  # prepared while Alice acts
        with acting_user(alice.pk):
            assert [m.user_id for m in Memory.objects.all()] == [alice.pk]
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM pg_prepared_statements")
        assert cur.fetchone()[0] > 0
    with acting_user(bob.pk):
        assert [m.user_id for m in Memory.objects.all()] == [bob.pk]
    assert list(Memory.objects.all()) == []  # no acting user: no rows
