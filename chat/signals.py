"""Chat's part of delete-everything: conversations hold copies of what the user said and of the
notes recalled for them, so they go in the same transaction as the memories; the session state
(recent questions, in the cache) goes too, or is queued to go when the cache is down."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.dispatch import receiver

from chat.tasks import clear_session_state
from memory.events import everything_deleted

if TYPE_CHECKING:
    from atlas.types import User


@receiver(everything_deleted)
def delete_conversations(sender: object, *, user: User, counts: dict[str, int], **kwargs: Any) -> None:
    from chat.models import ChatSession, Feedback, Turn

    counts["feedback"] = Feedback.objects.filter(user_id=user.pk).delete()[0]
    counts["turns"] = Turn.objects.filter(user_id=user.pk).delete()[0]
    counts["chat_sessions"] = ChatSession.objects.filter(user_id=user.pk).delete()[0]
    counts["session_state"] = clear_session_state(user.pk)
