from django.apps import AppConfig


class AtlasConfig(AppConfig):
    name = "atlas"
    verbose_name = "Atlas"

    def ready(self) -> None:
        from atlas import checks  # noqa: F401  (registers the system checks)
