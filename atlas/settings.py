"""Atlas settings: one file, every value from the environment.

Development defaults are safe for ``make run`` on 127.0.0.1. With ``DEBUG`` off, Atlas
refuses to start without a ``SECRET_KEY`` (``make serve`` generates one, in the serving
command). Importing this module reads the environment and writes nothing.
"""

import os
import sys
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from atlas import db

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def envint(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None


def envfloat(name: str, default: float) -> float:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, not {value!r}") from None


def envlist(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = envbool("DEBUG", True)
# Serving: the data folder holds collected static files and the secret key `make serve`
# generates (0600); ATLAS_ADDR is where it listens, with ATLAS_WEB_WORKERS gunicorn processes of
# ATLAS_WEB_THREADS threads each; ATLAS_WARM_UP loads the models before a worker takes requests.
# (The embedded database lives in ATLAS_PGDATA, atlas/db.py.)
ATLAS_DATA_DIR = Path(os.environ.get("ATLAS_DATA_DIR", BASE_DIR / ".atlas"))
ATLAS_ADDR = os.environ.get("ATLAS_ADDR", "127.0.0.1:8000")
ATLAS_WEB_WORKERS = envint("ATLAS_WEB_WORKERS", 2)
ATLAS_WEB_THREADS = envint("ATLAS_WEB_THREADS", 4)
ATLAS_WARM_UP = envbool("ATLAS_WARM_UP", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off; `make serve` generates one in ATLAS_DATA_DIR/secret_key."
        )
    SECRET_KEY = "atlas-development-only-key-never-use-in-production-0123456789"
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "atlas",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "knox",
    "axes",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "django_q",
    "memory",
    "chat",
    "atlas.accounts",
    "atlas.tooling",
]

MIDDLEWARE = [
    # Profiling only (ATLAS_STAGE_TIMERS): in-app CPU per request as Server-Timing (atlas/stages.py).
    "atlas.stages.StageTimerMiddleware",
    # First: a database or embedder outage anywhere below is a 503 in the site's words.
    "atlas.middleware.FailureMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "atlas.logcontext.LogContextMiddleware",
    # No cache (browser, proxy) keeps a response that holds a user's data.
    "atlas.middleware.PrivateResponseMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "memory.middleware.ActingUserMiddleware",
    # Last, as django-axes requires: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "atlas.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "atlas.sentences.context",
            ],
        },
    },
]

WSGI_APPLICATION = "atlas.wsgi.application"
ASGI_APPLICATION = "atlas.asgi.application"

# Database: the app connects as a non-owner, non-superuser role so RLS applies to it;
# migrations run as the owner (atlas/db.py). The embedded server is not started here: what
# needs a database calls atlas.db.start_database() (manage.py, wsgi/asgi, the test setup).
ATLAS_EMBEDDED_PG = db.embedded_settings(BASE_DIR, os.environ)
_default_db, ATLAS_DB_OWNER = db.database_settings(BASE_DIR, os.environ)
DATABASES = {"default": _default_db}
# Which process a PostgreSQL backend serves (pg_stat_activity; scripts/profile_load.py reads it).
_default_db["OPTIONS"].setdefault("application_name", db.application_name(sys.argv))
ATLAS_APP_DB_USER = _default_db["USER"]
ATLAS_APP_DB_PASSWORD = _default_db["PASSWORD"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Cache (session state lives here, 1 h TTL): Redis when REDIS_URL is set, else the database.
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL:
    # Redis down: no session state (a miss), never a failed turn (atlas/cache.py).
    CACHES = {
        "default": {
            "BACKEND": "atlas.cache.TolerantRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "socket_connect_timeout": envfloat("ATLAS_REDIS_TIMEOUT", 0.5),
                "socket_timeout": envfloat("ATLAS_REDIS_TIMEOUT", 0.5),
            },
        }
    }
else:
    # Django's database cache with a one-statement set (atlas/cache.py).
    CACHES = {"default": {"BACKEND": "atlas.cache.UpsertDatabaseCache", "LOCATION": "atlas_cache"}}

# Background work: django-q2 with the ORM broker (Redis when Q_REDIS is on and REDIS_URL set).
Q_CLUSTER = {
    "name": "atlas",
    "workers": envint("ATLAS_Q_WORKERS", 1),
    "timeout": 120,
    "retry": 180,
    "max_attempts": 3,
    "ack_failures": True,
    "catch_up": False,
    "sync": envbool("ATLAS_Q_SYNC", False),
    "orm": "default",
    "poll": 0.5,
    # A recycled worker loads spaCy and the embedding model again (seconds of CPU): django-q2's
    # default of every 500 tasks did that about once a minute under load; memory is bounded
    # by max_rss instead (kilobytes).
    "recycle": envint("ATLAS_Q_RECYCLE", 20_000),
    "max_rss": envint("ATLAS_Q_MAX_RSS_KB", 1_500_000),
    # Successful task results kept. To keep N, django-q2 reads every stored success (FOR UPDATE)
    # each time it saves one: at 250 its monitor spent 14 ms of CPU per gate task instead of 2
    # (issue 30), and the monitors of several workers waited on each other's lock. Nothing in
    # Atlas reads them (their admin pages are removed), so none are kept (-1); failures always
    # are. The load test keeps all (0) to reconcile.
    "save_limit": envint("ATLAS_Q_SAVE_LIMIT", -1),
}
if REDIS_URL and envbool("ATLAS_Q_REDIS", False):
    Q_CLUSTER.pop("orm")
    Q_CLUSTER["redis"] = REDIS_URL

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "chat:home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = ATLAS_DATA_DIR / "static"
# With DEBUG off (`make serve`), whitenoise serves collected files under hashed names.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Security: CSRF on every form, a strict CSP (no inline scripts or styles), safe cookies.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "object-src": [CSP.NONE],
}
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Secure cookies by default with DEBUG off, except when serving plain HTTP on loopback
# (ATLAS_ADDR 127.0.0.1 and no TLS proxy), where a browser would never send them back.
_SECURE_DEFAULT = not DEBUG and (
    envbool("ATLAS_BEHIND_TLS_PROXY", False) or ATLAS_ADDR.rsplit(":", 1)[0] not in ("127.0.0.1", "localhost", "[::1]")
)
SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", _SECURE_DEFAULT)
CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE", _SECURE_DEFAULT)
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if envbool("ATLAS_BEHIND_TLS_PROXY", False) else None

