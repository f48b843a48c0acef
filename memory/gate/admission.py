"""The store-side half of the gate: what a finding does to the user's memory.

Pause, suppression, duplicates (refresh instead of copy), supersession of a note on the same
subject, reversals and forgets through the store's forget, repeated signals counted per
session, and a :class:`~memory.models.GateDecision` with its reason code for every
admission and refusal. ``run_gate`` runs as a django-q2 task after the turn commits
(memory.tasks).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from atlas.vocabulary import FUNCTION_WORDS
from memory import preferences
from memory.embeddings import cosine, embed
from memory.events import TurnEvent
from memory.gate import reasons as r
from memory.gate import statements, timex
from memory.gate.analysis import (
    Finding,
    analyse_turn,
    dates_only_shown,
    dump_findings,
    load_findings,
    wish_apart_from_its_reason,
)
from memory.gate.forget import match_for_forget, match_preference, match_situation
from memory.gate.secrets import secret_kind
from memory.gate.vocabulary import CONTEXT_SUBJECT_KIN, CONTEXT_SUBJECTS, SINGLE_VALUED_CONTEXT
from memory.models import Author, GateDecision, Kind, Memory, Observation, Surface
from memory.rls import acting_user
from memory.selectors import is_paused, live_memories
from memory.store import forget_memory, refresh_memory, supersede_memory, write_memory
from memory.suppression import content_hashes, is_suppressed, normalise

if TYPE_CHECKING:
    from datetime import datetime

    from atlas.types import User

GATE_NAME = "rules"
# The mechanism's version, and a digest of what it reads: the rule rows, the gate's vocabulary
# and the preference table. A staff report's version then changes when, and only when, a row
# or a word does ("3.0+1a2b3c4d").
GATE_MECHANISM = "3.0"


def _content_digest() -> str:
    import hashlib

    from memory import preferences
    from memory.gate import rules, semantic, vocabulary

    tables = {
        name: value
        for module in (vocabulary, preferences, semantic)
        for name, value in sorted(vars(module).items())
        if name.isupper() and isinstance(value, (tuple, dict, frozenset, set, str))
    }
    content = _canonical(rules.RULES) + _canonical(tables)
    return hashlib.sha256(content.encode()).hexdigest()[:8]


def _canonical(value: object) -> str:
    """A repr that does not depend on the process's hash seed (sets sorted)."""
    if isinstance(value, (set, frozenset)):
        return "{" + ",".join(sorted(_canonical(v) for v in value)) + "}"
    if isinstance(value, dict):
        return "{" + ",".join(sorted(f"{_canonical(k)}:{_canonical(v)}" for k, v in value.items())) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_canonical(v) for v in value) + "]"
    if hasattr(value, "__dataclass_fields__"):
        return type(value).__name__ + _canonical({f: getattr(value, f) for f in value.__dataclass_fields__})
    return repr(value)


GATE_VERSION = f"{GATE_MECHANISM}+{_content_digest()}"

# An extension names a situation that ended at most this many days before it was said.
EXTENSION_GRACE_DAYS = 7

# A candidate restates a live memory when it is this close and its distinguishing content
# (numbers, names, units, negation) agrees; then the memory is refreshed, not copied.
DUPLICATE_COSINE = 0.86


@dataclass(frozen=True)
class Decision:
    rule: str
    kind: str
    admitted: bool
    reason: str
    statement: str = ""
    memory_id: int | None = None


@dataclass(frozen=True)
class GateResult:
    decisions: tuple[Decision, ...] = ()
    written: tuple[int, ...] = ()
    refreshed: tuple[int, ...] = ()
    superseded: tuple[int, ...] = ()
    forgotten: tuple[int, ...] = ()


