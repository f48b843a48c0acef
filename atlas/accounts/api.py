"""API tokens over REST: create one with a username and password, list and revoke yours.

Creating a token authenticates through ``django.contrib.auth.authenticate`` with the request,
so django-axes counts failures per username and per address exactly as on the login page
(a locked-out client gets a 429 with the reason), and a DRF throttle caps the endpoint.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import authenticate
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.authentication import BaseAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle
from rest_framework.views import APIView

from atlas.accounts import tokens
from atlas.accounts.lockout import lockout_message
from atlas.accounts.models import ApiToken

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rest_framework.permissions import _SupportsHasPermission

    from atlas.types import AuthedRequest


class TokenCreateInSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=1024, trim_whitespace=False)
    name = serializers.CharField(max_length=tokens.MAX_NAME_CHARS)
    expiry = serializers.ChoiceField(choices=list(tokens.EXPIRY_CHOICES), default=tokens.DEFAULT_EXPIRY)


class TokenOutSerializer(serializers.ModelSerializer):
    class Meta:
        model = ApiToken
        fields = ["id", "name", "token_key", "created", "expiry", "last_used"]


class TokenCreatedOutSerializer(TokenOutSerializer):
    token = serializers.CharField(help_text="The token itself: shown once, never stored.")

    class Meta(TokenOutSerializer.Meta):
        fields = [*TokenOutSerializer.Meta.fields, "token"]


class TokenListView(APIView):
    throttle_scope = "token-create"

    def _creating(self) -> bool:
        return getattr(getattr(self, "request", None), "method", "") == "POST"

    def get_throttles(self) -> list[BaseThrottle]:
        return [ScopedRateThrottle()] if self._creating() else []

    def get_authenticators(self) -> list[BaseAuthentication]:
        # Creating authenticates by password (no session, so no CSRF); listing needs a login.
        return [] if self._creating() else super().get_authenticators()

    def get_permissions(self) -> Sequence[_SupportsHasPermission]:

        return [AllowAny()] if self._creating() else super().get_permissions()

    @extend_schema(responses=TokenOutSerializer(many=True), summary="Your API tokens (never the tokens themselves)")
    def get(self, request: AuthedRequest) -> Response:
        return Response(TokenOutSerializer(tokens.list_tokens(request.user), many=True).data)

    @extend_schema(
        request=TokenCreateInSerializer,
        responses={
            201: TokenCreatedOutSerializer,
            401: OpenApiResponse(description="Wrong username or password"),
            429: OpenApiResponse(description="Too many failed sign-ins, or too many requests"),
        },
        auth=[],
        summary="Create a personal API token with your username and password",
    )
    def post(self, request: Request) -> Response:
        data = TokenCreateInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        django_request = request._request
        user = authenticate(
            django_request, username=data.validated_data["username"], password=data.validated_data["password"]
        )
        if getattr(django_request, "axes_locked_out", False):
            return Response({"detail": lockout_message()}, status=status.HTTP_429_TOO_MANY_REQUESTS)
        if user is None:
            raise exceptions.AuthenticationFailed("Wrong username or password.")
        try:
            token, plain = tokens.create_token(
                user, name=data.validated_data["name"], expiry=data.validated_data["expiry"]
            )
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"name": exc.messages}) from None
        body = TokenOutSerializer(token).data | {"token": plain}
        return Response(body, status=status.HTTP_201_CREATED)

    def get_authenticate_header(self, request: Request) -> str:
        return "Token"


class TokenDetailView(APIView):
    @extend_schema(
        responses={204: None, 404: OpenApiResponse(description="Not one of your tokens")}, summary="Revoke a token"
    )
    def delete(self, request: AuthedRequest, pk: int) -> Response:
        try:
            tokens.revoke_token(request.user, token_id=pk)
        except ApiToken.DoesNotExist:
            raise exceptions.NotFound("No such token.") from None
        return Response(status=status.HTTP_204_NO_CONTENT)
