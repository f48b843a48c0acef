"""bench_session: bounded prompts stay flat over six turns and far below replaying the history."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from chat.models import ChatSession, Customer, Turn


@pytest.mark.django_db
def test_bench_needs_the_demo_data():
    # In any order: the module's corpus fixture may have committed the data already, so the
    # test removes it inside its own transaction (rolled back afterwards).
    Customer.objects.all().delete()
    with pytest.raises(CommandError, match="seed_demo"):
        call_command("bench_session", turns=6, stdout=StringIO())


@pytest.mark.django_db
def test_six_turns_stay_flat_and_five_times_below_replay(corpus):
    out = StringIO()
    call_command("bench_session", turns=6, repeat=1, json=True, stdout=out)
    report = json.loads(out.getvalue())
    turns = report["turns"]
    assert [t["turn"] for t in turns] == [1, 2, 3, 4, 5, 6]
    assert all(t["kind"] == "answer" for t in turns)
    first, last = turns[0], turns[-1]
    assert last["prompt_tokens"] <= 1.10 * first["prompt_tokens"]
    assert last["replay_tokens"] >= 5 * last["prompt_tokens"]
    assert [t["replay_tokens"] for t in turns] == sorted(t["replay_tokens"] for t in turns)
    assert report["summary"]["targets_met"]["last_over_first_at_most_1_10"]
    # The bench leaves nothing behind.
    assert not Turn.objects.exists() and not ChatSession.objects.exists()