def find_duplicate(candidates: list[Memory], finding: Finding, vector: Sequence[float]) -> Memory | None:
    """A live memory of the same kind that says the same thing (same subject and value), or None."""
    wanted_norm = normalise(finding.statement)
    wanted_hashes = content_hashes(finding.statement)
    for memory in candidates:
        if memory.kind != finding.kind or memory.scope != finding.scope:
            continue  # "Prefers tables in answers about renewals" is not "Prefers tables" again
        if normalise(memory.statement) == wanted_norm:
            return memory
        if (
            finding.facets
            and finding.facets.items() <= memory.facets.items()
            and statements.is_negative(memory.statement) == statements.is_negative(finding.statement)
        ):
            return memory  # "like i said: millions. always." after "millions, one decimal": part of the note again
        if finding.facets and memory.facets and memory.facets != finding.facets:
            continue  # other values ("tables" after "bullets"): never the same note again
        if finding.facets and memory.facets == finding.facets:
            if statements.is_negative(memory.statement) == statements.is_negative(finding.statement):
                return memory  # the same facets and values said again, in other words
        same = (memory.subject, memory.value) == (finding.subject, finding.value)
        # "Does not want tables" is not "Prefers tables" said again: it replaces it.
        opposite = statements.is_negative(memory.statement) != statements.is_negative(finding.statement)
        if finding.subject and finding.value and same and not opposite and not (finding.facets and memory.facets):
            if finding.kind == Kind.PREFERENCE or finding.subject.startswith("filter_"):
                return memory
        close = cosine(vector, memory.embedding) >= DUPLICATE_COSINE
        if close and content_hashes(memory.statement) == wanted_hashes:
            return memory
    return None


def conflicting(candidates: list[Memory], finding: Finding) -> list[Memory]:
    """Live memories the finding replaces: a preference on the same subject, or the context
    note on the same subject when the subject holds one value or the user said it changed."""
    if finding.kind == Kind.PREFERENCE and finding.facets:
        # Newest wins per facet and scope: a live note whose every facet the new one sets again is
        # replaced ("switch me over to USD" replaces "Prefers amounts in euros").
        negative = statements.is_negative(finding.statement)
        # "..., id rather see the biggest at the top, not A-Z": the kept value the new note turns down, in any scope
        rejected = finding.extra.get("turned_down") or {}
        return [
            m
            for m in candidates
            if m.kind == Kind.PREFERENCE
            and bool(m.facets)
            and set(m.facets) <= set(finding.facets)
            and all(value in rejected.get(facet, []) for facet, value in (m.facets or {}).items())
            or m.kind == Kind.PREFERENCE
            and m.scope == finding.scope
            and (
                m.facets
                and set(m.facets) <= set(finding.facets)
                and not (negative and m.facets != finding.facets)
                # a field shown by the older note and left out by the newer, or shown by the newer
                or _opposite_fields(m.facets or {}, finding.facets)
                # a note written without facets (by hand, or before facets) by its subject
                or not m.facets
                and bool(finding.subject)
                and m.subject == finding.subject
                and not negative
            )
        ]
    if finding.kind == Kind.CORRECTION and finding.subject and finding.value:
        # a newer correction of the same customer's same field ("my bad earlier, it's 125k")
        return [
            m
            for m in candidates
            if m.kind == Kind.CORRECTION and (m.subject, m.value) == (finding.subject, finding.value)
        ]
    if not finding.subject or finding.kind not in (Kind.PREFERENCE, Kind.CONTEXT):
        return []
    if finding.kind == Kind.PREFERENCE and not finding.value:
        return []
    if finding.kind == Kind.CONTEXT and not (finding.supersedes or finding.subject in SINGLE_VALUED_CONTEXT):
        return []
    if finding.kind == Kind.CONTEXT and not _names_a_value(finding):
        return []  # "Is new to the team" names no team: "Is on the finance team" stays
    # "Does not want tables" replaces a preference for tables, not one for bullet points.
    negative = statements.is_negative(finding.statement)
    return [
        m
        for m in candidates
        if m.kind == finding.kind
        and _kin(m.subject) == _kin(finding.subject)
        and m.scope == finding.scope  # a condition's note and the global one stand side by side
        and not (negative and m.value != finding.value)
    ]


def _opposite_fields(old: dict, new: dict) -> bool:
    """A field shown by one note and left out by the other (codes asked for beside every customer, later
    "stop adding the codes"): the newer replaces the older."""

    def fields(facets: dict, key: str) -> set[str]:
        value = facets.get(key)
        return set(value) if isinstance(value, list | tuple) else {value} if value else set()

    return bool(fields(old, "include") & fields(new, "exclude") or fields(old, "exclude") & fields(new, "include"))


def _kin(subject: str) -> str:
    return CONTEXT_SUBJECT_KIN.get(subject, subject)


