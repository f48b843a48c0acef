"""Make a real staff account for the admin review (staff, not superuser, reviewers' group)."""

from __future__ import annotations

import getpass
from typing import Any

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from atlas.accounts.staff import make_staff_reviewer


class Command(BaseCommand):
    help = "Create a staff reviewer (or make an existing user one); asks for the password."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--keep-password", action="store_true", help="an existing user keeps their password")

    def handle(self, *args: Any, **options: Any) -> None:
        password = ""
        if not options["keep_password"]:
            password = getpass.getpass("Password: ")
            if password != getpass.getpass("Password (again): "):
                raise CommandError("The passwords differ; nothing was changed.")
            try:
                validate_password(password)
            except ValidationError as exc:
                raise CommandError(" ".join(exc.messages)) from None
        user = make_staff_reviewer((options["username"], "", "", password), reset_password=not options["keep_password"])
        self.stdout.write(self.style.SUCCESS(f"{user.get_username()} is a staff reviewer (not a superuser)."))
