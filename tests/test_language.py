"""The shared language pipeline: loaded once from the pinned package, refused if its files change."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from atlas import language


def test_pipeline_splits_sentences_and_parses_subjects():
    doc = language.parse("What were Q3 sales? From now on, use fiscal quarters.")
    assert [s.text for s in doc.sents] == ["What were Q3 sales?", "From now on, use fiscal quarters."]
    doc = language.parse("I cover Wales now.")
    assert [t.text for t in doc if t.dep_ == "nsubj"] == ["I"]


def test_pipeline_is_loaded_once_without_the_entity_recogniser():
    assert language.nlp() is language.nlp()
    assert "ner" not in language.nlp().pipe_names
    assert {"tagger", "parser", "lemmatizer"} <= set(language.nlp().pipe_names)


def test_the_same_question_is_parsed_once_for_the_planner_and_the_gate():
    assert language.parse("Which contracts renew next month?") is language.parse("Which contracts renew next month?")


def test_a_changed_pipeline_is_refused(monkeypatch):
    # The loader itself, not the cached pipeline: clearing the cache would load a second
    # pipeline whose vocabulary the gate's matchers, built on the first, cannot read (spaCy
    # E018 in every gate test that ran after this one in the same process).
    monkeypatch.setattr(language, "PIPELINE_SHA256", "0" * 64)
    with pytest.raises(ImproperlyConfigured, match="does not match"):
        language._load.__wrapped__()


def test_a_typographic_apostrophe_is_read_as_a_straight_one():
    from atlas.language import parse

    assert [t.lower_ for t in parse("I don\u2019t want charts")] == ["i", "do", "n't", "want", "charts"]
    assert parse("I\u2019m away").text == "I'm away"
