"""Recall scores every live row of a user in ONE index-only scan (DESIGN.md: exact per-user scans).

memory_user_recall carries both signals recall ranks by (embedding and search) next to the live
filter, replacing the two per-branch indexes of 0005 (and the plain user_id btree); the policies
read their settings once per statement instead of once per row.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from memory.rls import policy_once_per_statement


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0006_memory_embedding_halfvec"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(model_name="memory", name="memory_user_vector"),
        migrations.RemoveIndex(model_name="memory", name="memory_user_keyword"),
        migrations.AddIndex(
            model_name="memory",
            index=models.Index(
                fields=["user"],
                include=("id", "superseded_by", "expires_at", "kind", "embedding", "search"),
                name="memory_user_recall",
            ),
        ),
        # The user_id btree duplicates the leading column of memory_user_recall and memory_user_subject.
        migrations.AlterField(
            model_name="memory",
            name="user",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="memories",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        *policy_once_per_statement(
            "memory_memory", "memory_suppression", "memory_gatedecision", "memory_observation", "memory_memorycontrol"
        ),
    ]
