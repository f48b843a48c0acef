"""Personal API tokens: the page, the API, hashing, expiry, revocation and login limits."""

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from atlas.accounts.models import ApiToken
from memory import store


@pytest.fixture
def alice_page(alice):
    client = Client()
    client.force_login(alice)
    return client


def token_client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def create_on_page(client: Client, name: str = "laptop", expiry: str = "30") -> str:
    response = client.post("/account/tokens/", {"name": name, "expiry": expiry})
    assert response.status_code == 201
    assert "no-store" in response["Cache-Control"]
    return response.context["new_token"]


def test_token_made_on_the_page_works_once_shown_and_is_stored_hashed(alice_page, alice):
    store.write_memory(alice, kind="preference", statement="Prefers answers as a table", author="user")
    token = create_on_page(alice_page)
    assert token.startswith("atlas_")

    row = ApiToken.objects.get(user=alice)
    assert row.name == "laptop"
    assert token not in {row.digest, row.token_key} and len(row.digest) == 128
    assert row.expiry.date() == (timezone.now() + timedelta(days=30)).date()
    listed = alice_page.get("/account/tokens/").content.decode()
    assert "laptop" in listed and token not in listed and "never used" in listed

    response = token_client(token).get("/api/memories/")
    assert response.status_code == 200
    assert [m["statement"] for m in response.json()["results"]] == ["Prefers answers as a table"]
    row.refresh_from_db()
    assert row.last_used is not None
    assert "last used" in alice_page.get("/account/tokens/").content.decode()


def test_revoked_token_is_refused(alice_page, alice):
    token = create_on_page(alice_page)
    row = ApiToken.objects.get(user=alice)
    response = alice_page.post(f"/account/tokens/{row.pk}/revoke/", follow=True)
    assert "Token revoked" in response.content.decode()
    assert not ApiToken.objects.filter(user=alice).exists()
    assert token_client(token).get("/api/memories/").status_code == 401


def test_expired_token_is_refused(alice_page):
    token = create_on_page(alice_page, expiry="30")
    with time_machine.travel(timezone.now() + timedelta(days=31)):
        assert token_client(token).get("/api/memories/").status_code == 401


def test_another_users_token_cannot_be_revoked(alice_page, bob, client_for):
    bob_token = ApiToken.objects.create(user=bob, name="bob's script")[0]
    assert alice_page.post(f"/account/tokens/{bob_token.pk}/revoke/").status_code == 404
    assert client_for(bob).get("/api/tokens/").json()[0]["name"] == "bob's script"
    assert ApiToken.objects.filter(pk=bob_token.pk).exists()


def test_token_page_needs_a_name_and_a_login(alice_page):
    response = alice_page.post("/account/tokens/", {"name": "  ", "expiry": "30"})
    assert response.status_code == 400
    assert "Give the token a name" in response.content.decode()
    assert not ApiToken.objects.exists()
    assert Client().get("/account/tokens/").status_code == 302
    assert alice_page.get("/account/tokens/1/revoke/").status_code == 405


def test_api_creates_lists_and_revokes_tokens(alice):
    response = APIClient().post(
        "/api/tokens/", {"username": "alice", "password": "pw-alice", "name": "cli", "expiry": "never"}, format="json"
    )
    assert response.status_code == 201
    body = response.json()
    assert body["expiry"] is None and body["name"] == "cli"
    client = token_client(body["token"])
    assert [t["name"] for t in client.get("/api/tokens/").json()] == ["cli"]
    assert "token" not in client.get("/api/tokens/").json()[0]
    assert client.delete(f"/api/tokens/{body['id']}/").status_code == 204
    assert client.get("/api/tokens/").status_code == 401
    assert APIClient().get("/api/tokens/").status_code in (401, 403)


def test_api_refuses_a_wrong_password_and_locks_out_at_the_fifth(alice):
    client = APIClient()
    codes = [
        client.post("/api/tokens/", {"username": "alice", "password": "nope", "name": "x"}, format="json").status_code
        for _ in range(5)
    ]
    assert codes == [401, 401, 401, 401, 429]
    locked = client.post("/api/tokens/", {"username": "alice", "password": "pw-alice", "name": "x"}, format="json")
    assert locked.status_code == 429
    assert "Too many failed sign-ins" in locked.json()["detail"]
    assert not ApiToken.objects.exists()


def test_login_page_locks_out_one_address_across_usernames(alice, bob):
    client = Client()
    codes = [client.post("/login/", {"username": name, "password": "wrong"}).status_code for name in "abcde"]
    assert codes == [200, 200, 200, 200, 429]  # the form again with its error, then the lockout
    locked = client.post("/login/", {"username": "bob", "password": "pw-bob"})
    assert locked.status_code == 429
    assert "Too many failed sign-ins for this account or from this address" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    # Another address may still sign in as a user that was not attacked from it.
    other = Client(REMOTE_ADDR="10.0.0.9")
    assert other.post("/login/", {"username": "bob", "password": "pw-bob"}).status_code == 302
