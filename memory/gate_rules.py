"""The write gate's text rules: pure functions over what the user typed and when.

Nothing here touches the database. :func:`analyse_turn` turns one utterance into a list of
:class:`Finding` values (a candidate memory with the reason it was admitted, or a refusal
with the reason it was refused, or a single occurrence to be counted across sessions);
``memory.gate`` then applies the store-side policy (suppression, duplicates, supersession).

Candidates come from events only (chapter 93): a correction, a standing preference, an
explicit remember/forget, a situation the user stated about themselves, a format request
counted across sessions. Everything else is refused with a reason code, and inferences,
small talk, instructions aimed at the system and secrets are never written (write-rules
chapter: "would the user recognise this sentence as their own").
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta

# --- reason codes -----------------------------------------------------------------------

# admitted
CORRECTION = "correction"
STANDING_PREFERENCE = "standing_preference"
EXPLICIT_REQUEST = "explicit_request"
REPEATED_SESSIONS = "repeated_in_3_sessions"
SITUATION_DATED = "situation_dated"
SITUATION_DEFAULT = "situation_default_30d"
FORGET_REQUEST = "forget_request"
REFRESHED = "duplicate_refreshed"
# refused
NO_COMMENT = "no_comment"
SECRET = "secret"
INSTRUCTION = "instruction_to_system"
SENSITIVE = "sensitive_category"
SMALL_TALK = "small_talk"
INFERENCE = "inference"
SESSION_ONLY = "session_only"
QUESTION = "question_not_preference"
CORPUS_FACT = "corpus_fact"
NOT_ABOUT_USER = "not_about_user"
SINGLE_OCCURRENCE = "single_occurrence"
SUPPRESSED = "suppressed"
USER_AUTHORED = "user_authored_kept"
PAUSED = "paused"
FORGET_NO_MATCH = "forget_no_match"
FORGET_AMBIGUOUS = "forget_ambiguous"
NOTHING_TO_REMEMBER = "nothing_to_remember"

# How many separate sessions make a repeated signal evidence (chapters 93 and 98).
MIN_SESSIONS = 3
# A situation with no stated end (write-rules chapter).
DEFAULT_SITUATION_DAYS = 30


@dataclass(frozen=True)
class Finding:
    """One thing the gate noticed in a turn.

    ``action`` is "write" (a candidate memory), "observe" (one occurrence of ``signal``),
    "forget" (``statement`` is the query) or "refuse".
    """

    action: str
    rule: str
    reason: str
    kind: str = ""
    statement: str = ""
    subject: str = ""
    value: str = ""
    signal: str = ""
    expires_at: datetime | None = None
    quote: str = ""
    explicit: bool = False
    # The second-person phrasing for the chat answer ("you cover the western region").
    echo: str = ""
    confidence: float = 1.0
    extra: dict = field(default_factory=dict)


# --- secrets ------------------------------------------------------------------------------

_SECRET_WORDS = re.compile(
    r"\b(pass(?:word|wd|phrase|code)|pwd|pin(?:\s*code)?|api[\s_-]?key|access[\s_-]?key|secret[\s_-]?key"
    r"|private[\s_-]?key|auth(?:entication)?[\s_-]?token|bearer\s+token|token|credentials?|login\s+is"
    r"|security\s+code|cvv|cvc|2fa|otp|one[\s-]time\s+code|recovery\s+code)\b",
    re.I,
)
_GOV_ID_WORDS = re.compile(
    r"\b(social\s+security|ssn|passport\s+(?:number|no)|national\s+(?:insurance|id(?:entity)?)\s*(?:number|no)?"
    r"|tax\s+(?:id|identification)|driver'?s?\s+licen[cs]e\s+(?:number|no)|id\s+card\s+number|bsn|steuer-?id)\b",
    re.I,
)
_KEY_LIKE = re.compile(r"\b(?:sk|pk|rk|ghp|gho|xox[abp]|AKIA|AIza)[-_A-Za-z0-9]{12,}\b|\b[A-Za-z0-9_\-]{32,}\b")
_SSN = re.compile(r"\b\d{3}-\d{2}-\d{4}\b")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,7}(?:\s?[A-Z0-9]{1,3})?\b")
_DIGIT_RUN = re.compile(r"(?:\d[\s-]?){12,18}\d")


def _luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def _iban_ok(candidate: str) -> bool:
    s = candidate.replace(" ", "")
    if not 15 <= len(s) <= 34:
        return False
    rearranged = s[4:] + s[:4]
    number = "".join(str(int(c, 36)) for c in rearranged)
    return int(number) % 97 == 1


def secret_reason(text: str) -> str:
    """Name of the secret in ``text`` ("password", "card number", ...) or "" when none.

    Secrets are never written, even when the user asks (write-rules chapter: every record
    is something you must later find and erase everywhere it leaked to).
    """
    for match in _DIGIT_RUN.finditer(text):
        digits = re.sub(r"\D", "", match.group())
        if 13 <= len(digits) <= 19 and _luhn_ok(digits):
            return "card number"
    for match in _IBAN.finditer(text.upper() if re.search(r"\biban\b", text, re.I) else text):
        if _iban_ok(match.group()):
            return "bank account number"
    if _SSN.search(text) or _GOV_ID_WORDS.search(text):
        return "government id"
    word = _SECRET_WORDS.search(text)
    if word:
        name = word.group(1).lower()
        if name.startswith("pass") or name in {"pwd", "login is"}:
            return "password"
        if name.startswith("pin"):
            return "PIN"
        return "credential"
    if _KEY_LIKE.search(text):
        return "credential"
    return ""


# --- instructions aimed at the system ------------------------------------------------------

_INJECTION = re.compile(
    r"\b(ignore|disregard|forget|override|bypass)\b[^.]{0,40}\b(instructions?|rules|prompt|guidelines|guardrails"
    r"|restrictions|polic(?:y|ies))\b"
    r"|\b(you\s+are|you're)\s+(now\s+)?(in\s+)?(admin|developer|god|debug|root|sudo|unrestricted)\s*(mode)?\b"
    r"|\b(admin|developer|debug|god|jailbreak)\s+mode\b"
    r"|\bsystem\s+prompt\b"
    r"|\b(every|all|other)\s+(users?'?s?|people'?s?|accounts?'?)\s+(notes|memor(?:y|ies)|data|conversations|chats)\b"
    r"|\b(another|other)\s+user'?s\b"
    r"|\bact\s+as\s+(an?\s+)?(admin|administrator|system|root)\b"
    r"|\bpretend\s+(you\s+are|to\s+be)\b"
    r"|\b(new|updated)\s+instructions?\s*:"
    r"|\bfrom\s+now\s+on\s+you\s+(are|will|must|have)\b"
    r"|\b(reveal|print|dump|leak|disclose|expose)\b[^.]{0,40}\b(prompt|instructions|memor(?:y|ies)|database|secrets?"
    r"|notes|passwords?|stored|everything|all\s+data)\b",
    re.I,
)


def is_instruction_to_system(text: str) -> bool:
    """Prompt injection: text that tries to reconfigure Atlas rather than describe the user."""
    return bool(_INJECTION.search(text))


# --- sensitive personal categories --------------------------------------------------------

_SENSITIVE = re.compile(
    r"\b(health|illness|ill|sick|disease|diagnos\w*|cancer|diabet\w*|asthma|adhd|autis\w*|dyslexi\w*|depress\w*"
    r"|anxiety|panic\s+attacks?|bipolar|therap(?:y|ist)|medicat\w*|prescri\w*|chemo\w*|surgery|hospital\w*"
    r"|pregnan\w*|miscarriage|disabilit\w*|disabled|hiv|mental\s+health|migraine\w*|injur\w*|burn-?out"
    r"|religio\w*|muslim|christian|jewish|hindu|buddhist|atheist"
    r"|gay|lesbian|bisexual|transgender|sexual\s+orientation|sexuality"
    r"|ethnicity|race|trade\s+union|union\s+member\w*|political\s+(?:party|views)|criminal\s+record"
    r"|convicted)\b",
    re.I,
)


def sensitive_category(text: str) -> bool:
    """Health, religion, sexuality, ethnicity, union membership, politics, criminal record."""
    return bool(_SENSITIVE.search(text))


# --- small talk and inferences ------------------------------------------------------------

_SMALL_TALK = re.compile(
    r"^\W*(?:(?:thanks?(?:\s+(?:you|a\s+lot|so\s+much))?|thank\s+you(?:\s+so\s+much)?|thx|ty|cheers|great|perfect"
    r"|awesome|nice|cool|ok(?:ay)?|sure|got\s+it|hi|hello|hey|good\s+(?:morning|afternoon|evening)|bye|goodbye"
    r"|see\s+you|lol|haha|wow|yes|no|yep|nope|sounds\s+good|that'?s\s+(?:great|perfect|helpful|fine|all|it)"
    r"|that\s+(?:helps|works)|much\s+appreciated|have\s+a\s+(?:nice|good)\s+(?:day|one|weekend)|you\s+rock"
    r"|how\s+are\s+you|nice\s+one|good\s+job|well\s+done|brilliant|excellent|amazing|fantastic|appreciate\s+it)"
    r"[\s,.!?:)]*)+$",
    re.I,
)
_MOOD = re.compile(
    r"\b(ugh|argh|useless|annoy\w*|frustrat\w*|stupid|ridiculous|terrible|awful|hate|sick\s+of|fed\s+up|tired\s+of"
    r"|waste\s+of\s+time|pointless|garbage|rubbish|confus\w*|stressed|overwhelmed|angry|upset|happy|excited"
    r"|bored|sorry\s+if\s+this\s+is|(?:this\s+is\s+)?probably\s+a\s+(?:dumb|stupid|silly)|dumb\s+question"
    r"|silly\s+question|basic\s+question|i'?m\s+(?:new|a\s+beginner|not\s+(?:a\s+)?(?:technical|good\s+with)"
    r"|bad\s+at|no\s+expert|junior|senior|the\s+boss|an?\s+expert)|newbie|noob"
    r"|i\s+don'?t\s+(?:trust|believe)\s+(?:you|atlas|this))\b",
    re.I,
)


def is_small_talk(text: str) -> bool:
    return bool(_SMALL_TALK.match(text.strip()))


def is_inference_bait(text: str) -> bool:
    """Mood, skill, seniority or trust: facts only an inference could turn into a record."""
    return bool(_MOOD.search(text))


# --- dates and expiry ---------------------------------------------------------------------

_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_WEEKDAY_RE = (
    r"(mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)"
)
_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTHS.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
_MONTHS["sept"] = 9
_MONTH_RE = r"(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_NUMBER_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "a couple of": 2,
    "a couple": 2,
    "couple of": 2,
    "a few": 3,
    "few": 3,
    "several": 3,
}
_NUM_RE = (
    r"(\d+|a\s+couple(?:\s+of)?|couple\s+of|a\s+few|few|several|an?|one|two|three|four|five|six|seven|eight|nine|ten)"
)
_UNTIL = r"(?:until|till|til|'til|through|thru|up\s+to|to|back\s+on|back|returning|until\s+next|till\s+next)"


def _day_start(moment: datetime) -> datetime:
    return moment.replace(hour=0, minute=0, second=0, microsecond=0)


def _end_of_day(moment: datetime) -> datetime:
    return _day_start(moment) + timedelta(days=1)


def _weekday_index(token: str) -> int:
    token = token.lower()[:3]
    return [d[:3] for d in _WEEKDAYS].index(token)


def _next_weekday(at: datetime, index: int, *, next_week: bool = False) -> datetime:
    ahead = (index - at.weekday()) % 7
    if ahead == 0:
        ahead = 7
    if next_week and ahead < 7 and at.weekday() < index:
        # "until next Friday" said on a Monday: the Friday of the following week.
        ahead += 7
    return at + timedelta(days=ahead)


def _number(token: str) -> int:
    token = re.sub(r"\s+", " ", token.lower().strip())
    if token.isdigit():
        return int(token)
    return _NUMBER_WORDS.get(token, 1)


def _end_of_week(at: datetime) -> datetime:
    return _day_start(at) + timedelta(days=7 - at.weekday())


def _end_of_month(at: datetime, months_ahead: int = 0) -> datetime:
    year, month = at.year, at.month + months_ahead
    while month > 12:
        year, month = year + 1, month - 12
    last = calendar.monthrange(year, month)[1]
    return _end_of_day(at.replace(year=year, month=month, day=last))


def _date_in_future(at: datetime, month: int, day: int) -> datetime | None:
    try:
        candidate = at.replace(month=month, day=day)
    except ValueError:
        return None
    if _end_of_day(candidate) <= at:
        try:
            candidate = candidate.replace(year=at.year + 1)
        except ValueError:
            return None
    return candidate


@dataclass(frozen=True)
class TimeSpan:
    expires_at: datetime
    phrase: str  # the words that stated the end ("" when defaulted)
    stated: bool


_TIME_PATTERNS: list[tuple[re.Pattern, str]] = [
    (re.compile(rf"\b{_UNTIL}\s+(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(week|month|year|quarter)\b", re.I), "end_of"),
    (re.compile(rf"\b{_UNTIL}\s+(next\s+)?{_WEEKDAY_RE}\b", re.I), "until_weekday"),
    (
        re.compile(rf"\b{_UNTIL}\s+(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+{_MONTH_RE}\b", re.I),
        "until_day_month",
    ),
    (re.compile(rf"\b{_UNTIL}\s+{_MONTH_RE}\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", re.I), "until_month_day"),
    (re.compile(rf"\b{_UNTIL}\s+(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)\b", re.I), "until_ordinal"),
    (re.compile(rf"\b{_UNTIL}\s+(?:early\s+|mid-?\s*|late\s+)?{_MONTH_RE}(?!\s*\d)\b", re.I), "until_month"),
    (re.compile(rf"\b{_UNTIL}\s+(tomorrow|tonight|today)\b", re.I), "until_relative"),
    (re.compile(rf"\b(?:for|over)\s+(?:the\s+)?(?:next\s+)?{_NUM_RE}\s+(day|week|month)s?\b", re.I), "for_duration"),
    (re.compile(r"\b(?:for|over)\s+the\s+next\s+(day|week|month)\b", re.I), "for_next_unit"),
    (
        re.compile(r"\b(?:for\s+the\s+rest\s+of\s+|(?:all|rest\s+of)\s+)?(?:this|the)\s+(week|month)\b", re.I),
        "this_unit",
    ),
    (re.compile(r"\b(?:this|over\s+the|for\s+the)\s+weekend\b", re.I), "weekend"),
    (re.compile(r"\bnext\s+(week|month)\b", re.I), "next_unit"),
    (re.compile(r"\b(today|tonight|this\s+(?:morning|afternoon|evening))\b", re.I), "today"),
    (re.compile(r"\btomorrow\b", re.I), "tomorrow"),
    (re.compile(rf"\b(?:on|this|next)\s+{_WEEKDAY_RE}\b", re.I), "on_weekday"),
]


def parse_expiry(text: str, at: datetime) -> TimeSpan:
    """When a stated situation stops being true, from the utterance and its timestamp.

    A duration needs an origin: the timestamp supplies it ("this week" said on a Wednesday
    ends that Sunday at midnight). With no stated end the record gets the default thirty
    days (write-rules chapter). Ends are end-of-day in the timestamp's timezone.
    """
    found: list[tuple[re.Match, datetime]] = []
    for pattern, name in _TIME_PATTERNS:
        for match in pattern.finditer(text):
            end = _resolve(name, match, at)
            if end is not None and end > at:
                found.append((match, end))
    if not found:
        return TimeSpan(expires_at=at + timedelta(days=DEFAULT_SITUATION_DAYS), phrase="", stated=False)
    match, end = found[0]  # the most specific pattern wins ...
    start, stop = match.span()
    for other, other_end in found[1:]:
        # ... and a second phrase joined to it ("today and tomorrow") extends it to the later end.
        lo, hi = sorted([(start, stop), other.span()])
        if re.fullmatch(r"\s*(?:and|&|or|to|through)\s*", text[lo[1] : hi[0]], re.I):
            start, stop, end = lo[0], hi[1], max(end, other_end)
    return TimeSpan(expires_at=end, phrase=text[start:stop], stated=True)


def _resolve(name: str, match: re.Match, at: datetime) -> datetime | None:
    groups = match.groups()
    if name == "end_of":
        unit = groups[0].lower()
        if unit == "week":
            return _end_of_week(at)
        if unit == "month":
            return _end_of_month(at)
        if unit == "quarter":
            return _end_of_month(at, (3 - at.month % 3) % 3)
        return _end_of_day(at.replace(month=12, day=31))
    if name == "until_weekday":
        target = _next_weekday(at, _weekday_index(groups[1]), next_week=bool(groups[0]))
        if re.match(r"back", match.group(0), re.I):
            return _day_start(target)
        return _end_of_day(target)
    if name == "until_day_month":
        day = _date_in_future(at, _MONTHS[groups[1].lower().rstrip(".")], int(groups[0]))
        return _end_of_day(day) if day else None
    if name == "until_month_day":
        day = _date_in_future(at, _MONTHS[groups[0].lower().rstrip(".")], int(groups[1]))
        return _end_of_day(day) if day else None
    if name == "until_ordinal":
        day_number = int(groups[0])
        month, year = at.month, at.year
        if day_number <= at.day:
            month, year = (1, year + 1) if month == 12 else (month + 1, year)
        try:
            return _end_of_day(at.replace(year=year, month=month, day=day_number))
        except ValueError:
            return None
    if name == "until_month":
        month = _MONTHS[groups[0].lower().rstrip(".")]
        start = _date_in_future(at, month, 1)
        if start is None:
            return None
        if start.month == at.month and start.year == at.year:
            return _end_of_month(at)
        return _day_start(start)
    if name == "until_relative":
        word = groups[0].lower()
        return _end_of_day(at + timedelta(days=1 if word == "tomorrow" else 0))
    if name == "for_duration":
        count, unit = _number(groups[0]), groups[1].lower()
        days = {"day": 1, "week": 7, "month": 30}[unit] * count
        return _end_of_day(at + timedelta(days=days))
    if name == "for_next_unit":
        return _end_of_day(at + timedelta(days={"day": 1, "week": 7, "month": 30}[groups[0].lower()]))
    if name == "this_unit":
        return _end_of_week(at) if groups[0].lower() == "week" else _end_of_month(at)
    if name == "weekend":
        return _end_of_week(at)
    if name == "next_unit":
        if groups[0].lower() == "week":
            return _end_of_week(at) + timedelta(days=7)
        return _end_of_month(at, 1)
    if name == "today":
        return _end_of_day(at)
    if name == "tomorrow":
        return _end_of_day(at + timedelta(days=1))
    if name == "on_weekday":
        return _end_of_day(_next_weekday(at, _weekday_index(groups[0])))
    return None


def _format_day(moment: datetime) -> str:
    return f"{moment:%A} {moment.day} {moment:%B %Y}"


# --- pronouns and sentences ---------------------------------------------------------------

_THIRD_PERSON = {
    "am": "is",
    "have": "has",
    "do": "does",
    "go": "goes",
    "was": "was",
    "can": "can",
    "will": "will",
    "would": "would",
    "should": "should",
    "must": "must",
    "could": "could",
    "might": "might",
    "may": "may",
}
_IRREGULAR_SUBJECT = {"i'm": "is", "i've": "has", "i'll": "will", "i'd": "would"}


def _third_person(verb: str) -> str:
    low = verb.lower()
    if low in _THIRD_PERSON:
        return _THIRD_PERSON[low]
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return low + "es"
    if low.endswith("y") and len(low) > 2 and low[-2] not in "aeiou":
        return low[:-1] + "ies"
    return low + "s"


def _swap_possessives(text: str, *, mine: str, me: str, myself: str) -> str:
    text = re.sub(r"\bmy\b", mine, text, flags=re.I)
    text = re.sub(r"\bmine\b", mine + "s" if mine == "your" else "theirs", text, flags=re.I)
    text = re.sub(r"\bmyself\b", myself, text, flags=re.I)
    return re.sub(r"\bme\b", me, text, flags=re.I)


def _sentence(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip().strip(",;:-–— ")
    text = re.sub(r"[\s,]*\b(please|pls|thanks|thank you)\b[\s.!]*$", "", text, flags=re.I).strip()
    text = text.rstrip(".!?,;: ")
    if not text:
        return ""
    return text[0].upper() + text[1:] + "."


def to_statement(clause: str) -> str:
    """A first-person clause as a note about the user ("I cover X" -> "Covers X.")."""
    clause = re.sub(r"\s+", " ", clause).strip().strip(",;:-–— ").rstrip(".!?")
    low = clause.lower()
    for contraction, verb in _IRREGULAR_SUBJECT.items():
        if low.startswith(contraction + " "):
            rest = clause[len(contraction) + 1 :]
            body = f"{verb} {rest}"
            return _sentence(_swap_possessives(body, mine="their", me="them", myself="themselves"))
    match = re.match(
        r"i\s+(?:(really|usually|mostly|mainly|now|also|only|currently|always)\s+)?([a-z']+)\s*(.*)", clause, re.I
    )
    if match:
        adverb, verb, rest = match.groups()
        if verb.lower() == "am":
            body = f"is {rest}"
        else:
            body = f"{_third_person(verb)} {rest}".strip()
        if adverb:
            body = f"{adverb} {body}"
        return _sentence(_swap_possessives(body, mine="their", me="them", myself="themselves"))
    return _sentence(clause)


def to_echo(clause: str) -> str:
    """The clause in the second person, for the chat answer ("you cover the western region")."""
    clause = re.sub(r"\s+", " ", clause).strip().strip(",;:-–— ").rstrip(".!?")
    clause = re.sub(r"\bI'm\b", "you're", clause, flags=re.I)
    clause = re.sub(r"\bI've\b", "you've", clause, flags=re.I)
    clause = re.sub(r"\bI'll\b", "you'll", clause, flags=re.I)
    clause = re.sub(r"\bI'd\b", "you'd", clause, flags=re.I)
    clause = re.sub(r"\bI am\b", "you are", clause, flags=re.I)
    clause = re.sub(r"\bI was\b", "you were", clause, flags=re.I)
    clause = re.sub(r"\bI\b", "you", clause)
    clause = _swap_possessives(clause, mine="your", me="you", myself="yourself")
    if clause and not clause.startswith("I"):
        clause = clause[0].lower() + clause[1:] if not re.match(r"[A-Z]{2}|[A-Z][a-z]+\b(?!\s)", clause) else clause
    return clause


# --- preferences --------------------------------------------------------------------------

# What a preference is about: the later standing preference on a subject supersedes the
# earlier one. Values are canonical so a restatement refreshes instead of copying.
SUBJECT_VALUES: dict[str, list[tuple[str, str]]] = {
    "units": [
        (r"\bmetric\b|\bkilo(?:metre|meter|gram)s?\b|\bkm\b|\bkg\b|\bcelsius\b|\bmetres?\b|\bmeters?\b", "metric"),
        (r"\bimperial\b|\bmiles?\b|\blbs?\b|\bfahrenheit\b|\bfeet\b|\binch(?:es)?\b|\bounces?\b", "imperial"),
        (r"\bunits?\b", ""),
    ],
    "currency": [
        (r"\beuros?\b|\beur\b|€", "eur"),
        (r"\b(?:us\s+)?dollars?\b|\busd\b|\$", "usd"),
        (r"\b(?:british\s+)?pounds?\s+sterling\b|\bgbp\b|£|\bsterling\b", "gbp"),
        (r"\bswiss\s+francs?\b|\bchf\b", "chf"),
        (r"\byen\b|\bjpy\b", "jpy"),
        (r"\bcurrenc(?:y|ies)\b", ""),
    ],
    "date_format": [
        (r"\byyyy-mm-dd\b|\biso(?:\s*8601)?\b", "iso"),
        (r"\bdd[/.-]mm[/.-]yy(?:yy)?\b|\bday[\s-]+first\b", "day_first"),
        (r"\bmm[/.-]dd[/.-]yy(?:yy)?\b|\bmonth[\s-]+first\b|\bamerican\s+dates?\b", "month_first"),
        (r"\bdates?\b", ""),
    ],
    "answer_format": [
        (r"\btables?\b|\btabular\b", "table"),
        (r"\bbullet(?:s|ed)?(?:\s+points?)?\b|\bbullet\s+list\b", "bullets"),
        (r"\b(?:numbered|ordered)\s+lists?\b", "numbered"),
        (r"\bcharts?\b|\bgraphs?\b", "chart"),
        (r"\bprose\b|\bparagraphs?\b|\bfull\s+sentences\b", "prose"),
        (r"\bcsv\b", "csv"),
    ],
    "answer_length": [
        (
            r"\b(?:short|shorter|brief|briefer|concise|succinct|terse|one[\s-]liners?|tl;?dr|to\s+the\s+point)\b",
            "short",
        ),
        (
            r"\b(?:full|detailed|in[\s-]depth|thorough|long(?:er)?|more\s+detail|all\s+the\s+details|breakdown"
            r"|step[\s-]by[\s-]step)\b",
            "detailed",
        ),
    ],
    "language": [
        (r"\benglish\b", "english"),
        (r"\bgerman\b|\bdeutsch\b", "german"),
        (r"\bfrench\b|\bfran[cç]ais\b", "french"),
        (r"\bspanish\b|\bespa[nñ]ol\b", "spanish"),
        (r"\bdutch\b|\bnederlands\b", "dutch"),
        (r"\bitalian\b", "italian"),
        (r"\bportuguese\b", "portuguese"),
    ],
    "number_format": [
        (r"\bdecimals?\b|\bdecimal\s+places?\b|\bround(?:ed|ing)?\b|\bthousands?\s+separators?\b", "rounding"),
        (r"\bpercent(?:ages?)?\b|%", "percent"),
    ],
    "timezone": [(r"\b(?:utc|gmt|cet|cest|est|pst|time\s*zone|local\s+time)\b", "tz")],
}
# Subjects in priority order: a clause mentioning bullets and shortness is about layout.
_SUBJECT_ORDER = [
    "units",
    "currency",
    "date_format",
    "answer_format",
    "language",
    "number_format",
    "timezone",
    "answer_length",
]


def subject_of(text: str) -> tuple[str, str]:
    """(subject, canonical value) a preference clause is about; ("", "") when none.

    When a clause names several values of one subject ("bullet points instead of tables")
    the first one named wins: that is what the user asked for.
    """
    for subject in _SUBJECT_ORDER:
        best: tuple[int, str] | None = None
        for pattern, value in SUBJECT_VALUES[subject]:
            match = re.search(pattern, text, re.I)
            if match and value and (best is None or match.start() < best[0]):
                best = (match.start(), value)
        if best:
            return subject, best[1]
        if any(re.search(p, text, re.I) for p, v in SUBJECT_VALUES[subject] if not v):
            return subject, ""
    return "", ""


# Canonical sentences for preferences learned from repetition (no single quote to rewrite).
OBSERVED_STATEMENTS = {
    ("answer_format", "table"): "Prefers answers as tables.",
    ("answer_format", "bullets"): "Prefers answers as bullet points.",
    ("answer_format", "numbered"): "Prefers answers as numbered lists.",
    ("answer_format", "chart"): "Prefers answers with a chart.",
    ("answer_format", "prose"): "Prefers answers in full sentences.",
    ("answer_format", "csv"): "Prefers data as CSV.",
    ("answer_length", "short"): "Prefers short answers.",
    ("answer_length", "detailed"): "Prefers detailed answers with the full breakdown.",
    ("units", "metric"): "Prefers metric units.",
    ("units", "imperial"): "Prefers imperial units.",
    ("currency", "eur"): "Prefers amounts in euros.",
    ("currency", "usd"): "Prefers amounts in US dollars.",
    ("currency", "gbp"): "Prefers amounts in pounds sterling.",
    ("currency", "chf"): "Prefers amounts in Swiss francs.",
    ("currency", "jpy"): "Prefers amounts in yen.",
    ("date_format", "iso"): "Prefers dates as YYYY-MM-DD.",
    ("date_format", "day_first"): "Prefers dates with the day first.",
    ("date_format", "month_first"): "Prefers dates with the month first.",
}

_STANDING = re.compile(
    r"\b(always|from\s+now\s+on|going\s+forward|moving\s+forward|from\s+here\s+on(?:\s+out)?|henceforth"
    r"|in\s+(?:the\s+)?future|by\s+default|every\s+time|each\s+time|whenever\s+i\s+ask|as\s+a\s+rule"
    r"|never(?!\s+mind)|don'?t\s+ever|stop\s+\w+ing|no\s+more|from\s+today)\b"
    r"|\bi(?:'d|\s+would)?\s+(?:really\s+|much\s+|generally\s+|usually\s+)?prefer\b"
    r"|\bmy\s+preference\s+is\b|\bi\s+(?:always\s+)?(?:want|like)\b[^.]{0,40}\b(?:always|by\s+default|every\s+time)\b",
    re.I,
)
# Situational scope: the request governs this session or this answer, not the future.
_SESSION_ONLY = re.compile(
    r"\b(?:for\s+(?:this|the)\s+(?:chat|conversation|session|thread|answer|question|report)(?:\s+only)?"
    r"|(?:just\s+)?for\s+now|right\s+now|for\s+the\s+moment|just\s+(?:this\s+)?once|only\s+this\s+time"
    r"|this\s+time\s+only|(?:i'?m|i\s+am)\s+(?:on\s+(?:my|a)\s+(?:phone|mobile|tablet|train|plane|call)"
    r"|driving|in\s+a\s+(?:hurry|rush|meeting|taxi|cab)|short\s+on\s+time|between\s+meetings|walking|on\s+the\s+go)"
    r"|(?:in\s+this|in\s+the\s+current)\s+(?:chat|conversation|session)|until\s+the\s+end\s+of\s+(?:this|the)\s+"
    r"(?:chat|conversation|session)|for\s+today)\b",
    re.I,
)
_ANSWER_WORDS = re.compile(
    r"\b(answers?|repl(?:y|ies)|respon(?:d|ses?)|results?|output|numbers?|figures?|amounts?|totals?|prices?|revenue"
    r"|values?|margins?|names?|codes?|sources?|citations?|links?|explanations?|steps?|sql|examples?|decimals?"
    r"|dates?|units?|distances?|measurements?|weights?|temperatures?|times?|currenc(?:y|ies)|tables?|bullets?|lists?|charts?|graphs?|summar(?:y|ies)|breakdowns?"
    r"|details?|format(?:ted|ting)?|metric|imperial|euros?|dollars?|decimals?|percent\w*|language|english|german"
    r"|french|spanish|dutch|short|brief|concise|detailed|long|me|us)\b|\b(?:in|as)\s+\w+",
    re.I,
)
_DELIVERY_VERBS = (
    "give|show|send|present|display|put|write|report|express|list|return|provide|use|format|answer|reply|respond"
    "|quote|convert|state|do|lay\\s+out|break\\s+down"
)
_IMPERATIVE_START = re.compile(
    rf"^(?:(?:please|pls|kindly|can\s+you|could\s+you|would\s+you|will\s+you)\s+)?(?:{_DELIVERY_VERBS}|include|keep|make"
    r"|sort|round|start|add|mention|skip|leave|avoid|stop|don'?t|do\s+not|switch|change|label|highlight|spell|use)\b",
    re.I,
)
_QUESTION_START = re.compile(
    r"^(?:why|what|when|where|who|whom|whose|which|how|is|are|was|were|does|do|did|has|have|had|should|shall"
    r"|isn'?t|aren'?t|doesn'?t|don'?t|didn'?t)\b",
    re.I,
)
_REQUEST_START = re.compile(r"^(?:please\s+)?(?:can|could|would|will)\s+you\b", re.I)
_THIRD_PARTY = re.compile(
    r"^(?:(?:my|our|the)\s+(?:boss|manager|team|colleagues?|cfo|ceo|director|client|customer|lead|head|wife"
    r"|husband|partner|assistant|deputy|coworkers?|co-workers?|analysts?|finance\s+team|sales\s+team|board)"
    r"|[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\s+(?:always|usually|never|prefers?|likes?|wants?|hates?))\b"
)
_OTHER_PERSON_PREF = re.compile(
    r"\b(?:my|our|the)\s+(?:[\w-]+\s+){0,2}(?:boss|manager|team|colleagues?|cfo|ceo|cto|coo|director|client|lead"
    r"|wife|husband|partner|assistant|deputy|coworkers?|co-workers?|supervisor|head|vp|controller|analysts?|board"
    r"|auditors?|customer)s?\s+(?:\w+\s+)?(?:prefers?|likes?|wants?|hates?|always|never|needs?|insists?)\b"
    r"|\b(?:he|she|they)\s+(?:always\s+)?(?:prefers?|likes?|wants?)\b",
    re.I,
)


# A verbless standing request that names what answers should look like: "dates as DD/MM/YYYY",
# "amounts in euros", "totals with two decimals".
_ANSWER_NOUN_START = re.compile(
    r"^(?:the\s+|all\s+|my\s+)?(?:answers?|dates?|amounts?|totals?|figures?|numbers?|prices?|revenue|values?"
    r"|distances?|weights?|temperatures?|times?|currenc(?:y|ies)|summar(?:y|ies)|reports?|tables?|lists?)"
    r"\s+(?:as|in|with|using|to\s+be|should\s+be|formatted)\b",
    re.I,
)


def _strip_lead(clause: str) -> str:
    """Drop discourse openers and standing phrases, keeping the request itself."""
    lead = re.compile(
        r"^(?:(?:every\s+time|each\s+time|whenever|when)\s+(?:you|i)\s+[^,]+,\s*|(?:actually|also|and|so|ok(?:ay)?|well|hey|hi|btw|fyi|by\s+the\s+way|just\s+so\s+you\s+know|heads\s+up"
        r"|scratch\s+that|change\s+of\s+plans?|correction|instead|no\s+wait|on\s+second\s+thought"
        r"|like\s+i\s+said(?:\s+before)?|as\s+i\s+said(?:\s+before)?|again|once\s+again|to\s+repeat|reminder"
        r"|from\s+now\s+on|going\s+forward|moving\s+forward|from\s+here\s+on(?:\s+out)?|henceforth|in\s+(?:the\s+)?future"
        r"|by\s+default|from\s+today|as\s+a\s+rule|every\s+time|each\s+time|always|please|pls|kindly|can\s+you"
        r"|could\s+you|would\s+you|will\s+you)\b[\s,:;-]*)",
        re.I,
    )
    previous = None
    while previous != clause:
        previous = clause
        clause = lead.sub("", clause.strip())
    return clause


def preference_statement(clause: str) -> str:
    """A standing request rewritten as a note ("Always give me units in metric" -> "Prefers units in metric.")."""
    core = _strip_lead(clause)
    core = re.sub(r"[\s,]*\b(please|pls|thanks|thank you)\b\W*$", "", core, flags=re.I).strip(" ,.!")
    core = re.sub(r"\b(always|by\s+default|every\s+time|from\s+now\s+on|going\s+forward)\b\s*", "", core, flags=re.I)
    core = core.strip(" ,")
    prefer = re.search(
        r"\bi(?:'d|\s+would)?\s+(?:really\s+|much\s+|generally\s+|usually\s+)?(?:prefer|like|want)\s+(?:to\s+(?:get|see|have|receive)\s+)?(.*)",
        core,
        re.I,
    )
    if prefer:
        return _sentence("Prefers " + _swap_possessives(prefer.group(1), mine="their", me="them", myself="themselves"))
    pref_is = re.match(r"my\s+preference\s+is\s+(?:for\s+)?(.*)", core, re.I)
    if pref_is:
        return _sentence("Prefers " + pref_is.group(1))
    no_more = re.match(r"(?:no\s+more|no)\s+(.*)", core, re.I)
    if no_more:
        return _sentence("Does not want " + no_more.group(1))
    kept = re.match(r"(?:keep|make)\s+(?:the\s+|my\s+)?(?:answers|replies|responses|it|them)\s+(.*)", core, re.I)
    if kept:
        return _sentence("Prefers answers " + kept.group(1))
    negative = re.match(r"(?:never|don'?t(?:\s+ever)?|do\s+not(?:\s+ever)?|stop)\s+(.*)", core, re.I)
    if negative:
        rest = _swap_possessives(negative.group(1), mine="their", me="them", myself="themselves")
        if core.lower().startswith("stop"):
            return _sentence("Does not want answers " + rest)
        shown = re.match(rf"(?:{_DELIVERY_VERBS})\s+(?:(?:them|us)\s+)?(.+)", rest, re.I)
        if shown:
            return _sentence("Does not want " + shown.group(1))
        return _sentence("Does not want answers to " + rest)
    if _ANSWER_NOUN_START.match(core):
        return _sentence("Prefers " + core[0].lower() + core[1:])
    verb = re.match(rf"({_DELIVERY_VERBS})\s+(?:(?:me|us)\s+)?(?:the\s+|my\s+|our\s+)?(.*)", core, re.I)
    if verb and verb.group(2):
        rest = verb.group(2)
        if re.match(r"(?:in|as|with|using)\b", rest, re.I):
            return _sentence("Prefers answers " + rest)
        if re.match(r"(?:it|that|this|them|things|everything)\b", rest, re.I):
            rest = re.sub(r"^(?:it|that|this|them|things|everything)\s*", "answers ", rest, flags=re.I)
        return _sentence("Prefers " + _swap_possessives(rest, mine="their", me="them", myself="themselves"))
    if core:
        return _sentence("Wants answers to " + core[0].lower() + core[1:])
    return ""


def preference_echo(statement: str) -> str:
    body = statement.rstrip(".")
    if body.startswith("Prefers "):
        return "you prefer " + body[len("Prefers ") :]
    if body.startswith("Does not want "):
        return "you don't want " + body[len("Does not want ") :]
    if body.startswith("Wants "):
        return "you want " + body[len("Wants ") :]
    return body[0].lower() + body[1:]


def _is_question(clause: str) -> bool:
    stripped = clause.strip()
    return stripped.endswith("?") or bool(_QUESTION_START.match(_strip_discourse(stripped)))


def _strip_discourse(clause: str) -> str:
    return re.sub(
        r"^(?:actually|also|and|so|ok(?:ay)?|well|hey|hi|btw|fyi|by\s+the\s+way|quick\s+question|question)\b[\s,:;-]*",
        "",
        clause,
        flags=re.I,
    )


# --- situations ---------------------------------------------------------------------------

_ABSENCE = (
    r"out\s+of\s+(?:the\s+)?office|ooo|on\s+(?:\w+\s+){0,2}leave|on\s+(?:a\s+)?(?:holiday|vacation|sabbatical"
    r"|secondment|business\s+trip|pto|furlough)|on\s+holidays|travell?ing\b[^,.]*|away\s+(?:until|till|from|for)\b[^,.]*"
)
_SITUATION = re.compile(
    rf"^(?:(?:i'?m|i\s+am|i'?ll\s+be|i\s+will\s+be|i'?ve\s+been)\s+(?:currently\s+|now\s+|also\s+|still\s+)?"
    rf"|(?=(?:{_ABSENCE})\b))"
    r"(?P<state>(?:(?:in|at|visiting|travell?ing\s+(?:to|in|through)|staying\s+in|working\s+(?:remotely\s+)?from"
    r"|at\s+a\s+[\w\s-]{0,30}?\s+in)\s+"
    r"(?:the\s+)?(?-i:[A-Z])[\w-]+(?:\s+(?-i:[A-Z])[\w-]+)*"
    r"|out\s+of\s+(?:the\s+)?office|ooo|away|off(?:\s+work)?|on\s+(?:\w+\s+){0,2}leave|on\s+(?:a\s+)?(?:holiday|vacation"
    r"|sabbatical|secondment|business\s+trip|trip|pto|furlough)|on\s+holidays|travell?ing|working\s+(?:from\s+home|remotely)"
    r"|covering\s+for\s+[A-Z]\w+|at\s+a\s+(?:conference|trade\s+fair|workshop|offsite|off-site|summit)"
    r"|offline|unavailable|not\s+available|out)\b.*)",
    re.I,
)
_LEADING_TIME = re.compile(
    r"^(?:(?:this|next)\s+(?:week|weekend|month)|today|tomorrow|tonight|(?:until|till)\s+\w+)\s*,?\s*", re.I
)


def situation_finding(clause: str, at: datetime) -> Finding | None:
    """A transient state the user stated about themselves, written with its expiry.

    The record has no other retirement path (nobody announces the end of a trip), so it
    carries a clock: the stated end, or thirty days (write-rules chapter).
    """
    text = _strip_discourse(
        re.sub(r"^(?:heads\s+up|fyi|just\s+so\s+you\s+know|note)\b[\s,:;-]*", "", clause, flags=re.I)
    )
    match = _SITUATION.match(text) or _SITUATION.match(_LEADING_TIME.sub("", text))
    if not match:
        return None
    # "I'm in a hurry" / "I'm on my phone": a reason for this answer, not a situation.
    if _SESSION_ONLY.search(text) and not re.search(r"\b(leave|office|holiday|vacation|travel\w*|away)\b", text, re.I):
        return None
    state = match.group("state").strip().rstrip(".!?")
    span = parse_expiry(text, at)
    # The state itself, up to the first clause about something else ("..., so my colleague ...").
    own = re.split(r",|\s+(?:so|but|and\s+(?:my|i|you|the))\s+", state)[0]
    if span.phrase and span.phrase not in own and span.phrase in state:
        own = own  # the end was stated in a later clause; the expiry still applies
    state = re.sub(r"\s+", " ", own.replace(span.phrase, " ") if span.phrase else own).strip(" ,;-")
    body = _swap_possessives(state, mine="their", me="them", myself="themselves")
    until = span.expires_at - timedelta(seconds=1)
    if span.stated:
        statement = _sentence(f"{body} until {_format_day(until)}")
        reason = SITUATION_DATED
    else:
        statement = _sentence(body)
        reason = SITUATION_DEFAULT
    echo = f"you're {to_echo(state)}" + (f" until {_format_day(until)}" if span.stated else "")
    return Finding(
        action="write",
        rule="situation",
        reason=reason,
        kind="situation",
        statement=statement,
        expires_at=span.expires_at,
        quote=clause.strip(),
        echo=echo,
        confidence=0.85,
    )


# --- company facts ------------------------------------------------------------------------

_CORPUS = re.compile(
    r"\b(our|the)\s+(company|company'?s|firm|fiscal\s+year|financial\s+year|fy|business|organi[sz]ation|contract"
    r"|customers?|clients?|orders?|invoices?|revenue|sales|budget|quarter|pricing|price\s+list|policy|headquarters"
    r"|hq|office|warehouse|team'?s|department)\b"
    r"|\b(contract|invoice|order|account|customer|supplier)\s+(renews|expires|ends|starts|is\s+due|pays|paid|moved)\b"
    r"|\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\s+(?:always|usually|never|often)\s+(?:pays?|orders?|buys?|ships?|renews?)\b"
    r"|\bfiscal\s+year\b|\bnet\s+\d+\b",
    re.I,
)


def is_corpus_fact(clause: str) -> bool:
    """A statement about the company or its data: the corpus owns it, not the user's memory."""
    if re.search(r"\b(i|i'm|i've|i'll|me|my)\b", clause, re.I) and not re.search(
        r"\b(?:our|the)\s+(?:company|firm|fiscal|financial)", clause, re.I
    ):
        return False
    return bool(_CORPUS.search(clause))