# Request size limits: oversized requests get a clear 400, not a crash.
DATA_UPLOAD_MAX_MEMORY_SIZE = envint("ATLAS_MAX_REQUEST_BYTES", 256 * 1024)

REST_FRAMEWORK = {
    # The token first, so a missing or revoked token is a 401 with WWW-Authenticate: Token.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "atlas.accounts.auth.PersonalTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_THROTTLE_RATES": {"token-create": os.environ.get("ATLAS_TOKEN_CREATE_RATE", "10/min")},
    # Throttles count the address the connection came from: X-Forwarded-For is the client's to
    # set, except the one entry a TLS proxy in front of Atlas appends (as django-axes reads it).
    "NUM_PROXIES": 1 if envbool("ATLAS_BEHIND_TLS_PROXY", False) else 0,
    # JSON only in production: the browsable API's inline style breaks the CSP, and it is a
    # second way into every endpoint that nobody reviews.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # Domain and outage exceptions become the documented answers in one place (atlas/api.py).
    "EXCEPTION_HANDLER": "atlas.api.exception_handler",
    # JSON that does not parse, or is nested absurdly deep, is a 400 (atlas/parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "atlas.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Atlas API",
    "DESCRIPTION": "Long-term memory a user can see, correct and erase; chat over business data.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "ENUM_NAME_OVERRIDES": {
        "MemoryKindEnum": "memory.models.Kind",
        "TurnKindEnum": "chat.models.Turn.Kind",
        "FeedbackKindEnum": "chat.models.Feedback.Kind",
    },
}

# Embeddings: a local model by default (offline, from installed packages); or an HTTP service.
ATLAS_EMBEDDER = os.environ.get("ATLAS_EMBEDDER", "minilm")
ATLAS_EMBEDDING_URL = os.environ.get("ATLAS_EMBEDDING_URL", "")
ATLAS_EMBEDDING_THREADS = envint("ATLAS_EMBEDDING_THREADS", 1)

# Responder: offline and deterministic by default; any OpenAI-compatible endpoint optionally.
ATLAS_LLM_BASE_URL = os.environ.get("ATLAS_LLM_BASE_URL", "")
ATLAS_LLM_MODEL = os.environ.get("ATLAS_LLM_MODEL", "")
ATLAS_LLM_API_KEY = os.environ.get("ATLAS_LLM_API_KEY", "")
ATLAS_LLM_TIMEOUT = envfloat("ATLAS_LLM_TIMEOUT", 30.0)

# In-app CPU per request stage in a Server-Timing header, for scripts/profile_load.py; off by default.
ATLAS_STAGE_TIMERS = envbool("ATLAS_STAGE_TIMERS", False)

# The hold-out experiment (design rule: hold-out): one in ten eligible turns answered without memory.
ATLAS_HOLDOUT = envbool("ATLAS_HOLDOUT", True)

# Logs carry the request id, the user id (never a name), the turn and the step (atlas/logcontext.py).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "context": {"()": "atlas.logcontext.ContextFilter"},
        # No request value in any line: exception messages, paths, SQL (atlas/logcontext.py).
        "redact": {"()": "atlas.logcontext.RedactFilter"},
    },
    "formatters": {
        "context": {
            "format": "%(asctime)s %(levelname)s %(name)s [request=%(request_id)s user=%(user_id)s "
            "turn=%(turn_id)s step=%(step)s] %(message)s"
        }
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "stream": sys.stderr,
            "filters": ["context", "redact"],
            "formatter": "context",
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("ATLAS_LOG_LEVEL", "WARNING")},
}

# Accounts (issue 13): personal API tokens (django-rest-knox, stored as SHA-512 digests) and
# login rate limiting (django-axes: per username and per address, separately).
KNOX_TOKEN_MODEL = "accounts.ApiToken"
# knox's own migrations would create its (swapped-out) table anyway, with a key to auth_user.
MIGRATION_MODULES = {"knox": None}
REST_KNOX = {"TOKEN_TTL": None, "AUTH_HEADER_PREFIX": "Token", "TOKEN_PREFIX": "atlas_"}
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = envint("ATLAS_LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = envfloat("ATLAS_LOGIN_COOLOFF_HOURS", 0.25)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_LOCKOUT_CALLABLE = "atlas.accounts.lockout.lockout_response"
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False  # its warnings would log usernames
AXES_IPWARE_PROXY_COUNT = 1 if envbool("ATLAS_BEHIND_TLS_PROXY", False) else None
