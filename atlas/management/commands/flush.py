"""``flush`` runs as the owner role: the app role holds no TRUNCATE (it ignores Row Level Security)."""

from __future__ import annotations

from typing import Any

from django.core.management.commands.flush import Command as DjangoFlush
from django.db import connections

from atlas.db import as_owner


class Command(DjangoFlush):
    def handle(self, **options: Any) -> None:
        with as_owner(connections[options["database"]]):
            super().handle(**options)
