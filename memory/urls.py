from django.urls import path

from memory import views

app_name = "memory"
urlpatterns = [
    path("", views.memory_page, name="page"),
    path("<int:pk>/forget/", views.forget, name="forget"),
    path("<int:pk>/forget/reason/", views.forget_reason, name="forget-reason"),
    path("<int:pk>/correct/", views.correct, name="correct"),
    path("export/", views.export, name="export"),
    path("pause/", views.pause, name="pause"),
    path("delete-everything/", views.delete_everything, name="delete-everything"),
]
