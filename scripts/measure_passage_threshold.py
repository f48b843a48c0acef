"""Measure the similarity above which a document passage answers a question no plan covers.

For labelled questions (tests/fixtures/passage_threshold_cases.jsonl: a passage answers them,
or nothing in the records does), print the planner's verdict and the cosine similarity of the
best document passage, then the gap between the two groups. The threshold in
chat/turn.py (PASSAGE_ANSWER_SIMILARITY) sits inside that gap, nearer the answerable side:
precision first. Run: .venv/bin/python scripts/measure_passage_threshold.py
"""

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "atlas.settings")

import django  # noqa: E402

django.setup()

from atlas.db import start_database  # noqa: E402

start_database()

from django.utils import timezone  # noqa: E402

from chat.corpus import search_documents  # noqa: E402
from chat.planner import Abstention, Context, plan_question  # noqa: E402


def main() -> None:
    cases = [json.loads(line) for line in (ROOT / "tests/fixtures/passage_threshold_cases.jsonl").open()]
    groups: dict[bool, list[float]] = {True: [], False: []}
    for case in cases:
        planned = plan_question(case["question"], Context(), today=timezone.localdate())
        verdict = planned.result.reason if isinstance(planned.result, Abstention) else planned.result.kind
        passages = sorted(search_documents(case["question"], limit=3), key=lambda p: -(p.similarity or 0.0))
        similarity = (passages[0].similarity or 0.0) if passages else 0.0
        title = passages[0].title if passages else ""
        groups[case["answerable"]].append(similarity)
        print(
            f"{similarity:.3f}  {'answers' if case['answerable'] else 'nothing':<8} {verdict:<16} "
            f"{case['question'][:60]:<60} {title[:40]}"
        )
    low, high = max(groups[False]), min(groups[True])
    print(f"\nbest passage, questions nothing answers: max {low:.3f}")
    print(
        f"best passage, questions a passage answers: min {high:.3f}, median "
        f"{sorted(groups[True])[len(groups[True]) // 2]:.3f}"
    )


if __name__ == "__main__":
    main()
