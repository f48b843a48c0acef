"""The database itself keeps users apart: Row Level Security on every memory table."""

import pytest
from django.db import DatabaseError, connection, transaction

from memory.models import AuditEvent, Memory, Observation
from memory.rls import acting_user, set_acting_user, staff_bypass
from tests.factories import make_memory

pytestmark = pytest.mark.django_db

CONTENT_TABLES = ["memory_memory", "memory_suppression", "memory_gatedecision", "memory_observation"]


def _count(sql: str, params=()) -> int:
    with connection.cursor() as cur:
        cur.execute(sql, params)
        return cur.fetchone()[0]


@pytest.fixture
def alice_and_bob(make_user):
    from memory.models import GateDecision
    from memory.store import forget_memory

    alice, bob = make_user("alice"), make_user("bob")
    for user, statements in (
        (alice, ["Covers the western region"]),
        (bob, ["Prefers amounts in euros", "Reports go to Dana"]),
    ):
        memories = [make_memory(user, s) for s in statements]
        forget_memory(user, memories[-1].pk)  # one suppression each
        with acting_user(user.pk):
            GateDecision.objects.create(user=user, rule="explicit", admitted=True, reason="explicit-remember")
            Observation.objects.create(user=user, signal="filter:region", session_key="s1")
        make_memory(user, "Works on the quarterly review", kind="context")
    return alice, bob


@pytest.mark.parametrize("table", CONTENT_TABLES)
def test_without_an_acting_user_a_select_sees_no_rows(alice_and_bob, table):
    with staff_bypass(actor_id=None, reason="test: rows exist"):
        assert _count(f"SELECT count(*) FROM {table}") > 0
    with acting_user(None):
        assert _count(f"SELECT count(*) FROM {table}") == 0


@pytest.mark.parametrize("table", CONTENT_TABLES)
def test_a_query_that_forgets_the_user_filter_still_sees_only_own_rows(alice_and_bob, table):
    alice, bob = alice_and_bob
    with acting_user(alice.pk):
        assert _count(f"SELECT count(*) FROM {table} WHERE user_id = %s", [bob.pk]) == 0
        assert _count(f"SELECT count(DISTINCT user_id) FROM {table}") == 1
        assert _count(f"SELECT count(*) FROM {table} WHERE user_id <> %s", [alice.pk]) == 0


def test_another_users_memory_cannot_be_read_updated_or_deleted(alice_and_bob):
    alice, bob = alice_and_bob
    with staff_bypass(actor_id=None, reason="test: find bob's row"):
        bobs_id = Memory.objects.filter(user=bob).values_list("pk", flat=True).first()
    with acting_user(alice.pk):
        with pytest.raises(Memory.DoesNotExist):
            Memory.objects.get(pk=bobs_id)
        with connection.cursor() as cur:
            cur.execute("UPDATE memory_memory SET statement = 'hacked' WHERE id = %s", [bobs_id])
            assert cur.rowcount == 0
            cur.execute("UPDATE memory_memory SET statement = statement")  # no WHERE at all
            updated = cur.rowcount
            cur.execute("DELETE FROM memory_memory WHERE id = %s", [bobs_id])
            assert cur.rowcount == 0
        assert updated == Memory.objects.count()  # only alice's own rows were touched
    with acting_user(bob.pk):
        assert Memory.objects.filter(pk=bobs_id).exclude(statement="hacked").exists()


def test_inserting_a_row_for_another_user_is_refused_by_the_database(alice_and_bob):
    alice, bob = alice_and_bob
    with acting_user(alice.pk):
        with pytest.raises(DatabaseError, match="row-level security"), transaction.atomic():
            Observation.objects.create(user_id=bob.pk, signal="filter:region", session_key="s9")
        with pytest.raises(DatabaseError, match="row-level security"), transaction.atomic():
            with connection.cursor() as cur:
                cur.execute(
                    "INSERT INTO memory_memory (user_id, kind, statement, scope, subject, confidence, author,"
                    " gate, gate_version, created_at, source_session, source_quote, embedding)"
                    " SELECT %s, kind, 'planted', scope, subject, confidence, author, gate, gate_version,"
                    " created_at, source_session, source_quote, embedding FROM memory_memory LIMIT 1",
                    [bob.pk],
                )
        with pytest.raises(DatabaseError, match="row-level security"), transaction.atomic():
            with connection.cursor() as cur:  # moving own row to another user
                cur.execute("UPDATE memory_memory SET user_id = %s", [bob.pk])


def test_writes_with_no_acting_user_are_refused(alice_and_bob):
    alice, _ = alice_and_bob
    with acting_user(None):
        with pytest.raises(DatabaseError, match="row-level security"), transaction.atomic():
            Observation.objects.create(user_id=alice.pk, signal="filter:region", session_key="s9")