def in_pointed_scope(user: User, finding: Finding, *, now: datetime) -> Finding:
    """ "actually bump that to 20" after "top 10 when you list customers", "make it 50 instead"
    after "cap overdue lists at 30 rows, sorted by days late": an update that points back is said
    of the newest note holding its facets; it takes that note's scope and keeps the facets it
    does not change, so it replaces that note and nothing is lost."""
    points_back = finding.extra.get("needs_existing") or preferences.is_switch(finding.quote)
    if not points_back or finding.kind != Kind.PREFERENCE or not finding.facets:
        return finding
    bare = finding.extra.get("bare_number")
    with acting_user(user.pk):
        live = [
            m
            for m in live_memories(user, now=now).filter(kind=Kind.PREFERENCE)
            if m.facets and set(m.facets) & (set(preferences.NUMBER_FACETS) if bare else set(finding.facets))
        ]
    if not live:
        return finding
    pointed = max(live, key=lambda m: m.created_at)
    changed = finding.facets
    if bare:
        # "actually 6 is better": the number goes to the facet of the pointed note that holds one
        held = next(f for f in preferences.NUMBER_FACETS if f in pointed.facets)
        changed = {held: finding.facets["limit"]}
    facets = {**pointed.facets, **changed}
    if pointed.scope == finding.scope and facets == finding.facets:
        return finding
    statement = preferences.statement_for(facets, pointed.scope) or finding.statement
    return replace(
        finding,
        scope=pointed.scope,
        facets=facets,
        statement=statement,
        echo=statements.echo(statement, said=finding.quote),
    )


def _names_a_value(finding: Finding) -> bool:
    """Whether a context note's value says more than its subject's own word ("Porto office",
    not "office"; "Dana", not "team")."""
    words = set(finding.value.lower().split())
    return bool(words - set(CONTEXT_SUBJECTS.get(finding.subject, ())))


def against_live(
    user: User, finding: Finding, vector: Sequence[float], *, now: datetime
) -> tuple[Memory | None, list[Memory]]:
    """What the finding meets in the store: the live note it says again (refreshed, not
    written twice), or else the live notes it replaces. The write and the chat's sentence
    ("Updated: ..., replacing ...") both read this, so they never disagree."""
    live = list(live_memories(user, now=now).filter(kind=finding.kind))
    duplicate = find_duplicate(live, finding, vector)
    if duplicate is not None:
        return duplicate, []
    return None, conflicting(live, finding) or _named_for_replacing(live, finding)


def _named_for_replacing(live: list[Memory], finding: Finding) -> list[Memory]:
    """The one live context note the user named as replaced ("note that down instead of the
    wholesale bit"): the note holding those words; none when no single note does."""
    words = finding.extra.get("replaces") or []
    if finding.kind == Kind.CONTEXT and finding.extra.get("updates"):
        return _updated(live, finding)
    if finding.kind != Kind.CONTEXT or not words:
        return []
    named = [m for m in live if any(re.search(rf"\b{re.escape(w.lower())}\b", m.statement.lower()) for w in words)]
    return named if len(named) == 1 else []


def _updated(live: list[Memory], finding: Finding) -> list[Memory]:
    """The live context notes an update of what Atlas holds on the user replaces ("update what u have
    on me: im on the north region now, east went to marcus"): those sharing a content word with the
    turn, or the one context note the user has."""
    said = set(re.findall(r"[a-z][a-z-]+", finding.quote.lower())) - FUNCTION_WORDS
    shared = [m for m in live if said & set(re.findall(r"[a-z][a-z-]+", m.statement.lower()))]
    return shared or (live if len(live) == 1 else [])


@dataclass
class _Run:
    user: User

    event: TurnEvent
    decisions: list[Decision] = field(default_factory=list)
    written: list[int] = field(default_factory=list)
    refreshed: list[int] = field(default_factory=list)
    superseded: list[int] = field(default_factory=list)
    forgotten: list[int] = field(default_factory=list)

    @property
    def replay(self) -> bool:
        """A feedback event re-reads an older turn: its explicit requests were applied then."""
        return bool(self.event.feedback_kind)

    def decide(
        self, finding: Finding, admitted: bool, reason: str, *, statement: str = "", memory_id: int | None = None
    ) -> None:
        quote = "" if reason == r.SECRET or finding.reason == r.SECRET else finding.quote
        GateDecision.objects.create(
            user_id=self.user.pk,
            rule=finding.rule[:32],
            kind=finding.kind,
            admitted=admitted,
            reason=reason[:48],
            statement=statement,
            source_quote=quote,
            source_session=self.event.session_key[:64],
            source_turn=self.event.turn_id,
            memory_id=memory_id,
            gate_version=GATE_VERSION,
            read_as=[]
            if reason == r.SECRET
            else [{"from": c.original, "to": c.replacement, "why": c.reason} for c in finding.read_as],
        )
        self.decisions.append(Decision(finding.rule, finding.kind, admitted, reason, statement, memory_id))


