"""Chat's part of delete-everything: conversations hold copies of what the user said and of the
notes recalled for them, so they go in the same transaction as the memories."""

from django.dispatch import receiver

from memory.store import everything_deleted


@receiver(everything_deleted)
def delete_conversations(sender, *, user, counts, **kwargs) -> None:
    from chat.models import ChatSession, Feedback, Turn

    counts["feedback"] = Feedback.objects.filter(user_id=user.pk).delete()[0]
    counts["turns"] = Turn.objects.filter(user_id=user.pk).delete()[0]
    counts["chat_sessions"] = ChatSession.objects.filter(user_id=user.pk).delete()[0]
