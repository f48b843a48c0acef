"""The staff reviewer: reaches the admin review pages, is not a superuser; others cannot."""

import pytest
from django.core.management import call_command
from django.test import Client

from atlas.accounts.staff import REVIEWER_GROUP, make_staff_reviewer
from chat.management.commands.seed_demo import DEMO_STAFF
from memory import store


@pytest.fixture
def reviewer(db):
    return make_staff_reviewer(("rita", "Rita", "Review", "pw-rita-reviewer"))


def test_reviewer_reads_review_pages_and_may_forget_but_is_no_superuser(reviewer, alice):
    store.write_memory(alice, kind="preference", statement="Prefers answers as a table", author="user")
    assert reviewer.is_staff and not reviewer.is_superuser
    assert reviewer.groups.filter(name=REVIEWER_GROUP).exists()
    client = Client()
    client.force_login(reviewer)
    for url in ("/admin/", "/admin/memory/memory/", "/admin/memory/gatedecision/", "/admin/chat/turn/"):
        assert client.get(url).status_code == 200, url
    page = client.get("/admin/memory/memory/").content.decode()
    assert "Prefers answers as a table" in page
    assert "Forget (with suppression)" in page
    assert client.get("/admin/auth/user/").status_code == 403  # accounts are not theirs to manage


def test_non_staff_user_cannot_reach_the_admin(alice):
    client = Client()
    client.force_login(alice)
    response = client.get("/admin/memory/memory/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_demo_data_creates_the_documented_staff_login(transactional_db):
    call_command("seed_demo", "--if-empty", stdout=open("/dev/null", "w"))
    username, _, _, password = DEMO_STAFF
    client = Client()
    assert (
        client.post("/admin/login/", {"username": username, "password": password, "next": "/admin/"}).status_code == 302
    )
    assert client.get("/admin/memory/memory/").status_code == 200
