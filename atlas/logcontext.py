"""Who and what a log line is about: request id, user id (never a name), turn id and step.

Context variables set by :class:`LogContextMiddleware` (request, user), by token
authentication (user), and by :func:`log_step` around a turn or a task (turn, step);
:class:`ContextFilter` copies them onto every record for the formatter in settings.
Log messages themselves never carry question text or memory statements, and
:class:`RedactFilter` keeps out what other code would put there: exception messages (a
``DataError`` quotes the value that was sent), Django's request paths and SQL, security
warnings that quote a header.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import re
import traceback
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


# Loggers of this project: their messages carry ids and codes only (reviewed, tested).
OWN_LOGGERS = ("atlas", "memory", "chat")
# In anyone else's message, a quoted part or a "(column)=(value)" detail is withheld.
_QUOTED = re.compile(r"""'[^']*'|"[^"]*"|\([^()]*\)=\([^()]*\)""")
WITHHELD = "<withheld>"


class RedactFilter(logging.Filter):
    """No text a user sent reaches a log line, whoever logs it (README "Logs").

    - An exception is logged as its traceback (files, lines, code) and its type (with the
      SQLSTATE of a database error), never its message: PostgreSQL's messages quote values
      (``invalid input syntax for type integer: "..."``, ``Key (name)=(...)``).
    - ``django.request`` and ``django.server`` say the status and the route pattern that
      matched (``c/<uuid:session_id>/ask/``), not the path or query string that was sent.
    - ``django.db.backends`` never logs a statement or its parameters; ``django.security.*``
      names the kind of refusal, not the header it quotes.
    - Any other library's message has its quoted parts withheld.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            # Formatters print exc_text when it is set (the exception stays on the record).
            record.exc_text = traceback_without_messages(record.exc_info[1])
        name = record.name
        if name in ("django.request", "django.server"):
            record.msg, record.args = _request_line(record), ()
        elif name.startswith("django.db.backends"):
            duration = getattr(record, "duration", None)
            record.msg = "database statement (text withheld)" + (f" in {duration:.3f} s" if duration else "")
            record.args = ()
            for attribute in ("sql", "params"):
                if hasattr(record, attribute):
                    setattr(record, attribute, WITHHELD)
        elif name.startswith("django.security"):
            record.msg, record.args = f"request refused: {name.rsplit('.', 1)[-1]} (details withheld)", ()
        elif name.split(".")[0] not in OWN_LOGGERS:
            record.msg, record.args = _QUOTED.sub(WITHHELD, record.getMessage()), ()
        return True


def _request_line(record: logging.LogRecord) -> str:
    request = getattr(record, "request", None)
    status = getattr(record, "status_code", None)
    match = getattr(request, "resolver_match", None)
    route = getattr(match, "route", None) or "(no route)"
    method = getattr(request, "method", None)
    reason = (
        record.args[0] if isinstance(record.args, tuple) and record.args and record.name == "django.request" else ""
    )
    words = [str(status or "-"), str(reason)] if reason else [str(status or "-")]
    if isinstance(method, str) and method.isalpha():
        words.append(method)
    return " ".join([*words, f"/{route}" if match else route])


def traceback_without_messages(exc: BaseException) -> str:
    """The traceback of ``exc`` and of the exceptions it was raised from, messages withheld."""
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in chain:
        chain.append(current)
        current = current.__cause__ or (None if current.__suppress_context__ else current.__context__)
    parts = []
    for number, item in enumerate(reversed(chain)):
        if number:
            parts.append("\nThe above exception led to the following exception:\n\n")
        parts.append("Traceback (most recent call last):\n")
        parts.extend(traceback.format_tb(item.__traceback__))
        kind = type(item)
        sqlstate = getattr(item, "sqlstate", None) or getattr(item.__cause__, "sqlstate", None)
        code = f" [SQLSTATE {sqlstate}]" if isinstance(sqlstate, str) else ""
        parts.append(f"{kind.__module__}.{kind.__qualname__}{code}: (message withheld)\n")
    return "".join(parts).rstrip("\n")


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
