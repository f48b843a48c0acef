"""The normaliser: text as people type it at work, read into the text the parsers expect.

It runs once per turn before any rule or plan reads the text (the write gate and the query
planner share it), and records what it changed so staff and the user can see it ("Read
'custmers' as 'customers'."):

1. invisible and control characters go (zero-width spaces, bidi marks), typographic quotes
   become straight ones, emoji and other pictographs go;
2. chat shorthand and contractions typed without apostrophes are spelt out ("im" -> "I'm",
   "pls" -> "please", "acct" -> "account", "tmrw" -> "tomorrow"; :data:`atlas.lexicon.SHORTHAND`);
3. case: "i", weekdays, months and languages are capitalised, and so is a place named after
   "in", "at", "from" ... ("in madrid til tues" -> "in Madrid until Tuesday") and any name
   of the business data ("kestrel foods" -> "Kestrel Foods"), so the parser tags them as names;
4. spelling: a word neither English nor the domain's is corrected to the closest word of
   the domain lexicon or the English dictionary (symspellpy; one edit for words of four to
   six letters, two for longer ones), preferring a domain word, then the spelling that forms
   a known pair with the word beside it ("credit limt" -> "credit limit"). Capitalised words
   inside a sentence are names and are never corrected.

Offsets are not kept: readers use the normalised text, and the original stays the quote.
"""

from __future__ import annotations

import itertools
import re
import threading
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from atlas import lexicon

# A correction must be this close: one edit for a word of 4-6 letters, two for a longer one.
MIN_CORRECTED_LENGTH = 4
LONG_WORD = 7
# A word this long made of two known words is a compound, not a typo.
COMPOUND_LENGTH = 8
# A shorter one only of two words of three letters or more, and with no known word one edit away.
SHORT_COMPOUND_LENGTH = 6
# ... each of them a common word ("roll" + "out"; not "far" + "macy", which is "farmacy" misspelt).
COMMON_HALF = 10**7
SHORT_WORD = 6
# A neighbouring word supports a spelling when the pair is this much likelier than the word alone.
SUPPORTED = 0.01
# A three-letter typo is read as a word only this common (the, and, for, you: function words, not rare ones).
COMMON_SHORT_WORD = 10**8
# ... and a known three-letter word this rare, one such swap from a common one, is taken for that typo ("fro").
RARE_SHORT_WORD = 10**7
# A domain word is preferred to an English word at the same distance.
DOMAIN_COUNT = 10**12

_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u201c": '"', "\u201d": '"', "\u00b4": "'"})
_DASHES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2212": "-"})
_TOKEN = re.compile(r"[A-Za-z0-9]+(?:'[A-Za-z]+)*(?:/[A-Za-z]?)?|\S")
_SENTENCE_END = {".", "!", "?", "\n"}


@dataclass(frozen=True)
class Change:
    original: str
    replacement: str
    reason: str  # shorthand | spelling | nickname | stretched | listed

    def said(self) -> str:
        return f"Read \u2018{self.original}\u2019 as \u2018{self.replacement}\u2019."


@dataclass(frozen=True)
class Normalised:
    text: str
    original: str
    changes: tuple[Change, ...] = field(default=())

    @property
    def corrections(self) -> tuple[Change, ...]:
        """The spelling corrections, nicknames and customers picked from a list ("the vet one") read as
        names: what the answer tells the user it read differently."""
        return tuple(c for c in self.changes if c.reason in ("spelling", "nickname", "listed"))

    def as_dicts(self) -> list[dict[str, str]]:
        return [{"from": c.original, "to": c.replacement, "why": c.reason} for c in self.changes]


def visible(text: str) -> str:
    """Unicode-normalised text without control, format (zero-width, bidi), private-use or
    pictographic characters, with straight quotes and plain dashes."""
    text = unicodedata.normalize("NFKC", text or "").translate(_QUOTES).translate(_DASHES)
    kept = []
    for ch in text:
        category = unicodedata.category(ch)
        if "\ufe00" <= ch <= "\ufe0f" or ch == "\u200d":
            continue  # emoji presentation selectors and joiners
        if ch in "\n\t":
            kept.append(ch)
        elif category in ("Cc", "Cf", "Co", "Cn", "Cs") or category == "So" or category == "Sk" and ch != "^":
            kept.append(" ")
        else:
            kept.append(ch)
    return re.sub(r"[ \t]+", " ", "".join(kept)).strip()


