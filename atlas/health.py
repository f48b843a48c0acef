"""/healthz for a load balancer: the database, the cache, the worker's heartbeat, the model.

200 with every check "ok", else 503 naming the check that failed. No user data, no auth,
nothing cached: each call really asks each part.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import timedelta

from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)

# The django-q2 sentinel saves its status every few seconds; older than this, it is gone.
HEARTBEAT_MAX_AGE = timedelta(seconds=30)


def check_database() -> str:
    with connection.cursor() as cur:
        cur.execute("SELECT 1")
        cur.fetchone()
    return "ok"


def check_cache() -> str:
    key = "atlas:healthz"
    stamp = str(time.time_ns())
    cache.set(key, stamp, 30)
    return "ok" if cache.get(key) == stamp else "the cache did not return what was stored"


def check_worker() -> str:
    from django_q.conf import Conf
    from django_q.status import Stat

    now = timezone.now()
    alive = [
        stat
        for stat in Stat.get_all()
        if stat.status in (Conf.IDLE, Conf.WORKING) and now - stat.timestamp <= HEARTBEAT_MAX_AGE
    ]
    return "ok" if alive else "no worker cluster has reported in the last 30 seconds"


def check_embedder() -> str:
    from memory.embeddings import embed_one
    from memory.models import EMBEDDING_DIMENSIONS

    return "ok" if len(embed_one("health check")) == EMBEDDING_DIMENSIONS else "the embedder returned a wrong size"


CHECKS: dict[str, Callable[[], str]] = {
    "database": check_database,
    "cache": check_cache,
    "worker": check_worker,
    "embedding_model": check_embedder,
}


def run_checks() -> dict[str, str]:
    results = {}
    for name, check in CHECKS.items():
        try:
            results[name] = check()
        except Exception as exc:  # a health check reports every failure, whatever it is
            logger.warning("healthz: %s check failed: %s", name, type(exc).__name__)
            results[name] = f"failed: {type(exc).__name__}"
    return results


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    results = run_checks()
    healthy = all(value == "ok" for value in results.values())
    return JsonResponse({"status": "ok" if healthy else "failing", "checks": results}, status=200 if healthy else 503)
