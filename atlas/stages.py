"""In-app CPU per request stage, for profiling under load (``ATLAS_STAGE_TIMERS=true`` only).

:class:`StageTimerMiddleware` measures the CPU time of this thread for the whole request
("app"), for blocks marked with :func:`stage` ("turn"), and for the SQL driver (statements
sent and rows read: "sql" outside a stage, "turn_sql" inside the turn), and sends them back
as a ``Server-Timing`` header in milliseconds; scripts/profile_load.py sums them per request
kind. Off, it costs nothing: the middleware removes itself and :func:`stage` is a no-op.
"""

from __future__ import annotations

import contextlib
import contextvars
import time
from collections.abc import Callable, Iterator
from typing import Any

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.db import connection
from django.http import HttpRequest, HttpResponse

_stages: contextvars.ContextVar[dict[str, float] | None] = contextvars.ContextVar("atlas_stages", default=None)
_current: contextvars.ContextVar[str] = contextvars.ContextVar("atlas_stage", default="")


@contextlib.contextmanager
def stage(name: str) -> Iterator[None]:
    """Add this block's thread CPU time to ``name`` when stage timers are on."""
    totals = _stages.get()
    if totals is None:
        yield
        return
    started = time.thread_time()
    token = _current.set(name)
    try:
        yield
    finally:
        _current.reset(token)
        totals[name] = totals.get(name, 0.0) + time.thread_time() - started


def _timed_sql(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
    """SQL driver time: "sql" outside any stage, "<stage>_sql" inside one (also in the stage)."""
    totals = _stages.get()
    if totals is None:
        return execute(sql, params, many, context)
    name = f"{_current.get()}_sql" if _current.get() else "sql"
    started = time.thread_time()
    try:
        return execute(sql, params, many, context)
    finally:
        totals[name] = totals.get(name, 0.0) + time.thread_time() - started


class StageTimerMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        if not getattr(settings, "ATLAS_STAGE_TIMERS", False):
            raise MiddlewareNotUsed
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        totals: dict[str, float] = {}
        token = _stages.set(totals)
        started = time.thread_time()
        try:
            with connection.execute_wrapper(_timed_sql):
                response = self.get_response(request)
        finally:
            totals["app"] = time.thread_time() - started
            _stages.reset(token)
        response["Server-Timing"] = ", ".join(f"{name};dur={ms * 1000:.2f}" for name, ms in totals.items())
        return response
