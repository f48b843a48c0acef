"""Token authentication for the API: knox's digest check, expiry, and a last-used date."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from knox.auth import TokenAuthentication
from rest_framework import exceptions

from atlas.logcontext import set_log_user

if TYPE_CHECKING:
    from drf_spectacular.openapi import AutoSchema
    from knox.models import AuthToken

    from atlas.types import User

# Recording every request would write a row per API call; once a minute is enough for the page.
LAST_USED_RESOLUTION = timedelta(minutes=1)


class PersonalTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, token: bytes) -> tuple[User, AuthToken]:
        """A token that is not UTF-8 (``Authorization: Token \\xff\\xfe``) is a 401 like any wrong
        token; knox would raise UnicodeDecodeError, a 500 page."""
        try:
            token.decode("utf-8")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        return super().authenticate_credentials(token)

    def validate_user(self, auth_token: AuthToken) -> tuple[User, AuthToken]:
        user, token = super().validate_user(auth_token)
        set_log_user(user.pk)
        now = timezone.now()
        if token.last_used is None or now - token.last_used > LAST_USED_RESOLUTION:
            type(token).objects.filter(pk=token.pk).update(last_used=now)
            token.last_used = now
        return user, token


class PersonalTokenScheme(OpenApiAuthenticationExtension):
    target_class = "atlas.accounts.auth.PersonalTokenAuthentication"
    name = "personalToken"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": (
                "A personal API token, sent as `Authorization: Token atlas_…`. Create one on /account/tokens/ "
                "or with POST /api/tokens/ (username and password; rate-limited). Tokens are stored hashed, "
                "shown once, may expire, and can be revoked."
            ),
        }
