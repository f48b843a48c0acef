"""Test setup: a fresh database on the embedded server, created and migrated by the owner
role; the tests then connect as the application role, so RLS applies exactly as in the app."""

import gc
import os
import sys
import time

import pytest
from django.db import OperationalError, connection

from atlas.db import as_owner, start_database

# What `make check` (the edit-test loop) leaves to `make test`: real processes and servers, the
# API fuzzer, whole labelled sets, throttle windows. Module names, as data.
SLOW_MODULES = frozenset(
    {
        "tests.test_schemathesis",
        "tests.test_stop_releases_server",
        "tests.test_database_url",
        "tests.test_db_bootstrap",
        "tests.test_worker",
        "tests.test_reliability",
        "tests.chat.test_seed_demo",
        "tests.chat.test_answers",
        "tests.chat.test_bench_session",
        "tests.memory.test_eval_gate",
        "tests.memory.test_eval_recall",
    }
)


def pytest_collection_modifyitems(items):
    for item in items:
        if item.module.__name__ in SLOW_MODULES or "throttle" in item.name:
            item.add_marker(pytest.mark.slow)
    _order_for_mutation(items)


def _order_for_mutation(items):
    """Under mutation testing (mutmut sets MUTANT_UNDER_TEST) the unit tests run first, then the
    tests through the whole turn, then the case-set evaluations: with -x a mutant the unit tests
    kill never pays for the slow ones, and a survivor still meets every test."""
    if os.environ.get("MUTANT_UNDER_TEST"):
        items.sort(
            key=lambda item: 2 if item.get_closest_marker("evaluation") else int(bool(item.get_closest_marker("turn")))
        )


def _gate_caches() -> list:
    """The gate's own functools caches (its compiled patterns and matchers), not the ones it
    imports: the shared parse cache is not mutated and clearing it only slows each test."""
    modules = [m for name, m in list(sys.modules.items()) if name.startswith("memory.gate.")]
    cached = {v for m in modules for v in vars(m).values() if callable(getattr(v, "cache_clear", None))}
    return [v for v in cached if getattr(v, "__module__", "").startswith("memory.gate.")]


@pytest.fixture(autouse=True)
def _fresh_gate_caches():
    """Under mutation testing each test builds the gate's cached patterns again: mutmut's parent
    process built them once with the original code, so a mutant in the code that builds them would
    never run in the forked child, and only the first test would be credited with running it."""
    if os.environ.get("MUTANT_UNDER_TEST"):
        for cached in _gate_caches():
            cached.cache_clear()


@pytest.fixture(scope="session")
def django_db_setup(django_test_environment, django_db_blocker):
    from django.test.utils import setup_databases, teardown_databases

    # One test database per test process, so parallel runs on one server never collide.
    # ATLAS_TEST_DB_SUFFIX names one kept database instead (`make mutation` runs pytest once
    # per mutant in forked processes; migrating a new database for each would dominate).
    suffix = os.environ.get("ATLAS_TEST_DB_SUFFIX", "")
    keepdb = bool(suffix)
    name, tail = connection.settings_dict["TEST"]["NAME"], f"_{suffix or os.getpid()}"
    # A forked mutmut child inherits the name already suffixed: add the suffix once.
    connection.settings_dict["TEST"]["NAME"] = name if name.endswith(tail) else name + tail
    start_database()  # the embedded server (settings import starts none), unless DATABASE_URL is set
    with django_db_blocker.unblock():
        with as_owner(connection):
            config = setup_databases(verbosity=0, interactive=False, keepdb=keepdb)
    yield
    with django_db_blocker.unblock():
        with as_owner(connection):
            # A connection a finished test thread left behind (persistent connections outlive
            # their request) closes when it is collected: collect, and wait a little.
            for attempt in range(4):
                gc.collect()
                try:
                    teardown_databases(config, verbosity=0, keepdb=keepdb)
                    break
                except OperationalError:
                    if attempt == 3:
                        _end_other_sessions(connection.settings_dict)
                        teardown_databases(config, verbosity=0, keepdb=keepdb)
                        break
                    time.sleep(0.5)


def _end_other_sessions(settings_dict: dict) -> None:
    """A session still holding this process's test database: say which, then end it as the
    embedded server's superuser (the owner role may not end the app role's sessions)."""
    import psycopg

    from atlas.db import EMBEDDED_SUPERUSER

    name, host = settings_dict["NAME"], settings_dict.get("HOST") or ""
    if not host.startswith("/"):
        return  # not the embedded server: the drop fails with its own message
    with psycopg.connect(host=host, user=EMBEDDED_SUPERUSER, dbname="postgres", autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid, usename, application_name, client_port, backend_start, state, left(query, 120)"
            " FROM pg_stat_activity WHERE datname = %s",
            [name],
        ).fetchall()
        for row in rows:
            print(f"\nsession left on {name}: {row}", file=sys.stderr)
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", [name])


@pytest.fixture
def make_user(db):
    counter = iter(range(1, 10_000))

    def make(username: str | None = None, **extra):
        from tests.factories import make_user as make_one

        return make_one(username or f"user{next(counter)}", **extra)

    return make


@pytest.fixture
def as_user():
    """Run a block as a user for RLS, as the middleware and tasks do."""
    from memory.rls import acting_user

    return acting_user


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def client_for():
    """An API client signed in as ``user``: by session, or by a personal API token with ``token=True``."""
    from rest_framework.test import APIClient

    from atlas.accounts.tokens import create_token

    def make(user, *, token: bool = False) -> APIClient:
        client = APIClient()
        if token:
            _, plain = create_token(user, name="test client")
            client.credentials(HTTP_AUTHORIZATION=f"Token {plain}")
        else:
            client.force_login(user)
        return client

    return make


@pytest.fixture(scope="module")
def corpus(django_db_setup, django_db_blocker):
    """The demo corpus (company data, no RLS), loaded once per module (committed) and removed afterwards."""
    from chat.demo_data import build_corpus, load_corpus
    from chat.models import Customer, Document
    from chat.tools import clear_customer_index

    data = build_corpus()
    with django_db_blocker.unblock():
        load_corpus(data)
        clear_customer_index()
        yield data
        Document.objects.all().delete()
        Customer.objects.all().delete()
        clear_customer_index()
