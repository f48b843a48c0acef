"""The conversation tables' RLS policies read their settings once per statement, not per row."""

from django.db import migrations

from memory.rls import policy_once_per_statement


class Migration(migrations.Migration):
    dependencies = [
        ("chat", "0002_conversations"),
        ("memory", "0007_recall_single_scan"),
    ]

    operations = policy_once_per_statement("chat_chatsession", "chat_turn", "chat_feedback")
