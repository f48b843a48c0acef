"""The ASGI entry point: Django's ``application``, after starting the embedded PostgreSQL (unless
``DATABASE_URL`` names another server).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "atlas.settings")

from atlas.db import start_database  # noqa: E402  (needs the settings module named above)

start_database()  # the embedded PostgreSQL, unless DATABASE_URL names another server
application = get_asgi_application()
