"""Delete-everything wins every race; user text stays under RLS; no session setting lifts RLS.

- ``MemoryControl.generation`` / ``deleted_at``: the per-user deletion generation (memory.epoch).
- ``GateEvent``: what the gate reads, under RLS; gate tasks carry only its id.
- The "memory-gate-retry" schedule re-runs gate events a transient failure postponed.
- Every RLS policy (memory and chat tables) honours only the audited staff entry point
  (``atlas_staff_bypass_begin``, memory.rls.BYPASS_SQL), no longer ``app.bypass_rls``.
"""

from datetime import UTC, datetime

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

from memory.rls import _POLICY_SETTING_BYPASS, BYPASS_SQL, POLICY, rls_operations

RLS_TABLES = (
    "memory_memory",
    "memory_suppression",
    "memory_gatedecision",
    "memory_observation",
    "memory_memorycontrol",
    "chat_chatsession",
    "chat_turn",
    "chat_feedback",
)
RETRY_SCHEDULE = "memory-gate-retry"


def create_retry_schedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.update_or_create(
        name=RETRY_SCHEDULE,
        defaults={
            "func": "memory.tasks.retry_gate_events",
            "schedule_type": "I",
            "minutes": 1,
            "repeats": -1,
            "next_run": datetime.now(UTC),
        },
    )


def delete_retry_schedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.filter(name=RETRY_SCHEDULE).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0007_recall_single_scan"),
        ("chat", "0003_policy_once_per_statement"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="memorycontrol",
            name="deleted_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="memorycontrol",
            name="generation",
            field=models.BigIntegerField(default=0),
        ),
        migrations.CreateModel(
            name="GateEvent",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("generation", models.BigIntegerField()),
                ("session_key", models.CharField(blank=True, default="", max_length=64)),
                ("turn_id", models.BigIntegerField(blank=True, null=True)),
                ("at", models.DateTimeField()),
                ("text", models.TextField()),
                ("filters", models.JSONField(blank=True, default=dict)),
                ("feedback_kind", models.CharField(blank=True, default="", max_length=16)),
                ("feedback_comment", models.TextField(blank=True, default="")),
                ("attempts", models.PositiveIntegerField(default=0)),
                ("next_attempt_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="gate_events",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "indexes": [models.Index(fields=["next_attempt_at"], name="gateevent_next_attempt")],
            },
        ),
        *rls_operations("memory_gateevent"),
        migrations.RunSQL(sql=BYPASS_SQL, reverse_sql=migrations.RunSQL.noop),
        *[
            migrations.RunSQL(
                sql=f"ALTER POLICY {table}_owner ON {table} USING ({POLICY}) WITH CHECK ({POLICY})",
                reverse_sql=(
                    f"ALTER POLICY {table}_owner ON {table} "
                    f"USING ({_POLICY_SETTING_BYPASS}) WITH CHECK ({_POLICY_SETTING_BYPASS})"
                ),
            )
            for table in RLS_TABLES
        ],
        migrations.RunPython(create_retry_schedule, delete_retry_schedule),
    ]
