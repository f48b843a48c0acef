"""REST API for chat: sessions, turns (ask a question, get the answer with the notes it used
and their provenance) and feedback. Thin views over chat.turn and chat.feedback; every
lookup is scoped to the signed-in user, so another user's ids are 404."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from atlas.api import UserAPIView
from atlas.logcontext import log_step
from atlas.stages import stage
from chat import feedback as chat_feedback
from chat import turn as chat_turn
from chat.models import ChatSession, Turn
from chat.serializers import (
    AskInSerializer,
    FeedbackInSerializer,
    FeedbackOutSerializer,
    SessionOutSerializer,
    TurnOutSerializer,
)

if TYPE_CHECKING:
    from atlas.types import AuthedRequest

UNAVAILABLE = OpenApiResponse(description="The answer could not be produced right now; try again.")
CONFLICT = OpenApiResponse(description="The conversation was deleted while the question waited; nothing was saved.")


def own_session(request: AuthedRequest, pk: uuid.UUID) -> ChatSession:
    return get_object_or_404(ChatSession, pk=pk, user_id=request.user.pk)


def own_turn(request: AuthedRequest, pk: int) -> Turn:
    return get_object_or_404(Turn, pk=pk, user_id=request.user.pk)


class SessionListView(UserAPIView):
    @extend_schema(operation_id="sessions_list", responses=SessionOutSerializer(many=True))
    def get(self, request: AuthedRequest) -> Response:
        sessions = ChatSession.objects.filter(user_id=request.user.pk).order_by("-updated_at", "-created_at")
        return self.paginate(request, sessions, SessionOutSerializer)

    @extend_schema(operation_id="sessions_create", request=None, responses={201: SessionOutSerializer})
    def post(self, request: AuthedRequest) -> Response:
        session = chat_turn.start_session(request.user)
        return Response(SessionOutSerializer(session).data, status=status.HTTP_201_CREATED)


class SessionDetailView(UserAPIView):
    @extend_schema(operation_id="sessions_retrieve", responses=SessionOutSerializer)
    def get(self, request: AuthedRequest, pk: uuid.UUID) -> Response:
        return Response(SessionOutSerializer(own_session(request, pk)).data)


class SessionTurnsView(UserAPIView):
    @extend_schema(operation_id="sessions_turns_list", responses=TurnOutSerializer(many=True))
    def get(self, request: AuthedRequest, pk: uuid.UUID) -> Response:
        session = own_session(request, pk)
        turns = Turn.objects.filter(session=session, user_id=request.user.pk).order_by("created_at", "id")
        return self.paginate(request, turns, TurnOutSerializer)

    @extend_schema(
        operation_id="sessions_turns_ask",
        summary="Ask a question: the answer, with the notes it used and where they came from",
        request=AskInSerializer,
        responses={201: TurnOutSerializer, 409: CONFLICT, 503: UNAVAILABLE},
    )
    def post(self, request: AuthedRequest, pk: uuid.UUID) -> Response:
        session = own_session(request, pk)
        data = AskInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        # TurnFailed is the API's 503 turn_unavailable, ConversationDeleted its 409 (atlas.api.exception_handler).
        with log_step("turn"), stage("turn"):
            turn = chat_turn.ask(
                request.user,
                session=session,
                question=data.validated_data["question"],
                option_id=data.validated_data.get("option_id") or None,
            )
        return Response(TurnOutSerializer(turn).data, status=status.HTTP_201_CREATED)


class TurnDetailView(UserAPIView):
    @extend_schema(operation_id="turns_retrieve", responses=TurnOutSerializer)
    def get(self, request: AuthedRequest, pk: int) -> Response:
        return Response(TurnOutSerializer(own_turn(request, pk)).data)


class TurnFeedbackView(UserAPIView):
    @extend_schema(
        operation_id="turns_feedback",
        summary="Rate an answer: helpful, not helpful, or wrong (with what was wrong)",
        request=FeedbackInSerializer,
        responses={201: FeedbackOutSerializer},
    )
    def post(self, request: AuthedRequest, pk: int) -> Response:
        turn = own_turn(request, pk)
        data = FeedbackInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        feedback = chat_feedback.give_feedback(request.user, turn.pk, **data.validated_data)
        return Response(FeedbackOutSerializer(feedback).data, status=status.HTTP_201_CREATED)
