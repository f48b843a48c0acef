"""System checks for a misconfigured database (run by ``migrate`` and ``check --database``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.apps import AppConfig
from django.core.checks import CheckMessage, Error, Tags, register
from django.db import connections


@register(Tags.database)
def check_database(
    app_configs: Sequence[AppConfig] | None, databases: Sequence[str] | None = None, **kwargs: Any
) -> list[CheckMessage]:
    errors: list[CheckMessage] = []
    for alias in databases or []:
        connection = connections[alias]
        with connection.cursor() as cur:
            cur.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
            if cur.fetchone() is None:
                errors.append(
                    Error(
                        "The PostgreSQL 'vector' extension (pgvector) is not installed in this database.",
                        hint="Install pgvector on the server and run CREATE EXTENSION vector as a superuser.",
                        id="atlas.E001",
                    )
                )
            cur.execute("SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user")
            row = cur.fetchone()
            if row and (row[0] or row[1]) and connection.settings_dict["USER"] != _owner_user():
                errors.append(
                    Error(
                        "The application database role is a superuser or may bypass RLS.",
                        hint="Connect the app as a plain role (ATLAS_APP_DB_USER); RLS must apply to it.",
                        id="atlas.E002",
                    )
                )
    return errors


def _owner_user() -> str:
    from django.conf import settings

    return settings.ATLAS_DB_OWNER["USER"]
