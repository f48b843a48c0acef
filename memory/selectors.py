"""Reads of the memory store: what the pages, the API, the admin, the gate and chat show or test.

Writes live in memory.store. Querysets returned here are lazy: evaluate them inside
``acting_user(user.pk)`` (requests have it from the middleware or atlas.api.UserAPIView);
the functions that evaluate themselves set it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.db.models import QuerySet

from atlas.sentences import KIND_SECTIONS
from memory.models import AuditEvent, Kind, Memory, MemoryControl
from memory.rls import acting_user

if TYPE_CHECKING:
    from atlas.types import User


def live_memories(user: User, *, now: datetime | None = None) -> QuerySet[Memory]:
    """The user's memories that are not superseded and not expired (read-time expiry), newest first."""
    return Memory.objects.filter(user_id=user.pk).live(now=now).order_by("-created_at", "-pk")


def own_memory(user: User, memory_id: int, *, live: bool = False) -> Memory:
    """One of the user's memories (without its embedding); ``Memory.DoesNotExist`` otherwise."""
    rows = Memory.objects.live() if live else Memory.objects.all()
    return rows.defer("embedding").get(pk=memory_id, user_id=user.pk)


def api_memories(
    user: User,
    *,
    include_superseded: bool = False,
    include_expired: bool = False,
    kind: str | None = None,
    author: str | None = None,
) -> QuerySet[Memory]:
    """The API's list: live notes unless asked otherwise, optionally one kind or author, newest first."""
    memories = Memory.objects.filter(user_id=user.pk).defer("embedding")
    if not include_superseded:
        memories = memories.filter(superseded_by__isnull=True)
    if not include_expired:
        memories = memories.unexpired()
    if kind is not None:
        memories = memories.filter(kind=kind)
    if author is not None:
        memories = memories.filter(author=author)
    return memories.order_by("-created_at", "-pk")


def older_versions(ids: Iterable[int], *, user_id: int | None = None, fields: tuple[str, ...] = ()) -> list[Memory]:
    """Every memory that the given ones (transitively) replaced: the supersession chain, walked once.

    ``user_id`` keeps the walk to one user's rows; ``fields`` loads only those columns.
    Runs in the caller's RLS context (the acting user, or the staff bypass of the sweep).
    """
    rows = Memory.objects.filter(user_id=user_id) if user_id is not None else Memory.objects.all()
    if fields:
        rows = rows.only(*fields)
    seen = set(ids)
    frontier = list(seen)
    found: list[Memory] = []
    while frontier:
        older = list(rows.filter(superseded_by__in=frontier).exclude(pk__in=list(seen)))
        found.extend(older)
        seen.update(m.pk for m in older)
        frontier = [m.pk for m in older]
    return found


@dataclass(frozen=True)
class KindGroup:
    """One section of the memory page: a kind and its live notes."""

    kind: str
    memories: tuple[Memory, ...]

    @property
    def label(self) -> str:
        return KIND_SECTIONS[self.kind][0]

    @property
    def intro(self) -> str:
        return KIND_SECTIONS[self.kind][1]


def grouped_by_kind(memories: list[Memory]) -> list[KindGroup]:
    """The memory page's sections: each kind that has notes, in the order of ``Kind``."""
    by_kind: dict[str, list[Memory]] = {}
    for memory in memories:
        by_kind.setdefault(memory.kind, []).append(memory)
    return [KindGroup(kind, tuple(by_kind[kind])) for kind in Kind if kind in by_kind]


def export_rows(user: User) -> list[Memory]:
    """Every row of the user's memory for an export, superseded and expired ones included, oldest first."""
    with acting_user(user.pk):
        return list(Memory.objects.filter(user_id=user.pk).defer("embedding").order_by("created_at", "pk"))


def was_forgotten(user: User, memory_id: int) -> bool:
    """Did this user forget this memory? (A double-submitted "Forget this" is not an error.)"""
    return AuditEvent.objects.filter(user_id=user.pk, memory_id=memory_id, action=AuditEvent.Action.FORGOTTEN).exists()


def is_paused(user: User) -> bool:
    """While paused, nothing is written or recalled."""
    with acting_user(user.pk):
        return MemoryControl.objects.filter(user_id=user.pk, paused=True).exists()
