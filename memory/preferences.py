"""The preference table: every facet of an answer a user can ask for, defined once.

For each facet: its values, the words and patterns people use for them, the words of the
third-person sentence that states it, what it does to an answer (``effect``: the renderer's
name for it) and, where Atlas cannot apply a value, the one plain sentence it says instead.
The write gate reads a clause's facets here (:func:`read_facets`) and writes the statement
from them (:func:`statement_for`); the responder, the LLM path, supersession, suppression, the
memory page and the staff report read the same rows (:func:`resolve`, :func:`decline_for`,
:func:`describe`). Adding a facet or a currency is rows here plus the renderer's effect.

A note keeps every facet it sets as structured data (``Memory.facets``: ``{"scale": "k",
"currency": "EUR"}``) and the scope it holds in (``Memory.scope``: "global", a kind of
question, or a region). Per facet and scope the newest note wins; a scoped note beats a
global one inside its scope (design rule "newest wins per facet and scope").

Patterns are regular expressions over the normalised, lower-cased text (atlas.normalise has
already spelt out shorthand and fixed typos). A value pattern may capture a number (``limit``,
``max_words``): the value is then that number.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from atlas import dates

# The currency the business records are kept in: amounts are shown in it, never converted.
RECORDS_CURRENCY = "USD"
# Languages Atlas answers in.
ANSWER_LANGUAGES = ("English",)

GLOBAL = "global"
# Pieces the patterns below share.
_MONTH_NAMES = "|".join(m.lower() for m in calendar.month_name[1:])
# ... and their short forms, read after a day's number ("14 mar 2026", "3 sept style"): the long
# format writes the day first, so "Mar 9 2026" (month first) stays the user's own pattern.
_MONTHS_AFTER_A_DAY = "|".join(
    sorted({m.lower() for m in (*calendar.month_name[1:], *calendar.month_abbr[1:], "Sept")}, key=len, reverse=True)
)
_COUNT = r"(?:\d+|one|two|three|four|five|(?:a )?couple(?: of)?|(?:a )?few)"  # "a couple lines", "a few sentences"
_ENTRIES = r"(?:names|entries|rows|items|customers|results|lines|places)"
_NUMBER_WORD = r"\d{1,3}|" + dates.words_pattern(dates.NUMBER_WORDS)
# The lists a list size acts on, as people name them ("rankings", "any sorted list", "best-of lists").
_LISTS = r"(?:[\w-]+ )?(?:lists?|rankings?|leaderboards?)"
# What a number after "make it" or "cap it at" counts when it is no list size.
_NOT_A_LIST_SIZE = (
    r"decimals?|dp|sentences?|words?|paragraphs?|%|percent|k|m|days?|weeks?|months?|years?|pm|am|"
    r"dollars?|euros?|pounds?|cents?|chars?|characters?"
)
# Nouns a language's name qualifies without asking for answers in it ("a german habit", "the french office").
_NOT_A_LANGUAGE_WISH = (
    r"(?:habits?|office|offices|customers?|clients?|accounts?|team|market|style|way|format|site|branch|"
    r"colleagues?|guys|folks|partners?|suppliers?|distributors?)\b"
)
# What an answer may open with ("the headline figure", "the bottom line", "a summary line").
_LEADS = (
    r"headline(?: (?:figure|number))?|bottom line|answer|key (?:number|figure)|main (?:number|figure)|total|"
    r"number|figure|result|conclusion|verdict|summary(?: line)?|overview|tl;?dr|gist"
)
# What a percentage is called: "percentages", "pct figures", "%s", "growth rates", "a % change", "yoy growth"
_PERCENTS = r"(?:\bpercent(?:ages?|s)?\b|\bpct\b|%s?(?!\w)|\bgrowth(?: rates?)?\b|\bshares? of)"
# After a figure, words that show it as the style wanted ("290k style", "2.3m not 2,300,000", "45k etc",
# "like that"), not as an amount asked about
_SHOWN_AS_STYLE = r"[^.;?!]{0,30}\b(?:style|format|formatting|etc|like (?:that|this)|that way|this way|not \$?\d)"
_EXTREMES = r"biggest|largest|highest|smallest|lowest|newest|latest|freshest|most recent|oldest|earliest"


@dataclass(frozen=True)
class Value:
    value: str  # canonical: "k", "EUR", "iso", "table"; "#" for a number the pattern captures
    patterns: tuple[str, ...]  # regexes over normalised lower-case text
    label: str  # how a statement says it ("in thousands", "euros (EUR)"); "{n}" is the number
    applied: bool = True  # False: Atlas cannot apply it and says so (the facet's decline sentence)


@dataclass(frozen=True)
class Facet:
    name: str
    values: tuple[Value, ...]
    # Phrase of the statement: "Prefers {label}." or a template with {label}.
    statement: str
    # What the renderer does with the value ("" for none: kept, shown "not applied to answers").
    effect: str
    # What an answer must hold for the effect to act: money, dates, rows, ranking, customers,
    # contract, total, any. Where it holds none, the note does nothing and claims nothing.
    acts_on: str
    # Said once in the answer when the value is not applied ({label} is the value's label).
    decline: str = ""
    # Said in the acknowledgement and on the memory page when the whole facet never applies.
    never_applied: bool = False
    # A facet that names a field to add or a field to sort by reads it from these words.
    fields: dict[str, tuple[str, ...]] = field(default_factory=dict)


def _money(*codes: tuple[str, str, tuple[str, ...]]) -> tuple[Value, ...]:
    named = tuple(
        Value(code, tuple(rf"(?<![\w$]){w}(?!\w)" for w in words), f"{name} ({code})", applied=code == RECORDS_CURRENCY)
        for code, name, words in codes
    )
    return named + _world_money({code for code, _, _ in codes})


def _world_money(named: set[str]) -> tuple[Value, ...]:
    """Every other currency in use today (CLDR's, through Babel), by its English name ("Czech
    korunas", "Thai baht"), its last word where only one currency has it and English does not
    use it ("forint", not "won"), and its code where the code is no English word ("HUF", not
    "TRY"). Adding a currency is a row in CLDR, not here."""
    from collections import Counter

    from babel import Locale
    from babel.numbers import get_currency_name, get_territory_currencies

    from atlas.lexicon import english

    common = english().frequency
    codes = sorted({c for t in Locale("en").territories for c in get_territory_currencies(str(t))} - named)
    names = {c: (get_currency_name(c, locale="en").lower(), get_currency_name(c, count=2, locale="en")) for c in codes}
    last_words = Counter(one.split()[-1] for one, _ in names.values())
    values = []
    for code in codes:
        one, many = names[code]
        forms = {one, many.lower()}
        forms |= {f.replace(" new ", " ") for f in forms}
        forms |= {" ".join(f.split()[-2:]) for f in forms if len(f.split()) > 2}  # "korean won"
        last = one.split()[-1]
        if last_words[last] == 1 and len(last) > 3 and common.get(last, 0) < _COMMON_WORD:
            forms.add(last)
        if code.lower() not in common:
            forms.add(code.lower())
        pattern = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
        values.append(Value(code, (rf"(?<![\w$])(?:{pattern})(?!\w)",), f"{many} ({code})", applied=False))
        # the rarest word of each form marks a text that may name it
        _WORLD_MONEY_WORDS.update(min(f.split(), key=lambda w: common.get(w, 0)) for f in forms)
    _WORLD_MONEY.update({v.value: re.compile(v.patterns[0]) for v in values})
    return tuple(values)


# The currencies read from CLDR, each with its pattern, and the words that may start a match: a
# text holding none of them skips them all (read_facets runs for every clause of every turn).
_WORLD_MONEY: dict[str, re.Pattern[str]] = {}
_WORLD_MONEY_WORDS: set[str] = set()


def _may_name_world_money(low: str) -> bool:
    return not _WORLD_MONEY_WORDS.isdisjoint(re.findall(r"[a-z]+", low))


def world_currency(text: str) -> str:
    """The code of a CLDR currency the text names ("czech koruna", "HUF"), or ""."""
    low = text.lower()
    if not _may_name_world_money(low):
        return ""
    return next((code for code, pattern in _WORLD_MONEY.items() if pattern.search(low)), "")


# A word English uses this often (symspellpy's counts) is no currency's short name ("won").
_COMMON_WORD = 1_000_000


# Languages by their own names ("auf deutsch", "en español").
_ENDONYMS: dict[str, tuple[str, ...]] = {
    "German": (r"\bdeutsch\b",),
    "French": (r"\bfran[cç]ais\b",),
    "Spanish": (r"\bespa[nñ]ol\b", r"\bcastellano\b"),
    "Italian": (r"\bitaliano\b",),
    "Portuguese": (r"\bportugu[eê]s\b",),
    "Dutch": (r"\bnederlands\b",),
}

# Fields of a record a user can ask to see or sort by: field -> the words that name it.
FIELDS: dict[str, tuple[str, ...]] = {
    "account_code": (
        r"account codes?",
        r"account numbers?",
        r"customer codes?",
        r"acct codes?",
        r"account ids?",
        r"account(?= #)",
        r"account no(?=\.? )",
    ),
    "city": (r"cit(?:y|ies)", r"locations?", r"where (?:they are|they're) based"),
    "region": (r"regions?",),
    "segment": (r"segments?",),
    "renewal_date": (
        r"renewal dates?",
        r"renewals?",
        r"when (?:it|they|(?:the |their |its |that |each )?(?:customer's |client's )?contract) renews?",
    ),
    "payment_terms": (r"payment terms?", r"terms"),
    "credit_limit": (r"credit limits?",),
    "order_count": (r"(?:number|count|#) of orders", r"order counts?", r"how many orders"),
    "signed_on": (r"signing dates?", r"signed dates?", r"when (?:it was|they were) signed"),
    "amount": (r"amounts?", r"values?", r"sizes?", r"totals?", r"biggest", r"largest"),
    "due_date": (r"due dates?", r"when (?:it's|they're|they are|it is) due"),
    "date": (
        r"(?<!due )(?<!renewal )(?<!signing )(?<!signed )dates?",
        r"newest",
        r"latest",
        r"most recent",
        r"oldest",
        r"chronological(?:ly)?",
    ),
    "name": (r"names?", r"alphabetical(?:ly)?", r"a[- ]?to[- ]?z", r"a-z"),
}
FIELD_LABELS: dict[str, str] = {
    "account_code": "the account code",
    "city": "the city",
    "region": "the region",
    "segment": "the segment",
    "renewal_date": "the renewal date",
    "payment_terms": "the payment terms",
    "credit_limit": "the credit limit",
    "order_count": "the number of orders",
    "signed_on": "the date signed",
}
# Fields a customer, an order or a contract answer can add (the others are declined).
ADDABLE_FIELDS = frozenset(FIELD_LABELS)

FACETS: tuple[Facet, ...] = (
    Facet(
        "currency",
        _money(
            ("USD", "US dollars", ("us dollars?", "dollars?", "usd", r"\$", "bucks")),
            ("EUR", "euros", ("euros?", "eur", "€")),
            (
                "GBP",
                "pounds sterling",
                ("pounds? sterling", "sterling", "gbp", "british pounds?", "pounds", "£", "quid"),
            ),
            ("CHF", "Swiss francs", ("swiss francs?", "chf", "francs?", "swissies", "swissy")),
            ("JPY", "yen", ("yen", "jpy", "¥")),
            ("CAD", "Canadian dollars", ("canadian dollars?", "cad", "loonies", "loonie")),
            ("AUD", "Australian dollars", ("australian dollars?", "aud", "aussie dollars?", "aussie")),
            ("NZD", "New Zealand dollars", ("new zealand dollars?", "nzd", "kiwi dollars?")),
            ("SEK", "Swedish kronor", ("swedish kron(?:a|or)", "sek")),
            ("NOK", "Norwegian kroner", ("norwegian kron(?:e|er)", "nok")),
            ("DKK", "Danish kroner", ("danish kron(?:e|er)", "dkk")),
            ("CNY", "Chinese yuan", ("yuan", "renminbi", "rmb", "cny")),
            ("INR", "Indian rupees", ("rupees?", "inr")),
            ("MXN", "Mexican pesos", ("mexican pesos?", "pesos?", "mxn")),
            ("BRL", "Brazilian reais", ("reais", "real brasileiro", "brl")),
            ("SGD", "Singapore dollars", ("singapore dollars?", "sgd")),
            ("HKD", "Hong Kong dollars", ("hong kong dollars?", "hkd")),
            ("ZAR", "South African rand", ("rand", "zar")),
            ("PLN", "Polish zloty", ("zloty", "pln")),
            ("AED", "UAE dirhams", ("dirhams?", "aed")),
        ),
        "amounts in {label}",
        effect="currency",
        acts_on="money",
        decline="Amounts are shown in USD as recorded; Atlas has no exchange rates to show them in {value}.",
    ),
    Facet(
        "currency_display",
        (
            Value(
                "code",
                (
                    r"currency codes?",
                    # "drop the USD-code thing": the code named by its currency
                    r"\b(?:usd|eur|gbp|iso)[- ]codes?\b",
                    r"iso codes? for (?:the )?currenc",
                    r"usd (?:in front|before|first|prefix)",
                    r"usd \d",
                    r"(?:with|write|put|show|use) (?:the )?usd\b(?! amounts)",
                    r"usd instead of (?:the )?\$",
                    r"code(?:s)? (?:instead of|not|rather than) (?:the )?(?:\$|dollar sign|symbol)",
                    r"(?:instead of|not|rather than|without) (?:the )?(?:\$|dollar) (?:sign|symbol)",
                    r"\bcodes?\b[^.;]{0,40}\b(?:symbols?|signs?)\b",
                    r"\b(?:symbols?|signs?)\b[^.;]{0,40}\bcodes?\b",
                    r"\b[a-z]{3} \d[\d,.]*'? style\b",
                ),
                "with the currency code (USD 1,234.00) rather than the symbol",
            ),
        ),
        "amounts {label}",
        effect="currency_display",
        acts_on="money",
    ),
    Facet(
        "scale",
        (
            Value(
                "k",
                (
                    r"\bthousands?\b",
                    r"\bin k\b",
                    r"\(k\)",  # "in thousands (k)"
                    r"\bk(?:s)?\b(?= (?:please|format|style|notation))",
                    r"\bk'?s\b",
                    r"\d\.\dk\b",
                    r"\$k\b",
                    # a figure shown as the style wanted: "290k style", "45k, 120k etc", "write them like 350k"
                    rf"\b\d{{1,3}}k\b(?={_SHOWN_AS_STYLE})",
                    r"\b\d{1,3}k(?:, ?\$?\d{1,3}k)+\b",
                ),
                "in thousands (like $102.0k)",
            ),
            Value(
                "m",
                (
                    r"\bmillions?\b",
                    r"\bin m\b",
                    r"\(m\)",  # "in millions (m)"
                    r"\bmn\b",
                    r"\d\.\d{1,2}m\b",
                    r"\$m\b",
                    rf"\b\d{{1,3}}m\b(?={_SHOWN_AS_STYLE})",
                ),
                "in millions (like $8.94m)",
            ),
        ),
        "amounts {label}",
        effect="scale",
        acts_on="money",
    ),
    Facet(
        "rounding",
        (
            Value(
                "whole",
                (
                    r"whole (?:dollars?|euros?|pounds?|francs?|yen|units?|numbers?|amounts?|figures?)",
                    r"\bno (?:cents|pennies|decimals?|decimal places)\b",
                    r"without (?:the )?(?:cents|pennies|decimals)",
                    r"(?:drop|lose|skip|ditch|leave off|strip|chop|cut|remove|get rid of) (?:all )?the "
                    r"(?:cents|pennies|decimals|decimal places)",
                    # "leave the cents off amounts", "chop the pennies off", "cents off pls": money without them
                    r"\b(?:cents|pennies|decimals|decimal places) (?:off|out)\b",
                    # "can money always be to the nearest dollar?": rounding, not the currency
                    r"\bnearest (?:whole )?(?:dollar|euro|pound|franc|buck|unit|integer)s?\b",
                    r"round(?:ed|ing)? (?:\w+ )?(?:to|up to|off to) (?:the )?(?:nearest )?"
                    r"(?:whole|dollar|unit|integer)",
                    r"round (?:numbers|figures)",
                    r"\bround (?:it|them|everything|money|amounts|figures)(?: off)?\b"
                    r"(?! to (?:the )?nearest (?:hundred|thousand|100|1,?000|grand)\b)",
                ),
                "rounded to whole units, without cents",
            ),
            # "millions w one decimal", "to 1 decimal place": $1.2m, $45.2k
            Value(
                "1dp",
                (r"\b(?:1|one) decimal(?: places?| point)?\b", r"\bone dp\b", r"\b1 ?dp\b"),
                "to one decimal place",
            ),
            Value(
                "2dp",
                (
                    r"\b(?:2|two) decimal(?:s| places?)",
                    r"to the (?:cent|penny)",
                    r"\bkeep the (?:cents|pennies)\b",
                ),
                "to two decimal places",
            ),
            # "hundreds will do", "nearest 1,000 is fine"
            Value(
                "hundred",
                (r"\bnearest (?:hundred|100)\b", r"\bround(?:ed)? to (?:the )?hundreds\b"),
                "rounded to the nearest hundred",
            ),
            Value(
                "thousand",
                (r"\bnearest (?:thousand|1,?000|grand)\b", r"\bround(?:ed)? to (?:the )?thousands\b"),
                "rounded to the nearest thousand",
            ),
            # "3 sig figs on everything", "to four significant figures": the number of digits kept
            Value(
                "#",
                (r"\b(\d|one|two|three|four|five|six) (?:sig(?:nificant)?\.?|s\.?f\.?) ?(?:fig(?:ure)?s?\.?|digits)",),
                "rounded to {n} significant figures",
            ),
        ),
        "amounts {label}",
        effect="rounding",
        acts_on="money",
    ),
    Facet(
        "date_format",
        (
            Value(
                "iso",
                (r"yyyy-mm-dd", r"\biso\b(?! week)", r"year[- ]first", r"\b\d{4}-\d{2}-\d{2}\b"),
                "as YYYY-MM-DD (ISO)",
            ),
            Value(
                "us",
                (
                    r"mm/dd(?:/yy(?:yy)?)?",
                    r"month[- /]first",
                    r"month/day(?:/year)?",
                    r"\bus (?:style|format|dates?|date format)",
                    r"american (?:style|format|dates?|way)",
                    r"\bmonth (?:then|before) (?:the )?day\b",
                    r"\bthe (?:us|american) way\b",
                    r"\b(?:0?[1-9]|1[0-2])/(?:1[3-9]|2\d|3[01])/\d{2,4}\b",
                ),
                "as mm/dd/yyyy (US style)",
            ),
            Value(
                "uk",
                (
                    r"dd/mm(?:/yy(?:yy)?)?",
                    r"day[- /]first",
                    r"day/month(?:/year)?",
                    r"\buk (?:style|format|dates?|date format)",
                    r"(?:european|british) (?:style|format|dates?|way)",
                    r"\bday (?:then|before) (?:the )?month\b",
                    r"\bthe (?:uk|european|british) way\b",
                    r"\b(?:1[3-9]|2\d|3[01])/(?:0?[1-9]|1[0-2])/\d{2,4}\b",
                ),
                "as dd/mm/yyyy (UK style)",
            ),
            Value(
                "dotted",
                (r"dd\.mm\.yy(?:yy)?", r"\b(?:0?[1-9]|[12]\d|3[01])\.(?:0?[1-9]|1[0-2])\.\d{4}\b", r"\bwith dots\b"),
                "dotted, day first (dd.mm.yyyy)",
            ),
            Value(
                "long",
                (
                    r"(?:spell|write|written|spelt|spelled)(?: \w+)? (?:the )?months? (?:out|in full|in words)",
                    r"(?:spell|write)(?: \w+)? out (?:the )?months?",
                    rf"\b(?:{_MONTH_NAMES}) \d{{1,2}},? \d{{4}}\b",
                    r"months? (?:spelt|spelled|written) out",
                    r"months? (?:in|as|with) (?:a |the )?(?:words?|letters|names?|text)",
                    r"months? (?:written|spelt|spelled) (?:with|in) (?:letters|words)",
                    r"\bmonth names?\b",
                    # "14 june style", "e.g. 3 Feb 2026", "like 12 april not 12/04": a date shown with its month named
                    rf"\b\d{{1,2}} (?:{_MONTHS_AFTER_A_DAY})\b(?=[^.!?]{{0,20}}\b(?:style|not|instead|rather)\b)",
                    rf"\b(?:like|e\.?g\.?|eg|such as) \d{{1,2}} (?:{_MONTHS_AFTER_A_DAY})\b",
                    rf"\b\d{{1,2}} (?:{_MONTHS_AFTER_A_DAY}) \d{{4}}\b",
                ),
                "with the month written out (30 November 2026)",
            ),
        ),
        "dates {label}",
        effect="date_format",
        acts_on="dates",
    ),
    Facet(
        "layout",
        (
            Value(
                "table",
                # ("off grid": an idiom, no grid)
                (
                    r"\btables?\b",
                    r"\btabular\b",
                    r"\btabulate",
                    r"(?<!off )(?<!off-)\bgrids?\b",
                    r"\bcolumns\b(?! for)",
                ),
                "as tables",
            ),
            Value(
                "bullets",
                (r"\bbullet", r"\bbulleted\b", r"\bdot points?\b", r"\blists? of points\b"),
                "as bullet points",
            ),
            Value(
                "prose",
                (
                    r"\bprose\b",
                    r"\bparagraphs?\b(?! max)",
                    r"\b(?:full|plain|normal|proper|complete) sentences\b",
                    r"\bjust (?:plain )?text\b",
                ),
                "in prose paragraphs",
            ),
        ),
        "answers {label}",
        effect="layout",
        acts_on="rows",
    ),
    Facet(
        "length",
        (
            Value(
                "short",
                (
                    r"\bshort(?:er)?\b",
                    r"\bbrief(?:er)?\b",
                    r"\bconcise\b",
                    r"\bsuccinct\b",
                    r"\bterse\b",
                    r"\bto the point\b",
                    r"\bcouple of lines\b",
                    r"\bone[- ]liners?\b",
                    r"\bno essays?\b",
                    r"\bjust the answer\b",
                    rf"\b{_COUNT} (?:words|sentences|lines|paragraphs?) (?:max|maximum|tops|or (?:less|fewer))\b",
                    r"\b(?:under|at most|no more than|max(?:imum)?|up to|past|over|beyond|more than|longer than|"
                    rf"exceed\w*) {_COUNT} (?:words|sentences|lines)\b",
                    # "the answer + one line of context", "the figure plus a sentence of explanation"
                    r"\b(?:answer|number|figure|total|result)s? (?:\+|plus|and|with|then) (?:a|one|1) "
                    r"(?:line|sentence)\b",
                    rf"\b{_COUNT} (?:words|sentences|lines) at most\b",
                    rf"\b(?:cap|limit|keep)\b(?:(?!\b(?:lists?|rankings?|ranked)\b)[^.;]){{0,30}}"
                    rf"\b(?:(?:at|to) )?{_COUNT} (?:words|sentences|lines)\b",
                    r"\bone paragraph\b",
                    rf"\b{_COUNT}[- ](?:sentence|line) (?:answers|replies|responses)\b",
                    r"\bone or two sentences\b",
                ),
                "short answers",
            ),
            Value(
                "detailed",
                (
                    r"\bdetailed\b",
                    r"\bin depth\b",
                    r"\bin-depth\b",
                    r"\bthorough\b",
                    r"\bfull breakdown\b",
                    r"\bmore detail\b",
                ),
                "detailed answers",
            ),
        ),
        "{label}",
        effect="length",
        acts_on="any",
    ),
    Facet(
        "include",
        (Value("#field", (), "{field} shown"),),
        "{label}",
        effect="include",
        acts_on="records",
        decline="Atlas's records hold no {label}, so it can't add it.",
        fields=FIELDS,
    ),
    Facet(
        "sort",
        (Value("#field", (), "sorted by {field}"),),
        "lists {label}",
        effect="sort",
        acts_on="rows",
        decline="Atlas's lists hold no {label} to sort by.",
        fields=FIELDS,
    ),
    Facet(
        "limit",
        (
            Value(
                "#",
                (
                    rf"\btop ({_NUMBER_WORD})\b(?!\s*(?:{_NOT_A_LIST_SIZE})\b)",
                    r"\b(?:a|the|my|just a) (dozen)\b(?=[^.;]{0,40}\b(?:top|rank\w*|biggest|largest|best|lists?)\b)",
                    rf"\b(?:list|ranking) (?:size|length)(?: setting)? (?:to|of|at) ({_NUMBER_WORD})\b",
                    r"\bfirst (\d{1,3})\b",
                    r"\b(?:only|just) (?:the )?(?:top |first )?(\d{1,3})\b",
                    r"\bstop at (\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten)\b",
                    rf"\b(?:no more than|at most|max(?:imum)?(?: of)?|up to) (\d{{1,3}}) {_ENTRIES}\b",
                    rf"\b(\d{{1,3}}) {_ENTRIES} (?:max|maximum|tops|is plenty|is enough)\b",
                    rf"\b(?:limit|cap|keep|cut|trim)\b[^.;]{{0,30}}\b(?:to|at) ({_NUMBER_WORD}) {_ENTRIES}\b",
                    rf"\b(?:more than|over) ({_NUMBER_WORD}) {_ENTRIES}\b",
                    rf"\b({_NUMBER_WORD}) (?:max|maximum|tops)\b(?= in (?:lists|rankings))",
                    # "rankings: 30 rows", "lists -> 8 entries", "trim every sorted list to 40 lines"
                    rf"\b{_LISTS}\s*(?::|→|->|=|to|at|of|with)?\s*({_NUMBER_WORD}) {_ENTRIES}\b",
                    rf"\b(?:cap|limit|keep|cut|trim)\b (?:\w+ ){{0,2}}{_LISTS} (?:to|at) (?:the )?({_NUMBER_WORD})\b",
                    # "12 rows in rankings", "9 entries per list"
                    rf"\b({_NUMBER_WORD}) {_ENTRIES} (?:in|for|per|on) (?:\w+ ){{0,2}}{_LISTS}",
                    # "no more than 7 in any list"
                    rf"\bmore than ({_NUMBER_WORD}) (?:{_ENTRIES} )?(?:in|on|per) (?:a|any|the|my|one)? ?{_LISTS}",
                    # "just give me 4 whenever the best accounts come up", "only show 3 in rankings"
                    rf"\b(?:just|only) (?:give me|show me|show|give|do|list) (?:the )?(?:top )?({_NUMBER_WORD})\b"
                    rf"(?!\s*(?:{_NOT_A_LIST_SIZE}|minutes?|hours?|secs?|seconds?)\b)"
                    r"(?=[^.;]{0,50}\b(?:top|rank\w*|biggest|largest|best|lists?|leaderboards?)\b)",
                    # "for best-of lists only show 4", "in any top-N list i want 8"
                    rf"\b{_LISTS}\b[^.;]{{0,12}}\b(?:just|only) (?:do|show|give me|list) ({_NUMBER_WORD})\b",
                    # "for any top-N type question just give me 4": the rankings named, then the size
                    rf"\b(?:top-?n|top-x|rankings?)\b[^.;]{{0,30}}?\b(?:just|only) (?:do|show|give me|list) "
                    rf"({_NUMBER_WORD})\b(?!\s*(?:{_NOT_A_LIST_SIZE})\b)",
                    rf"\b{_LISTS}\b[^.;]{{0,12}}\b(?:i want|i'd like|i need|give me|show me) ({_NUMBER_WORD})\b"
                    rf"(?!\s*(?:{_NOT_A_LIST_SIZE})\b)",
                    # "give me 10 rows by default"
                    rf"\b(?:give me|show me|send me|return) ({_NUMBER_WORD}) {_ENTRIES}\b",
                    # "15 rows is my limit", "rankings, 10 max", "8 is plenty for any list"
                    rf"\b({_NUMBER_WORD}) {_ENTRIES} (?:is|are) (?:my|the) (?:limit|max(?:imum)?|cap)\b",
                    rf"\b(?:{_LISTS}|{_ENTRIES})\b[^.;?]{{0,30}}?\b({_NUMBER_WORD}) (?:max|maximum|tops)\b",
                    # "for any top customers list, three is plenty", "rankings or whatever, a dozen is the right size"
                    rf"\b(?:{_LISTS}|top \w+|rank\w*)\b[^.;?]{{0,40}}?\b({_NUMBER_WORD}) (?:{_ENTRIES} )?(?:is|are) "
                    r"(?:plenty|enough|fine|the right (?:size|number|amount)|about right|perfect|ideal)\b",
                    rf"\b({_NUMBER_WORD}) (?:{_ENTRIES} )?(?:is|are) (?:plenty|enough|fine) for "
                    rf"(?:a |any |every |each |my |the )?{_LISTS}",
                    # a size said of the list just named: "cap it at 10", "bump it to 20 rows", "make that 30"
                    rf"\b(?:cap|limit|trim|cut|bump|raise|drop|make) (?:it|them|that|those|these)(?: up| down)?"
                    rf"(?: at| to)? ({_NUMBER_WORD})\b(?![.,]\d)(?!\s*(?:{_NOT_A_LIST_SIZE})\b)",
                    # "just do lists of 8", "make my top lists 10", "bump my lists up to 6": the lists, then their size
                    rf"\b{_LISTS}\s*(?:of|at|to|up to|down to|:|->|→)?\s*({_NUMBER_WORD})\b(?![.,]\d)"
                    rf"(?!\s*(?:{_NOT_A_LIST_SIZE}|times?|ways?|columns?|more|of\b)\b)",
                    # "do 5 for all my top lists", "15 rows works better for my weekly review"
                    rf"\b(?:do|show|give me|make it) ({_NUMBER_WORD}) (?:{_ENTRIES} )?(?:for|in|on) "
                    rf"(?:all |any |every |each )?(?:my |the |of my )?{_LISTS}",
                    rf"\b({_NUMBER_WORD}) {_ENTRIES} (?:works?|is|are) (?:better|best|fine|good|right)\b",
                    # "6 bullets max": the bullets are a list too
                    rf"\b({_NUMBER_WORD}) (?:bullets?|bullet points|points) (?:max|maximum|tops|at most)\b",
                    rf"\b(?:max(?:imum)?|at most|no more than) ({_NUMBER_WORD}) (?:bullets?|bullet points)\b",
                ),
                "the top {n}",
            ),
        ),
        "rankings limited to {label}",
        effect="limit",
        acts_on="ranking",
    ),
    Facet(
        "cancelled",
        (
            Value(
                "include",
                (
                    # ("always count also the cancelled orders": an adverb between)
                    r"(?:include|including|incl|count|counting|add|keep|with|put|throw|fold)(?: in)?"
                    r"(?: also| too| even| back)?(?: in)?(?: the)? (?:cancelled|canceled|cancellations)",
                    r"(?:throw|fold|put|bring|have|get|keep|leave) (?:the )?(?:cancelled|canceled)"
                    r"(?: orders| ones| stuff)? (?:in|back in)\b",
                    r"(?:cancelled|canceled) (?:orders |ones )?(?:too|as well|included|"
                    r"(?:left |kept |counted |staying )?in (?:the |my |all )?totals)",
                    # "stop excluding cancelled orders": leaving them out, stopped
                    r"(?:stop|quit) (?:excluding|dropping|removing|leaving out|ignoring|skipping|stripping out)"
                    r"(?: the| any)? (?:cancelled|canceled|cancellations)",
                    r"(?:cancelled|canceled|cancellations) (?:orders )?(?:counted|included|added) (?:in|into)",
                    # "cancelled orders belong in my totals", "cancellations should count towards totals"
                    r"(?:cancelled|canceled|cancellations) (?:orders |ones )?"
                    r"(?:belong|go|count|stay|should (?:be|go|count|stay))(?: in)? (?:in|into|towards?) "
                    r"(?:my |the |our |all )?totals",
                    r"gross (?:bookings|figures|totals)",
                    # "don't drop cancelled orders from my totals": a refusal to leave them out
                    r"(?:don't|do not|never|no need to) (?:ever )?"
                    r"(?:drop|exclude|remove|skip|ignore|leave out|strip out)(?: the| any)? "
                    r"(?:cancelled|canceled|cancellations)",
                ),
                "cancelled orders included in totals",
            ),
            Value(
                "exclude",
                (
                    r"(?:leave|keep|take) (?:the )?(?:cancelled|canceled)(?: orders| ones)? out",
                    r"(?:leave|keep|take|strip|cut) out(?: the| any| all)? (?:cancelled|canceled|cancellations)",
                    r"(?:exclude|without|drop|ignore|skip)(?: the)? (?:cancelled|canceled)",
                    # "no cancelled orders in my totals": none of them
                    r"\bno (?:cancelled|canceled|cancellations)\b",
                    r"(?:cancelled|canceled) (?:orders |ones )?(?:left )?(?:out|excluded)",
                    r"(?:don't|do not|never|not) (?:ever )?(?:count|include|add)(?: in)?(?: the| any)? "
                    r"(?:cancelled|canceled|cancellations)",
                    r"(?:leave|keep|take) (?:the )?cancellations out",
                    # "i never want cancelled ones counted", "dont want any cancelled orders included"
                    r"(?:never|don't|do not|not) (?:ever )?(?:want|need|like)(?: to see)?(?: the| any)? "
                    r"(?:cancelled|canceled|cancellations)(?: orders| ones| stuff)? (?:counted|included|added|in\b)",
                    # "cancelled stuff shouldn't count toward revenue", "cancellations never belong in a total"
                    r"(?:cancelled|canceled|cancellations)(?: orders| ones| stuff)? "
                    r"(?:shouldn't|should not|mustn't|must not|don't|do not|never|can't|cannot|won't|aren't to) "
                    r"(?:ever )?(?:be |get )?(?:count|included|in\b|part of|go in|added|belong|make it)",
                ),
                "cancelled orders left out of totals",
            ),
        ),
        "{label}",
        effect="cancelled",
        acts_on="total",
    ),
    Facet(
        "language",
        tuple(
            Value(
                name,
                (rf"\b{name.lower()}\b(?! {_NOT_A_LANGUAGE_WISH})", *_ENDONYMS.get(name, ())),
                name,
                applied=name in ANSWER_LANGUAGES,
            )
            for name in (
                "English",
                "German",
                "French",
                "Spanish",
                "Italian",
                "Portuguese",
                "Dutch",
                "Swedish",
                "Danish",
                "Norwegian",
                "Finnish",
                "Polish",
                "Japanese",
                "Chinese",
                "Mandarin",
                "Korean",
                "Arabic",
                "Hindi",
                "Turkish",
                "Greek",
                "Czech",
                "Russian",
            )
        ),  # fmt: skip
        "answers in {label}",
        effect="language",
        acts_on="any",
        decline="Atlas answers in English only for now, so this answer is in English, not {value}.",
    ),
    Facet(
        "timezone",
        (
            Value(
                "#zone",
                (
                    r"\b(utc|gmt|cet|cest|est|edt|pst|pdt|cst|ist|jst|aest|bst)\b",
                    r"\b([a-z]+(?: [a-z]+)?) time\b",
                    # "times in US eastern": a zone named by its region, after a word of time ("moved
                    # over to central" names the sales region of that name, no time zone)
                    r"\b(?:times?|timezone|time zone|hours|clock)\b[^.;]{0,30}?\b(?:in|to|into|on) "
                    r"((?:us |u\.s\. )?(?:eastern|pacific|central|mountain|atlantic))\b(?! (?:region|europe|time))",
                ),
                "times in {zone}",
            ),
        ),
        "{label}",
        effect="",
        acts_on="any",
        never_applied=True,
    ),
    Facet(
        "year_basis",
        (
            Value("fiscal", (r"\bfiscal\b", r"\bfy\b", r"\bfinancial years?\b"), "fiscal years"),
            Value("calendar", (r"\bcalendar (?:years?|yrs?)\b",), "calendar years"),
        ),
        "{label} for year figures",
        effect="",
        acts_on="any",
        never_applied=True,
    ),
    Facet(
        "acronyms",
        (Value("spell_out", (r"\bacronyms?\b", r"\babbreviations?\b", r"\bjargon\b"), "acronyms spelt out"),),
        "{label}",
        effect="",
        acts_on="any",
        never_applied=True,
    ),
    # How figures are written, beyond scale and rounding: kept when asked for as a standing
    # wish, and said plainly not to be applied (Atlas writes figures one way for now).
    Facet(
        "number_style",
        (
            Value(
                "negatives_in_brackets",
                (
                    r"\b(?:negatives?|minus (?:numbers|figures|amounts|values)"
                    r"|negative (?:numbers|figures|amounts|values)|losses)\b"
                    r"[^.?!]{0,40}\b(?:brackets|parenthes[ie]s|parens)\b",
                    r"\b(?:brackets|parenthes[ie]s|parens)\b[^.?!]{0,30}\b(?:negatives?|minus)\b",
                ),
                "negative amounts in brackets (parentheses)",
            ),
            Value(
                "decimal_comma",
                (
                    r"\bcommas? (?:for|as) (?:the )?decimals?\b",
                    r"\bdecimal commas?\b",
                    r"\b\d{1,3}\.\d{3},\d{1,2}\b",
                ),
                "a decimal comma, with points between thousands",
            ),
            Value(
                "space_thousands",
                (
                    r"\bspaces? (?:between|for|as|in) (?:the )?thousands?\b",
                    r"\bthousands? (?:separated|split) (?:by|with) (?:a )?spaces?\b",
                    r"\b\d{1,3} \d{3} \d{3}\b",
                ),
                "spaces between thousands",
            ),
            Value(
                "apostrophe_thousands",
                (r"\bapostrophes? (?:as|for|between) (?:the )?thousands?\b", r"\b\d{1,3}'\d{3}'\d{3}\b"),
                "apostrophes between thousands",
            ),
            Value(
                "no_separators",
                (
                    r"\bno (?:thousands? )?separators?\b",
                    r"\bwithout (?:the |any )?(?:thousands? )?separators?\b",
                    r"\bno commas in (?:the )?(?:numbers|figures|amounts)\b",
                ),
                "figures without thousands separators",
            ),
            Value(
                "signed_changes",
                (r"\bplus (?:and|/|or) minus\b", r"\bplus signs?\b", r"\+/-", "\u00b1"),
                "changes shown with plus and minus signs",
            ),
            Value(
                "whole_percent",
                (
                    r"\bwhole percent(?:s|ages)?\b",
                    rf"{_PERCENTS}[^.;?]{{0,40}}\b"
                    r"(?:whole(?: numbers?)?|no decimals?|nearest (?:whole|integer|percent))\b",
                    rf"\b(?:no decimals?|whole numbers?) (?:on|in|for) (?:the |my |any |all )?{_PERCENTS}",
                    rf"\bround(?:ed)? (?:all |the |my |any )?{_PERCENTS}(?! to (?:1|one|2|two) )",
                ),
                "whole percentages",
            ),
            Value(
                "percent_one_decimal",
                (rf"{_PERCENTS}[^.;?]{{0,30}}\b(?:1|one) (?:decimal|dp)",),
                "percentages to one decimal place",
            ),
            Value(
                "percent_two_decimals",
                (rf"{_PERCENTS}[^.;?]{{0,30}}\b(?:2|two) (?:decimal|dp)",),
                "percentages to two decimal places",
            ),
        ),
        "{label}",
        effect="",
        acts_on="any",
        never_applied=True,
    ),
    # Which field a list row opens with ("order date first in order lists", "account code goes first"):
    # kept, and said not to change answers (a row's fields come in one order for now).
    Facet(
        "first_field",
        (Value("#first", (), "{field} first in each row"),),
        "{label}",
        effect="",
        acts_on="rows",
        never_applied=True,
    ),
    # What the answer opens with: "the headline figure first, details after", "a one-line summary on top".
    Facet(
        "lead",
        (
            Value(
                "#lead",
                (
                    rf"\b({_LEADS})s?\b(?: [\w-]+){{0,3}}? "
                    r"(?:first|at the (?:start|top)|on top|up top|upfront|up front|"
                    r"before (?:the |any )?(?:details|breakdown|list|rest|explanation|reasoning|split))\b",
                    r"\b(?:start|open|lead|begin)\w* (?:every |each |all |the |my |your )?(?:answers?|replies|reply|"
                    rf"responses?)? ?with (?:a |the )?(?:one[- ]line |short |quick |brief )?({_LEADS})\b",
                ),
                "{lead} first, details after",
            ),
        ),
        "{label}",
        effect="",
        acts_on="any",
        never_applied=True,
    ),
    # A file with each answer ("an excel attachment each time", "every reply as a pdf too").
    Facet(
        "file",
        tuple(
            Value(
                code,
                (
                    rf"\b(?:{words})\b[^.;?]{{0,25}}\b(?:files?|attachments?|attached|export|copy|copies|version)\b",
                    rf"\b(?:files?|attachments?|export|copy|copies|version)\b[^.;?]{{0,12}}\b(?:{words})\b",
                    rf"\bas (?:an? )?(?:{words})\b",
                ),
                label,
            )
            for code, words, label in (
                ("excel", r"excel|xlsx?|spreadsheet", "an Excel file"),
                ("csv", r"csv", "a CSV file"),
                ("pdf", r"pdf", "a PDF copy"),
            )
        ),
        "{label} with each answer",
        effect="",
        acts_on="any",
        never_applied=True,
    ),
    Facet(
        "chart",
        (Value("yes", (r"\bcharts?\b", r"\bgraphs?\b", r"\bplots?\b", r"\bvisuali[sz]ations?\b"), "a chart"),),
        "{label} where it helps",
        effect="",
        acts_on="any",
        never_applied=True,
    ),
    Facet(
        "tone",
        (
            # "no need to be so formal", "keep it casual", "less stiff please"
            Value(
                "casual",
                (
                    r"\bcasual\b",
                    r"\binformal\b",
                    r"\bless (?:formal|stiff)\b",
                    r"\bno need (?:for|to be) (?:the |so |that )?(?:formal|stiff)\b",
                    r"\brelaxed\b",
                    r"\bchatty\b",
                ),
                "a casual tone",
            ),
            Value(
                "formal",
                (
                    r"(?<!no need for the )(?<!no need to be )(?<!less )\bformal\b",
                    r"\bprofessional tone\b",
                ),
                "a formal tone",
            ),
        ),
        "{label}",
        effect="",
        acts_on="any",
        never_applied=True,
    ),
    Facet(
        "units",
        (
            Value(
                "metric",
                (r"\bmetric\b", r"\bkilo(?:metre|meter|gram)s?\b", r"\bkm\b", r"\bkg\b", r"\bcelsius\b"),
                "metric units",
            ),
            Value("imperial", (r"\bimperial\b", r"\bmiles\b", r"\blbs\b", r"\bfahrenheit\b"), "imperial units"),
        ),
        "{label}",
        effect="",
        acts_on="any",
        never_applied=True,
    ),
)
FACETS_BY_NAME: dict[str, Facet] = {facet.name: facet for facet in FACETS}
# The facets Atlas keeps and gives the model but never applies itself, in the order a statement names them.
_NEVER_APPLIED: tuple[str, ...] = tuple(facet.name for facet in FACETS if facet.never_applied)

# Scopes a preference can hold in, by the words that name them ("when I ask about contracts",
# "for order lists", "in rankings"). The first that matches wins.
SCOPES: tuple[tuple[str, tuple[str, ...]], ...] = (
    # a contract's own fields name contract questions too ("whenever a client's credit limit comes up")
    ("contracts", (r"\bcontracts?\b", r"\brenewals?\b", r"\bcredit limits?\b", r"\bpayment terms?\b")),
    (
        "rankings",
        (
            r"\brankings?\b",
            r"\btop (?:customers|clients|accounts)\b",
            r"\bleaderboards?\b",
            r"\bwho(?:'s| is) biggest\b",
        ),
    ),
    # "region totals in millions": a total of orders, over a region, a period or the company, never one order
    ("totals", (r"\btotals?\b", r"\bsums?\b", r"\bsubtotals?\b")),
    ("orders", (r"\borders?\b", r"\binvoices?\b", r"\bsales\b", r"\bspen[dt]\w*", r"\brevenue\b", r"\bpurchases\b")),
    # a list of customers, not any answer that names one ("when u give me a list of customers")
    # ... or said with the verb ("when i list customers", "whenever you list our clients")
    (
        "customer_lists",
        (
            r"\blists? of (?:customers|clients|accounts)\b",
            r"\b(?:customer|client|account) lists?\b",
            r"\blist(?:s|ed|ing)? (?:the |our |my |all )?(?:customers|clients|accounts)\b",
        ),
    ),
    ("customers", (r"\bcustomers?\b", r"\bclients?\b", r"\baccounts?\b")),
)
SCOPE_LABELS: dict[str, str] = {
    "contracts": "in answers about contracts",
    "rankings": "in rankings",
    "orders": "in order lists",
    "totals": "in totals",
    "customers": "in customer lists",
    "customer_lists": "in customer lists",
}
# "when I ask about X", "whenever you list X", "for X lists", "in X": the condition's opening.
# Where a condition ends: a request word, or the user's own request after it ("every time you list
# customers I need ...").
_REQUEST_WORDS = (
    "show|give|include|add|put|tell|use|list|sort|make|keep|always|please|write|round|answer|reply"
    "|throw in|chuck in|tack on|stick in|pop in|stick|throw|chuck|tack"
    "|i need|i want|i'd like|i would like"
)
_CONDITION = re.compile(
    # The subject may be contracted or carry its auxiliary ("when im asking", "any time we're talking").
    # ("when listing overdue orders": the subject may be left out before the -ing form)
    r"\b(?:when(?:ever)?|each time|every time|any time|if)\s+(?:(?:i|you|we)(?:['’]?(?:m|re)|\s+(?:am|are))?\s+)?"
    # ("whenever im chasing overdue orders", "when we're reviewing renewals", "if i'm checking on a customer")
    r"(?:ask|list|show|give|look|pull|talk|request|want|get|chas|check|review|discuss|deal|handl|dig)\w*"
    # ("a list of customers" names what the condition is about: "list" there is a noun)
    rf"(?:\s+(?:me|us))?(?:\s+(?:about|for|at|up|on))?\s+(?P<what>(?:(?!\b(?:{_REQUEST_WORDS})\b(?!\s+of\b))[^,.;:?!])+)"
    r"|\bfor\s+(?P<lists>(?:\w+\s+)?(?:lists?|rankings?|questions about [^,.;:]+"
    rf"|anything (?:about|to do with|related to|involving) (?:(?!\b(?:{_REQUEST_WORDS})\b)[^,.;:])+))"
    r"|\bin\s+(?P<where>(?:\w+\s+)?(?:lists|rankings|answers about [^,.;:]+))"
    r"|\bfor\s+(?P<questions>\w+)\s+(?:questions|queries|stuff|things)\b"
    # "bullet points for orders", "tables for contracts": the records named are the scope
    r"|\bfor\s+(?:the\s+|my\s+|all\s+|any\s+)?(?P<records>(?:(?:overdue|open|late|unpaid|paid|shipped)\s+)?"
    r"(?:orders|invoices|contracts|renewals|(?:[a-z]+\s+)?totals))\b(?!\s+(?:of|from|in|with|over|under|above|below)\b)"
    r"|\b(?:in|for)\s+(?:any|every|all|my)\s+(?P<overview>\w+)\s+(?:overviews?|lists?|questions?|answers?|reports?)\b"
    # "when the question is about a contract", "for any question on overdue orders", "questions about
    # renewals:", "if my question's about a customer": the topic of the questions
    r"|\b(?:questions?|queries|query)(?:['’]s|\s+(?:is|are))?\s+(?:about|on|re|regarding|to do with)\s+"
    r"(?:a\s+|an\s+|the\s+|our\s+)?(?P<topic>[^,.;:]+)"
    # "anything contract-related,", "renewal-related stuff:", "on the order side,": a kind of records
    r"|\b(?:anything|everything|stuff|things)\s+(?P<related>[a-z]+)[- ]related\b"
    r"|\b(?P<related_kind>[a-z]+)[- ]related\s+(?:stuff|things|questions|qs|queries|answers)\b"
    # "anything to do with overdue stuff -> ...", "stuff on renewals - ...", "re rankings: ...": a label that opens
    # the message names the kind of question, with or without "for"
    r"|(?:^|[.;!?])\s*(?:for\s+)?(?:anything|everything|stuff|things|re:?)\s+"
    r"(?:(?:about|to do with|related to|involving|on|around|re)\s+)?"
    rf"(?P<label>(?:(?!\b(?:{_REQUEST_WORDS})\b)[^,.;:>\u2014\u2013]|-(?!>))+)"
    r"|\bon the (?P<side>[a-z]+) side\b"
    # "for ranking questions only:", "contract qs only:", "rankings only:": a label, "only" and a colon
    r"|(?:^|[.;!?]\s*)(?:for\s+|re:?\s+)?(?P<only>[a-z']+(?:\s+[a-z']+)?)\s+only\s*:",
)
_REGION_SCOPE = re.compile(r"\b(north|south|east|west|central)(?:ern)?\b(?: region)?")
_REGION_CUSTOMERS = re.compile(
    r"(?:\b(?:for|with)\s+(?:the\s+|my\s+|our\s+|all\s+|any\s+)?|^\W*|[.;!?]\s+|\s[-–—]\s+)"
    # after "for" or "with", or as a label opening a sentence ("south customers: amounts in eur", "north region: ...",
    # "quick thing - east region accounts, ...")
    r"(north|south|east|west|central)(?:ern)?\s+(?:(?:region\s+|coast\s+)?(?:customers|clients|accounts)\b"
    r"|region\s*(?=[:–—-]))"
)


@dataclass(frozen=True)
class Reading:
    """The facets one clause names: {facet: value}, the scope they hold in, and whether the
    clause turns them round ("no tables", "leave X out")."""

    facets: dict[str, Any]
    scope: str = GLOBAL
    negative: bool = False

    def __bool__(self) -> bool:
        return bool(self.facets)


@lru_cache(maxsize=1)
def _compiled() -> list[tuple[Facet, Value, list[re.Pattern[str]]]]:
    return [(f, v, [re.compile(p) for p in v.patterns]) for f in FACETS for v in f.values if v.patterns]


@lru_cache(maxsize=1)
def _field_patterns() -> dict[str, re.Pattern[str]]:
    return {name: re.compile(r"\b(?:" + "|".join(words) + r")\b") for name, words in FIELDS.items()}


_INCLUDE = re.compile(
    # "throw in the credit limit too", "tack on the city", "stick in the account code"
    r"\b(?:include|including|add|adding|put|show|showing|give|tell|list|mention|keep|with|want|need|see|throw|chuck|"
    r"tack|stick|pop|slip)\b"
    r"(?:\s+(?:me|us|in|up|on))?\s+(?:the\s+|their\s+|its\s+|each\s+)?"
    r"(?P<what>[a-z][a-z /-]{1,40}?)\s*(?:next to|beside|alongside|too\b|as well|also|every time|in every|column|"
    r"field|for each|for every|with|in|on|when|whenever|$|,|\.)"
)
_POLITE_TAIL = re.compile(r"(?:\s+(?:please|pls|plz|thanks|thx|ta|kindly|cheers))+$")
_EXCLUDE = re.compile(
    r"(?<!don't )(?<!do not )(?<!never )\b(?:leave|take|keep)\s+(?:the\s+)?"
    r"(?!(?:it|them|that|this|those|these)\s)(?P<what>[a-z][a-z /-]{1,40}?)\s+(?:out|off)\b"
    r"|\b(?:drop|hide|remove|skip|exclude)\s+(?:the\s+)?(?!(?:it|them|that|this|those|these)\b)"
    r"(?P<what2>[a-z][a-z /-]{1,40}?)\s*(?:column|field|from|$|,|\.)"
    # "don't include the tax column", "never show the fax number"
    r"|\b(?:don't|do not|never|stop)\s+(?:include|show|add|put|list|display)(?:ing)?\s+(?:the\s+)?"
    r"(?!(?:more|less|fewer|over|under|me|it|them|that|this|anything|any)\b)"
    r"(?P<what3>[a-z][a-z /-]{1,40}?)\s*(?:column|field|by default|from|in|$|,|\.)"
)
_SORT = re.compile(
    r"\b(?:sort(?:ed)?|order(?:ed)?|rank(?:ed)?|arrange(?:d)?)\b[^,.;]*?\bby\s+(?!default)(?P<by>[a-z][a-z ]{1,30}?)"
    r"(?=\s*(?:,|\.|$|desc|asc|biggest|largest|smallest|newest|oldest|highest|lowest|high|low|first|then|as|every|"
    r"by default|please|from))"
    r"|\b(?P<alpha>alphabetical(?:ly)?|a[- ]to[- ]z|a-z)\b"
    rf"|\b(?P<first>{_EXTREMES})(?: (?:ones?|orders?|customers?|amounts?|due date|date|\$|dollars?|values?|deals?))? "
    # ("the oldest is at the top", "biggest ones go first")
    r"(?:(?:is|are|goes|go|comes|come|sits?)\s+)?(?:first|at the top|on top|up top)\b"
    rf"|\b(?:put|show|list) the (?P<top>{_EXTREMES}) (?P<topby>[a-z ]{{1,20}}?) (?:at the top|first)\b"
    # "oldest to newest", "most recent to oldest": dates, the first end at the top
    r"|\b(?P<span>(?:oldest|earliest) to (?:newest|latest|most recent)"
    r"|(?:newest|latest|most recent) to (?:oldest|earliest))\b"
    r"|\b(?P<dir>descending|ascending|(?:smallest|lowest)(?: amounts?| values?)? to (?:largest|biggest|highest)|"
    r"low(?:est)? to high(?:est)?|(?:largest|biggest|highest)(?: amounts?| values?)? to (?:smallest|lowest)|"
    r"high(?:est)? to low(?:est)?|z to a|reverse alphabetical(?:ly)?)\b"
)
_DESCENDING = {"biggest", "largest", "highest", "newest", "latest", "freshest", "most recent", "descending"}
# Words for the records themselves, no field of theirs ("the newest ones first", "the biggest orders first")
_ANY_RECORDS = frozenset(
    {"ones", "one", "orders", "order", "items", "entries", "records", "invoices", "deals", "stuff"}
)
_ASCENDING = {"smallest", "lowest", "oldest", "earliest", "ascending"}


def _field_of(words: str) -> str:
    """The record field a phrase names ("the account code" -> "account_code"), or "" ("the ship date":
    a date the records do not hold is no order date)."""
    for name, pattern in _field_patterns().items():
        if pattern.search(words):
            return "" if name == "date" and _OTHER_DATE.search(words) else name
    return ""


# A date named by what it is the date of, other than an order's ("ship date", "delivery date", "invoice date").
_OTHER_DATE = re.compile(
    r"\b(?!(?:order|ordered|orders|the|a|by|their|its|each|any|every|last|latest|first)\b)[a-z]+[- ]dates?\b"
)


_NEGATORS = re.compile(
    r"\b(?:moved off|move off|switched from|switch from|away from|no longer|"
    r"no(?!\s+(?:more|fewer|less)\s+than\b)|never|not|don't|do not|doesn't|without|stop|hate|dislike|avoid|none of)\b"
)
_CONTRAST = re.compile(r"\b(?:than|instead of|rather than|not|over|vs|versus|none of)\b|>")
_SWITCH = re.compile(r"\b(?:switch|change|move|moved|convert|swap|turn|make)\w*\b[^.;]*?\b(?:to|into|over to)\b")


# "swap the millions for thousands", "replace the bullets with tables": the value after it is wanted
_SWAP = re.compile(r"\b(?:swap|replace|trade|exchange)\w*\b[^.;]*?\b(?:for|with)\b")
_ASKING = re.compile(
    r"\b(?:i want|i'd like|id like|i need|i prefer|i'd rather|give me|show me|please|pls|can you|could you|can u)\b"
    # an imperative opens its part ("..., put times in eastern"); "paragraphs make my eyes glaze" asks nothing
    r"|^\W*(?:put|use|make|switch|swap|go with|keep|do)\b"
)
_PARTS = re.compile(r"[,;.!?\u2013\u2014]|\s-\s")


def _asks(hit: _Hit, low: str) -> bool:
    """Whether the part of the sentence holding the value asks for something."""
    begin = max((m.end() for m in _PARTS.finditer(low, 0, hit.start)), default=0)
    end = next((m.start() for m in _PARTS.finditer(low, hit.end)), len(low))
    return bool(_ASKING.search(low[begin:end]))


_SWITCH_BACK = re.compile(
    r"\b(?:switch|change|move|swap|turn|flip|make|bump|up|raise|increase|lower|reduce|cut|set|update)\w*\s+"
    r"(?:that|it|this|those|my|the [\w -]{1,20} thing)\b"
    r"(?:[^.;]*?\b(?:to|into|over to)\b|\s+(?:(?:the )?top\s+)?\d)"  # "switch it to millions", "make that top 3"
)

# A new number said of a kept one without naming what it counts ("actually 6 is better", "lets go
# with 9", "can we double that? so 12"): read only as an update of a live note that holds a number.
_POINTED_NUMBER = tuple(
    re.compile(p)
    for p in (
        r"\b(?:make|change|set|switch|bump|cut|drop|raise|lower|up|increase|reduce|trim|move|take)\w*\s+"
        r"(?:it|that|this|them|those)(?:\s+(?:up|down|back))?\s+(?:to\s+)?(?:(?:the )?top\s+)?(\d{1,3})\b",
        r"\b(\d{1,3})(?:'s| is| would be| feels| sounds) (?:much |way |a lot )?(?:better|plenty|enough|fine|"
        r"about right|more like it|the sweet spot)\b",
        r"\b(?:let's|lets|let us|we'll|i'll|can we|could we)? ?(?:go|settle) (?:with|for|on) "
        r"(?:(?:the )?top )?(\d{1,3})\b",
        r"\b(?:double|halve|triple) (?:that|it|this)\b\W+(?:\w+\W+){0,3}?(?:so|to|i\.e\.|ie|=) ?(\d{1,3})\b",
    )
)


def pointed_number(text: str, *, after: int = 0) -> int | None:
    """The number an update says of a kept one without naming what it counts, or None; with
    ``after``, only a number said past that character ("can we double that? so 12": the
    sentence before it is read with it)."""
    low = text.lower()
    for pattern in _POINTED_NUMBER:
        for match in pattern.finditer(low):
            if match.end() > after and not re.match(rf"\s*(?:{_NOT_A_LIST_SIZE})\b", low[match.end() :]):
                return int(match.group(1))
    return None


# Facets whose value is a number, in the order an update of a bare number looks for them.
NUMBER_FACETS = ("limit", "max_words", "max_lines", "max_sentences", "max_paragraphs")


# "change the sorting preference: ...", "update my date setting": a kept setting named by what it is.
_SETTING_NAMED = re.compile(
    r"\b(?:switch|change|update|swap|flip|adjust|tweak|amend)\w*\s+(?:my|the|that)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:thing|setting|preference|pref|rule|default|option)s?\b"
)


def is_switch(text: str) -> bool:
    """Whether the words change a value the user set before to another ("turn that top 5 thing
    into a top 8", "switch it to millions", "change the sorting preference: biggest first");
    "convert 250 pounds to yen" changes no setting."""
    low = text.lower()
    return bool(_SWITCH_BACK.search(low) or _SETTING_NAMED.search(low) or _swapped_field(low))


@dataclass(frozen=True)
class _Hit:
    start: int
    end: int
    facet: str
    value: Any


@lru_cache(maxsize=4096)
def _hits(low: str) -> tuple[_Hit, ...]:
    """Every value of the table the text names, in order (read once per text: a turn asks of the same words for
    its facets, what it finds wanting and what it turns down)."""
    hits: list[_Hit] = []
    world = _may_name_world_money(low)
    for facet, value, patterns in _compiled():
        if not world and value.value in _WORLD_MONEY:
            continue
        for pattern in patterns:
            for match in pattern.finditer(low):
                if value.value == "#":
                    number = dates.number(match.group(1)) if match.groups() else None
                    if number is None or not 0 < number <= 200:
                        continue
                    hits.append(_Hit(match.start(), match.end(), facet.name, number))
                elif value.value == "#lead":
                    lead = next(g for g in match.groups() if g)
                    hits.append(_Hit(match.start(), match.end(), facet.name, lead))
                elif value.value == "#zone":
                    zone = _zone(match.group(1))
                    if zone:
                        hits.append(_Hit(match.start(1), match.end(), facet.name, zone))
                elif facet.name == "layout" and _INSIDE_THE_LAYOUT.search(
                    low[max(0, match.start() - 50) : match.start()]
                ):
                    continue  # "never use red/green to flag stuff in tables": done in tables, no layout wished
                else:
                    hits.append(_Hit(match.start(), match.end(), facet.name, value.value))
    # A match inside a longer match of another facet is part of it: "whole dollars" is rounding.
    kept = [
        h
        for h in hits
        if (h.facet == "currency" and h.value != RECORDS_CURRENCY)
        or not any(
            o.facet != h.facet
            and (h.facet, o.facet) not in _BOTH
            and o.start <= h.start
            and h.end <= o.end
            and (o.end - o.start) > (h.end - h.start)
            for o in hits
        )
    ]
    return tuple(sorted(kept, key=lambda h: (h.start, -h.end)))


# Something done to what a layout holds ("flag stuff in tables", "bold the totals in the table"): the
# layout is where it is done, not a wish for it.
_INSIDE_THE_LAYOUT = re.compile(
    r"\b(?:flag|bold|mark|colou?r|highlight|shade|underline|red|green)\w*\b[^.,;]{0,30}\bin (?:the |your |my |a )?$"
    # a condition the wish holds in ("whenever theres a table can u put a flag next to ...")
    r"|\b(?:whenever|when|if) there(?:'s| is| are|s)? (?:a |any )?$"
)


# A value inside a longer match of another facet that is said too: "6 bullets max" is a list
# size and bullet points.
_BOTH = {("layout", "limit")}


def _zone(words: str) -> str:
    """A time zone's name: an abbreviation, or a place's time ("Singapore time")."""
    from atlas.lexicon import places

    words = words.strip()
    if len(words) <= 4 and words.isalpha() and " " not in words and words in _ZONES:
        return words.upper()
    known = places()
    parts = words.split()
    for size in (2, 1):
        key = tuple(parts[-size:])
        if len(key) == size and key in known:
            return known[key]
        if size == 1 and key and key[0] in ("eastern", "pacific", "central", "mountain", "atlantic", "local"):
            return key[0].title()
    return ""


_ZONES = {"utc", "gmt", "cet", "cest", "est", "edt", "pst", "pdt", "cst", "ist", "jst", "aest", "bst"}


def _negated(hit: _Hit, low: str) -> bool:
    """A negation just before the value, in the same part of the sentence ("no bullets or tables")."""
    begin = max(0, hit.start - 25)
    while begin > 0 and low[begin - 1].isalnum():
        begin -= 1  # never start inside a word: "when|ever" holds no "never"
    window = low[begin : hit.start]
    # a negation in the reason before "so" is the reason's ("tables are never readable so bullets")
    return bool(_NEGATORS.search(re.split(r"[,;.!?]|\bbut\b|\bjust\b|\bso\b|\bbecause\b", window)[-1]))


_WANTING = re.compile(
    r"^\W*(?:\w+\W+){0,2}?(?:is|are|r|still|just)?\W*(?:still )?too (?:long|many|much|big|small|short)\b"
    # "reading english all day is exhausting": the value the user tires of
    r"|^\W*(?:\w+\W+){0,3}?(?:is|are|r|gets?) (?:so |really |just )?(?:exhausting|tiring|draining|hard work|a slog)\b"
    # "tables are never readable on my phone", "bullets don't work for me", "tables are a pain"
    r"|^\W*(?:is|are|r) (?:never|not|hardly|rarely|no) (?:readable|useful|helpful|any good|easy)\b"
    r"|^\W*(?:don't|do not|never) work\b"
    r"|^\W*(?:which |that )?(?:is|are|r) (?:useless|unreadable|hard to read|a pain|annoying|confusing|pointless)\b"
    # "my english is kinda rusty", "english isn't my strong suit", "english is hard for me": a language the user reads
    # poorly is the one not wanted
    r"|^\W*(?:is|r|'s)(?: kinda| kind of| a bit| a little| pretty| quite| really| very| so)? (?:rusty|weak|poor|shaky"
    r"|not (?:so |very |that |too |really )?(?:good|great|strong|fluent)|hard for me)\b"
    r"|^\W*(?:is not|isn't|isnt|is no|'s not) (?:my strong suit|my strength|my first language)\b"
    # "month-first confuses everyone here", "the slashes keep tripping people up"
    r"|^\W*(?:\w+\W+)?(?:always |keeps? |just |really )?"
    r"(?:confus|annoy|irritat|frustrat|trip|mislead|misread|throw)\w*\b"
    # "tables dont render in my outlook", "bullets don't show up on my phone"
    r"|^\W*(?:don't|do not|dont|won't|wont|never) (?:render|display|show up|load|print|fit)\b"
)


def _found_wanting(hit: _Hit, low: str) -> bool:
    """A value the user finds wanting right after naming it ("millions still too small"), or
    complains of just before ("ugh so many tables", "sick of bullet points")."""
    # (never past the end of its sentence: "... to top 4. 10 is too many" finds the 10 wanting, not the 4)
    after = _WANTING.match(re.split(r"[.!?;]\s", low[hit.end : hit.end + 30], maxsplit=1)[0])
    return bool(after or _WANTING_BEFORE.search(low[max(0, hit.start - 25) : hit.start]))


def found_wanting(text: str) -> dict[str, set[Any]]:
    """The values the text finds wanting, by facet ("thousands still too long", "sick of bullet
    points"): a value said after it for the same facet replaces a kept one."""
    low = text.lower()
    out: dict[str, set[Any]] = {}
    for hit in _hits(low):
        if _found_wanting(hit, low) and isinstance(hit.value, str | int):
            out.setdefault(hit.facet, set()).add(hit.value)
    return out


def turned_down(text: str) -> dict[str, list[Any]]:
    """The values the text turns down, by facet: found wanting ("changed my mind on the tables") or set against
    ("the biggest at the top, not A-Z"; "no more than 5" is a bound, not a value turned down). A newer note that
    turns down a kept one's value replaces it, whatever either's scope."""
    low = text.lower()
    out: dict[str, list[Any]] = {}
    for hit in _hits(low):
        # (a number found wanting is a bound: "a ranking with more than 6 names is never useful")
        if _found_wanting(hit, low) and not isinstance(hit.value, int) and hit.value not in out.get(hit.facet, []):
            out.setdefault(hit.facet, []).append(hit.value)
    for said in _TURNED_DOWN.finditer(low):
        reading = read_facets(said.group("what"))
        for facet, value in ({} if reading.negative else reading.facets).items():
            if value not in out.get(facet, []):
                out.setdefault(facet, []).append(value)
    return out


# "..., not A-Z", "rather than bullets", "changed my mind on the tables,": the words of a value turned down
_TURNED_DOWN = re.compile(
    r"\b(?:not(?!\s+(?:more|over|above|less|fewer|under|past|beyond)\b)|rather than|instead of"
    r"|(?:changed|chang(?:e|ing)) my mind (?:on|about|abt|re)|rethinking|scratch"
    r"|(?:faster|quicker|easier|better|clearer|simpler|nicer) than)"
    r"\s+(?P<what>[^,.;!?]{1,30})"
)


_WANTING_BEFORE = re.compile(
    # "changed my mind on the tables", "rethinking the date thing", "scratch the table idea": the value named is the
    # one given up
    r"\b(?:(?:changed|chang(?:e|ing)) my mind (?:on|about|abt|re)|rethinking|rethought"
    r"|second thoughts (?:on|about|abt|re)|scratch|not keen on)\s+(?:the |that |those |my )?$"
    r"|\b(?:so many|too many|too much|sick of|tired of|fed up with|enough of|enough with|hate"
    # "im forever converting the usd figures": the value converted from is the one not wanted
    r"|convert(?:ing|s)?(?: from)?|translat(?:e|ing|es)(?: from)?)\s+"
    r"(?:the |all the |these |those )?$"
)


def _choose(hits: list[_Hit], low: str) -> Any:
    """One facet's value when a clause names several: after "switch ... to" the one after it;
    otherwise the first named before a contrast ("prose rather than bullets", "CHF instead of
    EUR", "fiscal not calendar"); otherwise the first named."""
    wanted = [h for h in hits if not _negated(h, low) and not _found_wanting(h, low)]
    hits = wanted or hits
    # "month-first dates keep confusing me, I want dd/mm/yyyy": the value in the part that asks
    asked = [h for h in hits if _asks(h, low)]
    if asked and len(asked) < len(hits):
        hits = asked
    swap = _SWAP.search(low)
    if swap is not None:
        after = [h for h in hits if h.start >= swap.end() - 1]
        if after:
            return after[0].value
    instead = re.search(r"\binstead\b(?! of)", low)
    if instead is not None and len(hits) > 1:
        # "do thousands instead": the value said just before a bare "instead" replaces the other
        before = [h for h in hits if h.end <= instead.start()]
        if before:
            return before[-1].value
    switch = _SWITCH.search(low)
    if switch is not None:
        after = [h for h in hits if h.start >= switch.end() - 2]
        if after:
            return after[0].value
    but = re.search(r"\bbut\b", low[hits[0].end :])
    if but is not None:
        # "i understand english but german is faster for me": the value the user concedes, then the one they want
        after = [h for h in hits if h.start >= hits[0].end + but.end()]
        if after:
            return after[0].value
    contrast = _CONTRAST.search(low, hits[0].end)
    if contrast is not None:
        # the value said right before the contrast ("tables dont render ... so use bullets instead of tables")
        before = [h for h in hits if h.start < contrast.start()]
        if before:
            return before[-1].value
    return hits[0].value


def states_its_values(statement: str, facets: dict[str, Any]) -> bool:
    """Whether a sentence in the user's words names each currency, scale, date format and language
    it sets the way the table does ("Wants answers included all in loonies eh." names no CAD: the
    table's own sentence says it instead)."""
    low = statement.lower()
    if str(facets.get("number_style", "")).startswith(("whole_percent", "percent_")) and not re.search(
        r"percent|%", low
    ):
        return False  # "whole numbers whenever Atlas shows a change": the percentages unsaid
    for name in ("currency", "scale", "date_format", "language"):
        value = facets.get(name)
        if value is None:
            continue
        spec = next((v for v in FACETS_BY_NAME[name].values if v.value == value), None)
        words = {w for w in re.findall(r"[a-z]{3,}", (spec.label if spec else "").lower()) if w not in _LABEL_FILLER}
        if name == "currency":
            from babel.numbers import get_currency_symbol

            words.add(get_currency_symbol(str(value), locale="en").lower())  # "€", "£", "CA$"
        if words and not any(w[:6] in low for w in words | {str(value).lower()}):
            return False
    return True


_LABEL_FILLER = frozenset({"like", "the", "with", "style", "first", "day", "month", "dots", "written", "out"})


def value_spans(text: str) -> list[tuple[int, int]]:
    """Where in ``text`` the table reads a value, as character spans ("don't drop cancelled
    orders": the whole phrase is one value, its negation included)."""
    low = " " + text.lower().replace("\u2019", "'") + " "
    return [(h.start - 1, h.end - 1) for h in _hits(low)]


_FIRST_OR_LAST = re.compile(r"(?<=[a-z])-(?=(?:first|last)\b)")
_ABOUT_A_NUMBER = re.compile(r"~\s*(?=\d)|\b(?:about|around|roughly|approx(?:imately)?|circa)\s+(?=\d)")


# What a dollar is said as the unit of ("to the nearest", "of a", "than a", "whole"): a rounding's unit.
_AS_A_UNIT = re.compile(r"\b(?:to|of|than|nearest|whole|a|the)\s+(?:the\s+|a\s+)?(?:nearest\s+)?(?:whole\s+)?$")


def read_facets(text: str) -> Reading:
    """The facets a clause names, with their values (the text is normalised already)."""
    low = " " + text.lower().replace("\u2019", "'") + " "
    low = _FIRST_OR_LAST.sub(" ", low)  # "newest-first", "biggest-last": the words of an order, hyphen or not
    low = _ABOUT_A_NUMBER.sub("", low)  # "under ~50 words", "around 60 words": the number is the bound
    hits = _hits(low)
    found: dict[str, Any] = {}
    for name in dict.fromkeys(h.facet for h in hits):
        found[name] = _choose([h for h in hits if h.facet == name], low)
    refused = {n for n in found if all(_negated(h, low) or _found_wanting(h, low) for h in hits if h.facet == n)}
    if refused != set(found) or refused == {"sort"}:
        # "use lakhs and crores, not millions", "my standard ordering, not alphabetical": a value named only
        # to be refused is no value wanted (a clause that refuses every value it names is turned round)
        for name in refused:
            del found[name]
    if "currency" not in found and re.search(r"(?<![\w$])\$(?:\d[\d.,]*)?[km]\b", low):
        found["currency"] = RECORDS_CURRENCY  # "$k", "$3.1m": the records' own dollars, scaled
    if found.get("currency_display") == "code" and any(
        h.facet == "currency"
        and h.value != RECORDS_CURRENCY
        and low[h.start : h.end].strip().isalpha()  # a code or name refused, not the symbol ("not the € sign")
        and (_negated(h, low) or _found_wanting(h, low))
        for h in hits
    ):
        # "use USD going forward, not GBP": the currency wanted in place of another, not how its code is shown
        del found["currency_display"]
        found["currency"] = RECORDS_CURRENCY
    if (
        found.get("currency") == RECORDS_CURRENCY
        and "rounding" in found
        and all(_AS_A_UNIT.search(low[: h.start]) for h in hits if h.facet == "currency")
    ):
        del found["currency"]  # "round to the dollar", "0.37 of a dollar": the unit rounded to, no currency wished
    if found.get("currency_display") == "code" and found.get("currency") == RECORDS_CURRENCY:
        del found["currency"]  # "USD 1,234.00 style, not the $ sign": the display, not a currency
    if str(found.get("number_style", "")).startswith(("whole_percent", "percent_")):
        found.pop("rounding", None)  # "round percentages to whole numbers": the percentages, not the money
    _read_length_bound(low, found)
    for bound in ("max_sentences", "max_lines"):
        if "limit" in found and found.get(bound) == found["limit"] and len(found) == 3:
            if re.search(rf"\b{_LISTS}", low):
                del found["length"], found[bound]  # "max 12 lines in any list": the list's lines
            else:
                del found["limit"]  # "replies of 4 lines at most": the answer's lines
    _read_fields(low, " " + text + " ", found)
    if "lead" in found and found.get("include") in (found["lead"], f"{found['lead']}s"):
        del found["include"]  # "the headline number first": what the answer opens with, no field
    _read_sort(low, found)
    _read_first_field(low, found)
    return Reading(found, widest(scope_of(low), found), negative=_turned_round(low, hits, found))


# A facet that acts on one kind of answer only: scoped to that kind, a note says no more than a
# global one ("the top 5 when I ask for a ranking" and "just the top 3 from now on" are one facet
# in one scope, so the newer wins).
_HOME_SCOPES = {"ranking": "rankings", "contract": "contracts"}


def at_home(facet: str, scope: str) -> bool:
    spec = FACETS_BY_NAME.get(facet)
    return spec is not None and _HOME_SCOPES.get(spec.acts_on) == scope


def widest(scope: str, facets: dict[str, Any]) -> str:
    """``scope``, or global when every facet acts only in that scope anyway."""
    return GLOBAL if facets and all(at_home(facet, scope) for facet in facets) else scope


def _read_length_bound(low: str, found: dict[str, Any]) -> None:
    """ "40 words max", "one or two sentences, under 25 words": every bound stated."""
    if found.get("length") != "short":
        return
    unit_keys = {"word": "max_words", "sentence": "max_sentences", "line": "max_lines"}
    plus = _PLUS_ONE_LINE.search(low)
    if plus is not None and (number := dates.number(plus.group(1))) is not None:
        found.setdefault("max_lines", number + 1)  # the answer's own line, and the ones after it
    for match in re.finditer(
        r"\b(\d+|a|one|two|three|four|five|six|seven|eight|nine|ten)(?: or (\d+|two|three|four|five))?[- ]"
        r"(word|sentence|line|paragraph)s?\b",
        low,
    ):
        number = 1 if match.group(1) == "a" and not match.group(2) else dates.number(match.group(2) or match.group(1))
        if number is not None:
            found.setdefault(unit_keys.get(match.group(3), "max_paragraphs"), number)


# "the answer + one line of context": the answer's line and one more
_PLUS_ONE_LINE = re.compile(
    r"\b(?:answer|number|figure|total|result)s? (?:\+|plus|and|with|then) (a|one|1|two|2) (?:line|sentence)s?\b"
)


_INCLUDE_CUES = re.compile(
    r"\b(?:include[ds]?|including|add(?:ed|ing)?|put|show(?:n|ing)?|give|tell|mention|list|display(?:ed)?|with|alongside|"
    r"tag|stick|throw|chuck|tack|pop|slip|"
    r"next to|beside|as well|too|also|"
    r"on (?:everything|every|each|all)|in (?:every|each|all)|after (?:each|every)|in brackets|keep|"
    r"(?:don't|do not|never) (?:leave|drop|take))\b"
)
_OTHER_FIELD = re.compile(
    r"\b(?:the|their|its|a|an|each|every)\s+(?P<what>(?:[a-z'-]+\s+){0,3}"
    r"(?:numbers?|ids?|codes?|refs?|references?|notes?|reps?|columns?|fields?|owners?|managers?|scores?|carriers?"
    r"|contacts?|emails?|addresses|address|fees?|periods?|postcodes?|zip codes?|escalators?|phones?"
    r"|(?:contact|delivery|due|ship|last order) dates?))\b"
    # "include how many days overdue each one is": a count the user names
    r"|\bhow many (?P<count>days? [a-z]+)\b"
)


# "swap city for the account code", "replace the city w/ payment terms", "instead of the city show the
# acct code", "take the city out and put the region there": the field named after it is the one wanted
_FIELD_SWAP = re.compile(
    r"\b(?:swap|replace|trade|exchange|switch|change)\w*\b.*?\b(?:for|with|to|into)\b"
    r"|\btake\b.*?\bout\b.*?\b(?:put|add|show|use|give)\b"
    r"|\binstead of\b[^,]*?(?:,|\b(?:show|use|give|put|add|want|need)\b)"
)


def _swapped_field(low: str) -> str:
    """The field a swap of one field for another asks for ("" when the words swap no two fields)."""
    swap = _FIELD_SWAP.search(low)
    if swap is None:
        return ""
    before = [n for n, p in _field_patterns().items() if p.search(low, 0, swap.end())]
    after = [(m.start(), n) for n, p in _field_patterns().items() if (m := p.search(low, swap.end()))]
    wanted = [n for _, n in sorted(after) if n in ADDABLE_FIELDS]
    return wanted[0] if wanted and before else ""


def _read_fields(low: str, written: str, found: dict[str, Any]) -> None:
    """A field to add ("put the account code next to ...", "payment terms on everything") or to
    leave out ("leave the internal notes field out"): a known field by its name, another one in
    the user's own words."""
    swapped = _swapped_field(low)
    if swapped:
        found["include"] = swapped  # the newer field replaces the older note's
        return
    excluded = _EXCLUDE.search(low)
    if excluded is not None:
        group = next(g for g in ("what", "what2", "what3") if excluded.group(g))
        # ("skip long-winded intros please, ...": the politeness after it is no part of the thing)
        what = _POLITE_TAIL.sub("", (excluded.group(group) or "").strip())
        # "never show pie charts" turns a facet round (the chart's); only a field is left out here
        names_a_facet = group == "what3" and bool(_hits(f" {what} "))
        # "leave the cents off": the cents are the rounding's, no field of the records
        names_a_facet = names_a_facet or bool(re.fullmatch(r"(?:the |all the )?(?:cents|pennies|decimals?)", what))
        if what and "cancel" not in what and not names_a_facet:
            found["exclude"] = _field_of(what) or _as_written(
                written, excluded.start(group), excluded.start(group) + len(what)
            )
            return
    if not _INCLUDE_CUES.search(low):
        return
    condition = _CONDITION.search(low)
    inside = range(condition.start(), condition.end()) if condition is not None else range(0)
    named: list[tuple[int, str]] = []
    for name, pattern in _field_patterns().items():
        for match in pattern.finditer(low):
            if match.start() in inside or re.search(r"\bby\s+(?:the\s+)?$", low[: match.start()]):
                continue  # "whenever I ask about the North region": the scope; "sort by city": a sort
            if name in ("region", "segment") and _NAMED_BEFORE.search(low[: match.start()]):
                continue  # "the northern region", "our mid-market segment": one of them, not the field
            if name in ADDABLE_FIELDS:
                named.append((match.start(), name))
    if named:
        found.setdefault("include", sorted(named)[0][1])
        return
    other = _OTHER_FIELD.search(low)
    group = "what" if other is not None and other.group("what") else "count"
    if other is not None and not _names_other_facet(other.group(group)):
        found.setdefault("include", _as_written(written, other.start(group), other.end(group)))


# A region or segment named before the word ("the northern region", "our mid-market segment"): a
# filter on the records, not the field shown beside each customer.
_NAMED_BEFORE = re.compile(
    r"\b(?:north|south|east|west|central|northern|southern|eastern|western|emea|apac|latam|dach|"
    r"enterprise|mid-market|midmarket|smb|small business|public sector|[a-z]+ern|my|our|that|this)\s+$"
)


def field_named(text: str) -> str:
    """The first field of a record ``text`` names that an answer can add, or ""."""
    low = " " + text.lower() + " "
    named = [
        (m.start(), name) for name, p in _field_patterns().items() if name in ADDABLE_FIELDS for m in p.finditer(low)
    ]
    return min(named)[1] if named else ""


def _as_written(written: str, start: int, end: int) -> str:
    """A field in the user's own words and case ("PO number"), without its article or "column"."""
    phrase = written[start:end].strip()
    phrase = re.sub(r"^(?:the|their|its|a|an|each)\s+", "", phrase, flags=re.I)
    return re.sub(r"\s+(?:column|field|col)s?$", "", phrase, flags=re.I).strip()


def _names_other_facet(words: str) -> bool:
    """Whether words name another facet ("the currency code", "bullet points"), not a field."""
    return any(p.search(" " + words + " ") for f, _, ps in _compiled() for p in ps if f.name not in ("include", "sort"))


_REFUSED_BEFORE = re.compile(r"\b(?:not|no|never|rather than|instead of)\s+(?:\w+\s+)?$")


def _read_sort(low: str, found: dict[str, Any]) -> None:
    # "make that my standard ordering, not alphabetical": an order named only to be refused is none
    match = next((m for m in _SORT.finditer(low) if not _REFUSED_BEFORE.search(low[: m.start()][-25:])), None)
    if match is None:
        return
    direction = ""
    by = ""
    if match.group("by"):
        by = _field_of(match.group("by")) or match.group("by").strip()
    elif match.group("alpha"):
        by, direction = "name", "asc"
    elif match.group("first") or match.group("top") and match.group("topby").strip() in _ANY_RECORDS:
        # "newest first", "show the newest ones first": the extreme says what the order is by
        word = match.group("first") or match.group("top")
        by = "date" if word in ("newest", "latest", "freshest", "most recent", "oldest", "earliest") else "amount"
        rest = low[match.end("first") : match.end()]
        if "due date" in rest:
            by = "due date"
        direction = "desc" if word in _DESCENDING else "asc"
    elif match.group("top"):
        word = match.group("top")
        by = _field_of(match.group("topby")) or match.group("topby").strip()
        direction = "desc" if word in _DESCENDING else "asc"
    elif match.group("span"):
        by, direction = "date", "asc" if match.group("span").startswith(("oldest", "earliest")) else "desc"
    elif match.group("dir"):
        word = match.group("dir")
        by = "name" if word.startswith(("z ", "reverse")) else ""
        direction = "asc" if word.startswith(("ascending", "smallest", "low")) else "desc"
    tail = low[match.end() : match.end() + 40]
    turned = re.search(r"\b(?:smallest|lowest|low) to (?:largest|biggest|highest|high)\b|\bz to a\b", low)
    if turned and not direction:
        direction = "asc" if not turned.group(0).startswith("z") else "desc"
    for word in (*_DESCENDING, *_ASCENDING):
        if not direction and re.search(rf"\b{word}\b", tail):
            direction = "desc" if word in _DESCENDING else "asc"
    if by == "name" and not direction:
        direction = "asc"
    if by and not direction:
        direction = "asc" if by in ("name",) else "desc"
    if by or direction:
        found["sort"] = {"by": by or "amount", "order": direction or "desc"}


# The fields a list row can open with: the table's fields, and what every order row shows.
_ROW_FIELDS = {
    **FIELDS,
    "status": (r"status(?:es)?",),
    "order_number": (r"order numbers?", r"so numbers?", r"order ids?"),
}
_FIRST_PLACE = (
    r"(?:column |field )?(?:goes |comes |should go |should come |is |as )?(?:in )?(?:the )?"
    r"(?:first|leftmost|left-most|far left|at the (?:front|left|start))(?! \d)"
)


@lru_cache(maxsize=1)
def _first_field_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Each row field's "<field> first" pattern, compiled once ("biggest first", "names first" are sorts)."""
    out = []
    for name, words in _ROW_FIELDS.items():
        if name in ("amount", "name"):
            continue
        nouns = [w for w in words if not re.search(r"newest|latest|recent|oldest|chronolog|biggest|largest", w)]
        noun = rf"\b((?:order |invoice |contract )?(?:{'|'.join(nouns)}))\b"
        out.append((name, re.compile(rf"{noun} (?:(?:in|into) (?:the )?)?{_FIRST_PLACE}")))
    return tuple(out)


def _read_first_field(low: str, found: dict[str, Any]) -> None:
    """ "put the order date first in order lists", "account code goes first", "status column first",
    "put the date in the leftmost column": the field a row opens with."""
    for name, pattern in _first_field_patterns():
        match = pattern.search(low)
        if match is not None:
            # a field the table names by its own words; another in the user's ("the order date")
            found["first_field"] = name if name in FIELD_LABELS else match.group(1).replace("_", " ")
            if str(found.get("include", "")).replace("_", " ") in ("leftmost", "left-most", name.replace("_", " ")):
                del found["include"]  # "the date in the leftmost column", "the account code goes first"
            if found.get("sort", {}).get("by") == name:
                del found["sort"]
            return


def _turned_round(low: str, hits: tuple[_Hit, ...], found: dict[str, Any]) -> bool:
    """ "no tables", "never use charts", "don't want bullet points": every value the clause names
    is negated. A limit, a rounding, an exclusion, a sort or a length already says what to do
    ("don't ever give me the full list, top 25"); "no bullets, just plain sentences" wants prose."""
    if not hits or {"limit", "rounding", "exclude", "cancelled", "sort", "length"} & set(found):
        return False
    # "shows up as $0.05m which is useless": a value found wanting is one not wanted
    return all(_negated(h, low) or _found_wanting(h, low) for h in hits)


# what is asked for after the condition ("... pls add the sales rep", "... use millions", "... put the oldest first")
_REQUEST_AFTER = re.compile(rf"\s*(?=(?:please\s+)?(?:{_REQUEST_WORDS})\b)")


def with_condition_set_off(text: str) -> str:
    """The text with a comma after a condition that runs straight into the request ("whenever we
    talk renewals pls add the sales rep"), so the parse reads the request as one."""
    low = text.lower()
    match = _CONDITION.search(low)
    if match is None or match.group("what") is None or match.start() > 0 and low[match.start() - 1] not in " .;!?":
        return text
    end = len(low[: match.end()].rstrip())
    if _REQUEST_AFTER.match(low, end) is None or low[end : end + 1] in (",", ":", ";", "."):
        return text
    return f"{text[:end]},{text[end:]}"


def scope_of(low: str) -> str:
    """The scope a clause's condition names ("when I ask about contracts": "contracts"), or global."""
    match = _CONDITION.search(low)
    # "for the texas accounts", "the uk customers (the york + cardiff ones)", "the york ones ... for those"
    place = next(filter(None, (_place_scope(m.group("place")) for m in _PLACE_CUSTOMERS.finditer(low))), "")
    regional = _REGION_CUSTOMERS.search(low)
    if regional is not None:
        place = f"region:{regional.group(1)}"  # "for west customers", "for the east region accounts"
    # "revenue questions: millions", "customer lookups -> include the credit limit": a label before what is asked
    heading = _HEADING.match(low) if match is None and not place else None
    if heading is not None:
        what = heading.group("what")
    elif match is None:
        if place:
            return place
        # "order lists as a table", "customer lists sorted by name": the lists named are the scope.
        lists = re.search(r"\b(?:\w+ )?(?:lists?|rankings?)\b", low)
        if lists is None:
            return GLOBAL
        what = lists.group(0)
    else:
        what = next(g for g in match.groups() if g)
        if re.search(r"\blist(?:s|ed|ing)?\b", match.group(0)):
            what = f"list {what}"  # "when i list customers": the lists, not any answer naming one
    region = _REGION_SCOPE.search(what)
    if region is not None and re.search(r"\b(?:region|coast)\b", what):
        return f"region:{region.group(1)}"
    status = _STATUS_SCOPE.search(what)
    if status is not None:
        return f"status:{_STATUS_NAMES.get(status.group(1), status.group(1))}"
    named_place = _place_scope(what)
    if named_place:
        return named_place
    for name, patterns in SCOPES:
        if any(re.search(p, what) for p in patterns):
            return name
    return place or GLOBAL


# A label that names a kind of question before a colon or an arrow ("revenue questions:", "contract lists ->").
_HEADING = re.compile(
    r"^\s*(?P<what>[a-z][\w' -]{2,30}?\s(?:questions?|q's|qs|lookups?|lists?|answers?|summaries|reports?|totals?))"
    r"\s*(?::|->|→|—|-)\s"
)
# "on overdue questions", "for open orders": the orders of one status
_STATUS_SCOPE = re.compile(r"\b(overdue|late|past due|unpaid|open|paid|shipped)\b")
_STATUS_NAMES = {"late": "overdue", "past due": "overdue", "unpaid": "overdue"}
# "for the texas accounts", "the york + cardiff ones": the customers of a place
_PLACE_CUSTOMERS = re.compile(
    r"(?:\b(?:the|our|my|those|these|for|with)\s+|^\s*)(?P<place>[a-z' +&,()-]{2,60}?)\s+"
    r"(?:customers|clients|accounts|ones)\b"
)


def _place_scope(what: str) -> str:
    """The customers of a place the words name: "city:york|cardiff" for cities on record, "place:texas"
    for a place the records file no customer under (a note that holds nowhere, rather than everywhere),
    or "" (a region or a coast is read by ``scope_of`` before this)."""
    from atlas import lexicon

    on_record = sorted(c.lower() for c in lexicon.names_from(lexicon.CITY_NAMES))
    named = [c for c in on_record if re.search(rf"\b{re.escape(c)}\b", what)]
    if named:
        return "city:" + "|".join(named)
    # "for the enterprise accounts": the customers of a segment on record (before any place of that name)
    segments = sorted(g.lower() for g in lexicon.names_from(lexicon.SEGMENT_NAMES))
    # ("mid market", "midmarket": the segment however its words are joined)
    joined = {g: "[- ]?".join(re.escape(w) for w in re.split(r"[- ]", g)) for g in segments}
    filed = [g for g in segments if re.search(rf"\b{joined[g]}\b", what)]
    if filed:
        return "segment:" + "|".join(filed)
    words = lexicon.words(what)
    for size in (3, 2, 1):
        for i in range(len(words) - size + 1):
            if tuple(words[i : i + size]) in lexicon.places():
                return "place:" + " ".join(words[i : i + size])
    return ""


# --- statements ------------------------------------------------------------------------------

_MONEY_FACETS = ("scale", "currency", "rounding", "currency_display")


def _label(facet: str, value: Any) -> str:
    if facet in ("limit", "rounding") and isinstance(value, int):
        return next(v.label for v in FACETS_BY_NAME[facet].values if v.value == "#").format(n=value)
    if facet == "timezone":
        return f"times in {value}" if value.isupper() else f"times in {value} time"
    if facet == "lead":
        return f"the {value} first, details after"
    if facet == "first_field":
        return f"{FIELD_LABELS.get(value, 'the ' + value.replace('_', ' '))} first in each row"
    if facet in ("include", "exclude"):
        return FIELD_LABELS.get(value, f"the {value}")
    if facet == "sort":
        by, order = value.get("by", "amount"), value.get("order", "desc")
        words = {
            ("amount", "desc"): "by amount, largest first",
            ("amount", "asc"): "by amount, smallest first",
            ("date", "desc"): "by date, newest first",
            ("date", "asc"): "by date, oldest first",
            ("name", "asc"): "alphabetically by name",
            ("name", "desc"): "by name in reverse alphabetical order",
        }
        what = FIELD_LABELS.get(by, f"the {by}").removeprefix("the ").replace("_", " ")
        dated = "date" in what
        ends = ("newest", "oldest") if dated else ("largest", "smallest")
        return words.get((by, order), f"by {what}, {ends[0] if order == 'desc' else ends[1]} first")
    for candidate in FACETS_BY_NAME[facet].values:
        if candidate.value == value:
            return candidate.label
    return str(value)


def statement_for(facets: dict[str, Any], scope: str = GLOBAL, *, negative: bool = False) -> str:
    """The note's sentence, from its facets: "Prefers amounts in thousands of euros (EUR).",
    "Wants the renewal date shown in answers about contracts.", "Wants rankings limited to the top 3 only."."""
    parts: list[str] = []
    money = [f for f in _MONEY_FACETS if f in facets]
    if money:
        words = []
        if "scale" in facets and "currency" in facets:
            scale = "thousands" if facets["scale"] == "k" else "millions"
            words.append(f"in {scale} of {_label('currency', facets['currency'])}")
        elif "scale" in facets:
            words.append(_label("scale", facets["scale"]))
        elif "currency" in facets:
            words.append("in " + _label("currency", facets["currency"]))
        if "rounding" in facets:
            words.append(_label("rounding", facets["rounding"]))
        if "currency_display" in facets:
            words.append(_label("currency_display", facets["currency_display"]))
        parts.append("amounts " + ", ".join(words))
    if "date_format" in facets:
        parts.append("dates " + _label("date_format", facets["date_format"]))
    if "length" in facets or "layout" in facets:
        length = facets.get("length")
        layout = facets.get("layout")
        head = _label("length", length) if length else "answers"
        phrase = f"{head} {_label('layout', layout)}" if layout else head
        bound = _bound(facets)
        parts.append(phrase + (f" ({bound})" if bound else ""))
    if "language" in facets:
        parts.append("answers in " + facets["language"])
    for facet in _NEVER_APPLIED:
        if facet in facets:
            label = _label(facet, facets[facet])
            # "Does not want a chart", never "does not want a chart where it helps".
            parts.append(label if negative else FACETS_BY_NAME[facet].statement.format(label=label))
    wants: list[str] = []
    if "include" in facets:
        wants.append(f"{_label('include', facets['include'])} shown")
    if "sort" in facets:
        wants.append(f"lists sorted {_label('sort', facets['sort'])}")
    if "limit" in facets:
        wants.append(f"rankings limited to {_label('limit', facets['limit'])}")
    if "cancelled" in facets:
        wants.append(_label("cancelled", facets["cancelled"]))
    where = ""
    lists = {"orders": "order lists", "customers": "customer lists", "customer_lists": "customer lists"}.get(scope)
    if lists and "layout" in facets and len(parts) == 1 and not wants:
        parts = [f"{lists} {_label('layout', facets['layout'])}"]  # "Prefers order lists as tables."
    elif lists and "sort" in facets and len(wants) == 1 and not parts:
        wants = [f"{lists} sorted {_label('sort', facets['sort'])}"]
    elif scope == "rankings" and set(facets) <= {"limit"}:
        pass  # "Wants rankings limited to the top 3.": the scope is in the words already
    elif scope != GLOBAL:
        where = " " + SCOPE_LABELS.get(scope, _region_label(scope))
    opening = "Does not want" if negative else "Prefers"
    sentences = []
    if parts:
        sentences.append(f"{opening} {_join(parts)}")
    if wants:
        verb = "does not want" if negative else "wants"
        sentences.append(f"{verb if sentences else verb.capitalize()} {_join(wants)}")
    if "exclude" in facets:
        verb = "does not want"
        sentences.append(f"{verb if sentences else 'Does not want'} {_label('exclude', facets['exclude'])} shown")
    if not sentences:
        return ""
    text = ", and ".join(sentences) + where + "."
    return text[0].upper() + text[1:]


def _bound(facets: dict[str, Any]) -> str:
    for key, unit in (
        ("max_words", "word"),
        ("max_sentences", "sentence"),
        ("max_lines", "line"),
        ("max_paragraphs", "paragraph"),
    ):
        if key in facets:
            n = facets[key]
            if unit == "paragraph":
                return "one paragraph at most" if n == 1 else f"at most {n} paragraphs"
            return f"at most {n} {unit}" + ("" if n == 1 else "s")
    return ""


def _region_label(scope: str) -> str:
    kind, _, value = scope.partition(":")
    if kind == "region":
        return f"in answers about the {value.title()} region"
    if kind == "status":
        return f"in answers about {value} orders"
    if kind in ("city", "place"):
        return "in answers about customers in " + " or ".join(v.title() for v in value.split("|"))
    if kind == "segment":
        return "in answers about " + " or ".join(value.split("|")) + " customers"
    return f"in answers about {scope}"


def _join(parts: list[str]) -> str:
    if len(parts) <= 2:
        return " and ".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


# --- applying -----------------------------------------------------------------------------------


def is_applied(facet: str, value: Any) -> bool:
    """Whether Atlas can apply this value to its answers (else it says why, once)."""
    spec = FACETS_BY_NAME.get(facet)
    if facet == "exclude":
        return value in ADDABLE_FIELDS
    if spec is None or spec.never_applied or not spec.effect:
        return False
    if facet == "include":
        return value in ADDABLE_FIELDS
    if facet == "sort":
        return isinstance(value, dict) and value.get("by") in ("amount", "date", "name")
    for candidate in spec.values:
        if candidate.value == value:
            return candidate.applied
    return facet in ("limit",) or candidate_number(spec)


def candidate_number(spec: Facet) -> bool:
    return any(v.value.startswith("#") for v in spec.values)


def decline_for(facet: str, value: Any) -> str:
    """The one plain sentence an answer says when it cannot apply a value ("" if it can)."""
    if is_applied(facet, value):
        return ""
    spec = FACETS_BY_NAME.get(facet)
    if spec is None or spec.never_applied or not spec.decline:
        return ""
    return spec.decline.format(value=value, label=_label(facet, value).removeprefix("the "))


def not_applied(facets: dict[str, Any]) -> list[str]:
    """Facets of a note Atlas cannot apply to its answers at all ("not applied to answers")."""
    return [
        f
        for f, v in facets.items()
        if f in FACETS_BY_NAME or f == "exclude"
        if not is_applied(f, v) and not decline_for(f, v)
    ]


# How people name a facet itself rather than a value of it ("drop the rounding thing", "never
# mind the word limit", "scrap the top-5 limit"): a withdrawal names the facet, not its value.
FACET_NAMES: dict[str, tuple[str, ...]] = {
    "rounding": ("rounding", "decimals", "decimal places", "whole numbers", "cents"),
    "length": ("word limit", "word count", "length", "sentence limit", "line limit", "short answers", "brevity"),
    "max_words": ("word limit", "word count"),
    "max_sentences": ("sentence limit",),
    "max_lines": ("line limit",),
    "limit": ("limit", "list size", "top-\\d+", "top \\d+", "cap", "cut\\w* (?:[\\w-]+ ){0,2}(?:off )?at \\d+"),
    "language": ("language",),
    "currency": ("currency",),
    "scale": ("scale", "thousands", "millions"),
    "date_format": ("date format", "dates"),
    "layout": ("layout", "format", "tables", "bullets", "bullet points"),
    "chart": ("charts", "chart", "graphs"),
    "number_style": ("number format", "separators", "brackets", "parentheses"),
    "sort": ("sort", "sorting", "order"),
    "timezone": ("time zone", "timezone"),
    "cancelled": ("cancelled", "canceled"),
    "include": ("column", "field"),
    "units": ("units",),
    "acronyms": ("acronyms",),
    "year_basis": ("fiscal", "calendar"),
}


def facets_named(text: str) -> set[str]:
    """The facets ``text`` names by their own name or a value ("the rounding thing", "the French")."""
    low = " " + text.lower() + " "
    named = {name for name, words in FACET_NAMES.items() if any(re.search(rf"\b{w}\b", low) for w in words)}
    return named | set(read_facets(text).facets) - {"exclude"}


def facet_names() -> tuple[str, ...]:
    return tuple(FACETS_BY_NAME)


def words() -> Iterable[str]:
    """Every word the table's patterns and labels use, for the shared lexicon (spelling)."""
    for facet in FACETS:
        for value in facet.values:
            yield from re.findall(r"[a-z]+", value.label.lower())
    for names in FIELDS.values():
        for pattern in names:
            yield from re.findall(r"[a-z]{3,}", pattern)


# --- which preference holds for one answer --------------------------------------------------------

# Facets that travel with another: a length's bounds hold with the length that set them.
_COMPANIONS = {"max_words": "length", "max_sentences": "length", "max_lines": "length", "max_paragraphs": "length"}


@dataclass(frozen=True)
class Held:
    """One facet's value for this answer and the note it came from."""

    facet: str
    value: Any
    note_id: int
    extra: dict[str, Any] = field(default_factory=dict)  # a length's bounds


def holds_in(scope: str, scopes: Iterable[str]) -> bool:
    """Whether a note's scope holds for an answer with these scopes ("global" holds everywhere)."""
    scopes = set(scopes)
    kind, _, named = scope.partition(":")
    if kind in ("city", "segment"):  # customers of any of the cities (segments) named
        return any(f"{kind}:{one}" in scopes for one in named.split("|"))
    return not scope or scope == GLOBAL or scope in scopes


def effective(notes: Iterable[Any], scopes: Iterable[str]) -> dict[str, Held]:
    """Per facet, the value that holds for an answer: among the preference notes whose scope
    holds here, a scoped note beats a global one, then the newest wins (design rule). A "does
    not want" note never sets a value. ``notes`` are recalled notes (kind, facets, scope,
    written_at, memory_id, declines)."""
    scopes = set(scopes)
    best: dict[str, tuple[tuple[bool, Any, int], Held]] = {}
    for note in notes:
        if getattr(note, "kind", "") != "preference" or getattr(note, "declines", False):
            continue
        scope = getattr(note, "scope", GLOBAL) or GLOBAL
        if not holds_in(scope, scopes):
            continue
        facets = dict(getattr(note, "facets", {}) or {})
        extra = {k: v for k, v in facets.items() if k in _COMPANIONS}
        for facet, value in facets.items():
            if facet in _COMPANIONS:
                continue
            rank = (scope != GLOBAL and not at_home(facet, scope), getattr(note, "written_at", None), note.memory_id)
            held = Held(facet, value, note.memory_id, extra if facet == "length" else {})
            current = best.get(facet)
            if current is None or _newer(rank, current[0]):
                best[facet] = (rank, held)
    return {facet: held for facet, (_, held) in best.items()}


def _newer(rank: tuple[bool, Any, int], than: tuple[bool, Any, int]) -> bool:
    if rank[0] != than[0]:
        return rank[0]  # scoped beats global
    if rank[1] is not None and than[1] is not None and rank[1] != than[1]:
        return rank[1] > than[1]
    return rank[2] > than[2]


# Why a facet Atlas never applies changes nothing in its answers: said once, when it is noted
# (design rule: apply or decline; present and silently ignored is worse than absent).
_NOT_APPLIED_WHY = {
    "timezone": "Atlas's answers show dates but no times of day, so this changes nothing in them yet.",
    "year_basis:fiscal": (
        "Atlas counts years as calendar years and has no fiscal calendar yet, so this changes nothing in its answers."
    ),
    "year_basis:calendar": "Atlas already counts years as calendar years, January to December.",
    "file": "Atlas answers in the chat only; it attaches no files yet.",
    "lead": "Atlas's answers already open with the figure or the count asked for, then the rows.",
}


def why_not_applied(facets: dict[str, Any], *, negative: bool = False) -> str:
    """The one sentence the acknowledgement adds for a note Atlas keeps but never applies to
    its answers ("" when each facet is applied or has its own decline in the answer)."""
    never = [f for f in facets if f in FACETS_BY_NAME and FACETS_BY_NAME[f].never_applied]
    if negative or not never:
        return ""
    facet = never[0]
    value = facets[facet]
    return _NOT_APPLIED_WHY.get(
        f"{facet}:{value}", _NOT_APPLIED_WHY.get(facet, "Atlas keeps this note but can't apply it to its answers yet.")
    )


# How the memory page says a value is declined (the answer's own sentence speaks of "this answer").
_PAGE_DECLINES = {
    "currency": "Amounts stay in USD as recorded (Atlas has no exchange rates); each answer with money says so.",
    "language": "Atlas answers in English only for now; each answer says so.",
}


def application(kind: str, facets: dict[str, Any], *, model: bool = False) -> str:
    """What Atlas does with a stored preference, when it cannot apply it to its answers: the
    plain sentence the memory page shows ("" when every facet is applied). ``model``: a
    language model is configured, and recalled notes go to it with the question."""
    if kind != "preference" or not facets:
        return ""
    never = [f for f in facets if f in FACETS_BY_NAME and FACETS_BY_NAME[f].never_applied]
    declined = [
        _PAGE_DECLINES.get(f, decline_for(f, v)).format(value=v) for f, v in facets.items() if decline_for(f, v)
    ]
    unknown = [f for f, v in facets.items() if f in ("include", "exclude", "sort") and not is_applied(f, v)]
    if declined and not never:
        return " ".join(dict.fromkeys(declined))
    if never or unknown:
        if model:
            return "Given to the language model with each question; Atlas's own answers don't apply it yet."
        return "Not applied to answers: Atlas keeps this note but can't apply it to its answers yet."
    return ""
