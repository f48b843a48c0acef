"""Personal API tokens: create (shown once), list, revoke. Only the digest is stored."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet

from atlas.accounts.models import ApiToken

if TYPE_CHECKING:
    from atlas.types import User

# Lifetimes offered on the page and accepted by the API (days; None: until revoked).
EXPIRY_CHOICES: dict[str, int | None] = {"30": 30, "90": 90, "365": 365, "never": None}
DEFAULT_EXPIRY = "90"
MAX_NAME_CHARS = 80
MAX_TOKENS_PER_USER = 20


def clean_token_name(name: str) -> str:
    text = (name or "").replace("\x00", "").strip()
    if not text:
        raise ValidationError("Give the token a name, e.g. the laptop or script that will use it.")
    if len(text) > MAX_NAME_CHARS:
        raise ValidationError(f"Token names can be at most {MAX_NAME_CHARS} characters; this one has {len(text)}.")
    return text


def clean_expiry(expiry: str | int | None) -> timedelta | None:
    key = "never" if expiry is None else str(expiry)
    if key not in EXPIRY_CHOICES:
        raise ValidationError(f"Expiry must be one of {', '.join(EXPIRY_CHOICES)} (days), not {expiry!r}.")
    days = EXPIRY_CHOICES[key]
    return None if days is None else timedelta(days=days)


def create_token(user: User, *, name: str, expiry: str | int | None = DEFAULT_EXPIRY) -> tuple[ApiToken, str]:
    """A new token for ``user``; the plain token is returned once and never stored."""
    clean_name, lifetime = clean_token_name(name), clean_expiry(expiry)
    with transaction.atomic():
        held = list(ApiToken.objects.select_for_update().filter(user=user).values_list("pk", flat=True))
        if len(held) >= MAX_TOKENS_PER_USER:
            raise ValidationError(f"You already have {MAX_TOKENS_PER_USER} tokens; revoke one first.")
        return ApiToken.objects.create(user=user, expiry=lifetime, name=clean_name)


def list_tokens(user: User) -> QuerySet[ApiToken]:
    return ApiToken.objects.filter(user=user).only("id", "name", "token_key", "created", "expiry", "last_used")


def revoke_token(user: User, *, token_id: int) -> None:
    """Delete one of ``user``'s tokens; another user's id is ``ApiToken.DoesNotExist``."""
    with transaction.atomic():
        deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise ApiToken.DoesNotExist