@dataclass(frozen=True)
class _Lexicon:
    signature: tuple[object, ...]
    domain: frozenset[str]
    names: dict[tuple[str, ...], str]  # the business data's names as written, by their words
    longest_name: int
    name_pairs: frozenset[tuple[str, str]] = frozenset()  # neighbouring words inside those names


_state_lock = threading.Lock()
_state: dict[str, object] = {}


def _lexicon() -> _Lexicon:
    signature, words = lexicon.domain_snapshot()
    current = _state.get("lexicon")
    if isinstance(current, _Lexicon) and current.signature == signature:
        return current
    with _state_lock:
        names = {tuple(lexicon.words(n)): n for n in lexicon.domain_names()}
        pairs = frozenset((k[i], k[i + 1]) for k in names for i in range(len(k) - 1))
        built = _Lexicon(signature, words, names, max((len(k) for k in names), default=1), pairs)
        _state["lexicon"] = built
        _state.pop("speller", None)
        return built


def _new_speller() -> Any:
    from symspellpy import SymSpell

    return SymSpell(max_dictionary_edit_distance=2, prefix_length=7)


def _english_speller() -> Any:
    """symspellpy over the English dictionary: built once, on the first word it is asked to correct."""
    current = _state.get("english_speller")
    if current is not None:
        return current
    with _state_lock:
        if (current := _state.get("english_speller")) is not None:
            return current
        speller = _new_speller()
        for word, count in lexicon.english().frequency.items():
            speller.create_dictionary_entry(word, count)
        _state["english_speller"] = speller
        return speller


def _domain_speller(lex: _Lexicon) -> Any:
    """symspellpy over the domain words alone, rebuilt when they change (a customer added): small,
    so a new name costs milliseconds, not a rebuild of the English dictionary."""
    current = _state.get("speller")
    if current is not None and _state.get("speller_signature") == lex.signature:
        return current
    with _state_lock:
        speller = _new_speller()
        for word in lex.domain:
            if word.isalpha() and len(word) >= 3:
                speller.create_dictionary_entry(word, DOMAIN_COUNT)
        _state["speller"] = speller
        _state["speller_signature"] = lex.signature
        return speller


def _closest(word: str, distance: int, lex: _Lexicon) -> list[tuple[str, int]]:
    """The known spellings closest to ``word`` within ``distance`` edits, as (term, edits): domain
    words first, then the more frequent English word, as one dictionary of both would rank them."""
    from symspellpy import Verbosity

    counts: dict[str, int] = {}
    edits: dict[str, int] = {}
    for speller in (_english_speller(), _domain_speller(lex)):
        for found in speller.lookup(word, Verbosity.CLOSEST, max_edit_distance=distance):
            counts[found.term] = counts.get(found.term, 0) + found.count
            edits[found.term] = found.distance
    if not edits:
        return []
    least = min(edits.values())
    closest = sorted((t for t in edits if edits[t] == least), key=lambda t: -counts[t])
    return [(t, least) for t in closest]


def warm_up() -> None:
    """Load the dictionaries and build the speller now (serving calls this before requests)."""
    lex = _lexicon()
    _english_speller()
    _domain_speller(lex)
    lexicon.places()
    lexicon.bigrams()


def _known(word: str, lex: _Lexicon) -> bool:
    low = word.lower()
    if lexicon.english().knows(low) or low in lex.domain:
        return True
    # A plural of a known word ("emojis", "KPIs") is no typo.
    if len(low) > 4 and low.endswith("s") and (lexicon.english().knows(low[:-1]) or low[:-1] in lex.domain):
        return True
    # Nor is a compound of two known words ("onboarding", "timesheet", "backorders"), or an
    # e-word of a known one ("ecommerce", "einvoicing").
    english = lexicon.english()
    if len(low) < SHORT_COMPOUND_LENGTH or _one_letter_from_a_name(low, lex):
        return False  # "saltmarch" is Saltmarsh misspelt, not "salt" + "march"
    if len(low) < COMPOUND_LENGTH:
        # "rollout", "payout", "signoff": two words of three letters or more joined, with no word one edit away
        # (a typo of a known word is one edit from it: "ordrs"); never read as another word two edits off
        frequency = english.frequency
        halves = any(
            min(frequency.get(low[:i], 0), frequency.get(low[i:], 0)) >= COMMON_HALF for i in range(3, len(low) - 2)
        )
        return halves and not _closest(low, 1, lex)
    if low.startswith("e") and english.knows(low[1:]):
        return True
    compound = any(english.knows(low[:i]) and english.knows(low[i:]) for i in range(2, len(low) - 2))
    return compound and not _one_letter_from_the_domain(low, lex)


