"""The WSGI entry point: Django's ``application``, after starting the embedded PostgreSQL (unless
``DATABASE_URL`` names another server). Gunicorn serves it; ATLAS_WARM_UP loads the models first.
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "atlas.settings")

from atlas.db import start_database  # noqa: E402  (needs the settings module named above)

start_database()  # the embedded PostgreSQL, unless DATABASE_URL names another server
application = get_wsgi_application()

from django.conf import settings  # noqa: E402

if settings.ATLAS_WARM_UP:
    from atlas.serving import warm_up

    warm_up()
