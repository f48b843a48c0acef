"""`make serve` for real: gunicorn + the worker on their own embedded PostgreSQL, DEBUG off.

One server for the module (its own data folder, so stopping it must stop its PostgreSQL):
a person uses every page in Chromium, a token works with an HTTP client and is refused once
revoked, and SIGTERM stops every process within seconds, the database server last.
"""

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import collect_problems, watch_console

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "serve-test-password-1"
CREATE_USER = (
    "from django.contrib.auth import get_user_model; "
    f"get_user_model().objects.create_user('carol', password='{PASSWORD}')"
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _serve():
    """A production server (`make serve`'s command) on its own data folder, stopped after."""
    # Not under /tmp/pytest-of-*: those are 0700, and the embedded server may run as its own user.
    (ROOT / ".atlas").mkdir(exist_ok=True)
    data = Path(tempfile.mkdtemp(prefix="serve-test-", dir=ROOT / ".atlas"))
    data.chmod(0o755)
    addr = f"127.0.0.1:{free_port()}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "PYTEST", "DJANGO_ALLOW"))}
    env |= {
        "ATLAS_ADDR": addr,
        "ATLAS_DATA_DIR": str(data),
        "ATLAS_PGDATA": str(data / "pgdata"),
        "ATLAS_PG_SHARED_BUFFERS": "64MB",
        "ATLAS_PG_EFFECTIVE_CACHE_SIZE": "256MB",
        "ATLAS_WEB_WORKERS": "1",
    }
    run = [sys.executable, "manage.py"]
    subprocess.run([*run, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)  # what `make db` does
    subprocess.run([*run, "createcachetable"], cwd=ROOT, env=env, check=True)
    subprocess.run([*run, "shell", "-c", CREATE_USER], cwd=ROOT, env=env, check=True)
    log = open(data / "serve.log", "w")
    proc = subprocess.Popen(
        [*run, "serveatlas"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    url = f"http://{addr}"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/healthz", timeout=5).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if proc.poll() is not None:
            pytest.fail("make serve exited:\n" + (data / "serve.log").read_text())
        time.sleep(0.5)
    else:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
        pytest.fail("make serve did not become healthy in 180 s:\n" + (data / "serve.log").read_text())
    yield {"url": url, "proc": proc, "data": data}
    if proc.poll() is None:  # not stopped by the SIGTERM test: stop it the same way
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
    shutil.rmtree(data, ignore_errors=True)


@pytest.fixture(scope="module")
def served():
    yield from _serve()


@pytest.fixture
def served_to_stop():
    """Its own server: the SIGTERM test stops it, whatever order the tests run in."""
    yield from _serve()


def test_every_page_works_with_debug_off(served, browser):
    context = browser.new_context(base_url=served["url"], viewport={"width": 1280, "height": 900})
    watch_console(context)
    page = context.new_page()
    problems = collect_problems(page)
    try:
        page.goto("/login/")
        page.get_by_label("Username").fill("carol")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url("**/")
        page.get_by_label("Ask Atlas").fill("From now on, show amounts in euros")
        page.get_by_role("button", name="Ask", exact=True).click()
        expect(page.locator(".turn")).to_have_count(1)

        # The worker beside the server runs the write gate: the preference shows up on the memory page.
        page.get_by_role("link", name="What Atlas remembers").click()
        for _ in range(40):
            if page.locator(".memory-item").count():
                break
            time.sleep(0.5)
            page.reload()
        expect(page.locator(".memory-item .note-statement")).to_have_count(1)
        page.get_by_role("link", name="API tokens").click()
        page.get_by_label("Name").fill("curl")
        page.get_by_role("button", name="Create token").click()
        token = page.get_by_label("Token").input_value()
        stylesheet = page.locator("link[rel=stylesheet]").get_attribute("href")
        assert re.fullmatch(r"/static/css/atlas\.[0-9a-f]{12}\.css", stylesheet)
        page.goto("/api/docs/")
        page.get_by_text("/api/memories/", exact=True).first.wait_for()
    finally:
        context.close()
    assert problems == [], "the browser reported errors (CSP violations or scripts)"

    static = httpx.get(served["url"] + stylesheet, headers={"Accept-Encoding": "gzip"})
    assert static.status_code == 200 and "immutable" in static.headers["Cache-Control"]
    api = httpx.Client(base_url=served["url"], headers={"Authorization": f"Token {token}"})
    assert api.get("/api/memories/").status_code == 200
    [listed] = api.get("/api/tokens/").json()
    assert api.delete(f"/api/tokens/{listed['id']}/").status_code == 204
    assert api.get("/api/memories/").status_code == 401
    missing = httpx.get(served["url"] + "/no/such/page/")
    assert missing.status_code == 404
    assert "Page not found" in missing.text and stylesheet in missing.text and "Traceback" not in missing.text


def is_gone(process: psutil.Process) -> bool:
    try:
        return not process.is_running() or process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_sigterm_stops_every_process_within_seconds_and_postgres_last(served_to_stop):
    served = served_to_stop
    proc = served["proc"]
    postmaster = int((served["data"] / "pgdata" / "postmaster.pid").read_text().split()[0])
    tree = [p for p in psutil.Process(proc.pid).children(recursive=True) if p.pid != postmaster]
    commands = " ".join(" ".join(p.cmdline()) for p in tree)
    assert "gunicorn" in commands and "qcluster" in commands
    watched = {str(p.pid): p for p in tree} | {"postgres": psutil.Process(postmaster)}
    gone_at: dict[str, float] = {}
    started = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    while time.monotonic() - started < 15 and len(gone_at) < len(watched):
        for name, process in watched.items():
            if name not in gone_at and is_gone(process):
                gone_at[name] = time.monotonic() - started
        proc.poll()
        time.sleep(0.05)
    assert proc.wait(5) == 0
    assert set(gone_at) == set(watched), f"still running after 15 s: {set(watched) - set(gone_at)}"
    assert max(gone_at.values()) < 10
    assert gone_at["postgres"] >= max(t for name, t in gone_at.items() if name != "postgres")