# --- format requests (one occurrence each) ------------------------------------------------

_FORMAT_REQUEST = re.compile(
    r"\b(?:in|as|into)\s+(?:a\s+|an\s+)?(?:table|tabular|bullet|bullets|list|chart|graph|csv|euros?|dollars?|metric"
    r"|imperial|yyyy-mm-dd|iso|short|brief|english|german|french|spanish|dutch)\b"
    r"|\b(?:table|bullet(?:ed)?|list|chart|csv|tabular)\s+(?:format|form|view|please)\b"
    r"|\b(?:full|detailed|complete|whole)\s+breakdown\b|\bmore\s+detail(?:s|ed)?\b|\bin\s+(?:more\s+)?detail\b"
    r"|\b(?:shorter|briefer|more\s+concise|keep\s+it\s+(?:short|brief))\b|\bbreak\s+(?:it|that|this)\s+down\b"
    r"|\b(?:tabulate|bullet\s+points?)\b"
    r"|\b(?:make|turn|convert|format|put|show|give|present|lay\s+out|display|send)\b[^.?!]{0,30}\b(?:tables?|bullets?"
    r"|charts?|graphs?|csv|numbered\s+list)\b",
    re.I,
)


def format_request(clause: str) -> tuple[str, str] | None:
    """(subject, value) when the clause asks for a shape of answer without a standing phrase."""
    if not _FORMAT_REQUEST.search(clause):
        return None
    stripped = _strip_discourse(clause.strip())
    # A question about the data that happens to name a table or a list is not a request.
    if _QUESTION_START.match(stripped) and not _REQUEST_START.match(stripped):
        return None
    subject, value = subject_of(clause)
    if not value:
        return None
    return subject, value


