"""The acting user for Row Level Security.

Every table holding a user's memory content has a policy that shows and accepts only rows
whose ``user_id`` equals ``app.user_id`` (migration ``memory/0002_rls``). Requests and tasks
set it with :func:`acting_user`; with no acting user a query sees no rows. Staff and
maintenance paths use :func:`staff_bypass`, which is explicit and audited, and which no
session setting can imitate (the database checks a grant the app role cannot write).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from django.db import connection, transaction

from memory.models import AuditEvent


def _set(name: str, value: str) -> str:
    with connection.cursor() as cur:
        cur.execute("SELECT current_setting(%s, true), set_config(%s, %s, false)", [name, name, value])
        previous = cur.fetchone()[0]
    return previous or ""


def current_acting_user() -> int | None:
    with connection.cursor() as cur:
        cur.execute("SELECT current_setting('app.user_id', true)")
        value = cur.fetchone()[0]
    return int(value) if value else None


def _open_blocks() -> list[list]:
    """(session, name, value) of the :class:`_Setting` blocks open on this thread's connection,
    innermost last; ``session`` is the driver's connection object, so a reconnect (a new
    session, with no setting) never matches an entry made on the old one."""
    blocks = getattr(connection, "_atlas_setting_blocks", None)
    if blocks is None:
        blocks = []
        connection._atlas_setting_blocks = blocks  # type: ignore[attr-defined]
    return blocks


def _already(name: str, value: str) -> bool:
    """True when the innermost open block on this session set ``name`` to ``value`` (it stays
    set until that block exits: blocks nest, and a rollback cannot undo what was set before
    the transaction or savepoint it ends began)."""
    session = connection.connection
    for block_session, block_name, block_value in reversed(_open_blocks()):
        if block_name == name:
            return block_session is session and session is not None and block_value == value
    return False


class _Setting:
    """Set a session setting for a block and restore the previous value on exit.

    A class, not a generator: a context that is entered and never exited (a request that
    died half-way) must not restore a stale value later, when the garbage collector
    finalises it in the middle of someone else's request.

    A block nested in one that already set the same value costs nothing: no statement on
    entry or exit (the gate ran about nine set/restore round trips per event, half of them
    for the user already acting; issue 30's profile).
    """

    previous: str  # the setting's value when the block was entered
    nested: bool = False

    def __init__(self, name: str, value: str) -> None:
        self.name, self.value = name, value

    def __enter__(self) -> None:
        if _already(self.name, self.value):
            self.nested = True
            return
        self.previous = _set(self.name, self.value)
        self.entry = [connection.connection, self.name, self.value]
        _open_blocks().append(self.entry)

    def __exit__(self, *exc_info: object) -> None:
        if self.nested:
            return
        blocks = _open_blocks()
        found = [i for i, block in enumerate(blocks) if block is self.entry]
        if found:  # normally the last; exited out of order, it goes with everything inside it
            del blocks[found[0] :]
        _set(self.name, self.previous)


def set_acting_user(user_id: int) -> None:
    """Switch the acting user inside an enclosing :func:`acting_user` block, which restores it."""
    value = str(int(user_id))
    _set("app.user_id", value)
    for block in reversed(_open_blocks()):
        if block[1] == "app.user_id":
            block[2] = value  # what the enclosing block's session now holds
            break


def acting_user(user_id: int | None) -> _Setting:
    """Run a block as ``user_id``: RLS then shows and accepts only that user's rows."""
    return _Setting("app.user_id", "" if user_id is None else str(int(user_id)))


@contextlib.contextmanager
def staff_bypass(*, actor_id: int | None, reason: str) -> Iterator[None]:
    """Lift RLS for a staff or maintenance block, inside one transaction, audited twice.

    The lift is the database's ``atlas_staff_bypass_begin``: a SECURITY DEFINER function
    that records a grant (actor, reason, transaction id) in a table the app role cannot
    read or change; the policies honour a grant only in the transaction that made it, and
    ``atlas_staff_bypass_end`` closes it when the block exits. No session setting lifts RLS.
    """
    with transaction.atomic():
        AuditEvent.objects.create(
            user_id=None, actor_id=actor_id, action=AuditEvent.Action.STAFF_BYPASS, reason=reason[:200]
        )
        with connection.cursor() as cur:
            cur.execute("SELECT atlas_staff_bypass_begin(%s, %s)", [actor_id, reason[:200]])
        yield
        # On an exception the block's savepoint rolls back, and the grant with it.
        with connection.cursor() as cur:
            cur.execute("SELECT atlas_staff_bypass_end()")


# The staff bypass entry point (created by the first RLS migration, refreshed by later ones).
# Grants live in atlas_staff_grant, owned by the owner role; the app role holds no privilege
# on it (atlas.db.ensure_app_role revokes them), so it can neither forge nor erase a grant.
BYPASS_SQL: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS atlas_staff_grant (
        id bigserial PRIMARY KEY,
        xact xid8 NOT NULL,
        actor_id bigint,
        reason text NOT NULL DEFAULT '',
        granted_at timestamptz NOT NULL DEFAULT now(),
        ended_at timestamptz
    )""",
    "CREATE INDEX IF NOT EXISTS atlas_staff_grant_xact ON atlas_staff_grant (xact)",
    """CREATE OR REPLACE FUNCTION atlas_staff_bypass_begin(actor bigint, why text) RETURNS void
    LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
        INSERT INTO atlas_staff_grant (xact, actor_id, reason) VALUES (pg_current_xact_id(), actor, why)
    $$""",
    """CREATE OR REPLACE FUNCTION atlas_staff_bypass_end() RETURNS void
    LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
        UPDATE atlas_staff_grant SET ended_at = now()
        WHERE xact = pg_current_xact_id_if_assigned() AND ended_at IS NULL
    $$""",
    """CREATE OR REPLACE FUNCTION atlas_bypass_active() RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
        SELECT EXISTS (
            SELECT 1 FROM atlas_staff_grant
            WHERE xact = pg_current_xact_id_if_assigned() AND ended_at IS NULL
        )
    $$""",
)
BYPASS_TABLE = "atlas_staff_grant"

# Who may see or write a row. Each part is evaluated once per statement (a scalar subquery
# becomes an InitPlan), not once per row: a heavy user's recall scans ~19,000 rows, and the
# per-row current_setting()/cast cost about 2 ms of it.
POLICY = "user_id = (SELECT NULLIF(current_setting('app.user_id', true), '')::bigint) OR (SELECT atlas_bypass_active())"
# What memory 0007 / chat 0003 installed: a session setting any SQL could turn on.
_POLICY_SETTING_BYPASS = (
    "user_id = (SELECT NULLIF(current_setting('app.user_id', true), '')::bigint)"
    " OR (SELECT current_setting('app.bypass_rls', true) = 'on')"
)
# The expression migrations before memory 0007 / chat 0003 installed (same rows, per-row cost).
_POLICY_PER_ROW = (
    "user_id = NULLIF(current_setting('app.user_id', true), '')::bigint"
    " OR current_setting('app.bypass_rls', true) = 'on'"
)


def rls_operations(*tables: str) -> list:
    """Migration operations that put a table under Row Level Security on ``user_id``.

    FORCE applies the policy to the table owner too, so only the audited staff entry point
    (:func:`staff_bypass`) lifts it. A missing ``app.user_id`` matches no row.
    """
    from django.db import migrations

    operations = [migrations.RunSQL(sql=BYPASS_SQL, reverse_sql=migrations.RunSQL.noop)]
    for table in tables:
        operations.append(
            migrations.RunSQL(
                sql=[
                    f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
                    f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY",
                    f"CREATE POLICY {table}_owner ON {table} USING ({POLICY}) WITH CHECK ({POLICY})",
                ],
                reverse_sql=[
                    f"DROP POLICY IF EXISTS {table}_owner ON {table}",
                    f"ALTER TABLE {table} NO FORCE ROW LEVEL SECURITY",
                    f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY",
                ],
            )
        )
    return operations


def policy_once_per_statement(*tables: str) -> list:
    """Migration operations that move policies written per row to :data:`POLICY`."""
    from django.db import migrations

    return [migrations.RunSQL(sql=BYPASS_SQL, reverse_sql=migrations.RunSQL.noop)] + [
        migrations.RunSQL(
            sql=f"ALTER POLICY {table}_owner ON {table} USING ({POLICY}) WITH CHECK ({POLICY})",
            reverse_sql=(
                f"ALTER POLICY {table}_owner ON {table} USING ({_POLICY_PER_ROW}) WITH CHECK ({_POLICY_PER_ROW})"
            ),
        )
        for table in tables
    ]
