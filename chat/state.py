"""Session state: the three slots a follow-up question carries (design rule: bounded state).

Focus (the entity being discussed), filters (period, region, status) and format (short,
detailed, table), plus the last three question texts, never answers. A question is what a
follow-up refers back to and costs twenty tokens; an answer is what pollutes the context.

The state lives in the Django cache for an hour. Losing it costs one repeated question, so
nothing durable depends on it. Every key is registered with the memory store so "delete
everything" clears it too.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from django.core.cache import cache
from django.utils import timezone

from atlas.periods import period_words
from atlas.vocabulary import FUNCTION_WORDS

STATE_TTL_SECONDS = 3600
# Filters decay faster than focus: "same thing for last quarter" means the period, and three
# turns later "and for Northline" almost never still means last quarter (design rule: bounded state).
FILTER_TURNS = 2
# Below this share of content words in common with the recent questions, the question is a
# topic change and focus drops (measured in the design text: 3% of genuine follow-ups lose focus at 0.12,
# against 11% of topic changes that kept a stale one at higher thresholds).
FOCUS_OVERLAP_THRESHOLD = 0.12
RECENT_QUESTIONS = 3
RECENT_QUESTION_CHARS = 200


@dataclass
class Focus:
    type: str
    id: str
    label: str
    confident: bool = False


@dataclass
class SessionState:
    focus: Focus | None = None
    # {"period": {"value": "last quarter", "turns_left": 2}, ...}
    filters: dict[str, dict[str, Any]] = field(default_factory=dict)
    format: str = ""
    recent_questions: list[str] = field(default_factory=list)
    # A clarifying question waiting for the user's pick: {"question": ..., "options": [...]}.
    pending: dict[str, Any] | None = None
    # The last answered turn and the focus it was about, for the follow-up measurement.
    last_turn_id: int | None = None
    last_focus_id: str = ""
    # The previous turn's query plan (chat.planner.QueryPlan.to_dict): what a follow-up swaps a slot of.
    last_plan: dict[str, Any] | None = None
    # The one order the previous answer showed ("the largest order ..."): what "it" and "its" refer to.
    last_order: str = ""

    def active_filters(self) -> dict[str, str]:
        return {key: slot["value"] for key, slot in self.filters.items() if slot.get("value")}

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> SessionState:
        if not data:
            return cls()
        focus = data.get("focus")
        return cls(
            focus=Focus(**focus) if focus else None,
            filters=dict(data.get("filters") or {}),
            format=data.get("format") or "",
            recent_questions=list(data.get("recent_questions") or []),
            pending=data.get("pending"),
            last_turn_id=data.get("last_turn_id"),
            last_focus_id=data.get("last_focus_id") or "",
            last_plan=data.get("last_plan"),
            last_order=data.get("last_order") or "",
        )


@dataclass(frozen=True)
class Candidate:
    """A customer the question may name: what a clarifying option shows."""

    id: str
    name: str
    city: str = ""
    account_code: str = ""

    @property
    def option_label(self) -> str:
        return f"{self.name} — {self.city}, acct {self.account_code}"


@dataclass
class Resolution:
    """What the question did to the state, and what retrieval should use."""

    rewritten: str
    focus_dropped: str = ""  # why focus was dropped: "other-entity" | "topic-change" | ""
    filters_set: dict[str, str] = field(default_factory=dict)
    format_set: str = ""
    refers_back: bool = False
    clarify: dict[str, Any] | None = None  # {"question": ..., "options": [{"id", "label"}]}
    picked: Candidate | None = None  # the user answered a pending clarification
    original_question: str = ""  # the question a clarification was about
    plan: dict[str, Any] | None = None  # a "did you mean" option picked: the plan it offered


# --- storage -------------------------------------------------------------------------------


STATE_KEY_PREFIX = "atlas:state:"


def state_key(user_id: int, session_id: object) -> str:
    return f"{STATE_KEY_PREFIX}{user_id}:{session_id}"


def load_state(user_id: int, session_id: object) -> SessionState:
    """The session's state; a missing or expired one is a fresh state."""
    return SessionState.from_dict(cache.get(state_key(user_id, session_id)))


