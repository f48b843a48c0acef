"""The normaliser reads text as people type it at work: shorthand spelt out, typos corrected
against the domain lexicon and English, names and places written as names, and every change
recorded (design rule: text is normalised once, before any rule reads it)."""

import pytest

from atlas.normalise import normalise, visible

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("whats the status of order SO-88000?", "what's the status of order SO-88000?"),
        ("im in dubai till thursday", "I'm in Dubai until Thursday"),
        ("dont ever gimme the full list", "don't ever give me the full list"),
        ("acct code for harborview pls", "account code for harborview please"),
        ("how much did we book ytd", "how much did we book year to date"),
        ("remember my SAP pw: x", "remember my SAP password: x"),
        ("back sat, tmrw im out", "back Saturday, tomorrow I'm out"),
        ("dumb q, thx", "dumb question, thanks"),
    ],
)
def test_shorthand_and_contractions_are_spelt_out(typed, read):
    assert normalise(typed).text == read


@pytest.mark.parametrize(
    ("typed", "read", "said"),
    [
        (
            "which custmers are in Leeds",
            "which customers are in Leeds",
            "Read \u2018custmers\u2019 as \u2018customers\u2019.",
        ),
        ("the credit limt for them", "the credit limit for them", "Read \u2018limt\u2019 as \u2018limit\u2019."),
        (
            "dont ever show the full list agian",
            "don't ever show the full list again",
            "Read \u2018agian\u2019 as \u2018again\u2019.",
        ),
        ("leave the notes feild out", "leave the notes field out", "Read \u2018feild\u2019 as \u2018field\u2019."),
        ("evry time use tabels", "every time use tables", "Read \u2018evry\u2019 as \u2018every\u2019."),
    ],
)
def test_misspelt_words_are_read_as_the_closest_word_and_said(typed, read, said):
    result = normalise(typed)
    assert result.text == read
    assert result.corrections[0].said() == said


def test_misspelt_customer_names_are_read_from_the_business_data(corpus):
    assert normalise("how much did kestral foods spend").text == "how much did Kestrel Foods spend"
    assert normalise("where is lindquist robotics based").text == "where is Lindqvist Robotics based"


@pytest.mark.parametrize(
    "typed",
    [
        "in singapore til the 8th for the apac offsite",  # "apac" is no misspelt "apace"
        "Tell Priya the numbers",  # a capitalised name inside a sentence is never corrected
        "the calender year",  # an English word, if a rare one
        # a particle compounded with a known word is a word the dictionary lacks, not a typo
        "remember that im responsible for vendor onboarding",
        "the offboarding checklist is mine now",
        "upsell targets for the west pls",
        "i run the crossborder accounts",
        "keep the outbound shipments in mind",
    ],
)
def test_words_that_are_not_typos_stay(typed):
    assert normalise(typed).corrections == ()


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("in madrid until tuesday for a customer visit", "in Madrid until Tuesday for a customer visit"),
        ("working out of our dubai office", "working out of our Dubai office"),
        ("reply in german going forward", "reply in German going forward"),
        ("i am reading the report", "I am reading the report"),  # "reading" after no place word is a verb
    ],
)
def test_places_weekdays_and_languages_are_written_as_names(typed, read):
    assert normalise(typed).text == read


def test_invisible_characters_and_emoji_go_and_quotes_are_straight():
    assert visible("I\u2019m \u202eoff\u200b til fri \U0001f3d6\ufe0f") == "I'm off til fri"


def test_a_clipped_city_name_is_read_as_a_city_of_the_data_and_said(corpus):
    """GeoNames' clipped names of a city ("philly", "phila") are read as the city when the business data
    has it, and said; a clipping of a city the data lacks ("florida" of Floridablanca) stays as typed."""
    read = normalise("any custs in philly or phila?")
    assert read.text == "any customers in Philadelphia or Philadelphia?"
    assert [c.said() for c in read.corrections] == [
        "Read \u2018philly\u2019 as \u2018Philadelphia\u2019.",
        "Read \u2018phila\u2019 as \u2018Philadelphia\u2019.",
    ]
    assert normalise("our customers in florida").text == "our customers in Florida"
