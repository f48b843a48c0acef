"""The answer to a locked-out login (django-axes): the page for people, JSON for the API."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

LOCKED_OUT = (
    "Too many failed sign-ins for this account or from this address. "
    "Wait {minutes} minutes and try again, or ask staff to unlock it."
)


def lockout_message() -> str:
    minutes = round(float(settings.AXES_COOLOFF_TIME) * 60)
    return LOCKED_OUT.format(minutes=minutes)


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: object = None
) -> HttpResponse:
    message = lockout_message()
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message}, status=429)
    return render(request, "registration/locked_out.html", {"message": message}, status=429)
