"""What the write-gate tests share: the clock, a turn event, the live notes and the decisions."""

from datetime import UTC, datetime

from memory.gate import TurnEvent
from memory.gate.analysis import analyse_turn
from memory.models import GateDecision
from memory.rls import acting_user
from memory.selectors import live_memories

# A Tuesday.
AT = datetime(2026, 3, 17, 14, 30, tzinfo=UTC)


def _analyse(text, **kwargs):
    return analyse_turn(text, at=AT, **kwargs)


def _event(user, text, *, session="a", at=AT, turn=1, filters=None, feedback_kind="", feedback_comment=""):
    return TurnEvent(
        user_id=user.pk,
        session_key=session,
        turn_id=turn,
        at=at,
        text=text,
        filters=filters or {},
        feedback_kind=feedback_kind,
        feedback_comment=feedback_comment,
    )


def _live(user, at=AT):
    with acting_user(user.pk):
        return list(live_memories(user, now=at))


def _decisions(user):
    with acting_user(user.pk):
        return list(GateDecision.objects.filter(user_id=user.pk).order_by("pk"))
