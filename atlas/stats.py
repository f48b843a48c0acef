"""Proportions with 95% Wilson score intervals, shared by the staff reports of both apps.

The Wilson interval stays inside 0..1 and behaves at small counts and at 0% (where the
normal approximation collapses to a zero width), which is what staff reports over a week
of a few users' actions need.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z_95 = 1.959963984540054


@dataclass(frozen=True)
class Rate:
    count: int
    total: int
    rate: float | None  # None when there is nothing to divide by
    low: float | None
    high: float | None

    @property
    def percent(self) -> str:
        return "–" if self.rate is None else f"{self.rate * 100:.1f}%"

    @property
    def interval(self) -> str:
        if self.low is None or self.high is None:
            return "–"
        return f"{self.low * 100:.1f}–{self.high * 100:.1f}%"


def wilson_interval(successes: int, total: int, *, z: float = Z_95) -> tuple[float, float] | None:
    """95% Wilson score interval for a proportion; None when ``total`` is 0."""
    if total < 0 or successes < 0 or successes > total:
        raise ValueError("successes must be between 0 and total")
    if total == 0:
        return None
    p = successes / total
    z2 = z * z
    denominator = 1 + z2 / total
    centre = (p + z2 / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z2 / (4 * total * total)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(count: int, total: int) -> Rate:
    interval = wilson_interval(count, total)
    if interval is None:
        return Rate(count=count, total=total, rate=None, low=None, high=None)
    return Rate(count=count, total=total, rate=count / total, low=interval[0], high=interval[1])