def _refresh(run: _Run, finding: Finding, duplicate: Memory) -> None:
    refresh_memory(duplicate, at=run.event.at, expires_at=finding.expires_at, reason=finding.rule)
    run.refreshed.append(duplicate.pk)
    run.decide(finding, True, r.REFRESHED, statement=duplicate.statement, memory_id=duplicate.pk)


def substituted(finding: Finding, note: Memory) -> Finding:
    """ "typo, i meant east not west": the note it corrects, with the value said instead (its statement and echo)."""
    old_value, new_value = finding.extra["substitute"]
    statement = re.sub(rf"\b{re.escape(old_value)}\b", new_value, note.statement, flags=re.IGNORECASE)
    # "york office, not bath" in "Works from the Bath office.": the office is said once
    statement = re.sub(r"\b(\w+) \1\b", r"\1", statement, flags=re.IGNORECASE)
    return replace(finding, statement=statement, value=new_value, echo=statements.echo(statement, said=finding.quote))


def _admit(run: _Run, finding: Finding) -> None:
    """Suppression, duplicates, supersession, then the write."""
    user, event = run.user, run.event
    finding = in_pointed_scope(user, finding, now=event.at)
    vector = embed([finding.statement])[0]
    # A user's explicit "remember that" overrides a suppression, but only when said now:
    # a feedback event re-reading an older turn never brings a forgotten note back.
    if (not finding.explicit or run.replay) and is_suppressed(
        user, kind=finding.kind, statement=finding.statement, embedding=vector, now=event.at,
        subject=finding.subject, value=finding.value, facets=finding.facets, scope=finding.scope,
    ):  # fmt: skip
        # The user forgot this: the log keeps none of its words, as for the forget itself.
        run.decide(replace(finding, quote=""), False, r.SUPPRESSED)
        return
    duplicate, conflicts = against_live(user, finding, vector, now=event.at)
    if duplicate is not None:
        _refresh(run, finding, duplicate)
        return
    if finding.extra.get("needs_existing") and not conflicts:
        run.decide(finding, False, r.NOTHING_TO_REMEMBER, statement=finding.statement)
        return
    if finding.extra.get("substitute") and len(conflicts) == 1:
        finding = substituted(finding, conflicts[0])
        vector = embed([finding.statement])[0]
    author = Author.USER if finding.explicit else Author.RULE
    if author == Author.RULE and any(m.author == Author.USER for m in conflicts):
        # The user outranks the rules (design rule: correction supersedes): a rule never overwrites what they wrote.
        run.decide(finding, False, r.USER_AUTHORED, statement=finding.statement)
        return
    memory = write_memory(
        user,
        kind=finding.kind,
        statement=finding.statement,
        author=author,
        confidence=1.0 if finding.explicit else finding.confidence,
        subject=finding.subject,
        value=finding.value,
        facets=finding.facets,
        scope=finding.scope[:200],
        expires_at=finding.expires_at,
        gate=GATE_NAME,
        gate_version=GATE_VERSION,
        source_session=event.session_key,
        source_turn=event.turn_id,
        source_quote=finding.quote[:2000],
        source_at=event.at,
        embedding=list(vector),
    )
    for old in conflicts:
        supersede_memory(old, memory)
        run.superseded.append(old.pk)
    run.written.append(memory.pk)
    run.decide(finding, True, finding.reason, statement=memory.statement, memory_id=memory.pk)


