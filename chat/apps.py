from django.apps import AppConfig


class ChatConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "chat"

    def ready(self) -> None:
        from atlas import lexicon
        from chat import (
            signals,  # noqa: F401  (connects chat's part of delete-everything)
            vocabulary,
        )
        from chat.tools import city_names, corpus_names, customer_names, segment_names

        lexicon.register("chat.vocabulary", lexicon.constant(lexicon.vocabulary_words(vocabulary)))
        lexicon.register("chat.corpus", corpus_names, names=True)
        lexicon.register(lexicon.CUSTOMER_NAMES, customer_names, names=True)
        lexicon.register(lexicon.CITY_NAMES, city_names, names=True)
        lexicon.register(lexicon.SEGMENT_NAMES, segment_names, names=True)