# --- explicit remember / forget -----------------------------------------------------------

_REMEMBER = re.compile(
    r"^(?:(?:ok(?:ay)?|so|also|and|hey|hi|atlas)[\s,:]+)*(?:please\s+|pls\s+|can\s+you\s+|could\s+you\s+|would\s+you\s+"
    r"|i\s+want\s+you\s+to\s+|i'?d\s+like\s+you\s+to\s+)?"
    r"(?:remember|note|make\s+a\s+note|take\s+note|keep\s+in\s+mind|bear\s+in\s+mind|don'?t\s+forget|do\s+not\s+forget"
    r"|save|store|memori[sz]e|add\s+to\s+(?:your\s+)?memory)"
    r"(?:\s+(?:for\s+(?:the\s+)?future|for\s+later|permanently|going\s+forward))?"
    r"(?:\s*(?:that|this|the\s+following|of\s+the\s+fact\s+that))?\s*[:,-]?\s+(?P<content>.+)$",
    re.I | re.S,
)
_FORGET = re.compile(
    r"^(?:(?:ok(?:ay)?|so|also|and|actually|hey|hi|atlas)[\s,:]+)*(?:please\s+|pls\s+|can\s+you\s+|could\s+you\s+"
    r"|would\s+you\s+|i\s+want\s+you\s+to\s+)?"
    r"(?:forget|stop\s+remembering|delete|erase|remove|drop|unlearn)\s+(?:about\s+)?(?:that\s+|the\s+(?:note|memory)\s+"
    r"(?:that|about)\s+|what\s+i\s+said\s+about\s+|(?:the\s+|my\s+)?(?:note|memory)\s+(?:about|on|that)\s+)?"
    r"(?P<content>.+)$",
    re.I | re.S,
)
_FORGET_VAGUE = re.compile(r"^(?:it|this|that|about\s+it|everything|all\s+that|that\s+one|what\s+i\s+said)\W*$", re.I)
_FORGET_TARGET_WORDS = re.compile(
    r"\b(note|memory|memories|preference|setting|remember|i\b|my\b|i'm|that\s+i|you\s+(?:know|remember|noted))",
    re.I,
)


