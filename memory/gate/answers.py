"""The sentence the chat answer shows for "remember that ...", "forget ...", an update or a
reversal, and the one-line acknowledgement beside an ordinary answer when the gate will keep a
standing preference or refuse a secret the user volunteered: read-only, nothing is written
here (``run_gate`` does that after the turn is saved).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.utils import timezone

from memory import preferences
from memory.embeddings import embed
from memory.gate import reasons as r
from memory.gate import statements
from memory.gate.admission import against_live, in_pointed_scope, substituted
from memory.gate.analysis import Finding, analyse_turn
from memory.gate.forget import match_for_forget, match_preference
from memory.gate.policy import Refusal
from memory.rls import acting_user
from memory.selectors import is_paused
from memory.suppression import is_suppressed

if TYPE_CHECKING:
    from atlas.types import User


@dataclass(frozen=True)
class Preview:
    """What the chat answer says about memory for this turn."""

    message: str
    # True: the turn is a request about memory and the answer is this sentence alone.
    # False: an acknowledgement shown beside the answer to the question asked.
    standalone: bool = True


def _forget_preview(user: User, finding: Finding, now: datetime) -> Preview:
    matches, reason = match_for_forget(user, finding.statement, now=now)
    if reason == r.FORGET_NO_MATCH:
        message = "I couldn't find a note like that in what I remember about you; the memory page lists everything."
        return Preview(message)
    if reason == r.FORGET_AMBIGUOUS:
        listed = "; ".join(f"\u201c{m.statement}\u201d" for m in matches)
        message = (
            f"More than one note could match that ({listed}). Which one should I forget? "
            "You can also remove it on the memory page."
        )
        return Preview(message)
    memory = matches[0]
    return Preview(f"I've forgotten \u201c{memory.statement}\u201d.")


def _reversal_preview(user: User, finding: Finding, now: datetime) -> Preview | None:
    memory = match_preference(user, finding, now=now)
    if memory is None:
        return None
    fallback = finding.extra.get("fallback")
    if fallback is not None and statements.is_negative(memory.statement):
        return _acknowledgement(user, fallback, now)  # it agrees with the note: nothing is dropped
    message = f"Done: I've dropped your preference \u201c{memory.statement}\u201d and won't apply it any more."
    return Preview(message)


def _remember_preview(user: User, finding: Finding, now: datetime) -> Preview | None:
    if finding.action == "refuse":
        why = Refusal(finding.reason, what=finding.extra.get("what", "")).why
        return Preview(f"I won't remember that: {why}.")
    if is_paused(user):
        return Preview(f"I won't remember that: {r.why(r.PAUSED)}.")
    echo = finding.echo  # every note the gate words has its echo ("you cover ...")
    if finding.extra.get("needs_existing"):
        finding = in_pointed_scope(user, finding, now=now)
    with acting_user(user.pk):
        duplicate, replaced = against_live(user, finding, embed([finding.statement])[0], now=now)
    if finding.extra.get("needs_existing") and duplicate is None and not replaced:
        return None  # "sorry i meant the east one, not west" with no note of the west: nothing is kept, nor said to be
    if duplicate is not None:
        return Preview(f"I already remember that {echo}.")
    if finding.extra.get("substitute") and len(replaced) == 1:
        echo = substituted(finding, replaced[0]).echo  # "i meant east not west": the corrected note, as it will read
    if replaced:
        old = "; ".join(f"\u201c{m.statement}\u201d" for m in replaced)
        return Preview(f"Updated: I'll remember that {echo}, replacing {old}.")
    return Preview(f"I'll remember that {echo}.")


# Refusals worth a sentence even when nobody asked to remember: the user typed something Atlas
# must not keep, and should hear that it was not kept (issue 12: "I won't keep passwords.").
ACKNOWLEDGED_REFUSALS = (r.SECRET, r.SENSITIVE)


def _acknowledgement(user: User, finding: Finding, now: datetime) -> Preview | None:
    """ "Noted: you prefer amounts in euros." only when the gate will write it (not paused, not
    forgotten before); "I won't keep that: ..." for a volunteered secret or health detail."""
    if finding.action == "refuse" and finding.reason in ACKNOWLEDGED_REFUSALS:
        return Preview(f"I won't keep that: {r.why(finding.reason)}.", False)
    if finding.reason != r.STANDING_PREFERENCE or not finding.echo:  # only a write has that reason
        return None
    if finding.extra.get("needs_existing"):
        finding = in_pointed_scope(user, finding, now=now)
        with acting_user(user.pk):
            _, replaced = against_live(user, finding, embed([finding.statement])[0], now=now)
        if not replaced:
            return None  # an update with no preference to update is not kept
    if is_paused(user) or is_suppressed(
        user,
        kind=finding.kind,
        statement=finding.statement,
        now=now,
        subject=finding.subject,
        value=finding.value,
        facets=finding.facets,
        scope=finding.scope,
    ):
        return None
    why = preferences.why_not_applied(finding.facets or {}, negative=statements.is_negative(finding.statement))
    return Preview(f"Noted: {finding.echo}." + (f" {why}" if why else ""), False)


def preview(
    user: User, text: str, *, at: datetime | None = None, opens_session: bool = False, before: str = ""
) -> Preview | None:
    """Whether ``text`` asks Atlas to remember, forget or change something, and what the answer
    says; otherwise the acknowledgement of a standing preference or a refused secret, if any.
    ``at``: when it was said (the turn's time; now by default)."""
    now = at or timezone.now()
    acknowledged: Preview | None = None
    for finding in analyse_turn(text or "", at=now, opens_session=opens_session, before=before):
        if finding.action == "forget":
            return _forget_preview(user, finding, now)
        if finding.action == "reverse":
            shown = _reversal_preview(user, finding, now)
            if shown is not None:
                return shown
        elif finding.explicit:  # "remember that ...", and an update ("switch my currency to NZD")
            return _remember_preview(user, finding, now)
        elif acknowledged is None:
            acknowledged = _acknowledgement(user, finding, now)
    return acknowledged