# One statement for what get_or_create did in seven (two savepoints, a read, the insert, a
# count): the row is added unless this session already has it (the unique constraint, so
# parallel runs count once), and the sessions seen before are counted in the same statement.
# The count reads the table as it was before the insert, so a new row adds one session.
_OBSERVE = """
    WITH added AS (
        INSERT INTO memory_observation (user_id, signal, session_key, quote, turn, at)
        VALUES (%(user_id)s, %(signal)s, %(session_key)s, %(quote)s, %(turn)s, %(at)s)
        ON CONFLICT (user_id, signal, session_key) DO NOTHING
        RETURNING 1
    )
    SELECT EXISTS (SELECT 1 FROM added),
        (SELECT count(DISTINCT session_key) FROM memory_observation WHERE user_id = %(user_id)s AND signal = %(signal)s)
"""


def _observe(run: _Run, *, signal: str, quote: str) -> int | None:
    """Count one occurrence per session; the number of separate sessions so far, or None if seen here."""
    user, event = run.user, run.event
    params: dict[str, Any] = {
        "user_id": user.pk,
        "signal": signal[:200],
        "session_key": event.session_key[:64],
        "quote": quote,
        "turn": event.turn_id,
        "at": event.at,
    }
    with connection.cursor() as cur:
        cur.execute(_OBSERVE, params)
        added, seen_before = cur.fetchone()
    return seen_before + 1 if added else None


def _repeated(run: _Run, finding: Finding) -> None:
    sessions = _observe(run, signal=finding.signal, quote=finding.quote)
    if sessions is None:
        return  # several turns in one session count once
    if sessions < r.MIN_SESSIONS or not finding.statement:
        run.decide(finding, False, r.SINGLE_OCCURRENCE, statement=finding.statement)
        return
    _admit(run, replace(finding, reason=r.REPEATED_SESSIONS))


def filter_findings(filters: dict[str, str], text: str) -> list[Finding]:
    """One occurrence of each filter the session state resolved (design rule: rules on events, the repeated filter)."""
    out = []
    for key, value in sorted((filters or {}).items()):
        key, value = str(key).strip(), str(value or "").strip()
        if not key or not value or secret_kind(value):
            continue
        shown = value.replace("_", " ")
        out.append(
            Finding(
                action="observe",
                rule="repeated_filter",
                reason=r.SINGLE_OCCURRENCE,
                kind=Kind.CONTEXT,
                statement=f"Usually filters by {key}: {shown}.",
                subject=f"filter_{key}"[:64],
                value=shown,
                signal=f"filter:{key}={value.lower()}",
                quote=text,
                confidence=0.7,
            )
        )
    return out


def _forget(run: _Run, finding: Finding) -> None:
    if finding.extra.get("called_off"):
        # "the trip is off", "leave got cancelled": the live situation it names, or nothing
        situation = match_situation(run.user, finding.statement, now=run.event.at)
        if situation is None:
            run.decide(replace(finding, quote=""), False, r.FORGET_NO_MATCH)
        else:
            _forget_one(run, finding, situation, r.FORGET_REQUEST)
        return
    matches, reason = match_for_forget(run.user, finding.statement, now=run.event.at)
    if reason != r.FORGET_REQUEST:
        run.decide(replace(finding, quote=""), False, reason)
        return
    _forget_one(run, finding, matches[0], r.FORGET_REQUEST)


def _forget_one(run: _Run, finding: Finding, memory: Memory, reason: str) -> None:
    forget_memory(run.user, memory.pk, surface=Surface.CONVERSATION)
    run.forgotten.append(memory.pk)
    # No statement or quote kept: the user asked for this to be gone.
    run.decide(replace(finding, kind=memory.kind, quote=""), True, reason)


def _reverse(run: _Run, finding: Finding) -> None:
    """ "Stop answering in French": forget the matching preference through the store."""
    memory = match_preference(run.user, finding, now=run.event.at)
    fallback = finding.extra.get("fallback")
    agrees = memory is not None and statements.is_negative(memory.statement)
    if fallback is not None and (memory is None or agrees):
        # Nothing to withdraw, or the matching note already says "does not want" ("Never give me
        # pie charts", then "Stop giving me pie charts"): a standing "does not want", which
        # refreshes that note rather than forgetting it.
        _admit(run, fallback)
        return
    if memory is None:
        run.decide(replace(finding, quote=""), False, r.REVERSAL_NO_MATCH)
        return
    _forget_one(run, finding, memory, r.REVERSAL)


