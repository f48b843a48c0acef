import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.urls import reverse

from memory.embeddings import embed

BASE_DIR = Path(__file__).resolve().parent.parent


def test_database_has_the_vector_extension(db):
    with connection.cursor() as cur:
        cur.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        (version,) = cur.fetchone()
    assert version.startswith("0.8")


def test_embedded_server_is_postgres_18_unless_database_url_is_set(db):
    with connection.cursor() as cur:
        cur.execute("SHOW server_version_num")
        (num,) = cur.fetchone()
    if not os.environ.get("DATABASE_URL"):
        assert int(num) >= 180000


def test_app_connects_as_a_role_that_rls_applies_to(db):
    with connection.cursor() as cur:
        cur.execute("SELECT current_user, rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user")
        user, is_super, bypass = cur.fetchone()
        cur.execute("SELECT tableowner FROM pg_tables WHERE tablename = 'memory_memory'")
        (owner,) = cur.fetchone()
    assert user == settings.ATLAS_APP_DB_USER
    assert not is_super and not bypass
    assert owner != user


def test_app_role_cannot_create_tables_or_drop_rls(db):
    from django.db import DatabaseError, transaction

    with pytest.raises(DatabaseError), transaction.atomic():
        with connection.cursor() as cur:
            cur.execute("ALTER TABLE memory_memory DISABLE ROW LEVEL SECURITY")


def test_database_cache_is_the_default_without_redis(db):
    if os.environ.get("REDIS_URL"):
        pytest.skip("REDIS_URL is set for this run")
    assert settings.CACHES["default"]["BACKEND"].endswith("DatabaseCache")
    cache.set("atlas-test-key", {"focus": "Northline"}, 60)
    assert cache.get("atlas-test-key") == {"focus": "Northline"}


def test_database_cache_writes_in_one_statement_and_still_expires_and_culls(db, django_assert_num_queries):
    from atlas.cache import UpsertDatabaseCache

    small = UpsertDatabaseCache("atlas_cache", {"OPTIONS": {"MAX_ENTRIES": 5, "CULL_FREQUENCY": 2}})
    small.CULL_CHECK_EVERY = 10
    small.clear()  # entries other tests committed (rolled back with this test)
    small.set("first", "checks the table")  # a process's first write counts (and culls)
    with django_assert_num_queries(1):
        small.set("state", {"focus": "Northline"}, 60)
    with django_assert_num_queries(1):
        small.set("state", {"focus": "Kestrel Foods"}, 60)  # an overwrite, not a second row
    assert small.get("state") == {"focus": "Kestrel Foods"}
    small.set("gone", "expired", 0)
    assert small.get("gone", "missing") == "missing"

    def rows():
        with connection.cursor() as cur:
            cur.execute("SELECT count(*) FROM atlas_cache")
            return cur.fetchone()[0]

    for n in range(small.CULL_CHECK_EVERY - 4):  # four writes so far
        small.set(f"key-{n}", n, 60)
    assert rows() == 8  # over MAX_ENTRIES until the next check
    small.set("one more", 1, 60)  # the tenth write since the last check: count, cull, write
    assert rows() <= 5


@pytest.mark.redis
def test_redis_cache_when_redis_url_is_set():
    """Settings pick Redis from REDIS_URL, and values round-trip with their TTL through the real server."""
    script = (
        "import django, os; django.setup();"
        "from django.conf import settings; from django.core.cache import cache;"
        "print(settings.CACHES['default']['BACKEND']);"
        "cache.set('atlas-redis-test', [1, 2], 30); print(cache.get('atlas-redis-test'));"
        "print(cache._cache.get_client().ttl(cache.make_and_validate_key('atlas-redis-test')))"
    )
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="atlas.settings", REDIS_URL="redis://127.0.0.1:6379/15")
    out = subprocess.run([sys.executable, "-c", script], cwd=BASE_DIR, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    backend, value, ttl = out.stdout.split("\n")[:3]
    assert backend.endswith("RedisCache")
    assert value == "[1, 2]"
    assert 0 < int(ttl) <= 30


def test_importing_the_settings_writes_nothing_and_debug_off_needs_a_secret_key(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    env.update(DJANGO_SETTINGS_MODULE="atlas.settings", ATLAS_DATA_DIR=str(tmp_path))
    script = "import django; django.setup(); from django.conf import settings; print(settings.SECRET_KEY)"
    run = subprocess.run([sys.executable, "-c", script], cwd=BASE_DIR, env=env, capture_output=True, text=True)
    assert run.returncode == 0 and "development-only" in run.stdout
    off = subprocess.run(
        [sys.executable, "-c", script], cwd=BASE_DIR, env=dict(env, DEBUG="false"), capture_output=True, text=True
    )
    assert off.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in off.stderr
    assert list(tmp_path.iterdir()) == []  # no key file, nothing else


def test_importing_the_settings_starts_no_database_server(tmp_path):
    """A tool that only imports the settings (mypy, a shell, a linter plugin) starts no PostgreSQL."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(DJANGO_SETTINGS_MODULE="atlas.settings", ATLAS_PGDATA=str(tmp_path / "pgdata"))
    script = "import django; django.setup(); from atlas import db; print(db._server is None)"
    out = subprocess.run([sys.executable, "-c", script], cwd=BASE_DIR, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True"
    assert not (tmp_path / "pgdata").exists()  # no cluster was initialised in the data folder


def test_bad_setting_value_is_a_clear_error():
    env = dict(os.environ, DEBUG="maybe", DJANGO_SETTINGS_MODULE="atlas.settings")
    out = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"], cwd=BASE_DIR, env=env, capture_output=True, text=True
    )
    assert "DEBUG must be true or false" in out.stderr


def test_embedder_returns_normalised_384_dimension_vectors():
    vectors = np.array(embed(["Prefers measurements in metric units.", "Northline moved to net 45."]))
    assert vectors.shape == (2, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)


def test_paraphrases_score_higher_than_unrelated_sentences():
    a, b, c = np.array(
        embed(
            [
                "Always give me amounts in euros.",
                "Show money values in EUR from now on.",
                "The warehouse in Portland closes at six.",
            ]
        )
    )
    assert a @ b > 0.5
    assert a @ b > a @ c + 0.3


def test_login_page_and_demo_login(client, db):
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user("carol", password="s3cret-pass-carol")
    page = client.get(reverse("login"))
    assert page.status_code == 200
    assert b'name="csrfmiddlewaretoken"' in page.content
    assert "Content-Security-Policy" in page.headers
    response = client.post(reverse("login"), {"username": "carol", "password": "s3cret-pass-carol"})
    assert response.status_code == 302
    assert client.get(reverse("chat:home")).status_code == 200


def test_pages_need_login(client, db):
    response = client.get(reverse("chat:home"))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]