def remember_content(text: str) -> str | None:
    match = _REMEMBER.match(text.strip())
    if not match:
        return None
    content = match.group("content").strip()
    # "remember to send me the list" is a reminder (a task), not something about the user.
    if re.match(r"^to\s+[a-z]+", content, re.I):
        return None
    # "note the totals exclude VAT" is still explicit; "save the report" is a task, not memory.
    if re.match(r"^(?:the|a|an|this)\s+(?:report|file|chart|table|query|export|results?)\b", content, re.I):
        return None
    return content


def forget_query(text: str) -> str | None:
    """What the user asked to forget ("my unit preference", "that I cover Benelux"), or None."""
    match = _FORGET.match(text.strip())
    if not match:
        return None
    content = match.group("content").strip().rstrip(".!?")
    content = re.split(r",\s*(?=(?:i|i'm|i've|because|since|as|it's|that's|we)\b)|\s+because\s+", content, flags=re.I)[
        0
    ]
    if _FORGET_VAGUE.match(content):
        return None
    verb = re.match(r"\s*\S+", text.strip()).group().lower()
    # "delete the March invoice" is a request about data; only memory-shaped targets count.
    if verb not in {"forget", "unlearn"} and not _FORGET_TARGET_WORDS.search(match.group(0)):
        return None
    return content


