"""API shapes for memory: separate input and output serializers (the API calls memory.store)."""

from rest_framework import serializers

from memory.models import LIFECYCLE_COLUMNS, NOTE_COLUMNS, Author, ForgetReason, Kind, Memory

MAX_STATEMENT_CHARS = 500


class ProvenanceSerializer(serializers.Serializer):
    """Where a memory came from: the session, the turn, the quote and when it was said."""

    session = serializers.CharField(source="source_session")
    turn = serializers.IntegerField(source="source_turn", allow_null=True)
    quote = serializers.CharField(source="source_quote")
    said_at = serializers.DateTimeField(source="source_at", allow_null=True)


class MemoryOutSerializer(serializers.ModelSerializer):
    provenance = ProvenanceSerializer(source="*", read_only=True)
    is_live = serializers.SerializerMethodField()

    class Meta:
        model = Memory
        fields = ["id", *NOTE_COLUMNS, *LIFECYCLE_COLUMNS, "is_live", "provenance"]
        read_only_fields = fields

    def get_is_live(self, memory: Memory) -> bool:
        return memory.is_live()


class MemoryListQuerySerializer(serializers.Serializer):
    """Filters for the memory list (query string)."""

    kind = serializers.ChoiceField(choices=Kind.choices, required=False)
    author = serializers.ChoiceField(choices=Author.choices, required=False)
    include_expired = serializers.BooleanField(required=False, default=False)
    include_superseded = serializers.BooleanField(required=False, default=False)


class CorrectMemoryInSerializer(serializers.Serializer):
    statement = serializers.CharField(max_length=MAX_STATEMENT_CHARS, trim_whitespace=True)


class ForgetMemoryQuerySerializer(serializers.Serializer):
    """Why the note is forgotten: one of the four forget reasons, or left out (no free text)."""

    reason = serializers.ChoiceField(
        choices=ForgetReason.choices,
        required=False,
        allow_blank=True,
        default="",
        help_text="Optional: " + "; ".join(f"{value} ({label})" for value, label in ForgetReason.choices),
    )


class StrictTrueField(serializers.BooleanField):
    """JSON ``true`` and nothing else: DRF's BooleanField also takes "yes", "on", 1 and "1", and
    an irreversible deletion should not happen on a value that only looks like agreement."""

    def to_internal_value(self, data: object) -> bool:
        if data is not True:
            raise serializers.ValidationError("Set confirm to true to delete everything Atlas remembers about you.")
        return True


class DeleteEverythingInSerializer(serializers.Serializer):
    confirm = StrictTrueField(help_text="Must be JSON true: deletes every memory, suppression and gate record.")


class DeleteEverythingOutSerializer(serializers.Serializer):
    """How many rows of each kind were deleted (0 where a part holds nothing)."""

    memories = serializers.IntegerField(default=0)
    suppressions = serializers.IntegerField(default=0)
    surface_events = serializers.IntegerField(default=0, help_text="Records of your views, forgets and corrections.")
    gate_decisions = serializers.IntegerField(default=0)
    observations = serializers.IntegerField(default=0)
    queued_tasks = serializers.IntegerField(default=0)
    session_state = serializers.IntegerField(default=0)
    chat_sessions = serializers.IntegerField(default=0)
    turns = serializers.IntegerField(default=0)
    feedback = serializers.IntegerField(default=0)


class MemoryControlOutSerializer(serializers.Serializer):
    paused = serializers.BooleanField()


class ExportOutSerializer(serializers.Serializer):
    """The JSON export of memory.store.export_memories."""

    format = serializers.CharField()
    version = serializers.IntegerField()
    exported_at = serializers.DateTimeField()
    memories = serializers.ListField(child=serializers.DictField())
