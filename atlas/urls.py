from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from atlas import health

urlpatterns = [
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    path("account/", include("atlas.accounts.urls")),
    path("api/", include("atlas.api_urls")),
    path("memory/", include("memory.urls")),
    path("", include("chat.urls")),
]
