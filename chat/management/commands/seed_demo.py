from __future__ import annotations

import time
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from atlas.accounts.staff import make_staff_reviewer
from chat.demo_data import ANCHOR, DEMO_NOTES, build_corpus, load_corpus, seed_notes
from chat.models import Customer
from chat.tools import clear_customer_index
from memory.models import Memory
from memory.rls import acting_user

DEMO_USERS = [
    ("alice", "Alice", "Moreau", "atlas-demo-alice"),
    ("bob", "Bob", "Okafor", "atlas-demo-bob"),
]
# A staff reviewer, not a superuser: reads the admin review pages and may forget a memory.
DEMO_STAFF = ("sam", "Sam", "Reviewer", "atlas-demo-staff")
DEMO_LOGINS = "alice / atlas-demo-alice and bob / atlas-demo-bob; staff: sam / atlas-demo-staff at /admin/"


class Command(BaseCommand):
    help = (
        "Load the deterministic demo data set: two demo users with a few notes each, and the business "
        "corpus (customers, orders, contracts, documents). Each part is loaded only where it is missing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="Do nothing when the demo users and the corpus already exist (used by `make run`).",
        )
        parser.add_argument(
            "--reset-corpus",
            action="store_true",
            help="Delete the corpus and load it again (same data: the generator is deterministic).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        User = get_user_model()
        names = [u[0] for u in DEMO_USERS] + [DEMO_STAFF[0]]
        users_exist = User.objects.filter(username__in=names).count() == len(names)
        if options["if_empty"] and users_exist and Customer.objects.exists() and not options["reset_corpus"]:
            self.stdout.write("Demo data already loaded.")
            return

        users = {}
        with transaction.atomic():
            for username, first, last, password in DEMO_USERS:
                user, created = User.objects.get_or_create(
                    username=username, defaults={"first_name": first, "last_name": last}
                )
                if created or not options["if_empty"]:
                    user.set_password(password)
                    user.save()
                users[username] = user
            make_staff_reviewer(DEMO_STAFF, reset_password=not options["if_empty"])

        if Customer.objects.exists() and not options["reset_corpus"]:
            self.stdout.write("Corpus already loaded (use --reset-corpus to reload it).")
        else:
            counts = load_corpus(build_corpus(anchor=ANCHOR), replace=options["reset_corpus"])
            self.stdout.write(
                "Corpus: {customers} customers, {orders} orders, {contracts} contracts, {documents} documents.".format(
                    **counts
                )
            )
        clear_customer_index()

        for username, user in users.items():
            with acting_user(user.pk):
                has_notes = Memory.objects.filter(user=user).exists()
            if has_notes:
                continue  # never duplicate or overwrite what the user has since corrected or forgotten
            written = seed_notes(user, DEMO_NOTES.get(username, []))
            self.stdout.write(f"Notes for {username}: {written}.")

        elapsed = time.perf_counter() - started
        self.stdout.write(self.style.SUCCESS(f"Demo data loaded in {elapsed:.1f} s."))