# The bound a situation's statement ends on, as timex.TimeSpan.words() writes it.
_DAY = r"(?:[A-Z][a-z]+day\s+)?\d{1,2}\s+[A-Z][a-z]+\s+\d{4}"
_BOUND = re.compile(rf"\s+(?:(?:until|on|from)\s+{_DAY}(?:\s+until\s+{_DAY})?|in\s+[A-Z][a-z]+\s+\d{{4}})")


def _extend(run: _Run, finding: Finding) -> None:
    """An extended situation: the live one it names (or the latest) is replaced by the same
    statement with the new end, which supersedes it through the store."""
    # A trip that ended a day or two before the user says it was extended is still the one meant.
    since = run.event.at - timedelta(days=EXTENSION_GRACE_DAYS)
    live = list(live_memories(run.user, now=since).filter(kind=Kind.SITUATION).order_by("-created_at"))
    names = [n.lower() for n in finding.extra.get("names", [])]
    named = [m for m in live if any(n in m.statement.lower() for n in names)]
    fresh = finding.extra.get("otherwise")
    if isinstance(fresh, Finding) and (not live or finding.extra.get("places") and not named):
        # "staying in lisbon til fri" with nothing live, or a place no live situation names: a situation of its own
        _admit(run, fresh)
        return
    old = next(iter(named or live), None)
    if old is not None and finding.extra.get("longer_days") and old.expires_at:
        # "extended by a week": from the old end
        ends = old.expires_at + timedelta(days=finding.extra["longer_days"])
        finding = replace(finding, expires_at=ends, statement=f"until {timex.format_day(ends - timedelta(seconds=1))}")
    later = (
        old is not None
        and finding.expires_at is not None
        and (not old.expires_at or old.expires_at < finding.expires_at)
    )
    sooner = (
        old is not None
        and finding.extra.get("shorter")
        and finding.expires_at is not None
        and old.expires_at is not None
        and run.event.at < finding.expires_at < old.expires_at
    )
    if old is None or not (later or sooner):
        run.decide(finding, False, r.NOTHING_TO_REMEMBER)
        return
    assert finding.expires_at is not None
    body, replaced = _BOUND.subn(" " + finding.statement, old.statement.rstrip("."), count=1)
    if not replaced:
        body = f"{body} {finding.statement}"
    extended = replace(
        finding,
        action="write",
        statement=statements.sentence(body),
        facets=dict(old.facets or {}),
        quote=finding.quote,
    )
    vector = embed([extended.statement])[0]
    memory = write_memory(
        run.user,
        kind=Kind.SITUATION,
        statement=extended.statement,
        author=old.author,
        confidence=old.confidence,
        subject=old.subject,
        value=old.value,
        facets=extended.facets,
        scope=old.scope,
        expires_at=finding.expires_at,
        gate=GATE_NAME,
        gate_version=GATE_VERSION,
        source_session=run.event.session_key,
        source_turn=run.event.turn_id,
        source_quote=finding.quote[:2000],
        source_at=run.event.at,
        embedding=list(vector),
    )
    supersede_memory(old, memory)
    run.superseded.append(old.pk)
    run.written.append(memory.pk)
    run.decide(extended, True, r.UPDATE, statement=memory.statement, memory_id=memory.pk)


def run_gate(event: TurnEvent, *, paused: bool | None = None, read: dict | None = None) -> GateResult:
    """Read one turn, propose candidates from its events and admit or refuse each one.

    Every decision is recorded with its reason code. While memory is paused nothing is
    written or counted, but a "forget that ..." is still honoured. ``paused``: the switch as
    the caller read it with the generation lock it holds (memory.epoch.hold_control); read
    here when None. ``read``: what the turn already read in the text (:func:`turn_reading`),
    used when this gate version wrote it.
    """
    # Everything below reads and writes by the user's id (under their RLS identity): the row
    # itself is not needed, so it is not loaded (a statement a run).
    user = get_user_model()(pk=event.user_id)
    event = _normalised(event)
    if read and read.get("opens_session"):
        event = replace(event, opens_session=True)
    if read and read.get("version") == GATE_VERSION:
        findings = load_findings(read["findings"])
    else:
        findings = _findings(event)
    if paused is None:
        paused = is_paused(user)
    run = _Run(user=user, event=event)
    # No savepoint inside the task's transaction (memory.tasks.run_event): a failure rolls
    # back the whole run and its event, which is what the retry needs.
    with acting_user(user.pk), transaction.atomic(savepoint=False):
        for finding in findings:
            _apply(run, finding, paused=paused)
    return GateResult(
        decisions=tuple(run.decisions),
        written=tuple(run.written),
        refreshed=tuple(run.refreshed),
        superseded=tuple(run.superseded),
        forgotten=tuple(run.forgotten),
    )


