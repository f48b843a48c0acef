"""Small helpers to create users and memories in tests (through the real store)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from memory.models import Memory


def make_user(username: str, **extra):
    return get_user_model().objects.create_user(username=username, password="pw-" + username, **extra)


def make_memory(user, statement: str = "Prefers metric units", *, kind: str = "preference", **fields) -> Memory:
    from memory.store import write_memory

    return write_memory(user, kind=kind, statement=statement, **fields)
