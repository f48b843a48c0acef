"""
WSGI config for atlas project.

It exposes the WSGI callable as a module-level variable named ``application``.

For more information on this file, see
https://docs.djangoproject.com/en/6.1/howto/deployment/wsgi/
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "atlas.settings")

application = get_wsgi_application()

if os.environ.get("ATLAS_WARM_UP"):
    from atlas.serving import warm_up

    warm_up()