def _normalised(event: TurnEvent) -> TurnEvent:
    at = event.at if timezone.is_aware(event.at) else timezone.make_aware(event.at)
    return replace(event, at=at, session_key=str(event.session_key or ""))


def _findings(event: TurnEvent) -> list[Finding]:
    """What the gate reads in one event: the turn's own findings, then one occurrence of each filter."""
    findings = analyse_turn(
        event.text,
        at=event.at,
        feedback_kind=event.feedback_kind,
        feedback_comment=event.feedback_comment,
        # a turn that resolved filters asked about the records, whatever else it said, unless the
        # only one is a period read from a date shown as a format ("e.g. November 30, 2026")
        opens_session=event.opens_session
        and (
            not event.filters
            or (set(event.filters) <= {"period"} and dates_only_shown(event.text))
            or _filters_are_the_scope(event.filters, event.text)
            or _filters_beside_the_wish(event.filters, event.text)
        ),
        before=event.before,
    )
    findings.extend(filter_findings(event.filters, event.text))
    return findings


def _filters_are_the_scope(filters: dict[str, str], text: str) -> bool:
    """Whether the turn's filters are only the place its wish holds for ("for west region customers show money in
    thousands": region west is where the wish holds, not records asked for)."""
    reading = preferences.read_facets(text)
    kind, _, names = reading.scope.partition(":")
    if not reading.facets or kind not in ("region", "city", "segment"):
        return False
    return all(k == kind and str(v).lower() in names.split("|") for k, v in filters.items())


def _filters_beside_the_wish(filters: dict[str, str], text: str) -> bool:
    """Whether the turn's filters come only from the reason said after its wish ("iso dates for me pls, im based in
    the boston branch": the branch names a city, the wish asks for no records of it)."""
    lead = wish_apart_from_its_reason(text)
    return lead is not None and not any(str(v).lower() in lead.lower() for v in filters.values())


def turn_reading(event: TurnEvent) -> dict:
    """What the gate reads in the event, as JSON for the gate event (read once per turn: the
    chat turn reads it for ``gate_has_work`` and the preview already)."""
    return {
        "version": GATE_VERSION,
        "findings": dump_findings(_findings(_normalised(event))),
        "opens_session": event.opens_session,  # for a worker that must read the text afresh
    }


def gate_has_work(event: TurnEvent, *, user: User) -> bool:
    """Whether :func:`run_gate` on this event would write or record anything, read before the
    turn commits so that a turn with nothing for the gate queues no event and no task.

    Under load about four turns in ten were such runs (a question, a follow-up on filters this
    session already counted): each cost a gate event, a django-q2 task and a worker run that
    decided nothing. Nothing to do means: no finding at all, or only occurrences (a filter, a
    format asked for) that this session has already counted, while memory is not paused (a
    paused run records each one as refused). ``run_gate`` then writes no memory, no
    observation and no decision, so skipping it changes nothing the user or the staff audit
    can see. Runs as the acting user, inside the turn's transaction.
    """
    event = _normalised(event)
    findings = _findings(event)
    if any(finding.action != "observe" for finding in findings):
        return True
    if not findings:
        return False
    signals = {finding.signal[:200] for finding in findings}
    seen = Observation.objects.filter(
        user_id=user.pk, session_key=event.session_key[:64], signal__in=signals
    ).values_list("signal", flat=True)
    return set(seen) != signals or is_paused(user)


def _apply(run: _Run, finding: Finding, *, paused: bool) -> None:
    if finding.action == "forget":
        _forget(run, finding)
    elif finding.action == "reverse":
        _reverse(run, finding)
    elif finding.action == "extend" and not paused:
        _extend(run, finding)
    elif paused:
        run.decide(finding, False, r.PAUSED)
    elif finding.action == "refuse":
        run.decide(finding, False, finding.reason)
    elif finding.action == "observe":
        _repeated(run, finding)
    elif finding.action == "write":
        _admit(run, finding)
