"""The backoff every retried background task uses (gate events, the session-state purge)."""

from __future__ import annotations

from datetime import timedelta

MAX_BACKOFF = timedelta(minutes=30)
MAX_ATTEMPTS = 40  # with the backoff below: about a day


def backoff(attempts: int) -> timedelta:
    """15 s doubling per attempt, at most :data:`MAX_BACKOFF`."""
    return min(timedelta(seconds=15 * 2 ** min(attempts, 12)), MAX_BACKOFF)
