"""REST API for the signed-in user's memory: thin views over memory.store.

Session and token authentication (settings.REST_FRAMEWORK). The RLS middleware only sees
session users; token users are authenticated inside DRF's view, so every API view sets the
acting user itself (:class:`UserAPIView`). Another user's ids are 404, never 403.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from memory import store, surfaces
from memory.models import Memory, Surface
from memory.rls import acting_user, set_acting_user
from memory.serializers import (
    CorrectMemoryInSerializer,
    DeleteEverythingInSerializer,
    DeleteEverythingOutSerializer,
    ExportOutSerializer,
    ForgetMemoryQuerySerializer,
    MemoryControlOutSerializer,
    MemoryListQuerySerializer,
    MemoryOutSerializer,
)

ALREADY_FORGOTTEN = "This note was already forgotten."
FORGOTTEN_BEFORE_CORRECTION = "This note was forgotten, so there is nothing to correct."


class UserAPIView(APIView):
    """An API view that runs as the authenticated user for Row Level Security.

    DRF authenticates in ``initial()`` (token users are unknown to the middleware), so the
    acting user is switched there, inside a block that ``dispatch`` opens and always closes.
    """

    def dispatch(self, request, *args: Any, **kwargs: Any):
        # Whatever happens inside (an exception DRF re-raises included), the acting user the
        # view sets is undone when the request leaves it.
        with acting_user(None):
            return super().dispatch(request, *args, **kwargs)

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        set_acting_user(request.user.pk)

    def paginate(self, request: Request, queryset, serializer_class) -> Response:
        paginator = LimitOffsetPagination()
        page = paginator.paginate_queryset(queryset, request, view=self)
        return paginator.get_paginated_response(serializer_class(page, many=True).data)


def call_domain[T](func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Call a domain function; its ``ValidationError`` becomes a 400 with field messages."""
    try:
        return func(*args, **kwargs)
    except DjangoValidationError as exc:
        if hasattr(exc, "error_dict"):
            raise serializers.ValidationError(exc.message_dict) from exc
        raise serializers.ValidationError({"non_field_errors": exc.messages}) from exc


def own_memory(request: Request, pk: int) -> Memory:
    return get_object_or_404(Memory.objects.defer("embedding"), pk=pk, user_id=request.user.pk)


class MemoryListView(UserAPIView):
    @extend_schema(
        operation_id="memories_list",
        parameters=[MemoryListQuerySerializer],
        responses=MemoryOutSerializer(many=True),
        summary="What Atlas remembers about you (live notes unless asked otherwise)",
    )
    def get(self, request: Request) -> Response:
        query = MemoryListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        filters = query.validated_data
        memories = Memory.objects.filter(user_id=request.user.pk).defer("embedding")
        if not filters["include_superseded"]:
            memories = memories.filter(superseded_by__isnull=True)
        if not filters["include_expired"]:
            memories = memories.unexpired()
        if "kind" in filters:
            memories = memories.filter(kind=filters["kind"])
        if "author" in filters:
            memories = memories.filter(author=filters["author"])
        response = self.paginate(request, memories.order_by("-created_at", "-pk"), MemoryOutSerializer)
        surfaces.record_view(request.user, surface=Surface.API, notes=len(response.data["results"]))
        return response


class MemoryDetailView(UserAPIView):
    @extend_schema(operation_id="memories_retrieve", responses=MemoryOutSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return Response(MemoryOutSerializer(own_memory(request, pk)).data)

    @extend_schema(
        operation_id="memories_forget",
        summary="Forget a memory: deleted, and suppressed so the rules do not write it again",
        parameters=[ForgetMemoryQuerySerializer],
        responses={
            204: None,
            200: OpenApiResponse(description="Already forgotten (a repeated or parallel forget)"),
            404: OpenApiResponse(description="Not found"),
        },
    )
    def delete(self, request: Request, pk: int) -> Response:
        query = ForgetMemoryQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        try:
            forgotten = call_domain(
                store.forget_memory, request.user, pk, reason=query.validated_data["reason"], surface=Surface.API
            )
        except Memory.DoesNotExist:
            raise Http404 from None
        if not forgotten:
            return Response({"detail": ALREADY_FORGOTTEN, "code": "already_forgotten"}, status=status.HTTP_200_OK)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MemoryCorrectView(UserAPIView):
    @extend_schema(
        operation_id="memories_correct",
        summary="Correct a memory: a new note in your words replaces it",
        request=CorrectMemoryInSerializer,
        responses={
            201: MemoryOutSerializer,
            410: OpenApiResponse(description="The note was forgotten meanwhile"),
            503: OpenApiResponse(description="The embedding model is unavailable; nothing was saved"),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        try:
            own_memory(request, pk)
            data = CorrectMemoryInSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            new = call_domain(
                store.correct_memory, request.user, pk, statement=data.validated_data["statement"], surface=Surface.API
            )
        except (store.MemoryGone, Http404, Memory.DoesNotExist):
            if store.was_forgotten(request.user, pk):
                return Response(
                    {"detail": FORGOTTEN_BEFORE_CORRECTION, "code": "forgotten"}, status=status.HTTP_410_GONE
                )
            raise Http404 from None
        return Response(MemoryOutSerializer(new).data, status=status.HTTP_201_CREATED)


class MemoryExportView(UserAPIView):
    @extend_schema(
        operation_id="memories_export",
        summary="Export everything Atlas remembers about you (JSON, importable)",
        responses={(200, "application/json"): ExportOutSerializer},
    )
    def get(self, request: Request) -> HttpResponse:
        payload = call_domain(store.export_memories, request.user, fmt="json")
        response = HttpResponse(payload, content_type="application/json")
        response["Content-Disposition"] = 'attachment; filename="atlas-memory.json"'
        return response


class MemoryDeleteEverythingView(UserAPIView):
    @extend_schema(
        operation_id="memories_delete_everything",
        summary="Delete everything Atlas remembers about you",
        request=DeleteEverythingInSerializer,
        responses=DeleteEverythingOutSerializer,
    )
    def post(self, request: Request) -> Response:
        data = DeleteEverythingInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        counts = call_domain(store.delete_everything, request.user)
        return Response(DeleteEverythingOutSerializer(counts).data)


class MemoryControlView(UserAPIView):
    @extend_schema(operation_id="memory_control", responses=MemoryControlOutSerializer)
    def get(self, request: Request) -> Response:
        return Response(MemoryControlOutSerializer({"paused": store.is_paused(request.user)}).data)


class MemoryPauseView(UserAPIView):
    paused = True

    @extend_schema(request=None, responses=MemoryControlOutSerializer)
    def post(self, request: Request) -> Response:
        call_domain(store.set_paused, request.user, paused=self.paused)
        return Response(MemoryControlOutSerializer({"paused": store.is_paused(request.user)}).data)


class MemoryResumeView(MemoryPauseView):
    paused = False
