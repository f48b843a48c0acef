"""REST API for the signed-in user's memory: thin views, reads from memory.selectors, writes
through memory.store.

Every view runs as the authenticated user (atlas.api.UserAPIView); what the domain raises
becomes the documented answer in atlas.api.exception_handler. Another user's ids are 404.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import Http404, HttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from atlas import sentences
from atlas.api import UserAPIView
from memory import selectors, store, surfaces
from memory.models import Memory, Surface
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

if TYPE_CHECKING:
    from atlas.types import AuthedRequest


class MemoryListView(UserAPIView):
    @extend_schema(
        operation_id="memories_list",
        parameters=[MemoryListQuerySerializer],
        responses=MemoryOutSerializer(many=True),
        summary="What Atlas remembers about you (live notes unless asked otherwise)",
    )
    def get(self, request: AuthedRequest) -> Response:
        query = MemoryListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        memories = selectors.api_memories(request.user, **query.validated_data)
        response = self.paginate(request, memories, MemoryOutSerializer)
        surfaces.record_view(request.user, surface=Surface.API, notes=len(response.data["results"]))
        return response


class MemoryDetailView(UserAPIView):
    @extend_schema(operation_id="memories_retrieve", responses=MemoryOutSerializer)
    def get(self, request: AuthedRequest, pk: int) -> Response:
        return Response(MemoryOutSerializer(selectors.own_memory(request.user, pk)).data)

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
    def delete(self, request: AuthedRequest, pk: int) -> Response:
        query = ForgetMemoryQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        forgotten = store.forget_memory(request.user, pk, reason=query.validated_data["reason"], surface=Surface.API)
        if not forgotten:
            return Response(
                {"detail": sentences.ALREADY_FORGOTTEN, "code": "already_forgotten"}, status=status.HTTP_200_OK
            )
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
    def post(self, request: AuthedRequest, pk: int) -> Response:
        try:
            selectors.own_memory(request.user, pk)
            data = CorrectMemoryInSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            new = store.correct_memory(
                request.user, pk, statement=data.validated_data["statement"], surface=Surface.API
            )
        except Memory.DoesNotExist:  # store.MemoryGone included
            if selectors.was_forgotten(request.user, pk):
                return Response(
                    {"detail": sentences.FORGOTTEN_BEFORE_CORRECTION, "code": "forgotten"}, status=status.HTTP_410_GONE
                )
            raise Http404 from None
        return Response(MemoryOutSerializer(new).data, status=status.HTTP_201_CREATED)


class MemoryExportView(UserAPIView):
    @extend_schema(
        operation_id="memories_export",
        summary="Export everything Atlas remembers about you (JSON)",
        responses={(200, "application/json"): ExportOutSerializer},
    )
    def get(self, request: AuthedRequest) -> HttpResponse:
        payload = store.export_memories(request.user, fmt="json")
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
    def post(self, request: AuthedRequest) -> Response:
        data = DeleteEverythingInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        counts = store.delete_everything(request.user)
        return Response(DeleteEverythingOutSerializer(counts).data)


class MemoryControlView(UserAPIView):
    @extend_schema(operation_id="memory_control", responses=MemoryControlOutSerializer)
    def get(self, request: AuthedRequest) -> Response:
        return Response(MemoryControlOutSerializer({"paused": selectors.is_paused(request.user)}).data)


class MemoryPauseView(UserAPIView):
    paused = True

    @extend_schema(request=None, responses=MemoryControlOutSerializer)
    def post(self, request: AuthedRequest) -> Response:
        store.set_paused(request.user, paused=self.paused)
        return Response(MemoryControlOutSerializer({"paused": selectors.is_paused(request.user)}).data)


class MemoryResumeView(MemoryPauseView):
    paused = False