def _first_person(text: str) -> bool:
    return bool(re.search(r"\b(i|i'm|i've|i'll|i'd|me|my|mine|myself)\b", text, re.I))


# --- the analysis -------------------------------------------------------------------------

_CLAUSE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'])|\s+[-–—]\s+|;\s*|\n+")


def split_clauses(text: str) -> list[str]:
    return [c.strip() for c in _CLAUSE_SPLIT.split(text.strip()) if c and c.strip(" .,!?")]


_VERDICT_ONLY = re.compile(
    r"^\W*(?:(?:no|nope|nah|ugh|sorry|hmm)[\s,.!]+)*(?:(?:that|this|it|the\s+answer|your\s+answer)(?:'s|\s+is|\s+was)\s+)?"
    r"(?:(?:totally|completely|just|so|simply|all|very|quite|plain)\s+)?"
    r"(?:wrong|incorrect|not\s+(?:right|correct|true|it)|false|bad|nonsense|rubbish|inaccurate|off|mistaken|no|nope"
    r"|wrong\s+answer|not\s+what\s+i\s+asked)?\W*$",
    re.I,
)


def analyse_correction(comment: str) -> Finding:
    """An incorrect-answer verdict with its comment: the comment is the correction (chapter 93)."""
    comment = (comment or "").strip()
    if not comment or _VERDICT_ONLY.match(comment):
        # "wrong" says the answer was wrong, not what is right: nothing durable to keep.
        return Finding(action="refuse", rule="correction", reason=NO_COMMENT, kind="correction")
    if is_instruction_to_system(comment):
        return Finding(action="refuse", rule="correction", reason=INSTRUCTION, kind="correction", quote=comment)
    if secret_reason(comment):
        return Finding(action="refuse", rule="correction", reason=SECRET, kind="correction", quote=comment)
    statement = _sentence(comment[:490])
    return Finding(
        action="write",
        rule="correction",
        reason=CORRECTION,
        kind="correction",
        statement=statement,
        quote=comment,
        confidence=0.9,
    )


