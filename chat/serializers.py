"""API shapes for chat: separate input and output serializers (the API calls chat.turn / chat.feedback)."""

from rest_framework import serializers

from chat.models import ChatSession, Feedback, Turn

MAX_QUESTION_CHARS = 2000
MAX_COMMENT_CHARS = 2000
MAX_OPTION_ID_CHARS = 64


class SessionOutSerializer(serializers.ModelSerializer):
    class Meta:
        model = ChatSession
        fields = ["id", "title", "created_at", "updated_at"]
        read_only_fields = fields


class NoteProvenanceSerializer(serializers.Serializer):
    quote = serializers.CharField(source="source_quote", required=False, allow_blank=True)
    said_at = serializers.DateTimeField(source="source_at", required=False, allow_null=True)
    session = serializers.CharField(source="source_session", required=False, allow_blank=True)
    turn = serializers.IntegerField(source="source_turn", required=False, allow_null=True)


class RecalledNoteOutSerializer(serializers.Serializer):
    """A note that shaped this answer: why it was recalled, how it shaped the answer
    (``influence``: applied, declined, narrowed, out-of-date, given-to-model; ``how``: in
    words) and where it came from. Notes recalled but unused are not listed."""

    memory_id = serializers.IntegerField()
    kind = serializers.CharField()
    statement = serializers.CharField()
    author = serializers.CharField(required=False)
    written_at = serializers.DateTimeField(required=False, allow_null=True)
    reason = serializers.CharField(required=False)
    score = serializers.FloatField(required=False, allow_null=True)
    influence = serializers.CharField(required=False)
    how = serializers.CharField(required=False, allow_blank=True)
    provenance = NoteProvenanceSerializer(source="*", read_only=True)


class ClarifyOptionSerializer(serializers.Serializer):
    id = serializers.CharField()
    # A field named "label" (the API's schema); the stubs type Field.label as a field's own caption.
    label = serializers.CharField()  # type: ignore[assignment]


class AnswerBlockSerializer(serializers.Serializer):
    """One typed block of the answer (chat.blocks): summary, table, bullets, quote or note."""

    kind = serializers.ChoiceField(choices=["summary", "table", "bullets", "quote", "note"])
    text = serializers.CharField(required=False, allow_blank=True)
    header = serializers.ListField(child=serializers.CharField(), required=False)
    rows = serializers.ListField(child=serializers.ListField(child=serializers.CharField()), required=False)
    items = serializers.ListField(child=serializers.CharField(), required=False)
    title = serializers.CharField(required=False, allow_blank=True)


class TurnOutSerializer(serializers.ModelSerializer):
    recalled = RecalledNoteOutSerializer(source="used_notes", many=True, read_only=True)
    options = ClarifyOptionSerializer(many=True, read_only=True)
    blocks = AnswerBlockSerializer(many=True, read_only=True)

    class Meta:
        model = Turn
        fields = [
            "id",
            "session",
            "question",
            "answer",
            "blocks",
            "kind",
            "options",
            "recalled",
            "gate_message",
            "created_at",
        ]
        read_only_fields = fields


class AskInSerializer(serializers.Serializer):
    question = serializers.CharField(max_length=MAX_QUESTION_CHARS, trim_whitespace=True)
    option_id = serializers.CharField(
        max_length=MAX_OPTION_ID_CHARS,
        required=False,
        allow_blank=True,
        help_text="Answers a clarifying question with one of the previous turn's options.",
    )


class FeedbackInSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Feedback.Kind.choices)
    comment = serializers.CharField(max_length=MAX_COMMENT_CHARS, required=False, allow_blank=True, default="")


class FeedbackOutSerializer(serializers.ModelSerializer):
    class Meta:
        model = Feedback
        fields = ["id", "turn", "kind", "comment", "created_at"]
        read_only_fields = fields
