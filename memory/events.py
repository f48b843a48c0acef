"""What the memory app tells the rest of Atlas, and what it is told: dependency-free.

- :class:`TurnEvent`, one turn (or a feedback re-read of one) handed to the write gate; the
  stored form waiting for its task is :class:`memory.models.GateEvent`.
- :data:`everything_deleted`, sent inside delete-everything's transaction with ``user`` and
  ``counts`` (a dict receivers add their own counts to): each app holding copies of the
  user's memory content deletes its own (chat's conversations and session state, the queued
  gate tasks). The store sends it and never imports who listens.

Nothing here imports another Atlas module, so the store, the gate, the tasks and chat can all
import it without a cycle.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from django.dispatch import Signal
from django.utils.dateparse import parse_datetime

everything_deleted = Signal()


@dataclass(frozen=True)
class TurnEvent:
    user_id: int
    session_key: str
    turn_id: int | None
    at: datetime
    text: str
    filters: dict[str, str] = field(default_factory=dict)
    feedback_kind: str = ""
    feedback_comment: str = ""
    opens_session: bool = False  # the first turn of its chat session: no answer on screen yet
    # The user's turn before this one in the same chat, read only where this turn points back at it
    # ("keep doing that for everything"); never stored with the event.
    before: str = ""

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["at"] = self.at.isoformat()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TurnEvent:
        values = dict(data)
        if isinstance(values.get("at"), str):
            values["at"] = parse_datetime(values["at"])
        values["filters"] = dict(values.get("filters") or {})
        values["session_key"] = str(values.get("session_key") or "")
        return cls(**values)
