"""Browser tests: Debian's Chromium driven by Playwright against pytest-django's live server.

Nothing downloads: Playwright's own browsers are never installed; we launch /usr/bin/chromium
(`make browser` installs it). Each test gets a fresh context (cookies, storage) and fails if
the page logged a Content Security Policy violation or a JavaScript error.
"""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

# A page's first answer in a process loads the language pipeline and the speller: on a loaded
# two-core machine that passes Playwright's default 5 s (the actions' own timeout is 15 s too).
expect.set_options(timeout=15_000)

# The live server and the test share one process; Playwright's sync API runs an event loop.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path(os.environ.get("ATLAS_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
# `make screenshots` writes the README's pictures into docs/; a plain test run keeps the tree clean.
SCREENSHOT_DIR = os.environ.get("ATLAS_SCREENSHOT_DIR", "")


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: run `make browser` (apt-get install chromium).")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


# A CSP violation fires `securitypolicyviolation`; report it as a console error so the test
# fails even where Chromium would only warn (an init script runs outside the page's CSP).
REPORT_CSP_VIOLATIONS = """
document.addEventListener('securitypolicyviolation', (event) => {
  console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
});
"""


def watch_console(context) -> None:
    context.add_init_script(REPORT_CSP_VIOLATIONS)


def collect_problems(page) -> list[str]:
    """Console errors and page errors of ``page``, gathered as they happen."""
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on(
        "console",
        lambda message: problems.append(f"console {message.type}: {message.text}") if message.type == "error" else None,
    )
    return problems


def watched_page(browser, live_server, *, allowed: tuple[str, ...] = (), seen: list[str] | None = None):
    """A page whose console errors and CSP violations fail the test, except the ``allowed`` lines
    (what the browser reported is added to ``seen``)."""
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    watch_console(context)
    page = context.new_page()
    problems = collect_problems(page)
    yield page
    context.close()
    if seen is not None:
        seen.extend(problems)
    assert [p for p in problems if p not in allowed] == [], "the browser reported errors (CSP violations or scripts)"


@pytest.fixture
def page(browser, live_server, transactional_db):
    yield from watched_page(browser, live_server)


@pytest.fixture
def log_in(page):
    """Log in through the login form, as a person would."""

    def log_in(user):
        page.goto("/login/")
        page.get_by_label("Username").fill(user.get_username())
        page.get_by_label("Password").fill("pw-" + user.get_username())
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url("**/")

    return log_in


@pytest.fixture
def screenshot(page, tmp_path):
    def screenshot(name: str) -> Path:
        folder = Path(SCREENSHOT_DIR) if SCREENSHOT_DIR else tmp_path
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / name
        page.screenshot(path=str(path), full_page=True, caret="initial")  # "hide" injects a style: CSP
        return path

    return screenshot


@pytest.fixture
def corpus(transactional_db):
    from chat.demo_data import build_corpus, load_corpus
    from chat.tools import clear_customer_index

    load_corpus(build_corpus())
    clear_customer_index()
    yield
    clear_customer_index()


@pytest.fixture(autouse=True)
def memory_on_every_turn(settings):
    """The browser tests open the notes panel under an answer: the 10% hold-out (hashed on the
    turn id, which depends on what ran before in this worker) is off here; it has its own tests."""
    settings.ATLAS_HOLDOUT = False