def _one_letter_from_the_domain(low: str, lex: _Lexicon) -> bool:
    """Whether a domain word is one edit from ``low`` ("contrcts" is "contracts" with a letter
    dropped, not "contr" + "cts")."""
    return any(edits == 1 and term in lex.domain for term, edits in _closest(low, 1, lex))


def _one_letter_from_a_name(low: str, lex: _Lexicon) -> bool:
    """Whether ``low`` is one edit from a word of the business data's names ("copperlin", "saltmarch")."""
    from rapidfuzz.distance import Levenshtein

    return any(
        Levenshtein.distance(low, word, score_cutoff=1) <= 1
        for name in lex.names
        for word in name
        if len(word) >= COMPOUND_LENGTH and abs(len(word) - len(low)) <= 1
    )


def _nickname(low: str, lex: _Lexicon) -> str | None:
    """The city of the business data that ``low`` is a clipped name of, if any (never a domain word)."""
    city = lexicon.place_nicknames().get(low)
    if city is None or low in lex.domain:
        return None
    return lex.names.get(tuple(lexicon.words(city)))


def _correct(word: str, before: str, after: str, lex: _Lexicon) -> str | None:
    """The closest known spelling of ``word`` (lower case), or None.

    Among the spellings at the closest distance: the one English pairs most often with the
    word before or after it, then a domain word, then the most frequent. A short word (under
    six letters) is corrected only to a domain word or a spelling its neighbour supports:
    "apac" is no misspelt "apace"."""
    if len(word) == MIN_CORRECTED_LENGTH - 1 and word.isalpha():
        return _unswapped(word)
    if len(word) < MIN_CORRECTED_LENGTH or not word.isalpha():
        return None
    distance = 1 if len(word) < LONG_WORD else 2
    # A contraction is shorthand's to spell out, never a spelling's ("donut" is no "don't").
    closest = [term for term, _ in _closest(word, distance, lex) if term.isalpha()]
    if not closest:
        return None
    pairs = lexicon.bigrams()

    frequency = lexicon.english().frequency

    def support(term: str) -> float:
        """How much likelier the pair is than the word alone (a pointwise ratio, so a word as
        common as "list" does not win on the count of "list for")."""
        paired = max(pairs.get((before, term), 0), pairs.get((term, after), 0))
        return paired / max(frequency.get(term, 1), 1)

    def in_a_name(term: str) -> bool:
        """The spelling and its neighbour are two words of one business name ("granit peak" -> "granite")."""
        return (before, term) in lex.name_pairs or (term, after) in lex.name_pairs

    def dropped(term: str) -> bool:
        """The word is the spelling with one letter left out ("evry" of "every", not "very" with two swapped):
        the slip people make most when typing fast."""
        return len(term) == len(word) + 1 and any(term[:i] + term[i + 1 :] == word for i in range(len(term)))

    ranked = sorted(
        closest,
        key=lambda t: (in_a_name(t), support(t) > SUPPORTED, dropped(t), t in lex.domain, support(t)),
        reverse=True,
    )
    best = ranked[0]
    short = len(word) < SHORT_WORD
    if short and best not in lex.domain and support(best) <= SUPPORTED and not _swapped(word, best):
        return None
    return best


_STRETCH = re.compile(r"([a-z])\1{2,}")


def _unstretched(low: str, lex: _Lexicon) -> str | None:
    """A word with a letter typed three times or more ("sooo", "pleeease", "thxxx"), as the known word or
    shorthand it stretches, each run read as one letter or two ("goood" is "good"); None for any other word."""
    runs = list(_STRETCH.finditer(low))
    if not runs or len(runs) > 3 or len(low) < MIN_CORRECTED_LENGTH or _known(low, lex):
        return None
    pieces: list[list[str]] = []
    at = 0
    for run in runs:
        pieces.append([low[at : run.start()]])
        pieces.append([run.group(1), run.group(1) * 2])
        at = run.end()
    pieces.append([low[at:]])
    found = ["".join(choice) for choice in itertools.product(*pieces)]
    frequency = lexicon.english().frequency
    known = [w for w in found if w in lexicon.SHORTHAND or w in lex.domain or lexicon.english().knows(w)]
    if not known:
        return None
    return max(known, key=lambda w: (w in lexicon.SHORTHAND, frequency.get(w, 0)))


