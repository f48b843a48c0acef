"""Small helpers to create users and memories in tests (through the real store)."""

from __future__ import annotations

import functools
from pathlib import Path

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password

from memory.models import Memory


@functools.cache
def password_hash(plain: str) -> str:
    """The app's own password hasher applied to ``plain`` once per test process: its PBKDF2 rounds
    take most of a second here, and hundreds of tests make users with the same few passwords.
    Signing in still checks the password against this hash, the real way."""
    return make_password(plain)


def make_user(username: str, **extra):
    """A user whose password is "pw-<username>"."""
    return get_user_model().objects.create(username=username, password=password_hash("pw-" + username), **extra)


def make_memory(user, statement: str = "Prefers metric units", *, kind: str = "preference", **fields) -> Memory:
    from memory.store import write_memory

    return write_memory(user, kind=kind, statement=statement, **fields)


def shared_benchmarks() -> Path:
    """``shared/benchmarks`` beside the repository: the nearest ancestor that has one, so the
    benchmark cases also run from mutmut's copy (``mutants/``, one level deeper)."""
    here = Path(__file__).resolve()
    found = next((p / "shared" / "benchmarks" for p in here.parents if (p / "shared" / "benchmarks").is_dir()), None)
    if found is None:  # loud, not skipped: a benchmark test that never runs proves nothing
        raise FileNotFoundError("shared/benchmarks is absent: the benchmark tests need ../shared beside the repository")
    return found
