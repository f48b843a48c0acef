"""Memory.facets: every facet of an answer a preference sets (memory.preferences), as data.

The preferences written before it carried one (subject, value); their facets are carried over
here, so every stored preference keeps shaping answers. The rows are read under the staff
bypass (RLS is forced on the table, for its owner too) and the grant is closed after.
"""

from django.db import migrations, models

# (subject, value) as the gate stored them -> the facet and its value in the preference table.
CARRIED = (
    ("answer_format", "table", "layout", "table"),
    ("answer_format", "bullets", "layout", "bullets"),
    ("answer_format", "numbered", "layout", "bullets"),
    ("answer_format", "prose", "layout", "prose"),
    ("answer_format", "chart", "chart", "yes"),
    ("answer_length", "short", "length", "short"),
    ("answer_length", "detailed", "length", "detailed"),
    ("date_format", "ISO", "date_format", "iso"),
    ("date_format", "DMY", "date_format", "uk"),
    ("date_format", "MDY", "date_format", "us"),
    ("scale", "thousands", "scale", "k"),
    ("scale", "millions", "scale", "m"),
    ("number_format", "whole", "rounding", "whole"),
    ("number_format", "decimals", "rounding", "2dp"),
    ("units", "metric", "units", "metric"),
    ("units", "imperial", "units", "imperial"),
)


def _carry() -> list[str]:
    statements = ["SELECT atlas_staff_bypass_begin(NULL, 'memory 0012: facets from subject and value')"]
    for subject, value, facet, new in CARRIED:
        # Constants of this module only, never input.
        sql = f"UPDATE memory_memory SET facets = jsonb_build_object('{facet}', '{new}') "  # noqa: S608
        sql += f"WHERE kind = 'preference' AND subject = '{subject}' AND value = '{value}' "
        statements.append(sql + "AND facets = '{}'::jsonb")
    statements += [
        # A currency is its ISO code, a language its English name, in both shapes.
        "UPDATE memory_memory SET facets = jsonb_build_object('currency', value) "
        "WHERE kind = 'preference' AND subject = 'currency' AND value ~ '^[A-Z]{3}$' AND facets = '{}'::jsonb",
        "UPDATE memory_memory SET facets = jsonb_build_object('language', value) "
        "WHERE kind = 'preference' AND subject = 'language' AND value <> '' AND facets = '{}'::jsonb",
        # A filter repeated in three sessions names its value: {"region": "west"}.
        "UPDATE memory_memory SET facets = jsonb_build_object(substr(subject, 8), lower(value)) "
        "WHERE kind = 'context' AND subject LIKE 'filter\\_%' AND value <> '' AND facets = '{}'::jsonb",
        "SELECT atlas_staff_bypass_end()",
    ]
    return statements


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0011_alter_memory_options"),
    ]

    operations = [
        migrations.AddField(
            model_name="memory",
            name="facets",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunSQL(sql=_carry(), reverse_sql=migrations.RunSQL.noop),
    ]