def test_staff_bypass_sees_every_user_and_is_audited(alice_and_bob):
    alice, bob = alice_and_bob
    before = AuditEvent.objects.filter(action=AuditEvent.Action.STAFF_BYPASS).count()
    with staff_bypass(actor_id=alice.pk, reason="admin: review memories"):
        assert set(Memory.objects.values_list("user_id", flat=True)) == {alice.pk, bob.pk}
    entry = AuditEvent.objects.filter(action=AuditEvent.Action.STAFF_BYPASS).latest("pk")
    assert AuditEvent.objects.filter(action=AuditEvent.Action.STAFF_BYPASS).count() == before + 1
    assert entry.actor_id == alice.pk and entry.reason == "admin: review memories"
    with acting_user(None):  # the bypass ends with its block
        assert Memory.objects.count() == 0


def test_an_abandoned_acting_user_block_never_resets_the_user_later(make_user):
    """A block entered and never exited (a request that died half-way) is inert when collected."""
    import gc

    from memory.rls import acting_user, current_acting_user

    first, second = make_user("rls-first"), make_user("rls-second")
    abandoned = acting_user(first.pk)
    abandoned.__enter__()
    with acting_user(second.pk):
        del abandoned
        gc.collect()
        assert current_acting_user() == second.pk


# --- the app role cannot lift RLS by itself ------------------------------------------------------

ALL_RLS_TABLES = [*CONTENT_TABLES, "memory_memorycontrol", "memory_gateevent", "chat_chatsession", "chat_turn"]
# What SQL run as the app role might try: the old bypass setting, impersonation, roles.
SESSION_CHANGES = [
    "SELECT set_config('app.bypass_rls', 'on', false)",
    "SET app.bypass_rls = 'on'",
    "SET row_security = off",
    "SELECT set_config('app.user_id', '', false)",
    "SET ROLE atlas_owner",
    "SET SESSION AUTHORIZATION atlas_owner",
    "RESET ROLE",
]


def _try(sql: str) -> None:
    try:
        with transaction.atomic(), connection.cursor() as cur:
            cur.execute(sql)
    except DatabaseError:
        pass  # refused: what matters is what the next query sees


def _visible(sql: str, params=()) -> int:
    """Rows a query sees; a query the database refuses (row_security off) sees none."""
    try:
        with transaction.atomic():
            return _count(sql, params)
    except DatabaseError as exc:
        assert "row-level security" in str(exc)
        return 0


def test_no_session_setting_lets_the_app_role_see_more_than_the_acting_user(alice_and_bob):
    alice, _ = alice_and_bob
    for change in SESSION_CHANGES:
        with acting_user(alice.pk):
            _try(change)
            for table in ALL_RLS_TABLES:
                others = _visible(f"SELECT count(*) FROM {table} WHERE user_id <> %s", [alice.pk])
                assert others == 0, (change, table)
        with acting_user(None):
            _try(change)
            for table in ALL_RLS_TABLES:
                assert _visible(f"SELECT count(*) FROM {table}") == 0, (change, table)
        _try("RESET ALL")


def test_the_app_role_holds_no_truncate_and_cannot_touch_the_staff_grants(alice_and_bob):
    for sql in (
        "TRUNCATE memory_memory",
        "TRUNCATE chat_turn",
        "SELECT * FROM atlas_staff_grant",
        "INSERT INTO atlas_staff_grant (xact) VALUES (pg_current_xact_id())",
        "UPDATE atlas_staff_grant SET ended_at = NULL",
        "DELETE FROM atlas_staff_grant",
    ):
        with pytest.raises(DatabaseError, match="permission denied"), transaction.atomic(), connection.cursor() as cur:
            cur.execute(sql)


def test_the_staff_bypass_holds_only_inside_its_block_even_in_one_transaction(alice_and_bob):
    alice, bob = alice_and_bob
    with transaction.atomic():
        with staff_bypass(actor_id=alice.pk, reason="test: review"):
            assert _count("SELECT count(DISTINCT user_id) FROM memory_memory") == 2
        assert _count("SELECT count(*) FROM memory_memory") == 0


