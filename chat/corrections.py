"""Corrections typed into the chat: "That's wrong: Saltmarsh moved to net 60 in June".

Answered, not dropped: the answer says what the records say, that the correction is noted,
and that the records win until they change (design rule: the corpus wins: a retrieved document wins a
conflict with a note). The correction goes to the write gate exactly as the "That's wrong"
feedback control sends it: as feedback of kind ``incorrect`` on the turn it corrects.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from atlas.vocabulary import CORRECTION_LEADS
from chat import blocks as B
from chat.models import Turn

if TYPE_CHECKING:
    from atlas.types import User

NOTED = "Your correction is noted. The records win until they change."
_LEAD = re.compile(
    r"^\s*(?:"
    + "|".join(re.escape(lead) for lead in sorted(CORRECTION_LEADS, key=len, reverse=True))
    + r")\b[\s:;,.!-]*",
    re.IGNORECASE,
)


def correction_text(question: str) -> str | None:
    """What the user says is right, when the question corrects the last answer; else None.

    "" when it is a bare "That's wrong" with nothing after it."""
    text = question.replace("\u2019", "'")
    match = _LEAD.match(text)
    if match is None:
        return None
    return text[match.end() :].strip()


def answer_blocks(answer: list[B.Block], has_records: bool) -> list[B.Block]:
    """The records' answer first ("The records say ..."), then the acknowledgement."""
    if not has_records:
        return [B.summary("I couldn't find what the records say about that. " + NOTED)]
    first, *rest = answer
    lead = B.summary(f"The records say: {first.text}")
    if first.kind != "summary":
        return [B.summary("The records say:"), first, *rest, B.summary(NOTED)]
    return [lead, *rest, B.summary(NOTED)]


def record(user: User, turn: Turn, *, previous_turn_id: int | None, text: str) -> None:
    """Send the correction to the gate as "That's wrong" feedback on the turn it corrects."""
    from chat.feedback import give_feedback

    target = previous_turn_id if previous_turn_id is not None else turn.pk
    give_feedback(user, target, kind="incorrect", comment=text)
