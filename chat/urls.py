from django.urls import path

from chat import views

app_name = "chat"
urlpatterns = [
    path("", views.home, name="home"),
    path("ask/", views.ask, name="ask-new"),
    path("c/<uuid:session_id>/", views.conversation, name="session"),
    path("c/<uuid:session_id>/ask/", views.ask, name="ask"),
    path("turns/<int:turn_id>/feedback/", views.feedback, name="feedback"),
    path("turns/<int:turn_id>/gate/", views.gate_status, name="gate-status"),
    path("turns/<int:turn_id>/notes/<int:memory_id>/forget/", views.forget_note, name="forget-note"),
    path(
        "turns/<int:turn_id>/notes/<int:memory_id>/forget/reason/", views.forget_note_reason, name="forget-note-reason"
    ),
    path("turns/<int:turn_id>/notes/<int:memory_id>/correct/", views.correct_note, name="correct-note"),
    path("turns/<int:turn_id>/notes/viewed/", views.notes_viewed, name="notes-viewed"),
]
