from django.urls import path

from atlas.accounts import views

app_name = "accounts"
urlpatterns = [
    path("tokens/", views.token_page, name="tokens"),
    path("tokens/<int:pk>/revoke/", views.revoke, name="revoke"),
]
