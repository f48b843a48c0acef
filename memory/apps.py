from django.apps import AppConfig


class MemoryConfig(AppConfig):
    name = "memory"
    verbose_name = "Long-term memory"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from memory import tasks  # noqa: F401  (connects the gate tasks' part of delete-everything)
        from memory.expiry import ensure_schedule

        post_migrate.connect(ensure_schedule, sender=self)

        from atlas import lexicon
        from memory.gate import vocabulary

        lexicon.register("memory.gate", lexicon.constant(lexicon.vocabulary_words(vocabulary)))
