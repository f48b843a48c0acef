"""Who and what a log line is about: request id, user id (never a name), turn id and step.

Context variables set by :class:`LogContextMiddleware` (request, user), by token
authentication (user), and by :func:`log_step` around a turn or a task (turn, step);
:class:`ContextFilter` copies them onto every record for the formatter in settings.
Log messages themselves never carry question text or memory statements.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import uuid
from collections.abc import Callable, Iterator

from django.http import HttpRequest, HttpResponse

_FIELDS = ("request_id", "user_id", "turn_id", "step")
_context: dict[str, contextvars.ContextVar[str]] = {
    name: contextvars.ContextVar(f"atlas_log_{name}", default="-") for name in _FIELDS
}


def set_log_user(user_id: int | None) -> None:
    _context["user_id"].set("-" if user_id is None else str(user_id))


def set_log_turn(turn_id: int) -> None:
    """From here on this request's log lines name the turn (the middleware clears it)."""
    _context["turn_id"].set(str(turn_id))


@contextlib.contextmanager
def log_step(step: str, *, turn_id: int | None = None, user_id: int | None = None) -> Iterator[None]:
    """Tag every log line inside the block with ``step`` (and the turn and user when known)."""
    # The turn id is always restored at the end: a turn started inside (set_log_turn) ends with it.
    values = {"step": step, "turn_id": _context["turn_id"].get() if turn_id is None else str(turn_id)}
    if user_id is not None:
        values["user_id"] = str(user_id)
    tokens = {name: _context[name].set(value) for name, value in values.items()}
    try:
        yield
    finally:
        for name, token in tokens.items():
            _context[name].reset(token)


class ContextFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        for name in _FIELDS:
            if not hasattr(record, name):
                setattr(record, name, _context[name].get())
        return True


class LogContextMiddleware:
    """A request id for every request (also sent back as X-Request-ID) and the user's id."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # Each request overwrites every field, so a thread reused by the server carries nothing over.
        request_id = uuid.uuid4().hex[:12]
        for name in _FIELDS:
            _context[name].set("-")
        _context["request_id"].set(request_id)
        user = getattr(request, "user", None)
        set_log_user(user.pk if user is not None and user.is_authenticated else None)
        response = self.get_response(request)
        response["X-Request-ID"] = request_id
        return response
