"""Recall reads two covering btrees instead of the heap (DESIGN.md: exact per-user scans).

Each recall branch is an index-only scan over the user's entries of one index: the vector
branch over (user_id) INCLUDE (id, superseded_by, expires_at, kind, embedding), the keyword
branch over (user_id) INCLUDE (id, superseded_by, expires_at, kind, search). The old
memory_user_covering lacked ``id``, so no branch could be index-only with it.
"""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0004_memory_autovacuum"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="memory",
            name="memory_user_covering",
        ),
        migrations.AddIndex(
            model_name="memory",
            index=models.Index(
                fields=["user"],
                include=("id", "superseded_by", "expires_at", "kind", "embedding"),
                name="memory_user_vector",
            ),
        ),
        migrations.AddIndex(
            model_name="memory",
            index=models.Index(
                fields=["user"],
                include=("id", "superseded_by", "expires_at", "kind", "search"),
                name="memory_user_keyword",
            ),
        ),
    ]
