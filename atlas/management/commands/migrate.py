"""``migrate`` runs as the owner role, then grants the application role what it needs."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.commands.migrate import Command as DjangoMigrate
from django.db import connections

from atlas.db import as_owner, ensure_app_role


class Command(DjangoMigrate):
    help = "Apply migrations as the owner role and grant the application role its privileges."

    def handle(self, *args: Any, **options: Any) -> None:
        connection = connections[options["database"]]
        with as_owner(connection):
            ensure_app_role(
                connection, app_user=settings.ATLAS_APP_DB_USER, app_password=settings.ATLAS_APP_DB_PASSWORD
            )
            super().handle(*args, **options)
            ensure_app_role(
                connection, app_user=settings.ATLAS_APP_DB_USER, app_password=settings.ATLAS_APP_DB_PASSWORD
            )