def save_state(user_id: int, session_id: object, state: SessionState) -> None:
    """Write the state with a one-hour TTL (delete-everything finds the user's keys by prefix, chat.tasks)."""
    cache.set(state_key(user_id, session_id), state.to_dict(), STATE_TTL_SECONDS)


def clear_state(user_id: int, session_id: object) -> None:
    cache.delete(state_key(user_id, session_id))


# --- reading the question ------------------------------------------------------------------

_WORD = re.compile(r"[a-z0-9]+")
# The words a follow-up's overlap with the conversation ignores: function words, and the
# words of asking and of format that say nothing about what is asked.
STOPWORDS = FUNCTION_WORDS | frozenset(
    """
    above after again all also any because been before being below between both but can could did
    doing down during each few further had having he her here hers herself him himself his how if
    into itself just more most myself no nor now off once only other our ours ourselves out over
    own same she should so some such than their theirs them themselves then there these they those
    through too under until up very we were when where which while who whom why will would yours
    yourself yourselves what's whats im it's ok okay thanks thank
    show tell give list get find let see know want need like may might much many one ones thing
    things customer customers keep short brief briefly detail detailed table phone quick
    """.split()
)

# "whoever placed it": the customer of the order the last answer showed, as "the customer" is.
_BACK_REFERENCE = re.compile(
    r"\b(their|theirs|them|they|that customer|this customer|the customer|same customer|that account|"
    r"this account|that contract|this contract|that one|this one|those|these|its|"
    r"whoever (?:placed|ordered|bought|booked|made|put in|put through) (?:it|that|this)(?: order)?)\b",
    re.IGNORECASE,
)
_FOLLOW_UP = re.compile(
    r"^\s*(and|also|what about|how about|same|now|then|ok|okay)\b|\b(same thing|as well|instead)\b",
    re.IGNORECASE,
)

_FORMAT_PATTERNS = (
    ("table", re.compile(r"\b(as a table|in a table|in table form|tabular|tabulate|table)\b", re.IGNORECASE)),
    (
        "detailed",
        re.compile(r"\b(in detail|detailed|more detail|full detail|in full|in depth|elaborate)\b", re.IGNORECASE),
    ),
    (
        "short",
        re.compile(
            r"\b(keep it short|short|brief|briefly|in brief|tl;?dr|one line|on my phone|quick answer|concise)\b",
            re.IGNORECASE,
        ),
    ),
)

_REGION_PATTERN = re.compile(
    r"\b(?:in|for|from|across|covering) the (north|south|east|west|central)(?:ern)?(?: region)?\b"
    r"|\b(north|south|east|west|central)(?:ern)? (?:sales )?(?:region|customers|accounts|territory)\b",
    re.IGNORECASE,
)
_STATUS_PATTERN = re.compile(
    r"\b(overdue|late|unpaid|open|outstanding|paid|shipped|delivered|cancell?ed|pending)\b", re.IGNORECASE
)


def content_words(text: str) -> set[str]:
    words = set()
    for word in _WORD.findall(text.lower()):
        if word in STOPWORDS or len(word) < 3:
            continue
        if len(word) > 4 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        words.add(word)
    return words


def content_word_overlap(question: str, recent: str) -> float:
    """Share of the question's content words that the recent questions also used."""
    words = content_words(question)
    if not words:
        return 1.0  # nothing to compare: "and in detail?" is a follow-up, not a topic change
    return len(words & content_words(recent)) / len(words)


def refers_back(question: str) -> bool:
    return bool(_BACK_REFERENCE.search(question))


def detect_format(question: str) -> str:
    for name, pattern in _FORMAT_PATTERNS:
        if pattern.search(question):
            return name
    return ""


def _strip_slot_phrases(question: str) -> str:
    """The question without its format, region, status and period phrases (the shared period
    reader says which words name a period): what is left says what it is about."""
    text = question
    for _, pattern in _FORMAT_PATTERNS:
        text = pattern.sub(" ", text)
    for pattern in (_REGION_PATTERN, _STATUS_PATTERN):
        text = pattern.sub(" ", text)
    words = _WORD.findall(text.lower())
    dated = period_words(words, today=timezone.localdate())
    return " ".join(w for w in words if w not in dated)


# --- updating the slots --------------------------------------------------------------------


