"""API infrastructure shared by every app: the RLS-aware base view and the one exception handler.

Session and token authentication (settings.REST_FRAMEWORK). The RLS middleware only sees
session users; token users are authenticated inside DRF's view, so every API view sets the
acting user itself (:class:`UserAPIView`). Another user's ids are 404, never 403.

Views call domain functions directly; :func:`exception_handler` (``EXCEPTION_HANDLER``)
turns what they raise into the API's documented answers:

- Django's ``ValidationError``: 400 with field messages (``{"field": [...]}``, or
  ``{"non_field_errors": [...]}`` for a message without a field);
- ``ObjectDoesNotExist`` and ``Http404``: 404; ``PermissionDenied``: 403;
- an outage (the database, the embedding model) or a value the database cannot hold: the
  same JSON as :mod:`atlas.middleware` gives outside a view (``{"detail", "code"}``, 503
  with ``Retry-After``, or 400).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, cast

from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, HttpResponseBase
from rest_framework import exceptions
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer
from rest_framework.views import APIView, set_rollback
from rest_framework.views import exception_handler as drf_exception_handler

from atlas.middleware import RETRY_AFTER_SECONDS, classify
from memory.rls import acting_user, set_acting_user

if TYPE_CHECKING:
    from atlas.types import AuthedRequest

logger = logging.getLogger(__name__)


class UserAPIView(APIView):
    """An API view that runs as the authenticated user for Row Level Security.

    DRF authenticates in ``initial()`` (token users are unknown to the middleware), so the
    acting user is switched there, inside a block that ``dispatch`` opens and always closes.
    """

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        # Whatever happens inside (an exception DRF re-raises included), the acting user the
        # view sets is undone when the request leaves it.
        with acting_user(None):
            return super().dispatch(request, *args, **kwargs)

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # authenticates and checks IsAuthenticated
        set_acting_user(cast("AuthedRequest", request).user.pk)

    def paginate(self, request: Request, queryset: Any, serializer_class: type[BaseSerializer]) -> Response:
        paginator = LimitOffsetPagination()
        page: list[Any] | None = paginator.paginate_queryset(queryset, request, view=self)
        return paginator.get_paginated_response(serializer_class(page, many=True).data)


def validation_error(exc: DjangoValidationError) -> exceptions.ValidationError:
    """A domain ``ValidationError`` as DRF's: field messages, or ``non_field_errors``."""
    if hasattr(exc, "error_dict"):
        return exceptions.ValidationError(exc.message_dict)
    return exceptions.ValidationError({"non_field_errors": exc.messages})


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Django's and the domain's exceptions as the API's documented responses (module doc).

    ``Http404`` and ``PermissionDenied`` are DRF's own mapping (404 and 403 with the message).
    None (a genuine bug) lets the exception reach Django: a 500.
    """
    if isinstance(exc, DjangoValidationError):
        exc = validation_error(exc)
    elif isinstance(exc, ObjectDoesNotExist):
        exc = Http404()  # an id that is not the user's (RLS hides it) is a 404, as everywhere
    failure = classify(exc)
    if failure is not None:
        set_rollback()
        logger.warning("request answered %s: %s", failure.status, failure.code)
        response = Response({"detail": failure.message, "code": failure.code}, status=failure.status)
        if failure.status == 503:
            response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return drf_exception_handler(exc, context)
