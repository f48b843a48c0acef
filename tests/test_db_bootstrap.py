"""The embedded server's bootstrap (atlas/db.py), exercised on the running test server
without stopping or restarting it: roles it creates, settings that need a restart, stale
process handles. Skipped under DATABASE_URL (no superuser socket there)."""

import json
import os
import uuid

import psycopg
import pytest
from django.conf import settings
from django.db import connection, connections
from psycopg import sql

from atlas import db as atlas_db

pytestmark = pytest.mark.skipif(bool(os.environ.get("DATABASE_URL")), reason="needs the embedded server's socket")


def superuser(dbname="postgres"):
    return psycopg.connect(
        host=connection.settings_dict["HOST"], user=atlas_db.EMBEDDED_SUPERUSER, dbname=dbname, autocommit=True
    )


def role_flags(name):
    with superuser() as conn:
        return conn.execute(
            "SELECT rolcanlogin, rolsuper, rolbypassrls, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname = %s",
            [name],
        ).fetchone()


def drop_role(name):
    with superuser() as conn:
        conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(name)))


def test_bootstrap_creates_a_missing_app_role_that_cannot_bypass_rls(django_db_setup):
    name = f"atlas_app_{uuid.uuid4().hex[:8]}"
    try:
        atlas_db._bootstrap_embedded(connection.settings_dict["HOST"], app_user=name)
        assert role_flags(name) == (True, False, False, False, False)
        assert role_flags(atlas_db.EMBEDDED_OWNER)[:3] == (True, False, False)
        # Run again on a bootstrapped server: nothing to create, nothing fails.
        atlas_db._bootstrap_embedded(connection.settings_dict["HOST"], app_user=name)
    finally:
        drop_role(name)


def test_the_first_start_on_a_data_folder_bootstraps_once(django_db_setup, tmp_path):
    """Attaching to the running server with a data folder not yet marked bootstrapped creates
    the missing app role and marks the folder; the next start skips the bootstrap."""
    name = f"atlas_app_{uuid.uuid4().hex[:8]}"
    pgdata = tmp_path / "pgdata"
    pgdata.mkdir()
    try:
        socket_dir = atlas_db.start_embedded_server(pgdata, app_user=name)
        assert socket_dir == connection.settings_dict["HOST"]
        assert role_flags(name) == (True, False, False, False, False)
        assert (pgdata / ".atlas-bootstrapped").exists()
        drop_role(name)
        atlas_db.start_embedded_server(pgdata, app_user=name)
        assert role_flags(name) is None  # marked: not bootstrapped again
    finally:
        drop_role(name)


def test_ensure_app_role_creates_the_role_with_table_rights_but_no_truncate(django_db_setup, django_db_blocker):
    name = f"atlas_web_{uuid.uuid4().hex[:8]}"
    # A second connection to the test database as the owner (a copy: the default one is untouched).
    owner = type(connections["default"])({**connection.settings_dict, **settings.ATLAS_DB_OWNER}, alias="default")
    try:
        with django_db_blocker.unblock():
            atlas_db.ensure_app_role(owner, app_user=name, app_password="pw-" + name)
            with owner.cursor() as cur:
                cur.execute(
                    "SELECT has_table_privilege(%s, 'memory_memory', 'SELECT, INSERT, UPDATE, DELETE'),"
                    " has_table_privilege(%s, 'memory_memory', 'TRUNCATE'),"
                    " has_table_privilege(%s, 'atlas_staff_grant', 'SELECT')",
                    [name, name, name],
                )
                assert cur.fetchone() == (True, False, False)
        assert connection.settings_dict["USER"] != settings.ATLAS_DB_OWNER["USER"]
    finally:
        owner.close()
        with superuser(connection.settings_dict["NAME"]) as conn:
            conn.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(name)))
        drop_role(name)
    assert role_flags(name) is None


def test_a_setting_applied_by_reload_never_restarts_the_server(django_db_setup):
    socket_dir = connection.settings_dict["HOST"]
    # A setting Atlas does not manage, at its default value, so no other process notices it.
    # (A postmaster-level one is not tried here: undoing it leaves a pending restart.)
    try:
        assert atlas_db._apply_server_settings(socket_dir, {"log_min_duration_statement": "-1"}) is False
        with superuser() as conn:
            written = conn.execute(
                "SELECT setting FROM pg_file_settings WHERE name = 'log_min_duration_statement' AND applied"
            ).fetchall()
        assert written == [("-1",)]  # in postgresql.auto.conf, so it survives a restart
        assert atlas_db._apply_server_settings(socket_dir, {"log_min_duration_statement": "-1"}) is False
    finally:
        with superuser() as conn:
            conn.execute("ALTER SYSTEM RESET log_min_duration_statement")
            conn.execute("SELECT pg_reload_conf()")


def test_dead_process_handles_are_dropped_so_the_server_can_stop(tmp_path):
    handles = tmp_path / ".handle_pids.json"
    handles.write_text(json.dumps([999_999_999, os.getpid()]))  # a pid that cannot exist, and ours
    atlas_db._forget_dead_handles(tmp_path)
    assert json.loads(handles.read_text()) == [os.getpid()]


@pytest.mark.parametrize("content", ["not json", ""])
def test_an_unreadable_handle_file_does_not_stop_the_start(tmp_path, content):
    handles = tmp_path / ".handle_pids.json"
    handles.write_text(content)
    atlas_db._forget_dead_handles(tmp_path)  # no exception: the server still starts
    assert handles.read_text() == content


def test_no_handle_file_is_left_alone(tmp_path):
    atlas_db._forget_dead_handles(tmp_path)
    assert not (tmp_path / ".handle_pids.json").exists()


def test_a_setting_postgres_does_not_have_is_a_clear_error(django_db_setup):
    with pytest.raises(RuntimeError, match="PostgreSQL has no setting 'atlas_no_such_setting'"):
        atlas_db._apply_server_settings(connection.settings_dict["HOST"], {"atlas_no_such_setting": "1"})


def test_with_database_url_no_embedded_server_is_started(tmp_path, settings):
    # DATABASE_URL names the database: no embedded settings, and start_database leaves it alone.
    assert atlas_db.embedded_settings(tmp_path, {"DATABASE_URL": "postgres://db.example/atlas"}) is None
    assert atlas_db.embedded_settings(tmp_path, {"DATABASE_URL": "  "})["pgdata"] == tmp_path / ".atlas" / "pgdata"
    settings.ATLAS_EMBEDDED_PG = None
    host = settings.DATABASES["default"]["HOST"]
    assert atlas_db.start_database() is None
    assert settings.DATABASES["default"]["HOST"] == host
