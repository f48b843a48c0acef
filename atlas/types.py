"""Type names shared by the apps, for annotations only (mypy reads them; nothing here runs a query).

Atlas uses Django's own user model (no ``AUTH_USER_MODEL``). Views behind ``login_required`` and
API views behind ``IsAuthenticated`` see a signed-in user, which the request types below say, so
``request.user`` can be handed to domain functions that take a ``User``. Import these under
``if TYPE_CHECKING:`` in modules that Django imports while it loads the apps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails
from rest_framework.request import Request

if TYPE_CHECKING:
    from django.contrib.auth.models import User

__all__ = ["AuthedHttpRequest", "AuthedRequest", "User"]


class AuthedHttpRequest(HttpRequest):
    """A request to a ``login_required`` view (with django-htmx's ``request.htmx``)."""

    user: User
    htmx: HtmxDetails


class AuthedRequest(Request):
    """A request to an API view behind ``IsAuthenticated``."""

    user: User
