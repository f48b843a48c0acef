"""The personal API token page: create (shown once), list, revoke."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from atlas.accounts import tokens
from atlas.accounts.models import ApiToken

if TYPE_CHECKING:
    from atlas.types import AuthedHttpRequest


def _page(
    request: AuthedHttpRequest,
    *,
    new_token: str = "",
    new_name: str = "",
    errors: list[str] | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {
        "tokens": tokens.list_tokens(request.user),
        "expiry_choices": list(tokens.EXPIRY_CHOICES),
        "default_expiry": tokens.DEFAULT_EXPIRY,
        "new_token": new_token,
        "new_name": new_name,
        "errors": errors or [],
        "name": request.POST.get("name", "") if errors else "",
    }
    response = render(request, "accounts/tokens.html", context, status=status)
    response["Cache-Control"] = "no-store"  # the page may hold a token shown once
    return response


@login_required
@require_http_methods(["GET", "POST"])
def token_page(request: AuthedHttpRequest) -> HttpResponse:
    if request.method == "GET":
        return _page(request)
    try:
        token, plain = tokens.create_token(
            request.user, name=request.POST.get("name", ""), expiry=request.POST.get("expiry", "")
        )
    except ValidationError as exc:
        return _page(request, errors=exc.messages, status=400)
    return _page(request, new_token=plain, new_name=token.name, status=201)


@login_required
@require_POST
def revoke(request: AuthedHttpRequest, pk: int) -> HttpResponse:
    try:
        tokens.revoke_token(request.user, token_id=pk)
    except ApiToken.DoesNotExist:
        raise Http404("No such token.") from None
    messages.success(request, "Token revoked. Anything using it is refused from now on.")
    return redirect("accounts:tokens")