def carried_filters(state: SessionState) -> dict[str, str]:
    """Filters a follow-up may still inherit: those stated (or restated) on the previous turn.

    Checked before this turn's decay, so a filter applies on the turn that states it and on
    one follow-up after it, then is gone (FILTER_TURNS, design rule: bounded state)."""
    return {k: slot["value"] for k, slot in state.filters.items() if int(slot.get("turns_left", 0)) >= FILTER_TURNS}


def decay_filters(state: SessionState, restated: dict[str, str]) -> None:
    """Age every filter by one turn; the ones the question states restart at FILTER_TURNS."""
    _decay_filters(state, restated)


def _decay_filters(state: SessionState, restated: dict[str, str]) -> None:
    for key in list(state.filters):
        if key in restated:
            continue
        slot = state.filters[key]
        slot["turns_left"] = int(slot.get("turns_left", 0)) - 1
        if slot["turns_left"] <= 0:
            del state.filters[key]
    for key, value in restated.items():
        state.filters[key] = {"value": value, "turns_left": FILTER_TURNS}


def matching_options(question: str, pending: dict[str, Any]) -> list[Candidate]:
    """The options a reply names: by id, full label, account code or city (several: ambiguous)."""
    text = question.strip().lower()
    options = [Candidate(**c) for c in pending.get("candidates", [])]
    for option in options:
        if text in (option.id.lower(), f"customer:{option.id}".lower(), option.option_label.lower()):
            return [option]
    by_code = [o for o in options if o.account_code and o.account_code.lower() in text]
    if len(by_code) == 1:
        return by_code
    words = set(_WORD.findall(text))
    by_city = [o for o in options if o.city and set(_WORD.findall(o.city.lower())) <= words]
    if len(by_city) == 1:
        return by_city
    return by_code if len(by_code) > 1 else by_city


def update_from_question(
    state: SessionState,
    question: str,
    *,
    mentions: list[list[Candidate]],
    option_id: str | None = None,
) -> Resolution:
    """Update the slots from the user's text, before retrieval.

    ``mentions`` holds, for each customer name the question uses, the customers it matches.
    User text sets focus tentatively.
    """
    text = question.strip()
    resolution = Resolution(rewritten=text)

    # A reply to a clarifying question: resolve it, never silently pick one.
    if state.pending and _resolve_pending(state, state.pending, text, option_id, resolution):
        return resolution

    # Filters are the planner's: it reads them from the parse and the turn ages them
    # (decay_filters) once it knows which ones this question states.
    fmt = detect_format(text)
    back = refers_back(text)
    resolution.refers_back = back
    if fmt:
        state.format = fmt
        resolution.format_set = fmt

    named = [m for m in mentions if m]
    if named:
        if _focus_from_name(state, text, named[0], resolution):
            return resolution  # ambiguous: a clarifying question
    elif state.focus is not None:
        _keep_or_drop_focus(state, state.focus, text, back, resolution)

    if back and state.focus is not None:
        resolution.rewritten = f"{text} ({state.focus.label})"
    return resolution


def _resolve_pending(
    state: SessionState, pending: dict[str, Any], text: str, option_id: str | None, resolution: Resolution
) -> bool:
    """Answer the pending clarifying question; True when a customer was picked or the question is
    asked again among the options the reply fits (kept pending then), False when it was dropped."""
    if pending.get("plans"):
        return _resolve_suggestion(state, pending, text, option_id, resolution)
    picked = None
    if option_id is not None:
        picked = next((Candidate(**c) for c in pending["candidates"] if c["id"] == str(option_id)), None)
    if picked is None:
        hits = matching_options(text, pending)
        if len(hits) > 1:
            # The reply fits several options: ask again among those, never take the first.
            state.pending = {**pending, "candidates": [asdict(c) for c in hits]}
            resolution.clarify = {
                "question": f"{_count_word(len(hits))} of them match that. Which one?",
                "options": [{"id": c.id, "label": c.option_label} for c in hits],
            }
            return True
        picked = hits[0] if hits else None
    state.pending = None
    if picked is None:
        return False
    state.focus = Focus(type="customer", id=picked.id, label=picked.name, confident=False)
    resolution.picked = picked
    resolution.original_question = pending.get("question", "")
    original = resolution.original_question or text
    resolution.rewritten = f"{original} ({picked.name})"
    return True


