from django.apps import AppConfig


class MemoryConfig(AppConfig):
    name = "memory"
    verbose_name = "Long-term memory"

    def ready(self) -> None:
        from memory import tasks  # noqa: F401  (connects the gate tasks' part of delete-everything)
