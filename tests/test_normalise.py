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
        # helper-blind-151's typos of 6-7 letters: still read as the word meant beside the compounds above
        ("invoce", "invoice", "Read \u2018invoce\u2019 as \u2018invoice\u2019."),
        ("reciept", "receipt", "Read \u2018reciept\u2019 as \u2018receipt\u2019."),
        ("payemnt", "payment", "Read \u2018payemnt\u2019 as \u2018payment\u2019."),
        ("refnud", "refund", "Read \u2018refnud\u2019 as \u2018refund\u2019."),
        ("custmer", "customer", "Read \u2018custmer\u2019 as \u2018customer\u2019."),
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
        # helper-blind-151's lines (written before the change, by a helper who never read the code): two short
        # words joined, 6-7 letters, that the dictionary lacks ("rollout" had been read as "fallout")
        "pls list customers whose orders shipped after the rollout last week",
        "im trying to clear the backlog of unpaid orders by friday",
        "til we can upsell the premium plan to repeat customers",
        "can you check the average markup on bulk orders this month",
        "pls confirm the cutoff for same day shipping on customer orders",
        "im prepping for the kickoff call with our new retail customer",
        "can you find orders marked for store pickup that were never collected",
        "how many customers finished signup but never placed an order",
        "pls calculate the affiliate payout for orders placed in march",
        "im writing handoff notes for my enterprise customers, can you help",
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


# helper-blind-152's lines, written before the change by a helper who never read the code: a three-letter word
# typed with two neighbouring letters swapped is read as the word meant and said; a short acronym stays as typed.
@pytest.mark.parametrize(
    ("typed", "typo", "meant"),
    [
        ("pls check if teh order for acme shipped yet", "teh", "the"),
        ("can u pull up the invoice adn send it to john", "adn", "and"),
        ("im looking fro the refund status on order 4471", "fro", "for"),
        ("hey did yuo update the customer address already", "yuo", "you"),
        ("which orders aer still pending from last week", "aer", "are"),
        ("the payment wsa declined for mrs lee, pls retry", "wsa", "was"),
        ("cna u email the tracking link to the customer", "cna", "can"),
        ("pls mark lal open tickets for acme as resolved", "lal", "all"),
    ],
)
def test_a_three_letter_word_with_two_letters_swapped_is_read_as_meant(typed, typo, meant):
    result = normalise(typed)
    assert meant in result.text.split()
    assert typo not in result.text.split()
    assert (typo, meant) in [(c.original, c.replacement) for c in result.corrections]


@pytest.mark.parametrize(
    "typed",
    [
        "whats the eta on the bulk order for smith co",
        "pls double check the sku on line 3 of that order",
        "customer wants an rma for the broken charger",
        "can u get me the refund totals by eod",
        "update the qty to 12 on order 5520 pls",
        "log the call notes in the crm for that customer",
        "to and fro",  # a rare word its neighbours go with stays
    ],
)
def test_short_acronyms_and_rare_words_in_their_place_are_not_corrected(typed):
    assert [c for c in normalise(typed).corrections if c.reason == "spelling"] == []


# A letter held down for emphasis ("sooo", "pleeease") is read as the word it stretches, each run as one letter or
# two ("goood"); the emphasis is no correction to tell the user about, and a code or a short word stays as typed.
@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("tables are sooo hard to read on my laptop", "tables are so hard to read on my laptop"),
        ("pleeease use euros for everything", "please use euros for everything"),
        ("alwaaays bullets for me", "always bullets for me"),
        ("yesss that looks goood", "yes that looks good"),
        ("thxxx", "thanks"),
        ("order SO-86000 for ACCT-10000", "order SO-86000 for ACCT-10000"),
        ("zzz", "zzz"),
    ],
)
def test_a_stretched_word_is_read_as_the_word_it_stretches(typed, read):
    result = normalise(typed)
    assert result.text == read
    assert result.corrections == ()
