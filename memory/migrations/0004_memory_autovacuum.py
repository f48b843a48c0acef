"""Autovacuum eager on inserts for the memory table (DESIGN.md).

Memories are mostly inserted, rarely updated, so the default thresholds (20% of the table
changed) leave a large table unvacuumed and unanalysed for a long time: the visibility map
goes stale (index-only scans fall back to the heap) and the per-user row estimates drift.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("memory", "0003_expiry_schedule")]

    operations = [
        migrations.RunSQL(
            sql="""ALTER TABLE memory_memory SET (
                       autovacuum_vacuum_insert_scale_factor = 0.02,
                       autovacuum_vacuum_insert_threshold = 1000,
                       autovacuum_vacuum_scale_factor = 0.05,
                       autovacuum_analyze_scale_factor = 0.02)""",
            reverse_sql="""ALTER TABLE memory_memory RESET (
                       autovacuum_vacuum_insert_scale_factor,
                       autovacuum_vacuum_insert_threshold,
                       autovacuum_vacuum_scale_factor,
                       autovacuum_analyze_scale_factor)""",
        ),
    ]