def _unswapped(word: str) -> str | None:
    """A three-letter word typed with two letters the wrong way round ("teh", "adn", "hte"), read as the common
    English word it was meant to be; any other short word is left as typed ("ytd", "smb")."""
    frequency = lexicon.english().frequency
    swaps = {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)}
    known = [w for w in swaps if frequency.get(w, 0) >= COMMON_SHORT_WORD]
    return max(known, key=lambda w: frequency[w]) if known else None


def _rare_swap(word: str, before: str, after: str, lex: _Lexicon) -> bool:
    """A known but rare three-letter word ("fro") that is a very common one with two letters swapped, where its
    neighbours go with the common one and not with it ("looking fro the" is "for"; "to and fro" stays)."""
    frequency = lexicon.english().frequency.get(word, 0)
    meant = _unswapped(word)
    if not 0 < frequency < RARE_SHORT_WORD or word in lex.domain or meant is None:
        return False
    pairs = lexicon.bigrams()

    def paired(term: str) -> int:
        return max(pairs.get((before, term), 0), pairs.get((term, after), 0))

    return paired(word) == 0 and paired(meant) > 0


def _swapped(word: str, term: str) -> bool:
    """Two neighbouring letters typed the wrong way round ("feild", "shwo"): a typo, not a word."""
    if len(word) != len(term) or sorted(word) != sorted(term):
        return False
    diff = [i for i, (a, b) in enumerate(zip(word, term, strict=True)) if a != b]
    return len(diff) == 2 and diff[1] == diff[0] + 1


def _in_code(text: str, start: int, end: int) -> bool:
    """Whether the word is part of a code joined by a hyphen, slash or underscore to a number
    ("ACCT-10442", "10442-acct"): identifiers are never spelt out or corrected."""
    chunk_start = max(text.rfind(" ", 0, start), text.rfind("\n", 0, start)) + 1
    chunk_end = min((i for i in (text.find(" ", end), text.find("\n", end)) if i >= 0), default=len(text))
    if any(mark in text[chunk_start:chunk_end] for mark in ("://", "@", "www.")):
        return True  # an address, a URL or a connection string is copied as typed
    after = text[end : end + 2]
    before = text[max(0, start - 2) : start]
    return (len(after) == 2 and after[0] in "-_/#" and after[1].isdigit()) or (
        len(before) == 2 and before[1] in "-_/#" and before[0].isdigit()
    )


def _cased_like(original: str, replacement: str) -> str:
    if original[:1].isupper() and replacement[:1].islower():
        return replacement[:1].upper() + replacement[1:]
    return replacement


_PHRASES = tuple((re.compile(pattern, re.I), meant) for pattern, meant in lexicon.SHORTHAND_PHRASES.items())


def _phrases(text: str) -> tuple[str, list[Change]]:
    """The shorthand of several tokens spelt out (lexicon.SHORTHAND_PHRASES), with what changed."""
    changes: list[Change] = []
    for pattern, meant in _PHRASES:
        if pattern.search(text):
            changes.extend(Change(m.group(), meant.strip(), "shorthand") for m in pattern.finditer(text))
            text = pattern.sub(meant, text)
    return text, changes


