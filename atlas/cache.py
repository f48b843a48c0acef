"""The cache: Redis that degrades to "no session state" when Redis is down, a database cache
whose write is one statement, and delete by prefix.

Session state is the only thing Atlas keeps in the cache, and losing it costs one repeated
question (design rule: bounded state), so a Redis outage must not fail a turn: :class:`TolerantRedisCache`
answers a miss and skips writes while Redis cannot be reached. :func:`delete_by_prefix`
removes every entry under a key prefix in the Redis and the database backends, so
delete-everything needs no index of keys (an index rewritten by parallel turns loses keys).
"""

from __future__ import annotations

import base64
import itertools
import logging
import pickle
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.db import DatabaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from django.db import connections, router
from django.utils.timezone import now as tz_now

logger = logging.getLogger(__name__)


class CacheUnavailable(RuntimeError):
    """The cache could not be reached to delete entries (the caller decides what to do)."""


def _redis_errors() -> tuple[type[BaseException], ...]:
    import redis

    return (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)


class TolerantRedisCache(RedisCache):
    """RedisCache whose reads miss and writes do nothing while Redis is unreachable."""

    def _tolerate(self, default: Any, method: str, *args: Any, **kwargs: Any) -> Any:
        try:
            return getattr(super(), method)(*args, **kwargs)
        except _redis_errors():
            logger.warning("cache unavailable: %s skipped (Redis unreachable)", method)
            return default

    def get(self, key: Any, default: Any | None = None, version: int | None = None) -> Any:
        return self._tolerate(default, "get", key, default, version)

    def get_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        return self._tolerate({}, "get_many", keys, version)

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._tolerate(False, "has_key", key, version)

    def set(self, key: Any, value: Any, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        return self._tolerate(None, "set", key, value, timeout, version)

    def add(self, key: Any, value: Any, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._tolerate(False, "add", key, value, timeout, version)

    def touch(self, key: Any, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._tolerate(False, "touch", key, timeout, version)

    def set_many(
        self, data: dict[Any, Any], timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None
    ) -> list[Any]:
        return self._tolerate(list(data), "set_many", data, timeout, version)

    # delete / delete_many raise: delete-everything must know the entries are still there.


class UpsertDatabaseCache(DatabaseCache):
    """Django's DatabaseCache whose ``set`` is one statement (the cache without Redis).

    Django's ``set`` counts the whole table (to decide whether to cull), then, in a
    savepoint, selects the key and updates or inserts it: five statements for each session
    state a turn writes. Here ``set`` is one ``INSERT ... ON CONFLICT (cache_key) DO UPDATE``
    (the same pickled, base64 value and expiry Django writes, so Django's reads and deletes
    are unchanged). The count and Django's own cull (MAX_ENTRIES, CULL_FREQUENCY) run on the
    first set of a process and on every ``CULL_CHECK_EVERY``-th after it, so between checks
    the table can pass MAX_ENTRIES by at most that many writes per process. ``add`` and
    ``touch`` are Django's.
    """

    CULL_CHECK_EVERY = 50

    def __init__(self, table: str, params: dict[str, Any]) -> None:
        super().__init__(table, params)
        self._sets = itertools.count()

    def set(self, key: str, value: Any, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        if connection.vendor != "postgresql":
            return super().set(key, value, timeout, version)
        key = self.make_and_validate_key(key, version=version)
        timeout = self.get_backend_timeout(timeout)
        moment = (
            datetime.max if timeout is None else datetime.fromtimestamp(timeout, tz=UTC if settings.USE_TZ else None)
        )
        expires = connection.ops.adapt_datetimefield_value(moment.replace(microsecond=0))
        encoded = base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")
        table = connection.ops.quote_name(self._table)  # type: ignore[attr-defined]  # DatabaseCache's own table name
        with connection.cursor() as cursor:
            if next(self._sets) % self.CULL_CHECK_EVERY == 0:
                cursor.execute(f"SELECT COUNT(*) FROM {table}")  # noqa: S608 (quoted table name)
                entries = cursor.fetchone()[0]
                if entries > self._max_entries:
                    self._cull(db, cursor, tz_now().replace(microsecond=0), entries)  # type: ignore[attr-defined]  # DatabaseCache's own cull
            cursor.execute(
                f"INSERT INTO {table} (cache_key, value, expires) VALUES (%s, %s, %s)"  # noqa: S608
                " ON CONFLICT (cache_key) DO UPDATE SET value = EXCLUDED.value, expires = EXCLUDED.expires",
                [key, encoded, expires],
            )


def delete_by_prefix(cache: BaseCache, prefix: str) -> int:
    """Delete every entry whose key starts with ``prefix``; the number deleted.

    Raises :class:`CacheUnavailable` when the backend cannot be reached.
    """
    pattern = cache.make_key(prefix)
    if isinstance(cache, RedisCache):
        return _redis_delete(cache, pattern)
    if isinstance(cache, DatabaseCache):
        return _database_delete(cache, pattern)
    if isinstance(cache, LocMemCache):
        # LocMemCache has no prefix scan; its lock, dict and _delete are private (and not in the stubs).
        with cache._lock:  # type: ignore[attr-defined]
            keys = [key for key in cache._cache if key.startswith(pattern)]  # type: ignore[attr-defined]
            for key in keys:
                cache._delete(key)  # type: ignore[attr-defined]
        return len(keys)
    raise NotImplementedError(f"delete_by_prefix does not know {type(cache).__name__}")


def _redis_delete(cache: RedisCache, pattern: str) -> int:
    glob = "".join(f"[{c}]" if c in "*?[]\\" else c for c in pattern) + "*"
    try:
        client = cache._cache.get_client(write=True)
        keys = list(client.scan_iter(match=glob, count=500))
        return int(client.delete(*keys)) if keys else 0
    except _redis_errors() as exc:
        raise CacheUnavailable("Redis is unreachable") from exc


def _database_delete(cache: DatabaseCache, pattern: str) -> int:
    db = router.db_for_write(cache.cache_model_class)
    connection = connections[db]
    table = connection.ops.quote_name(cache._table)  # type: ignore[attr-defined]  # set in __init__, not stubbed
    like = pattern.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    with connection.cursor() as cur:
        cur.execute(f"DELETE FROM {table} WHERE cache_key LIKE %s", [like])  # noqa: S608 (quoted table name)
        return cur.rowcount
