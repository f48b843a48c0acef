from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

DEMO_USERS = [
    ("alice", "Alice", "Moreau", "atlas-demo-alice"),
    ("bob", "Bob", "Okafor", "atlas-demo-bob"),
]


class Command(BaseCommand):
    help = "Load the deterministic demo data set: two demo users (and the business corpus)."

    def add_arguments(self, parser):
        parser.add_argument("--if-empty", action="store_true", help="Do nothing when demo users already exist.")

    def handle(self, *args, **options):
        User = get_user_model()
        if options["if_empty"] and User.objects.filter(username=DEMO_USERS[0][0]).exists():
            self.stdout.write("Demo data already loaded.")
            return
        with transaction.atomic():
            for username, first, last, password in DEMO_USERS:
                user, _ = User.objects.get_or_create(
                    username=username, defaults={"first_name": first, "last_name": last}
                )
                user.set_password(password)
                user.save()
        self.stdout.write(self.style.SUCCESS("Demo data loaded."))
