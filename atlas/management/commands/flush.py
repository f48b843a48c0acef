"""``flush`` runs as the owner role: the app role holds no TRUNCATE (it ignores Row Level Security)."""

from django.core.management.commands.flush import Command as DjangoFlush
from django.db import connections

from atlas.db import as_owner


class Command(DjangoFlush):
    def handle(self, **options):
        with as_owner(connections[options["database"]]):
            super().handle(**options)
