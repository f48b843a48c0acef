from django.apps import AppConfig


class ToolingConfig(AppConfig):
    """Evaluation and benchmark commands (eval_*, bench_*, measure_*): development tooling, apart
    from the product apps; nothing in atlas, memory or chat imports it."""

    name = "atlas.tooling"
    label = "tooling"
    verbose_name = "Evaluation and benchmarks"
