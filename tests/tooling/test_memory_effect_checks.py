"""The memory-effect checks read what an answer shows, whatever month it names."""

from atlas.tooling.memory_effect import Answer, check


def test_may_written_out_is_a_long_date_not_a_short_one():
    # "9 May 2026" is the month's whole name: beside "7 September 2026" the dates are all long
    answer = Answer("- SO-1, 7 September 2026, $10.00\n- SO-2, 9 May 2026, $20.00")
    assert check("date_format", {"format": "long"}, answer).holds
    assert not check("date_format", {"format": "long"}, Answer("- SO-1, 7 Sep 2026\n- SO-2, 9 May 2026")).holds
