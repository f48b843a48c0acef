"""The REST API under /api/: memory, chat, the OpenAPI 3 schema and its docs page."""

from django.templatetags.static import static
from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from atlas.accounts import api as accounts_api
from chat import api as chat_api
from memory import api as memory_api


class ApiSchemaView(SpectacularAPIView):
    """The OpenAPI schema: a public document, so it reads no credentials (a malformed token
    header is not its business)."""

    authentication_classes: list = []


class ApiDocsView(SpectacularSwaggerSplitView):
    """Swagger UI from our own static files (drf-spectacular-sidecar): no CDN, and the init
    script is a separate same-origin request, so the strict CSP ('self') holds. GET only: an
    OPTIONS request would ask its HTML renderer for a template it does not have (a 500)."""

    http_method_names = ["get", "head"]
    authentication_classes: list = []  # a public page, as the schema

    @staticmethod
    def _swagger_ui_resource(filename: str) -> str:
        return static(f"drf_spectacular_sidecar/swagger-ui-dist/{filename}")

    @staticmethod
    def _swagger_ui_favicon() -> str:
        return static("drf_spectacular_sidecar/swagger-ui-dist/favicon-32x32.png")


app_name = "api"
urlpatterns = [
    path("schema/", ApiSchemaView.as_view(), name="schema"),
    path("docs/", ApiDocsView.as_view(url_name="api:schema"), name="docs"),
    # Personal API tokens
    path("tokens/", accounts_api.TokenListView.as_view(), name="token-list"),
    path("tokens/<int:pk>/", accounts_api.TokenDetailView.as_view(), name="token-detail"),
    # Memory
    path("memories/", memory_api.MemoryListView.as_view(), name="memory-list"),
    path("memories/export/", memory_api.MemoryExportView.as_view(), name="memory-export"),
    path(
        "memories/delete-everything/",
        memory_api.MemoryDeleteEverythingView.as_view(),
        name="memory-delete-everything",
    ),
    path("memories/<int:pk>/", memory_api.MemoryDetailView.as_view(), name="memory-detail"),
    path("memories/<int:pk>/correct/", memory_api.MemoryCorrectView.as_view(), name="memory-correct"),
    path("memory/control/", memory_api.MemoryControlView.as_view(), name="memory-control"),
    path("memory/pause/", memory_api.MemoryPauseView.as_view(), name="memory-pause"),
    path("memory/resume/", memory_api.MemoryResumeView.as_view(), name="memory-resume"),
    # Chat
    path("sessions/", chat_api.SessionListView.as_view(), name="session-list"),
    path("sessions/<uuid:pk>/", chat_api.SessionDetailView.as_view(), name="session-detail"),
    path("sessions/<uuid:pk>/turns/", chat_api.SessionTurnsView.as_view(), name="session-turns"),
    path("turns/<int:pk>/", chat_api.TurnDetailView.as_view(), name="turn-detail"),
    path("turns/<int:pk>/feedback/", chat_api.TurnFeedbackView.as_view(), name="turn-feedback"),
]
