"""The hold-out experiment: does memory actually help? (design rule: hold-out)

An eligible turn is one where recall returned at least one memory. One in ten eligible turns,
chosen by a hash of the turn id, is answered without memory, and the turn records it.
Comparing answer quality on eligible turns only is what makes the effect visible: across all
turns the seed's helpfulness difference shrank from 7 points to 1.2 and looked like noise.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, Q, QuerySet

HOLDOUT_MODULUS = 10


def is_held_out(turn_id: int) -> bool:
    """Whether an eligible turn is answered without memory: sha256 of the id, modulo 10.

    A hash rather than a random draw, so the choice is reproducible from the id alone and
    nothing about the user or the question can steer it.
    """
    digest = hashlib.sha256(str(int(turn_id)).encode()).hexdigest()
    return int(digest, 16) % HOLDOUT_MODULUS == 0


def decide(turn_id: int, *, recalled_count: int) -> tuple[bool, bool]:
    """(eligible, held_out) for a turn whose recall returned ``recalled_count`` memories."""
    eligible = recalled_count > 0
    return eligible, eligible and settings.ATLAS_HOLDOUT and is_held_out(turn_id)


@dataclass(frozen=True)
class ArmResult:
    turns: int
    rated: int
    helpful: int
    followups: int

    @property
    def helpful_rate(self) -> float | None:
        return self.helpful / self.rated if self.rated else None

    @property
    def followup_rate(self) -> float | None:
        return self.followups / self.turns if self.turns else None


def summarise(turns: QuerySet) -> dict[str, ArmResult]:
    """Helpfulness and follow-up rates for eligible turns, with memory vs held out.

    ``turns`` is a Turn queryset the caller has already scoped (one user under RLS, or every
    user under an audited staff bypass for the admin report).
    """
    out = {}
    eligible = turns.filter(eligible=True, kind="answer")
    for arm, held_out in (("with_memory", False), ("held_out", True)):
        row = eligible.filter(held_out=held_out).aggregate(
            turns=Count("id", distinct=True),
            rated=Count("feedback", filter=Q(feedback__kind__in=["helpful", "not_helpful", "incorrect"])),
            helpful=Count("feedback", filter=Q(feedback__kind="helpful")),
            followups=Count("id", filter=Q(followup=True), distinct=True),
        )
        out[arm] = ArmResult(**row)
    return out