@lru_cache(maxsize=256)
def normalise(text: str) -> Normalised:
    """``text`` as the parsers should read it, with what was changed."""
    lex = _lexicon()
    clean, changes = _phrases(visible(text))
    tokens = [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(clean)]
    out: list[str] = []
    words = [t[2].lower() for t in tokens]
    sentence_start = True
    for i, (start, _end, token) in enumerate(tokens):
        gap = clean[tokens[i - 1][1] : start] if i else ""
        space = "\n" if "\n" in gap else " " if gap else ""  # a line break still ends a clause
        sentence_start = sentence_start or "\n" in gap
        low = token.lower()
        before = words[i - 1] if i else ""
        after = words[i + 1] if i + 1 < len(words) else ""
        replacement = token
        if not _in_code(clean, start, _end) and (unstretched := _unstretched(low, lex)) is not None:
            # "pleeease", "sooo", "alwaaays": a letter held down for emphasis, read as the word it stretches
            changes.append(Change(token, _cased_like(token, unstretched), "stretched"))
            token = replacement = _cased_like(token, unstretched)
            low = unstretched
        if _in_code(clean, start, _end):
            pass  # "ACCT-10442", "PO-7781": a code is copied as typed
        elif len(token) > 1 and token.isupper() and low in lexicon.EMPHASIS_WORDS and any(w.islower() for w in words):
            replacement = low  # "left IN the totals": a word said loudly, not a state's code
        elif low in lexicon.SHORTHAND and not (low in ("mon", "wed") and token[:1].isupper() and not sentence_start):
            replacement = _cased_like(token, lexicon.SHORTHAND[low])
            changes.append(Change(token, replacement, "shorthand"))
        elif lexicon.guarded_shorthand(low, before) is not None:
            replacement = _cased_like(token, lexicon.guarded_shorthand(low, before) or token)
            changes.append(Change(token, replacement, "shorthand"))
        elif low == "i" or low.startswith("i'"):
            replacement = "I" + token[1:]
        elif token.isalpha() and low.capitalize() in _CAPITALISED:
            replacement = low.capitalize()
        elif _nickname(low, lex) is not None:
            # "philly": a clipped name of a city the data has, read as the city (and shown, as a
            # spelling correction is); "winston" or "florida" name no city of the data, so stay
            replacement = _nickname(low, lex) or token
            changes.append(Change(token, replacement, "nickname"))
        elif len(low) == MIN_CORRECTED_LENGTH - 1 and token.islower() and _rare_swap(low, before, after, lex):
            # "fro", "tow": a rare word that is a common one with two letters swapped is the common one mistyped
            replacement = _unswapped(low) or token
            changes.append(Change(token, replacement, "spelling"))
        elif token.isalpha() and not _known(token, lex) and (sentence_start or not token[:1].isupper()):
            corrected = _correct(low, before, after, lex)
            if corrected is not None and corrected != low:
                replacement = _cased_like(token, corrected)
                changes.append(Change(token, replacement, "spelling"))
        out.append(space + replacement)
        sentence_start = token in _SENTENCE_END
    normalised = "".join(out)
    # "last months orders", "this yrs sales": a period's possessive typed without its apostrophe
    for found in _PERIOD_POSSESSIVE.finditer(normalised):
        changes.append(Change(found.group(), f"{found['which']} {found['unit']}'s", "shorthand"))
    normalised = _PERIOD_POSSESSIVE.sub(lambda m: f"{m['which']} {m['unit']}'s", normalised)
    normalised = _truecase_names(normalised, lex)
    return Normalised(normalised, text, tuple(changes))


_PERIOD_POSSESSIVE = re.compile(
    r"(?<!\bthe )\b(?P<which>[Tt]his|[Ll]ast|[Nn]ext) (?P<unit>year|month|week|quarter)s\b"
    r"(?= (?!of\b|and\b|or\b|to\b|in\b|ago\b|are\b|were\b|have\b|has\b)[a-z])"
)


_CAPITALISED = frozenset(
    {*lexicon.WEEKDAYS, *(m for m in lexicon.MONTHS if m not in ("May", "March")), *lexicon.LANGUAGES}
)


_DETERMINERS = frozenset({"the", "our", "my", "their", "a", "an", "his", "her", "this", "that"})


def _lead_word(tokens: list[re.Match[str]], i: int) -> str:
    """The word before a name, past a determiner ("based at our lisbon branch": "at")."""
    j = i - 1
    while j >= 0 and tokens[j].group().lower() in _DETERMINERS:
        j -= 1
    return tokens[j].group().lower() if j >= 0 else ""


def _truecase_names(text: str, lex: _Lexicon) -> str:
    """Names of the business data anywhere, and places after a place word, written as names."""
    tokens = list(re.finditer(r"[A-Za-z0-9]+(?:['.-][A-Za-z0-9]+)*\.?", text))
    pieces: list[tuple[int, int, str]] = []
    places = lexicon.places()
    i = 0
    while i < len(tokens):
        found = None
        for size in range(min(max(lex.longest_name, 4), len(tokens) - i), 0, -1):
            span = tokens[i : i + size]
            key = tuple(w for t in span for w in lexicon.words(t.group()))
            if not key:
                continue
            name = lex.names.get(key)
            lead = _lead_word(tokens, i)
            if name is None and lead in lexicon.PLACE_LEADS:
                name = places.get(key)
            if name is not None and size == 1 and name.lower() != span[0].group().lower().rstrip("."):
                name = None
            if name is not None:
                found = (span[0].start(), span[-1].end(), name, size)
                break
        if found is not None:
            start, end, name, size = found
            written = text[start:end]
            if written != name and written.lower().rstrip(".") == name.lower().rstrip("."):
                pieces.append((start, end, name + ("." if written.endswith(".") and not name.endswith(".") else "")))
            i += size
        else:
            i += 1
    for start, end, name in reversed(pieces):
        text = text[:start] + name + text[end:]
    return text
