"""Atlas on another PostgreSQL through DATABASE_URL (`make test-tcp` runs the whole suite that way)."""

import os
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import quote

import psycopg
from django.conf import settings
from django.db import connection
from psycopg import sql

from atlas.db import database_settings

BASE_DIR = Path(__file__).resolve().parent.parent


def owner_url(dbname: str) -> str:
    """A URL for ``dbname`` on the server the tests use, as the owner role (socket or TCP)."""
    info = connection.settings_dict
    owner = settings.ATLAS_DB_OWNER
    auth = quote(owner["USER"]) + (":" + quote(owner["PASSWORD"]) if owner["PASSWORD"] else "")
    host = quote(info["HOST"], safe="")
    port = f":{info['PORT']}" if info["PORT"] else ""
    return f"postgres://{auth}@{host}{port}/{dbname}"


def test_database_url_is_split_into_the_owner_and_the_app_role():
    app, owner = database_settings(
        BASE_DIR,
        {
            "DATABASE_URL": "postgres://boss:s%40cret@db.example.com:6543/atlas_prod",
            "ATLAS_APP_DB_USER": "atlas_web",
            "ATLAS_APP_DB_PASSWORD": "web-pass",
        },
    )
    assert owner == {"USER": "boss", "PASSWORD": "s@cret"}
    assert (app["HOST"], app["PORT"], app["NAME"]) == ("db.example.com", 6543, "atlas_prod")
    assert (app["USER"], app["PASSWORD"]) == ("atlas_web", "web-pass")  # the app never uses the owner's login
    assert app["TEST"]["NAME"] == "test_atlas_prod"


def test_the_suite_talks_tcp_exactly_when_database_url_is_set(db):
    with connection.cursor() as cur:
        cur.execute("SELECT inet_server_addr()::text, inet_server_port()")
        addr, port = cur.fetchone()
    if os.environ.get("DATABASE_URL"):
        assert addr is not None and int(port) == int(connection.settings_dict["PORT"] or 5432)
    else:
        assert addr is None  # the embedded server is reached over its Unix socket only


def test_check_refuses_a_database_without_pgvector(db):
    """Pointed at a database lacking the vector extension, Atlas says so instead of failing later."""
    name = f"atlas_novector_{uuid.uuid4().hex[:8]}"
    admin = owner_url("postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE template0").format(sql.Identifier(name)))
    try:
        env = dict(os.environ, DJANGO_SETTINGS_MODULE="atlas.settings", DATABASE_URL=owner_url(name))
        out = subprocess.run(
            [sys.executable, "manage.py", "check", "--database", "default"],
            cwd=BASE_DIR,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
    assert out.returncode != 0
    assert "atlas.E001" in out.stderr and "vector" in out.stderr