def analyse_explicit(content: str, *, quote: str, at: datetime) -> Finding:
    """What follows "remember that ...": context, preference or situation by its content."""
    rule = "explicit"
    content = content.strip()
    if not content.strip(" .!?"):
        return Finding(action="refuse", rule=rule, reason=NOTHING_TO_REMEMBER, quote=quote, explicit=True)
    if is_instruction_to_system(content):
        return Finding(action="refuse", rule=rule, reason=INSTRUCTION, quote=quote, explicit=True)
    secret = secret_reason(content)
    if secret:
        return Finding(action="refuse", rule=rule, reason=SECRET, quote=quote, explicit=True, extra={"what": secret})
    if _OTHER_PERSON_PREF.search(content) or _THIRD_PARTY.match(content):
        return Finding(action="refuse", rule=rule, reason=NOT_ABOUT_USER, quote=quote, explicit=True)
    situation = situation_finding(content, at)
    if situation is not None:
        return Finding(
            **{**situation.__dict__, "rule": rule, "reason": EXPLICIT_REQUEST, "explicit": True, "quote": quote}
        )
    standing = _STANDING.search(content) or re.match(r"^i(?:'d|\s+would)?\s+(?:prefer|like|want)\b", content, re.I)
    imperative = _IMPERATIVE_START.match(_strip_lead(content))
    if standing or imperative:
        subject, value = subject_of(content)
        if subject or standing:
            statement = preference_statement(content)
            if statement:
                return Finding(
                    action="write",
                    rule=rule,
                    reason=EXPLICIT_REQUEST,
                    kind="preference",
                    statement=statement,
                    subject=subject,
                    value=value,
                    quote=quote,
                    explicit=True,
                    echo=preference_echo(statement),
                )
    if not _first_person(content) and is_corpus_fact(content):
        return Finding(action="refuse", rule=rule, reason=CORPUS_FACT, quote=quote, explicit=True)
    if not _first_person(content) and not imperative:
        return Finding(
            action="refuse",
            rule=rule,
            reason=NOT_ABOUT_USER if _THIRD_PARTY.match(content) else CORPUS_FACT,
            quote=quote,
            explicit=True,
        )
    statement = to_statement(content)
    if len(statement) > 500:
        statement = statement[:497].rstrip() + "..."
    return Finding(
        action="write",
        rule=rule,
        reason=EXPLICIT_REQUEST,
        kind="context",
        statement=statement,
        quote=quote,
        explicit=True,
        echo=to_echo(content),
        extra={"sensitive": sensitive_category(content)},
    )


