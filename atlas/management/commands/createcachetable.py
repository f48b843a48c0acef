"""``createcachetable`` runs as the owner role (the app role cannot create tables)."""

from __future__ import annotations

from typing import Any

from django.core.management.commands.createcachetable import Command as DjangoCreateCacheTable
from django.db import connections

from atlas.db import as_owner


class Command(DjangoCreateCacheTable):
    def handle(self, *args: Any, **options: Any) -> None:
        with as_owner(connections[options["database"]]):
            super().handle(*args, **options)
