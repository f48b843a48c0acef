"""Staff reviewers: the permissions the admin review needs, as one group, defined once."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission, User
from django.db import transaction

REVIEWER_GROUP = "Memory reviewers"
# View every review page; "forget" in the memory admin needs memory.delete_memory.
REVIEWER_PERMISSIONS = [
    ("memory", "view_memory"),
    ("memory", "delete_memory"),
    ("memory", "view_gatedecision"),
    ("memory", "view_suppression"),
    ("memory", "view_auditevent"),
    ("chat", "view_chatsession"),
    ("chat", "view_turn"),
    ("chat", "view_feedback"),
]


def reviewer_group() -> Group:
    """The reviewers' group with exactly REVIEWER_PERMISSIONS (created or brought up to date)."""
    group, _ = Group.objects.get_or_create(name=REVIEWER_GROUP)
    wanted = [
        Permission.objects.get(content_type__app_label=app, codename=codename) for app, codename in REVIEWER_PERMISSIONS
    ]
    group.permissions.set(wanted)
    return group


@transaction.atomic
def make_staff_reviewer(login: tuple[str, str, str, str], *, reset_password: bool = True) -> User:
    """Create or update a staff (not superuser) account in the reviewers' group."""
    username, first, last, password = login
    user, created = get_user_model().objects.get_or_create(
        username=username, defaults={"first_name": first, "last_name": last}
    )
    user.is_staff = True
    user.is_superuser = False
    if created or reset_password:
        if password:
            user.set_password(password)
        else:
            user.set_unusable_password()
    user.save()
    user.groups.add(reviewer_group())
    return user