def _resolve_suggestion(
    state: SessionState, pending: dict[str, Any], text: str, option_id: str | None, resolution: Resolution
) -> bool:
    """A "did you mean" option picked (by its id, or typed as offered): its plan is the answer.
    Anything else typed drops the offer and is read as a new question."""
    state.pending = None
    typed = _WORD.findall(text.lower())
    chosen = next(
        (
            p
            for p in pending["plans"]
            if (option_id is not None and p["id"] == str(option_id)) or _WORD.findall(p["label"].lower()) == typed
        ),
        None,
    )
    if chosen is None:
        return False
    resolution.plan = chosen["plan"]
    resolution.original_question = resolution.rewritten = chosen["label"]
    return True


def _focus_from_name(state: SessionState, text: str, first: list[Candidate], resolution: Resolution) -> bool:
    """The first customer name the question uses sets, keeps or questions the focus; True when
    the name is ambiguous and the resolution now asks which customer."""
    ids = {c.id for c in first}
    if len(first) == 1:
        chosen = first[0]
        if state.focus is None or state.focus.id != chosen.id:
            if state.focus is not None:
                resolution.focus_dropped = "other-entity"
            state.focus = Focus(type="customer", id=chosen.id, label=chosen.name, confident=False)
        return False
    if state.focus is not None and state.focus.id in ids:
        return False  # the name is ambiguous on its own, but the conversation already settled it
    if state.focus is not None:
        resolution.focus_dropped = "other-entity"
        state.focus = None
    options = [{"id": c.id, "label": c.option_label} for c in first]
    name = _common_name(first)
    state.pending = {"question": text, "candidates": [asdict(c) for c in first]}
    resolution.clarify = {
        "question": f'{_count_word(len(first))} customers match "{name}". Which one?',
        "options": options,
    }
    return True


def _keep_or_drop_focus(state: SessionState, focus: Focus, text: str, back: bool, resolution: Resolution) -> None:
    """No customer named: a follow-up keeps the focus, a change of topic drops it."""
    if back or _FOLLOW_UP.search(text):
        return
    rest = _strip_slot_phrases(text)
    overlap = content_word_overlap(rest, " ".join(state.recent_questions + [focus.label]))
    if overlap < FOCUS_OVERLAP_THRESHOLD:
        resolution.focus_dropped = "topic-change"
        state.focus = None


def gate_filters(state: SessionState) -> dict[str, str]:
    """The live filters by name, as the session block shows them and the gate counts them
    (a period slot carries its dates after a "|" for the planner; the name is what repeats)."""
    return {key: value.split("|", 1)[0] for key, value in state.active_filters().items()}


def remember_question(state: SessionState, question: str) -> None:
    state.recent_questions = (state.recent_questions + [question.strip()[:RECENT_QUESTION_CHARS]])[-RECENT_QUESTIONS:]


def _common_name(candidates: list[Candidate]) -> str:
    names = [c.name for c in candidates]
    prefix = names[0].split()
    for other in names[1:]:
        words = other.split()
        n = 0
        while n < min(len(prefix), len(words)) and prefix[n].lower() == words[n].lower():
            n += 1
        prefix = prefix[:n]
    return " ".join(prefix) or names[0]


def _count_word(n: int) -> str:
    return {2: "Two", 3: "Three", 4: "Four", 5: "Five"}.get(n, str(n))


# --- rendering -----------------------------------------------------------------------------


def render_state(state: SessionState) -> str:
    """The compact "## Session context" block: the one part of the prompt that varies per turn."""
    lines: list[str] = []
    if state.focus:
        lines.append(f'Currently discussing: {state.focus.type} "{state.focus.label}" ({state.focus.id})')
    active = gate_filters(state)
    if active:
        lines.append("Filters in effect: " + ", ".join(f"{k}={v}" for k, v in sorted(active.items())))
    if state.format:
        lines.append(f"Answer style requested: {state.format}")
    if state.recent_questions:
        lines.append("Earlier in this session: " + "; ".join(f'"{q}"' for q in state.recent_questions))
    return "## Session context\n" + "\n".join(lines) if lines else ""
