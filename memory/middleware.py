from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from memory.rls import acting_user


class ActingUserMiddleware:
    """Set the RLS acting user for the whole request: the signed-in user, or nobody."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        user_id = user.pk if user is not None and user.is_authenticated else None
        with acting_user(user_id):
            return self.get_response(request)