@pytest.mark.django_db(transaction=True)
def test_even_the_table_owner_sees_no_rows_without_an_acting_user(alice_and_bob):
    """FORCE ROW LEVEL SECURITY: the owner role (migrations, the maintenance commands) is
    filtered like the app role; without FORCE it would read every user's content."""
    from atlas.db import as_owner

    with staff_bypass(actor_id=None, reason="test: rows exist"):
        seen_with_bypass = {table: _count(f"SELECT count(*) FROM {table}") for table in CONTENT_TABLES}
    assert all(seen_with_bypass.values()), seen_with_bypass
    with as_owner(connection):
        assert _count(
            "SELECT count(*) FROM pg_class WHERE relname = 'memory_memory' AND pg_has_role(relowner, 'USAGE')"
        )
        rls_tables = [row for row in _rows("SELECT relname FROM pg_class WHERE relrowsecurity AND relkind = 'r'")]
        assert set(CONTENT_TABLES) <= set(rls_tables)
        seen_by_owner = {table: _count(f"SELECT count(*) FROM {table}") for table in rls_tables}
    assert seen_by_owner == dict.fromkeys(rls_tables, 0)


def _rows(sql: str) -> list:
    with connection.cursor() as cur:
        cur.execute(sql)
        return [row[0] for row in cur.fetchall()]


def test_switching_the_acting_user_inside_a_block_shows_the_new_users_rows_and_is_restored(alice_and_bob):
    """The API authenticates inside the request's block and switches to the signed-in user."""
    alice, bob = alice_and_bob
    with acting_user(None):
        set_acting_user(bob.pk)
        assert set(Memory.objects.values_list("user_id", flat=True)) == {bob.pk}
        set_acting_user(alice.pk)
        assert set(Memory.objects.values_list("user_id", flat=True)) == {alice.pk}
    assert _count("SELECT count(*) FROM memory_memory") == 0  # restored: no acting user


def _execute(cur, sql) -> None:
    for statement in [sql] if isinstance(sql, str) else sql:
        cur.execute(statement)


def _policy(cur, table: str) -> tuple[bool, bool, str | None]:
    cur.execute(
        "SELECT c.relrowsecurity, c.relforcerowsecurity, p.qual FROM pg_class c"
        " LEFT JOIN pg_policies p ON p.tablename = c.relname AND p.policyname = c.relname || '_owner'"
        " WHERE c.relname = %s",
        [table],
    )
    return cur.fetchone()


def _visible_after_inserting_for_users_1_and_2(cur, table: str) -> list[int]:
    """Acting as user 1 (as the owner role, under FORCE): the own row goes in, user 2's is refused."""
    cur.execute("SELECT set_config('app.user_id', '1', true)")
    cur.execute(f"INSERT INTO {table} (user_id) VALUES (1)")  # noqa: S608 (a test table name)
    with pytest.raises(DatabaseError), transaction.atomic():
        cur.execute(f"INSERT INTO {table} (user_id) VALUES (2)")  # noqa: S608
    cur.execute(f"SELECT user_id FROM {table}")  # noqa: S608
    return [row[0] for row in cur.fetchall()]


@pytest.mark.django_db(transaction=True)
def test_the_rls_migration_operations_apply_the_forced_policy_and_reverse_cleanly():
    """The operations the migrations are built from (memory.rls), run on a scratch table as
    the owner: RLS forced on the owner too, the per-statement policy, and every step reversible."""
    from atlas.db import as_owner
    from memory.rls import policy_once_per_statement, rls_operations

    table = "rls_probe"
    with as_owner(connection), transaction.atomic(), connection.cursor() as cur:
        cur.execute(f"CREATE TABLE {table} (id bigserial PRIMARY KEY, user_id bigint NOT NULL)")
        put_under_rls = rls_operations(table)
        once_per_statement = policy_once_per_statement(table)
        assert all(op.reversible for op in put_under_rls + once_per_statement)
        for op in put_under_rls:
            _execute(cur, op.sql)
        forced, force_owner, qual = _policy(cur, table)
        assert (forced, force_owner) == (True, True) and "atlas_bypass_active" in qual
        assert _visible_after_inserting_for_users_1_and_2(cur, table) == [1]
        # Back to the per-row expression the first migrations wrote, and forward again.
        for op in reversed(once_per_statement):
            if op.reverse_sql != op.noop:
                _execute(cur, op.reverse_sql)
        assert "app.bypass_rls" in _policy(cur, table)[2]
        for op in once_per_statement:
            _execute(cur, op.sql)
        assert "atlas_bypass_active" in _policy(cur, table)[2]
        for op in reversed(put_under_rls):
            if op.reverse_sql != op.noop:
                _execute(cur, op.reverse_sql)
        assert _policy(cur, table) == (False, False, None)
        transaction.set_rollback(True)


def test_with_no_acting_user_set_the_acting_user_reads_as_none(make_user):
    from memory.rls import current_acting_user

    assert current_acting_user() is None
    with acting_user(make_user("rls-once").pk):
        assert current_acting_user() is not None
    assert current_acting_user() is None  # restored to unset, not to a user
