"""Clear answers when a dependency is down or the input cannot be read, never a traceback.

:class:`FailureMiddleware` sits first in ``MIDDLEWARE``. Django turns an exception raised
anywhere below it (a view, or a middleware that fails before the view: the session or the
user loaded from a stopped database) into a 500 response at the layer that raised it, so
the exception is noted on the request when Django signals it (``got_request_exception``),
and this middleware replaces that 500 with the site's own answer: a 503 page (or JSON 503
under /api/) while the database or the embedding model is unavailable, a 400 for input the
database cannot hold. Query strings with a NUL character are refused before anything runs.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.signals import got_request_exception
from django.db import DataError, InterfaceError, OperationalError
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.cache import add_never_cache_headers

from atlas import sentences

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 30


@dataclass(frozen=True)
class Failure:
    status: int
    code: str
    title: str
    message: str


DATABASE_DOWN = Failure(
    503,
    "database_unavailable",
    "Atlas can't reach its database",
    "Atlas can't reach its database right now, so nothing was read or saved. Try again in a minute.",
)
EMBEDDER_DOWN = Failure(
    503,
    "embedder_unavailable",
    "Atlas can't read notes right now",
    "Atlas's embedding model is unavailable, so nothing was saved. Try again in a minute.",
)
BAD_VALUE = Failure(
    400,
    "invalid_value",
    "That request can't be read",
    "The request holds a value Atlas cannot store or search for (too large, or not valid). Nothing was changed.",
)
TURN_DOWN = Failure(503, "turn_unavailable", "Atlas could not answer", sentences.TURN_UNAVAILABLE)
CONVERSATION_DELETED = Failure(
    409, "conversation_deleted", "This conversation was deleted", sentences.CONVERSATION_DELETED
)
NUL_IN_QUERY = Failure(
    400,
    "invalid_query",
    "That address can't be read",
    "The address holds a NUL character, which Atlas does not accept. Nothing was changed.",
)


class Unavailable(RuntimeError):
    """An operation that failed for a passing reason and saved nothing (a chat turn whose model
    or database failed mid-way); its message is for the page, ``failure`` for the API."""

    failure: Failure = TURN_DOWN


class Conflict(RuntimeError):
    """The request lost a race with the user's own change (a conversation deleted while a turn
    waited for it): nothing was saved and repeating it cannot succeed, so it is a 409, not an
    outage to retry; its message is for the page, ``failure`` for the API."""

    failure: Failure = CONVERSATION_DELETED


def classify(exc: BaseException | None) -> Failure | None:
    """The answer for an exception a request raised, or None for a genuine bug (a 500)."""
    from memory.embeddings import EmbeddingError

    if isinstance(exc, OperationalError | InterfaceError):
        return DATABASE_DOWN
    if isinstance(exc, EmbeddingError):
        return EMBEDDER_DOWN
    if isinstance(exc, DataError | OverflowError):
        return BAD_VALUE
    if isinstance(exc, Unavailable | Conflict):
        return exc.failure
    return None


@receiver(got_request_exception)
def note_failure(sender: object, request: HttpRequest | None = None, **kwargs: Any) -> None:
    failure = classify(sys.exc_info()[1])
    if request is not None and failure is not None:
        request.atlas_failure = failure  # type: ignore[attr-defined]


def failure_response(request: HttpRequest, failure: Failure) -> HttpResponse:
    """The failure in the site's words: JSON under /api/, else a page that needs no database."""
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"detail": failure.message, "code": failure.code}, status=failure.status)
    else:
        html = render_to_string(
            "503.html", {"title": failure.title, "message": failure.message, "retry_url": request.get_full_path()}
        )
        response = HttpResponse(html, status=failure.status)
    if failure.status == 503:
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class FailureMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if any("\x00" in key or any("\x00" in v for v in values) for key, values in request.GET.lists()):
            return failure_response(request, NUL_IN_QUERY)
        response = self.get_response(request)
        failure = getattr(request, "atlas_failure", None)
        if failure is not None and response.status_code >= 500:
            logger.warning("request answered %s: %s", failure.status, failure.code)
            return failure_response(request, failure)
        return response


class PrivateResponseMiddleware:
    """``Cache-Control: no-store`` (and private, no-cache) on every response that may hold a
    user's data: anything answered to a signed-in user (chat, the memory page, exports) and
    everything under /api/ (token users are authenticated inside the API view). A browser's
    back button or a shared proxy then never shows one person's notes to the next."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if request.path.startswith("/api/") or (user is not None and user.is_authenticated):
            add_never_cache_headers(response)
        return response
