"""The daily expiry sweep as a django-q2 schedule."""

from datetime import UTC, datetime, time, timedelta

from django.db import migrations

SCHEDULE_NAME = "memory-expiry-sweep"


def create_schedule(apps, schema_editor):
    Schedule = apps.get_model("django_q", "Schedule")
    # The next 03:00 UTC (today's when it is still to come): due within a day whenever this runs.
    now = datetime.now(UTC)
    next_run = datetime.combine(now.date(), time(3, 0), tzinfo=UTC)
    if next_run <= now:
        next_run += timedelta(days=1)
    Schedule.objects.update_or_create(
        name=SCHEDULE_NAME,
        defaults={
            "func": "memory.tasks.sweep_expired",
            "schedule_type": "D",
            "repeats": -1,
            "next_run": next_run,
        },
    )


def delete_schedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.filter(name=SCHEDULE_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0002_rls"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]

    operations = [migrations.RunPython(create_schedule, delete_schedule)]