def analyse_clause(clause: str, *, at: datetime) -> Finding | None:
    """One clause with no explicit remember/forget: a candidate, an occurrence or a refusal."""
    text = clause.strip()
    core = _strip_discourse(text)
    if is_small_talk(text):
        return Finding(action="refuse", rule="small_talk", reason=SMALL_TALK, quote=text)
    if _first_person(core) and sensitive_category(core):
        # Health and other sensitive categories are written only when explicitly asked.
        return Finding(action="refuse", rule="sensitive", reason=SENSITIVE, quote=text)
    standing = _STANDING.search(core)
    question = _is_question(core)
    session_only = _SESSION_ONLY.search(core)
    situation = situation_finding(core, at)
    if situation is not None:
        if sensitive_category(core):
            return Finding(action="refuse", rule="situation", reason=SENSITIVE, kind="situation", quote=text)
        return situation
    if is_inference_bait(core):
        return Finding(action="refuse", rule="inference", reason=INFERENCE, quote=text)
    if standing:
        if question and not _REQUEST_START.match(core):
            return Finding(action="refuse", rule="preference", reason=QUESTION, kind="preference", quote=text)
        if _OTHER_PERSON_PREF.search(core) or _THIRD_PARTY.match(_strip_lead(core)):
            return Finding(action="refuse", rule="preference", reason=NOT_ABOUT_USER, kind="preference", quote=text)
        if session_only:
            return Finding(action="refuse", rule="preference", reason=SESSION_ONLY, kind="preference", quote=text)
        lead = _strip_lead(core)
        about_answers = (
            _IMPERATIVE_START.match(lead)
            or _ANSWER_NOUN_START.match(lead)
            or re.search(r"\bi(?:'d|\s+would)?\s+(?:\w+\s+)?(?:prefer|like|want)\b", lead, re.I)
            or re.match(r"^(?:never|don'?t|do\s+not|stop|no\s+more)\b", lead, re.I)
            or re.match(r"^my\s+preference\b", lead, re.I)
        )
        negative = re.match(
            rf"^(?:never|don'?t(?:\s+ever)?|do\s+not|stop)\s+(?!mind\b|worry\b|know\b)(?:\w+ing|{_DELIVERY_VERBS}|include"
            r"|mention|add|round|abbreviate|use)\b",
            lead,
            re.I,
        )
        if about_answers and (_ANSWER_WORDS.search(lead) or subject_of(lead)[0] or negative):
            if sensitive_category(core):
                return Finding(action="refuse", rule="preference", reason=SENSITIVE, kind="preference", quote=text)
            subject, value = subject_of(core)
            statement = preference_statement(core)
            if statement:
                return Finding(
                    action="write",
                    rule="preference",
                    reason=STANDING_PREFERENCE,
                    kind="preference",
                    statement=statement,
                    subject=subject,
                    value=value,
                    quote=text,
                    echo=preference_echo(statement),
                    confidence=0.95,
                )
        if is_corpus_fact(core):
            return Finding(action="refuse", rule="preference", reason=CORPUS_FACT, kind="preference", quote=text)
    if re.search(r"\b(keep\s+it|make\s+it|be)\s+(short|brief|quick|concise)\b", core, re.I) and session_only:
        return Finding(action="refuse", rule="format_request", reason=SESSION_ONLY, kind="preference", quote=text)
    request = format_request(core)
    if request is not None:
        if session_only:
            return Finding(action="refuse", rule="format_request", reason=SESSION_ONLY, kind="preference", quote=text)
        subject, value = request
        return Finding(
            action="observe",
            rule="format_request",
            reason=SINGLE_OCCURRENCE,
            kind="preference",
            subject=subject,
            value=value,
            signal=f"format:{subject}={value}",
            statement=OBSERVED_STATEMENTS.get((subject, value), ""),
            quote=text,
            confidence=0.8,
        )
    if not question and _OTHER_PERSON_PREF.search(core):
        return Finding(action="refuse", rule="scope", reason=NOT_ABOUT_USER, quote=text)
    if not question and is_corpus_fact(core):
        return Finding(action="refuse", rule="scope", reason=CORPUS_FACT, quote=text)
    return None


