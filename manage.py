#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys

# Commands that never touch the database: the embedded PostgreSQL is not started for them.
NO_DATABASE_COMMANDS = {
    "help",
    "version",
    "--help",
    "-h",
    "--version",
    "collectstatic",
    "compilemessages",
    "makemessages",
    "diffsettings",
    "startapp",
    "startproject",
}


def main():
    """Run administrative tasks."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "atlas.settings")
    try:
        from django.core.management import execute_from_command_line
    except ImportError as exc:
        raise ImportError(
            "Couldn't import Django. Are you sure it's installed and "
            "available on your PYTHONPATH environment variable? Did you "
            "forget to activate a virtual environment?"
        ) from exc
    if len(sys.argv) > 1 and sys.argv[1] not in NO_DATABASE_COMMANDS:
        from atlas.db import start_database

        start_database()
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