def analyse_turn(text: str, *, at: datetime, feedback_kind: str = "", feedback_comment: str = "") -> list[Finding]:
    """Every finding of the text rules for one turn (filters are counted by the gate)."""
    findings: list[Finding] = []
    if feedback_kind == "incorrect":
        findings.append(analyse_correction(feedback_comment))
    text = (text or "").strip()
    if not text:
        return findings
    explicit = remember_content(text)
    if explicit is not None and (is_instruction_to_system(text) or is_instruction_to_system(explicit)):
        findings.append(Finding(action="refuse", rule="explicit", reason=INSTRUCTION, quote=text, explicit=True))
        return findings
    if is_instruction_to_system(text):
        findings.append(Finding(action="refuse", rule="instruction", reason=INSTRUCTION, quote=text))
        return findings
    query = forget_query(text)
    if query is not None and explicit is None:
        findings.append(Finding(action="forget", rule="forget", reason=FORGET_REQUEST, statement=query, quote=text))
        return findings
    if explicit is not None:
        findings.append(analyse_explicit(explicit, quote=text, at=at))
        return findings
    secret = secret_reason(text)
    if secret:
        findings.append(Finding(action="refuse", rule="secret", reason=SECRET, quote="", extra={"what": secret}))
        return findings
    for clause in split_clauses(text):
        finding = analyse_clause(clause, at=at)
        if finding is not None:
            findings.append(finding)
    return findings
