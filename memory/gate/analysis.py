"""From one turn to findings: what the gate would write, count, forget or refuse, and why.

Nothing here touches the database. The turn is parsed once (memory.gate.pipeline), the rule
rows are matched once (memory.gate.rules), then each clause is decided from its marks and
its parse. Candidates come from events only (design rule: rules on events): a correction, a standing
preference, an explicit remember/forget, an update or a reversal, a situation the user
stated about themselves, a format request counted across sessions. Everything else is
refused with a reason code.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from itertools import dropwhile
from typing import Any

from spacy.tokens import Doc, Span, Token

from atlas import dates
from atlas.normalise import Change, normalise
from atlas.vocabulary import FUNCTION_WORDS
from memory import preferences
from memory.gate import policy, rules, semantic, statements, subjects, timex
from memory.gate import reasons as r
from memory.gate import vocabulary as vocab
from memory.gate.pipeline import (
    QUESTION_WORDS,
    Clause,
    clauses,
    content_tokens,
    grammatical_subject,
    opens_standing,
    parse_turn,
    speech_act,
    suggests,
    without_tag,
)
from memory.gate.secrets import names_secret, secret_kind

_SUBJECTS = ("nsubj", "nsubjpass")
_FORMAT_SUBJECTS = {"answer_format", "answer_length", "units", "currency", "date_format", "language", "scale"}
_STRIP_WORDS = {"that", ":", ",", "-", "this", "the", "following", "of", "fact"}
# What may stand between a keep request and the fact it points at: when to keep it, and the
# pointer itself ("save this one for me for future chats: ...", "so u know for later on, ...").
_POINTING_AHEAD = (
    vocab.KEEP_FOR_LATER
    | _STRIP_WORDS
    | {w for phrase in vocab.STANDING_PHRASES for w in phrase.split()}
    | {"it", "one", "me", "somewhere", "on", "file", "away", "ok", "okay", "too", "and"}
    | vocab.KEEP_POINTERS
    | set(vocab.POLITENESS)
    | vocab.TRAILING_ASIDES  # "..., commit that to memory thx"
    | {*vocab.SECOND_PERSON, "for"}  # "note for atlas: ...", "one for you -"
    # where it is kept ("this is worth keeping on record: ...", "save this to my profile: ...")
    | {"in", "to", "into", "onto", "against", "under", "my", "your", "memory", "memories"}
    | {*vocab.PROFILE_PLACES, *vocab.NOTE_PLACES, *vocab.FILING_PLACES}
    # how long to keep it ("hold onto this til i'm back: ...")
    | {"so", "loop"}
)


@dataclass(frozen=True)
class Finding:
    """One thing the gate noticed in a turn.

    ``action`` is "write" (a candidate memory), "observe" (one occurrence of ``signal``),
    "forget" (``statement`` is the query), "reverse" (withdraw the preference on
    ``subject``/``value``) or "refuse".
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
    echo: str = ""
    confidence: float = 1.0
    # An update: replaces the live note on the same subject even when it may hold several.
    supersedes: bool = False
    # What a preference governs: "global", or its condition ("in answers about renewals"),
    # which is never applied to every answer and never replaces a note on another scope.
    scope: str = "global"
    extra: dict = field(default_factory=dict)
    # What the normaliser read differently in the turn ("agian" as "again"), recorded on the decision.
    read_as: tuple[Change, ...] = ()
    # The preference facets the note sets ({"scale": "k", "currency": "EUR"}), read from the
    # shared preference table (memory.preferences); a context note keeps the region it names.
    facets: dict = field(default_factory=dict)


def dump_findings(findings: list[Finding]) -> list[dict[str, Any]]:
    """The findings as JSON, for the gate event: the turn has read them already, so the worker
    does not read the text again (:func:`load_findings`)."""
    return [_dumped(f) for f in findings]


def load_findings(data: list[dict[str, Any]]) -> list[Finding]:
    return [_loaded(item) for item in data]


def _dumped(finding: Finding) -> dict[str, Any]:
    data = {f.name: getattr(finding, f.name) for f in fields(Finding)}
    data["expires_at"] = finding.expires_at.isoformat() if finding.expires_at else None
    data["read_as"] = [[c.original, c.replacement, c.reason] for c in finding.read_as]
    data["extra"] = {k: {"finding": _dumped(v)} if isinstance(v, Finding) else v for k, v in finding.extra.items()}
    return data


def _loaded(data: dict[str, Any]) -> Finding:
    values = dict(data)
    values["expires_at"] = datetime.fromisoformat(data["expires_at"]) if data.get("expires_at") else None
    values["read_as"] = tuple(Change(*change) for change in data.get("read_as", ()))
    values["extra"] = {
        k: _loaded(v["finding"]) if isinstance(v, dict) and set(v) == {"finding"} else v
        for k, v in (data.get("extra") or {}).items()
    }
    return Finding(**values)


def _refuse(rule: str, reason: str, quote: str, *, kind: str = "", explicit: bool = False, **extra: Any) -> Finding:
    keep = "" if reason == r.SECRET else quote
    return Finding(action="refuse", rule=rule, reason=reason, kind=kind, quote=keep, explicit=explicit, extra=extra)


# --- corrections ---------------------------------------------------------------------------


def _checkable(doc: Doc) -> bool:
    """A figure, a date, a name or a stated change: something a correction can be checked by."""
    lowered = doc.text.lower()
    if any(t.like_num or any(c.isdigit() for c in t.text) for t in doc):
        return True
    if any(f" {p} " in f" {lowered} " for p in vocab.CHECKABLE_PHRASES):
        return True
    if any(t.pos_ == "PROPN" and t.i > 0 and t.lower_ not in vocab.VENTING_WORDS for t in doc):
        return True
    return _names_the_records(lowered)


_CHANGE_MADE = re.compile(r"\b(?:" + "|".join(vocab.CHANGES_MADE) + r")(?:\s+[\w']+){0,3}?\s+to\s+\w")


def _names_the_records(lowered: str) -> bool:
    """A name the business data holds, typed in lower case ("pecan grove sits in central", "theyre
    mid-market now"): a customer by its first two words, a city, a segment; or a region."""
    from atlas.lexicon import domain_names

    text = f" {re.sub(r'[^a-z0-9-]+', ' ', lowered)} "
    for name in domain_names():
        words = re.sub(r"[^a-z0-9-]+", " ", name.lower()).split()
        if words and f" {' '.join(words[:2])} " in text and len(" ".join(words[:2])) > 3:
            return True
    regions = (*vocab.REGION_NAMES, *(w for words in vocab.DIRECTIONS.values() for w in words))
    return any(f" {region} " in text for region in regions)


def _named_in(question: str, comment: str) -> str:
    """The one name of the business data the corrected question names and the comment does not
    ("credit limit?" about Granite Peak Builders, corrected by "no, they slashed it to $5k"), so
    the note says what it is about; "" when there is none or more than one."""
    from atlas.lexicon import domain_names

    read = normalise(question).text or question
    named = [n for n in domain_names() if len(n) > 3 and re.search(rf"\b{re.escape(n)}\b", read, re.IGNORECASE)]
    named = [n for n in named if not any(n != other and n.lower() in other.lower() for other in named)]
    if len(named) != 1 or named[0].lower() in comment.lower():
        return ""
    return named[0]


def analyse_correction(comment: str, *, rule: str = "correction", about: str = "") -> Finding:
    """An incorrect-answer comment: kept in the user's words when it states something checkable,
    led by the name the corrected question ``about`` was about when the comment leaves it out."""
    comment = policy.visible_text(comment)
    if not comment:
        return _refuse(rule, r.NO_COMMENT, "", kind="correction")
    doc = parse_turn(comment)
    refusal = policy.refusal_for(comment)
    if refusal is not None:
        return _refuse(rule, refusal.reason, comment, kind="correction", what=refusal.what)
    hits = rules.match(doc)
    if _CHANGE_AHEAD.search(comment.lower()):
        return _refuse(rule, r.NOT_ABOUT_USER, comment, kind="correction")  # "X will go onto net 90 next spring"
    # (on an answer, a change made names what it corrects: "nope, they moved hq to boulder this year")
    if not (_checkable(doc) or about and _CHANGE_MADE.search(comment.lower())):
        reason = r.VENTING if "venting" in hits else r.NO_COMMENT
        if reason == r.NO_COMMENT and "verdict" not in hits:
            reason = r.NOT_CHECKABLE
        return _refuse(rule, reason, comment, kind="correction")
    statement = statements.sentence(comment[:490])
    name = _named_in(about, comment) if about else ""
    if name:
        statement = statements.sentence(f"{name}: {statement[:1].lower()}{statement[1:]}")
    customer, record_field = _corrected_record(comment, about)
    return Finding(
        "write",
        rule,
        r.CORRECTION,
        "correction",
        statement,
        subject=customer,
        value=record_field,
        quote=comment,
        confidence=0.9,
    )


_CHANGE_AHEAD = re.compile(
    r"(?:\b|(?<=\w))(?:"
    + "|".join(map(re.escape, vocab.FUTURE_MARKERS))
    + r")\s+(?:\w+\s+)?(?:"
    + "|".join(vocab.CHANGE_VERBS_AHEAD)
    + r")\w*\b"
    + r"|\b(?:is|are|r|'s|'re)\s+(?:"
    + "|".join(vocab.CHANGES_UNDER_WAY)
    + r")\b"
    + r"|\b(?:goes|go)\s+(?:up|down|to)\b[^.]*\b(?:once|when|from|after)\b"
)


def _corrected_record(comment: str, about: str) -> tuple[str, str]:
    """The customer and the field a correction is about, read from the comment and else from the
    question it corrects ("its 12k now" after "lakeshore credit limit?": Lakeshore Printing's
    credit limit); ("", "") unless both are clear. A newer correction of the same customer's same
    field replaces the older one ("my bad earlier, kestrel's limit is 125k")."""
    customer = _customer_in(comment) or _customer_in(about)
    record_field = _field_in(comment, customer) or _field_in(about, customer)
    return (customer, record_field) if customer and record_field else ("", "")


_POSSESSIVE = re.compile(r"(?<=\w)['\u2019]s\b")


def _customer_in(text: str) -> str:
    """The one customer ``text`` names, in full or by its first word ("kestrel", "buckeye"); ""
    when none or several."""
    from atlas.lexicon import CUSTOMER_NAMES, names_from, words

    # ("northline freight's payment terms": the name without its possessive)
    said = f" {' '.join(words(_POSSESSIVE.sub('', normalise(text).text or text)))} "
    named = names_from(CUSTOMER_NAMES)
    for part in (lambda w: w, lambda w: w[:1]):
        found = {n for n in named if (w := words(n)) and len(w[0]) > 3 and f" {' '.join(part(w))} " in said}
        if len(found) == 1:
            return found.pop()
        if found:
            return ""  # "northline": two customers begin so
    return ""


def _field_in(text: str, customer: str = "") -> str:
    """The field of a customer or contract ``text`` names ("limit", "net 60", "renews", "moved to
    seattle", "small business now"): by a field word, else by a value only one field holds. A word of the
    customer's name is no field word ("bayou city ... is disputing two invoices" names no city)."""
    from atlas.lexicon import CUSTOMER_NAMES, domain_names, names_from, places, words
    from atlas.vocabulary import CONTRACT_FIELDS, CUSTOMER_FIELDS

    doc = parse_turn(text)
    named = set(words(customer))
    for token in doc:
        if token.lower_ in named and token.i and doc[token.i - 1].lower_ in named:
            continue
        for key in (token.lower_, token.lemma_.lower()):
            found = CONTRACT_FIELDS.get(key) or CUSTOMER_FIELDS.get(key)
            if found and key != "where":  # "where" asks; in a correction it names no field
                return found
    said = f" {' '.join(words(text))} "
    customers = set(names_from(CUSTOMER_NAMES))
    for name in domain_names():
        if name not in customers and f" {' '.join(words(name))} " in said:
            return "city" if tuple(words(name)) in places() else "segment"
    if any(f" {region} " in said for region in vocab.REGION_NAMES):
        return "region"
    return ""


# --- the turn ------------------------------------------------------------------------------


# Inside :func:`one_reading`: the findings this block already read, by their arguments.
_read: ContextVar[dict[tuple[str, datetime, str, str, bool, str], tuple[Finding, ...]] | None] = ContextVar(
    "atlas_gate_reading", default=None
)


@contextlib.contextmanager
def one_reading() -> Iterator[None]:
    """Read each text once for the whole block: a chat turn reads its question for the
    answer's sentence (``preview``) and again to decide whether the gate has anything to do
    (``gate_has_work``); the second read, with the same text and time, reuses the first.
    Outside the block every call reads afresh."""
    token = _read.set({})
    try:
        yield
    finally:
        _read.reset(token)


def analyse_turn(
    text: str,
    *,
    at: datetime,
    feedback_kind: str = "",
    feedback_comment: str = "",
    opens_session: bool = False,
    before: str = "",
) -> list[Finding]:
    """Every finding for one turn (filters are counted by the gate). ``opens_session``: the turn is
    the first of its chat session, so there is no answer on screen for a request to reshape;
    ``before``: the user's turn before it in the chat, for a standing wish that points back at it."""
    read = _read.get()
    key = (text, at, feedback_kind, feedback_comment, opens_session, before)
    if read is not None and key in read:
        return list(read[key])
    found = _analyse_turn(
        text,
        at=at,
        feedback_kind=feedback_kind,
        feedback_comment=feedback_comment,
        opens_session=opens_session,
        before=before,
    )
    if read is not None:
        read[key] = tuple(found)
    return found


def _analyse_turn(
    text: str, *, at: datetime, feedback_kind: str, feedback_comment: str, opens_session: bool = False, before: str = ""
) -> list[Finding]:
    findings: list[Finding] = []
    if feedback_kind == "incorrect":
        findings.append(analyse_correction(feedback_comment, about=text))
    # "head of collections for the mid-market book here 👋 file that away": an emoji between words ends a sentence
    original = policy.visible_text(_EMOJI_BETWEEN_WORDS.sub(_emoji_break, text))
    if not original:
        return findings
    # Every rule reads the text as people meant it: shorthand spelt out, typos fixed against
    # the domain lexicon, places and weekdays cased (atlas.normalise); what changed is kept.
    read = normalise(original)
    text = _FORGET_IDIOM.sub(lambda m: f"forget {m['what']}", read.text or original)
    text = preferences.with_condition_set_off(text)
    doc = parse_turn(text)
    if (unsaid := _no_as_skip(doc)) != text:
        text, doc = unsaid, parse_turn(unsaid)
    if (announced := _WHICH_ARE_MINE.sub(_theirs_announced, text)) != text:
        text, doc = announced, parse_turn(announced)
    if (named := _pronoun_named(doc)) != text:
        text, doc = named, parse_turn(named)
    hits = rules.match(doc)
    explicit = "remember" in hits
    refusal = policy.message_refusal(text, hits) or policy.message_refusal(original, {})
    if refusal is not None and refusal.reason == r.INSTRUCTION and _own_rule_forgotten(text):
        refusal = None  # "forget the top 3 rule": a note of the user's, forgotten, no instruction to the system
    if refusal is not None:
        rule = "explicit" if explicit else refusal.rule
        findings.append(_refuse(rule, refusal.reason, text, explicit=explicit, what=refusal.what))
        if refusal.reason == r.SECRET:
            findings.extend(_wishes_beside_a_secret(text, at=at))
        return [replace(f, read_as=read.changes) for f in findings]
    parts = [c for c in clauses(doc, hits) if not _hypothetical(c.span.sent) and not _undecided(c.span.sent)]
    found = standing_wishes(doc, parts, _sensitive_sentences(doc, parts, _analyse_clauses(parts, at=at, quote=text)))
    found = _pointed_withdrawal(text, _without_retracted(text, found))
    if opens_session:
        found = _opening_request(doc, hits, parts, found)
    found = _called_off(text, found)
    # "..., pls update your notes on me": the change said replaces what Atlas holds about the same thing
    updating = any(any(t.lemma_ in vocab.UPDATE_VERBS for t in doc[s].sent) for s, _ in hits.get("remember", []))
    found = _context_switch(text, found, updating=updating)
    found = _standing_by_reference(doc, hits, found, before)
    if any(f.action == "write" and f.kind == "preference" for f in found):
        # "..., permanently. im in the chicago office and day-first keeps tripping me up": a state with no end said
        # beside a standing wish is its reason, no situation of its own
        found = [f for f in found if not (f.kind == "situation" and f.reason == r.SITUATION_DEFAULT and not f.explicit)]
    # "..., id rather see the biggest at the top, not A-Z": what the turn turns down, for the note it replaces
    rejected = preferences.turned_down(text)
    if rejected:
        found = [
            replace(f, extra={**f.extra, "turned_down": rejected})
            if f.action == "write" and f.kind == "preference"
            else f
            for f in found
        ]
    found = _absence_named(doc, found)
    said = _said_once([_legible(_with_facets(f)) for f in found], text)
    findings.extend(_pointed_forgets(text, _without_wanting(said, text)))
    return [replace(f, read_as=read.changes) for f in findings]


def _hypothetical(sent: Span) -> bool:
    """A wish for a life that may come ("if i ever move to the london office id want pounds", "suppose i get
    promoted, then id only want top-line numbers"): a condition on the user's own circumstances, not on how they ask
    ("if i ask for totals id want them in k" is a standing scope), the wish in the conditional, and the condition
    put ahead or the whole called a musing. Nothing in that sentence is kept."""
    low = sent.text.lower()
    if not _CONDITIONAL_WISH.search(low):
        return False
    musing = any(re.search(rf"\b{re.escape(m)}\b", sent.doc.text.lower()) for m in vocab.MUSINGS)
    for found in _CONDITION.finditer(low):
        opener, rest = found["opener"], found["rest"]
        if rest.split()[:1] and rest.split()[0] in vocab.ASKING_CONDITION_VERBS:
            continue
        ahead = any(re.search(rf"\b{re.escape(w)}\b", rest) for w in vocab.FUTURE_CONDITION_WORDS)
        if ahead or musing or opener in vocab.SUPPOSING_OPENERS:
            return True
    return False


def _undecided(sent: Span) -> bool:
    """A choice between two ways not made ("not sure if i like tables or bullets better", "torn between newest first
    and biggest first", "short vs detailed, cant tell which i prefer"): nothing in that sentence is kept."""
    low = sent.text.lower()
    return bool(_UNDECIDED.search(low)) and bool(re.search(r"\b(?:or|vs|versus)\b|\bbetween\b.*\band\b", low))


_UNDECIDED = re.compile(r"\b(?:" + "|".join(re.escape(p) for p in vocab.UNDECIDED_PHRASES) + r")\b")


_CONDITIONAL_WISH = re.compile(
    r"\b(?:i'd|id|i\s+would|i\s+might|i\s+may|i'll\s+probably|i\s+will\s+probably)\b[^.;]*?"
    r"\b(?:want|prefer|like|need|rather)\b"
)
_CONDITION = re.compile(
    r"\b(?P<opener>"
    + "|".join(re.escape(o).replace("\\ ", r"\s+") for o in vocab.HYPOTHETICAL_OPENERS)
    + r")\s+(?:i|we|they|my|our|the)\b\s*(?P<rest>[^,.;]*)"
)


def _absence_named(doc: Doc, found: list[Finding]) -> list[Finding]:
    """A bare absence kept on request ("on parental leave from today, end unknown. pls note im away"):
    the note says which absence the message names ("Is on parental leave."), with the request's end, and no
    second situation about the same absence."""
    bare = [f for f in found if f.action == "write" and f.kind == "situation" and _BARE_ABSENCE.match(f.statement)]
    named = _absence_phrase(doc)
    if len(bare) != 1 or named is None:
        return found
    noun = named.split()[-1]
    # ("off on sick leave ...": a qualifier of a special category stays out of the note)
    statement = f"Is on {named}." if policy.refusal_for(named) is None else f"Is on {noun}."
    kept = replace(bare[0], statement=statement)
    return [
        kept if f is bare[0] else f
        for f in found
        if f is bare[0]
        or not (f.kind == "situation" and (noun in f.statement.lower() or _BARE_ABSENCE.match(f.statement)))
    ]


_BARE_ABSENCE = re.compile(r"^Is (?:away|off|out)(?: for now| of office)?\.$")


def _absence_phrase(doc: Doc) -> str | None:
    """The absence a message names, with the word that qualifies it ("parental leave", "sabbatical")."""
    for token in doc:
        if token.lower_ in vocab.ABSENCE_NOUNS:
            before = token.nbor(-1) if token.i > 0 else None
            qualified = (
                before is not None and before.pos_ in ("ADJ", "NOUN", "PROPN") and before.dep_ in ("amod", "compound")
            )
            return f"{before.lower_} {token.lower_}" if qualified and before is not None else token.lower_
    return None


def _said_once(found: list[Finding], text: str) -> list[Finding]:
    """A wish said again in the same turn with no scope of its own ("whenever i ask for orders put them in a table??
    columns pls not paragraphs, every time"): one note, the first, scope and all; "tables for orders. tables for
    everything else too" widens it, and keeps both."""
    wishes = [f for f in found if f.action == "write" and f.kind == "preference" and f.facets]
    if len(wishes) < 2 or _WIDER.search(text.lower()):
        return found
    again = [
        later
        for n, later in enumerate(wishes)
        if later.scope == "global" and any(first.facets == later.facets for first in wishes[:n])
    ]
    return [f for f in found if f not in again]


# Words that make a wish said again wider than the first ("tables for everything else too", "in general as well").
_WIDER = re.compile(r"\b(?:" + "|".join(map(re.escape, vocab.WIDER_AGAIN)) + r")\b")


_STANDING_PHRASE_ENDS = tuple(vocab.STANDING_PHRASES)


def _pronoun_named(doc: Doc) -> str:
    """The turn with a pointing word after a verb ("them", "those", "it") read as the thing its sentence opened with,
    where only so the preference table reads a wish ("cancelled orders are noise to me, pls leave them out of my
    totals"). A sentence that reads the same either way stays."""
    text = doc.text
    for sent in reversed(list(doc.sents)):
        opening = next((c for c in sent.noun_chunks if c.root.pos_ != "PRON"), None)
        if opening is None or any(t.pos_ in ("VERB", "AUX") for t in sent[: opening.start - sent.start]):
            continue
        pronoun = next(
            (t for t in sent if t.i > opening.end and t.lower_ in _POINTING_BACK and t.head.pos_ in ("VERB", "AUX")),
            None,
        )
        if pronoun is None:
            continue
        after = pronoun.idx + len(pronoun.text)
        named = f"{text[sent.start_char : pronoun.idx]}{opening.text}{text[after : sent.end_char]}"
        if preferences.read_facets(named).facets.keys() - preferences.read_facets(sent.text).facets.keys():
            text = f"{text[: sent.start_char]}{named}{text[sent.end_char :]}"
    return text


# "remember which accounts are mine: A and B", "note who my manager is - Rosa": what is the user's, named after the
# colon, read as said ("my accounts are A and B", "my manager is Rosa").
_WHICH_ARE_MINE = re.compile(
    r"\b(?:which|what)\s+(?P<noun>[a-z]+(?:\s+[a-z]+)?)\s+(?P<be>is|are)\s+(?:mine|ours)\s*[:\-\u2013\u2014]\s*"
    r"|\b(?:who|what|where)\s+(?P<own>my|our)\s+(?P<noun2>[a-z]+(?:\s+[a-z]+)?)\s+(?P<be2>is|are)\s*[:\-\u2013\u2014]\s*",
    re.IGNORECASE,
)


def _theirs_announced(found: re.Match[str]) -> str:
    if found["noun"]:
        return f"my {found['noun']} {found['be']} "
    return f"{found['own']} {found['noun2']} {found['be2']} "


def _no_as_skip(doc: Doc) -> str:
    """The turn with a wish said as "no <thing>" at the head of a clause ("no emojis in ur replies from here on",
    "no long-winded intros pls") read as "skip <thing>", the request it is, where the preference table does not read
    the thing itself ("no cents" is its rounding); "no" as a verdict ("no, that's wrong"), a bound ("no more than
    5") or an idiom ("no need", "no clue yet") stays."""
    spans: list[tuple[int, int]] = []
    for token in doc:
        if token.lower_ != "no" or token.dep_ != "det" or token.head.pos_ not in ("NOUN", "PROPN"):
            continue
        head = token.head
        before = doc[token.i - 1] if token.i > 0 else None
        opens = before is None or before.is_punct or before.lower_ in ("and", "also", "but", "so", "just")
        if not opens and not doc[: token.i].text.lower().endswith(_STANDING_PHRASE_ENDS):
            continue  # "there are no orders", "with no decimals": no clause of its own ("from now on no ..." is)
        if head.lemma_.lower() in vocab.NO_IDIOMS or head.i < token.i:
            continue
        if not doc[token.i + 1].is_alpha or preferences.read_facets(token.sent.text).facets:
            continue  # "no - the riga warehouse shut", "bullets pls, no walls of text": a verdict, or said of a wish
        phrase = doc[token.i : head.i + 1].text
        if preferences.facets_named(phrase) or head.lemma_.lower() in vocab.RECORD_NOUNS:
            # "no cents", "no tables": the preference table reads them as said; "no orders for that customer this
            # month?": records, not a way of answering
            continue
        spans.append((token.idx, token.idx + len(token.text)))
    text = doc.text
    for start, end in reversed(spans):
        text = text[:start] + ("Skip" if text[start].isupper() else "skip") + text[end:]
    return text


def _emoji_break(match: re.Match[str]) -> str:
    """An emoji between two words, as a comma (a clause may end there, as a comma ends one); none where the emoji
    is itself a word of the sentence ("put a 📈 or 📉 beside each trend")."""
    before = match.string[: match.start()].split()[-1:] or [""]
    after = match.string[match.end() :].split()[:1] or [""]
    if before[0].lower() in _WORDS_BEFORE_A_NOUN or after[0].lower() in ("or", "and", "emoji", "emojis", "icon"):
        return " "
    return ", "


_WORDS_BEFORE_A_NOUN = frozenset({"a", "an", "the", "or", "and", "with", "of", "like", "this", "that", "your", "my"})
_EMOJI_BETWEEN_WORDS = re.compile(
    r"(?<=\w)\s*[\U0001F300-\U0001FAFF\u2600-\u27BF][\U0001F300-\U0001FAFF\u2600-\u27BF\uFE0F\u200D]*\s+(?=\w)"
)
_ON_SCREEN = frozenset({"that", "this", "these", "those", "them"})


def _tells(token: Token) -> bool:
    """A subject that makes the words a statement, not a bare request: a person ("i was reading",
    "my team wants") or a verb said with a modal or in the past ("the top 5 would do here")."""
    if token.dep_ not in ("nsubj", "nsubjpass") or token.head.dep_ != "ROOT":
        return False  # "when I'm looking at renewals, include ...": a condition's subject tells nothing
    person = token.lower_ in ("i", "we", "you", "u", "he", "she", "they") or any(
        c.dep_ == "poss" for c in token.children
    )
    verb = token.head
    told = any(c.tag_ == "MD" for c in verb.children) or verb.tag_ in ("VBD", "VBN", "MD")
    return person or told


def _comparative(token: Token) -> bool:
    """ "shorter", "bigger", "more detail": relative to an answer already given."""
    return token.tag_ in ("JJR", "RBR") or token.lower_ in ("shorter", "longer", "briefer", "simpler", "smaller")


def _on_screen(token: Token) -> bool:
    """A word for something on screen: "that", "those"; "it" as what a request acts on ("put it
    in a table"), not in a remark ("cents just clutter it")."""
    if token.lower_ in _ON_SCREEN:
        return True
    return token.lower_ == "it" and token.head.lemma_.lower() in vocab.REQUEST_VERBS


_EXAMPLE_FIGURE = re.compile(
    r"(?:\blike|\be\.?g\.?|\bsuch as|\bsay)\s+[^\s,;]*\d[^\s,;]*"
    r"|[$\u20ac\u00a3]?\d[\d,]*\.\d+[km]?\b|[$\u20ac\u00a3]?\d[\d,.]*[km]\b|\b\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}\b"
)


def _without_shown_values(text: str) -> str:
    """The text, lower-cased, with the values of the preference table it names and the figures it
    shows as examples blanked out (both found in the text as written, so one never cuts the other:
    "$250.4k style" is an example whole, not "$25" left beside a scale)."""
    low = text.lower()
    spans = [*preferences.value_spans(text), *((m.start(), m.end()) for m in _EXAMPLE_FIGURE.finditer(low))]
    for start, end in spans:
        low = low[:start] + " " * (end - start) + low[end:]
    return low


def dates_only_shown(text: str) -> bool:
    """Every figure of the text is a format's value or an example of one ("write months as words e.g.
    November 30, 2026", "dates like 2026-11-30"): a date in it shows a format, it asks for no period."""
    return bool(re.search(r"\d", text)) and not re.search(r"\d", _without_shown_values(text))


# Findings a bare request may stand beside: a remark read as a fact, a format request counted once.
_BESIDE_A_REQUEST = frozenset({r.CORPUS_FACT, r.SINGLE_OCCURRENCE, r.INFERENCE})
_TIME_WORDS = re.compile(
    r"\b(?:today|tomorrow|yesterday|tonight|weeks?|months?|quarters?|years?|ytd|q[1-4]|h[12]|"
    + "|".join((*dates.WEEKDAYS, *dates.MONTHS_NOT_MAY))
    + r")\b"
)


def _opening_request(
    doc: Doc, hits: dict[str, list[tuple[int, int]]], parts: list[Clause], found: list[Finding]
) -> list[Finding]:
    """A request for a shape of answer that is the whole of a session's first turn ("totals in
    millions pls", "bullets not tables", "rankings: top 3 only"): with no answer on screen to
    reshape and nothing asked, it can only be for the answers to come, so it is kept as a standing
    preference, as if "from now on" had been said. Not when the turn asks or names anything
    else (a customer, a place, a period: "show me Kestrel's orders as a table" is a question),
    says it is for now, or already holds a finding of its own."""
    if (lead := _wish_before_its_reason(doc)) is not None:
        # "amounts in k for me, our board reads it that way": the wish is read alone, the reason beside it kept out
        alone = parse_turn(lead)
        doc, hits = alone, rules.match(alone)
        parts = clauses(doc, hits)
    if (
        "one_off" in hits
        or _RETRACTION.search(doc.text.lower())
        or any(
            f.action in ("write", "forget", "reverse") or f.action == "refuse" and f.reason not in _BESIDE_A_REQUEST
            for f in found
        )
    ):
        return found
    text = doc.text
    reading = preferences.read_facets(text)
    first = content_tokens(doc[:])
    # ("for west region customers show ...": the preposition opens where the wish holds, and the request follows)
    scoped = bool(first) and first[0].lower_ in ("for", "with") and reading.scope != "global"
    # ("would it be possible to put the code before each amount?": a polite request, no question)
    polite = [c for c in parts if _asks_politely(c)]
    if (switch := _asks_for_another_value(doc, parts, reading)) is not None:
        return [f for f in found if f.action != "observe"] + [switch]
    if any(c.act == "question" and c not in polite for c in parts) or any(_on_screen(t) for t in doc):
        return found  # "make those a table": about something on screen, whatever the session shows
    # a statement that names the wish ("the top 5 would do here", "i was reading the bullet points") is no request;
    # one beside a request that names none is its reason ("... rather than the $ sign? the tool we use rejects it")
    asked = polite or scoped or any(t.lower_ in vocab.POLITENESS for t in doc)
    if not asked and all(
        c.act == "statement" and c.subject in ("thing", "company", "other") and not _subject_is_a_value(c)
        for c in parts
    ):
        return found  # "our erp mangles the £ sign constantly": what a thing does, nothing asked
    telling = [c for c in parts if c not in polite and (not polite or preferences.read_facets(c.text).facets)]
    said = any(_tells(t) for c in telling for t in c.span)
    if said or any(t.lemma_.lower() in vocab.SYSTEM_NOUNS + vocab.DATA_NOUNS for t in doc):
        return found
    # (a comparative in the reason beside the wish is no wish of its own: "..., easier to eyeball")
    wished = [t for c in parts if preferences.read_facets(c.text).facets for t in c.span] or list(doc)
    if first and first[0].pos_ == "ADP" and not scoped or any(_comparative(t) and not _a_reason(t) for t in wished):
        return found  # "as bullet points, please", "shorter please": said of an answer on screen
    if not reading.facets or reading.negative:
        return found
    # A figure shown as an example of the format ("like $45.3k", "EUR 9,876.50", "e.g. 03/12/2026") is
    # no figure of its own; any other ("convert 100 dollars to euros") makes it a question about it.
    rest = _without_shown_values(text)
    if re.search(r"\d", rest):
        return found
    if reading.scope.startswith(("region:", "city:", "segment:")):
        # "for east region customers put amounts in millions": the place is where the wish holds, nothing asked of it
        for word in re.split(r"[:|]", reading.scope)[1:]:
            rest = re.sub(rf"\b{re.escape(word)}\b", " ", rest)
    named = _names_the_data(rest)
    # (where the wish is scoped, the customers it names are where it holds: "for west region customers show ...")
    held_at = next((t.i + 1 for t in doc if scoped and t.lower_ in ("customers", "clients", "accounts")), 0)
    if _asks_for_records(doc[held_at:]):
        return found  # "show me orders as a table", "list customers in bullets": records asked for
    places = (*vocab.REGION_NAMES, *(w for words in vocab.DIRECTIONS.values() for w in words))
    regions = any(re.search(rf"\b{re.escape(w)}\b", rest) for w in places)
    proper = any(t.pos_ == "PROPN" and re.search(rf"\b{re.escape(t.lower_)}\b", rest) for t in doc)
    if named or regions or _TIME_WORDS.search(rest) or proper:
        return found
    wish = _wish([doc[:]], reading, rule="opening_request")
    if wish is None:
        return found
    return [f for f in found if f.action != "observe"] + [wish]


# "..., im in the london office", "..., our board reads it that way", "..., i run the key accounts desk": what the
# user, their team or their work is, said as the reason for the wish before it
_OWN_REASON = re.compile(r"^(?:and |but |as |since |cos |because )?(?:i|i'm|im|we|we're|our|my)\b")


def _asks_for_another_value(doc: Doc, parts: list[Clause], reading: preferences.Reading) -> Finding | None:
    """ "can we do day/month/year like 04/11/2027? ...", "could u write months in words, e.g. 9 june 2027?" opening a
    chat: with no answer on screen, a value asked for a facet is for the answers to come, but a yes/no question may
    only ask what Atlas can do, so it replaces a kept note of that facet and is kept only where one is live."""
    asking = next((c for c in parts if c.act in ("question", "request")), None)
    if asking is None:
        return None
    words = [t.lower_ for t in content_tokens(asking.span)]
    if len(words) < 3 or words[0] not in vocab.POLITE_REQUEST_VERBS or words[1] not in ("you", "u", "we"):
        return None
    own = preferences.read_facets(asking.text)
    if not own.facets or own.negative or reading.scope != "global" or _asks_for_records(doc):
        return None
    if _names_the_data(_without_shown_values(doc.text)):
        return None  # "can you show acme's orders in a table?" asks about acme
    wish = _wish([asking.span], own, rule="opening_request")
    return replace(wish, extra={**wish.extra, "needs_existing": True}) if wish is not None else None


def _names_the_data(low: str) -> bool:
    """Whether lower-cased text names a customer, city, segment or region the records hold, in full."""
    from atlas.lexicon import domain_names

    return any(re.search(rf"\b{re.escape(n.lower())}\b", low) for n in domain_names() if len(n) > 3)


def wish_apart_from_its_reason(text: str) -> str | None:
    """The wish of a turn said apart from a reason about the user after it (see ``_wish_before_its_reason``), or
    None: what the gate reads as the turn's request, so a place or a date the reason names asks about no records."""
    visible = policy.visible_text(text)
    return _wish_before_its_reason(parse_turn(normalise(visible).text or visible)) if visible else None


def _wish_before_its_reason(doc: Doc) -> str | None:
    """The wish of a turn said as a fragment for the user ("iso dates for me pls", "just the top 10 for
    me please") and then, after a comma, what the user or their work is: the fragment, which alone names facets;
    None where the rest asks, wants, says when or names a facet of its own."""
    text = doc.text
    lead, comma, rest = text.partition(",")
    low = rest.strip().lower()
    if not comma or not re.search(r"\bfor (?:me|us)\b", lead.lower()) or not _OWN_REASON.match(low):
        return None
    if "?" in rest or _TIME_WORDS.search(low) or re.search(r"\b(?:until|till|til|this|today|now|for now)\b", low):
        return None  # "..., im in london this week": a state of the moment, the wish may be for it
    if preferences.read_facets(rest).facets or not preferences.read_facets(lead).facets:
        return None
    return lead.strip()


def _a_reason(token: Token) -> bool:
    """A comparative after a break, saying why ("..., easier to eyeball", "- quicker to take in"): no wish."""
    doc = token.doc
    after = doc[token.i + 1].lower_ if token.i + 1 < len(doc) else ""
    return after in ("to", "for", "on", "when") and any(t.text in (",", "-", "–", "—") for t in doc[: token.i])


def _subject_is_a_value(clause: Clause) -> bool:
    """Whether the clause is said of a value of the preference table ("nearest buck is fine for all the order
    values"), not of a thing that only mentions one ("our erp mangles the £ sign")."""
    subject = next((t for t in clause.span if t.dep_ in _SUBJECTS), None)
    return subject is not None and bool(preferences.read_facets(" ".join(w.text for w in subject.subtree)).facets)


def _asks_for_records(doc: Doc | Span) -> bool:
    """Whether the turn asks to see records ("show me orders as a table", "list customers in bullets")."""
    return any(t.lemma_.lower() in vocab.SHOW_VERBS for t in doc) and any(
        t.lemma_.lower() in vocab.DATA_REQUEST_NOUNS for t in doc
    )


_CALLED_OFF = tuple(re.compile(p, re.IGNORECASE) for p in vocab.CALLED_OFF)
_SWITCHED_TO = tuple(re.compile(p, re.IGNORECASE) for p in vocab.SWITCHED_TO)
_SWITCHED_FROM = tuple(re.compile(p, re.IGNORECASE) for p in vocab.SWITCHED_FROM)
_PIECE = re.compile(r"[,.;!?]+\s*|\s+-\s+")
_CORRECTED_VALUE = tuple(re.compile(p, re.IGNORECASE) for p in vocab.CORRECTED_VALUE)


def _worded_alike(new: str, old: str) -> bool:
    """A value corrected by another of its kind: a few words each, neither a whole clause
    ("east not west", "credit control not collections", "the denver office not chicago")."""
    return 0 < len(new.split()) <= 3 and 0 < len(old.split()) <= 3 and new.strip().lower() != old.strip().lower()


def _context_switch(text: str, found: list[Finding], *, updating: bool = False) -> list[Finding]:
    """A kept patch, team or role said to have changed, in the words people use ("im on mid-market
    now, not small biz anymore", "im covering the south now instead of the north", "territory
    changed, its central now", "not in collections anymore, moved over to sales ops"): an update
    that replaces the live context note of that subject, or the one holding the words said to be
    over; with none live, nothing is kept (needs_existing). The new value must name something of
    the business (a region, segment, place, team) or the old one must be said, so "I'm on a call
    now" changes nothing."""
    if any(f.kind == "correction" and f.action == "write" for f in found):
        return found  # "<customer> moved to a new town, not the old one anymore": the customer's, not the user's
    if updating:
        # "..., pls update whatever u have on me": what the turn says of the user replaces the older note about it
        found = [
            replace(f, extra={**f.extra, "updates": True}) if f.kind == "context" and f.action == "write" else f
            for f in found
        ]
    if any(f.kind == "context" and f.action == "write" for f in found):
        return found
    corrected = next((m for rx in _CORRECTED_VALUE if (m := rx.search(text))), None)
    if any(f.action == "write" for f in found):
        corrected = None  # "when i say YTD i mean calendar year, not our fiscal one": a wish, read as one
    if corrected is not None and _worded_alike(corrected["new"], corrected["old"]):
        # "oh wait typo, i meant east not west", "its credit control not collections": a live
        # context note holding the old value, said again with the new one (none live: nothing)
        # ("i meant the east one, not west": the value, without the "one" that stands for it)
        new, old_value = re.sub(r"\s+ones?$", "", corrected["new"].strip()), corrected["old"].strip()
        kept = [f for f in found if f.action not in ("forget", "reverse")]
        return [
            *kept,
            Finding(
                "write", "update", r.UPDATE, "context", statements.sentence(f"Corrected to {new}."), value=new,
                quote=text, explicit=True, supersedes=True,
                extra={"needs_existing": True, "replaces": [old_value], "substitute": [old_value, new]},
            ),
        ]  # fmt: skip
    pieces = [p.strip() for p in _PIECE.split(text) if p.strip()]
    old = [m["old"].strip() for p in pieces for rx in _SWITCHED_FROM if (m := rx.search(p))]
    forgetting = any(f.action == "forget" for f in found)
    for said_piece in pieces:
        if forgetting and _POINTED_SUBJECT.match(said_piece):
            continue  # "pls drop the bit about my portland patch, those went to the west team": what is forgotten moved
        # what is so now comes before what is over: "my patch is north now not central"
        piece = re.split(r"\s+(?:not|no longer|instead of|rather than)\b", said_piece, maxsplit=1, flags=re.I)[0]
        if not piece or re.match(r"(?:not|no longer)\b", piece, re.IGNORECASE):
            continue
        match = next((m for rx in _SWITCHED_TO if (m := rx.search(piece))), None)
        if match is None:
            continue
        what = re.split(r"\s+(?:instead of|rather than|not)\b", match["what"], maxsplit=1)[0].strip()
        # (asked to update the notes, the new value needs no name of the business: "moved onto new business")
        if (
            not what
            or not (old or updating or _names_business(what))
            or match.groupdict().get("kind_bare") is not None
            and not old
        ):
            continue
        nouns = (*vocab.CONTEXT_SUBJECTS["patch"], *vocab.CONTEXT_SUBJECTS["team"], *vocab.CONTEXT_SUBJECTS["role"])
        noun = next((w for w in nouns if re.search(rf"(?<![\w-]){w}(?![\w-])", text, re.IGNORECASE)), "patch")
        groups = match.groupdict()
        if groups.get("kind_my"):
            said = f"Their {groups['kind_my']} is {what} now."
        elif groups.get("kind_on"):
            said = f"Is {'on' if groups['kind_on'] == 'on' else groups['kind_on']} {what} now."
        elif groups.get("kind_moved"):
            said = f"Has moved to {what}."
        else:
            said = f"Their {noun} is {what} now."
        statement = statements.sentence(said)
        subject = subjects.context_subject(f"{noun} {what}") or "patch"
        kept = [f for f in found if f.action not in ("forget", "reverse")]
        return [
            *kept,
            Finding(
                "write", "update", r.UPDATE, "context", statement, subject=subject, value=what, quote=text,
                echo=statements.echo(statement, said=text), explicit=True, supersedes=True,
                extra={"needs_existing": True, "replaces": old, **({"updates": True} if updating else {})},
            ),
        ]  # fmt: skip
    return found


_POINTED_SUBJECT = re.compile(r"(?:those|these|they|them|it|that|which)\b", re.IGNORECASE)
_NO_LONGER_MINE = tuple(re.compile(p, re.IGNORECASE) for p in vocab.NO_LONGER_THE_USERS)


def _no_longer_the_users(clause: Clause) -> bool:
    """A patch, segment or team of the user's said to be theirs no more ("east isnt mine anymore fyi", "i dont do
    enterprise any more"): said of the user ("i", "mine", "my"), naming the business, and no wish or trip."""
    low = clause.lower
    cue = min((m.start() for rx in _NO_LONGER_MINE if (m := rx.search(low))), default=None)
    if cue is None or re.search(r"\bnow\b", low[:cue]):
        return False  # "i cover enterprise now, no longer small business": what is so now, an update
    return (
        True
        and bool(re.search(r"\b(?:i|i'm|im|mine|my)\b", low) or clause.subject == "none")
        and _names_business(re.sub(r"[^\w' -]+", " ", low))
        and not preferences.facets_named(low)
        and not any(re.search(rf"\b{w}\b", low) for w in vocab.SITUATION_WORDS if w not in vocab.PATCH_VERBS)
    )


def _what_is_over(clause: Clause, text: str) -> Finding | None:
    """ "I no longer cover the west", "east isnt mine anymore": the note holding it goes, as if forgotten; never a
    note of what the user no longer does."""
    if clause.act != "statement" or not _no_longer_the_users(clause):
        return None
    return Finding("forget", "forget", r.FORGET_REQUEST, statement=text, quote=text)


def _names_business(words: str) -> bool:
    """A region, a segment, a city or another name of the business data, or a team's word."""
    from atlas.lexicon import domain_names

    low = f" {words.lower()} "
    directions = (w for group in vocab.DIRECTIONS.values() for w in group)
    if any(f" {w} " in low for w in (*vocab.REGION_NAMES, *directions, *vocab.CONTEXT_SUBJECTS["team"])):
        return True
    return any(f" {n.lower()} " in low for n in domain_names())


def _called_off(text: str, found: list[Finding]) -> list[Finding]:
    """A situation called off ("leave got cancelled, we're short staffed", "ignore the houston trip
    thing, its off", "got excused from jury duty!!"): the live situation it names is forgotten
    through the store (admission matches it, or does nothing). Only beside a word of a situation,
    so "the order got cancelled" calls off no trip; never when the message also keeps a situation
    (a new date is an update, not an end)."""
    low = text.lower()
    if not any(p.search(low) for p in _CALLED_OFF):
        return found
    # "I'm not covering for her anymore" is no situation of its own: it ends one
    found = [f for f in found if not (f.kind == "situation" and re.search(r"\b(?:not|no longer)\b", f.statement))]
    if any(f.kind == "situation" and f.action in ("write", "extend") for f in found):
        return found
    words = set(re.findall(r"[a-z]+", low))
    if not words & set(vocab.SITUATION_WORDS):
        return found
    # what else the message forgets stays ("u can forget the yen request, the tokyo trip got cancelled")
    return [
        *found,
        Finding("forget", "called_off", r.FORGET_REQUEST, "situation", statement=text, extra={"called_off": True}),
    ]


def _alternation(words: tuple[str, ...]) -> str:
    return "|".join(
        re.escape(w).replace("'", "'?").replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True)
    )


_RETRACTION = re.compile(
    rf"\b(?:{_alternation(vocab.RETRACTIONS)})\b"
    rf"|\bleave\s+(?:it|them|that|(?:the|my)\s+[\w' -]{{1,30}}?)\s+(?:{_alternation(vocab.RETRACTION_ENDS)})\b"
    # "..., leave it" closing its clause ("don't leave it out" asks for something)
    r"|\bleave\s+it(?=\s*(?:[,.;:!?\n]|$|\s[-\u2013\u2014]\s))"
)
_NEGATED = re.compile(r"(?:n't|\bnt|\bnot|\bnever)\s+$")
_RETRACTION_CLAUSE_END = re.compile(r"[,.;:!?\n]|\s[-\u2013\u2014]\s")


def _without_retracted(text: str, found: list[Finding]) -> list[Finding]:
    """A wish taken back later in the same message ("tables by default pls. wait no, ignore me")
    is not kept: what was asked before the last retraction goes; what is asked after it stays
    ("..., scrap that, bullets by default"). A retraction that names a value ("leave it in USD
    from now on") asks for something and takes nothing back."""
    low = text.lower()
    cut = -1
    for match in _RETRACTION.finditer(low):
        rest = _RETRACTION_CLAUSE_END.split(low[match.end() :], maxsplit=1)[0]
        # "don't forget that I'm on the procurement team" keeps what follows: a retraction ends
        # its clause ("scrap that", "ignore that last bit") and names no value.
        if _NEGATED.search(low[: match.start()]) or len(rest.split()) > 3:
            continue
        if not preferences.read_facets(low[match.start() : match.end()] + rest):
            cut = match.start()
    if cut < 0:
        return found
    # A finding's quote may be re-punctuated ("..." read as a comma): found by its opening words.
    return [f for f in found if f.action not in ("write", "observe") or not 0 <= low.find(f.quote.lower()[:24]) < cut]


_POINTER = re.compile(
    rf"\b(?:the|that|this|those|these|my|your)\s+((?:[\w/&'+-]+\s+){{1,4}}?)(?:{_alternation(vocab.POINTER_NOUNS)})s?\b"
    r"|\bwhat i (?:said|told you|asked for|asked) (?:about|re|regarding|on) (?:the |my )?([\w/&'+ -]+?)(?=[,.;:!?]|$)"
    # "scrap the bit about lindqvist", "drop the part re the leeds office"
    rf"|\b(?:the|that)\s+(?:{_alternation(vocab.POINTER_NOUNS)})\s+(?:about|re|regarding|on)\s+(?:the |my )?"
    r"([\w/&'+ -]+?)(?=[,.;:!?]|$)"
)
# Not after a negation: "don't forget I only work the hospital accounts" keeps, it withdraws nothing.
_POINTED_WITHDRAWAL = re.compile(
    rf"(?<!n't )(?<!nt )(?<!not )(?<!never )\b(?:{_alternation(vocab.POINTED_WITHDRAWALS)})"
    r"(?:s|d|[bdgmnpt]?ed|[bdgmnpt]?ing)?\b"  # "binning", "dropping": the consonant doubled
)
# A pointer holds words naming the note, not a clause ("that when i ask stuff").
_NOT_IN_A_POINTER = frozenset({"when", "if", "i", "you", "we", "it", "is", "are", "was", "to", "what", "so"})


# "no need for the exchange rate at the bottom anymore", "lose the emojis now", "the GST line can
# go": a thing named plainly and dropped, said to be over (no pointer noun, so a marker that it
# is over is needed: "I don't need the total, just the count" withdraws nothing).
_PLAIN_WITHDRAWAL = re.compile(
    r"\b(?:no need for|(?:don't|dont|do not) (?:need|bother with)|never mind (?:on|about|with)|lose|drop|ditch|bin"
    r"|scrap|get rid of|leave out|remove"
    r"|stop (?:with|adding|showing|including|putting|giving me))\s+"
    r"(?:the |those |these |that |my |your |all the )?(?P<x>[\w/&'%+-]+(?: [\w/&'%+-]+){0,3}?)"
    r"(?=\s+(?:anymore|any more|now|from now|at the|in the|on the|mentioned|please|pls|thanks)\b|\s*[,.;!?]|\s*$)"
    r"|(?:the|that|those) (?P<y>[\w/&'%+-]+(?: [\w/&'%+-]+){0,3}?) can go\b"
)
_NO_LONGER = re.compile(r"\b(?:anymore|any more|no longer|now|can go)\b")


def _withdrawn_in(low: str, cue: re.Pattern[str], thing: re.Pattern[str]) -> tuple[str, re.Match[str]] | None:
    """The first sentence with the cue of a withdrawal, and the thing it names there, or in the
    sentence just before ("the account code thing... nah, scrap that")."""
    sentences = re.split(r"[.!?;\n]+", low)
    for i, sentence in enumerate(sentences):
        if not cue.search(sentence):
            continue
        if (named := thing.search(sentence)) is not None:
            return sentence, named
        if i and (named := thing.search(sentences[i - 1])) is not None:
            return sentences[i - 1], named
    return None


def _pointed_withdrawal(text: str, found: list[Finding]) -> list[Finding]:
    """ "bin the leeds note", "the renewal date thing, ditch it", "scratch what i said about
    cornwall": a note pointed at by its words and withdrawn is forgotten through the store (the
    forget match finds the one live note holding those words, or none)."""
    # a reversal that names nothing ("..., dont need it anymore") gives way to the thing pointed at
    vague = [f for f in found if f.action == "reverse" and not (f.subject or f.value or f.extra.get("facets"))]
    if any(f.action in ("forget", "reverse") and f not in vague for f in found):
        return found
    low = text.lower()
    said = _withdrawn_in(low, _POINTED_WITHDRAWAL, _POINTER)
    if said is None:
        if any(f.action == "write" and f.kind == "preference" for f in found):
            return found  # "stop with the dollars, euros from now on": a wish replaces it, read as one
        said = _withdrawn_in(low, _NO_LONGER, _PLAIN_WITHDRAWAL)
    if said is None:
        return found
    sentence, pointer = said
    target = next((g for g in pointer.groups() if g), "").strip()
    words = target.split()
    if not words or all(w in _VAGUE_WORDS for w in words) or _NOT_IN_A_POINTER & set(words):
        return found
    # The pointing sentence read as a statement of its own ("that denver bit is out of date") is not one.
    kept = [
        f
        for f in found
        if f.action not in ("write", "observe")
        or pointer.group(0) not in f.quote.lower()
        and f.quote.lower()[:24] not in sentence
    ]
    kept = [f for f in kept if f not in vague]
    return [*kept, Finding("forget", "forget", r.FORGET_REQUEST, statement=target, quote=text)]


def _without_wanting(found: list[Finding], text: str) -> list[Finding]:
    """ "meh thousands still too long. millions pls": the value found wanting is no wish when the
    turn names another for the same facet; only the other is kept."""
    wanting = preferences.found_wanting(text)
    if not wanting:
        return found

    def other_said(f: Finding, facet: str) -> bool:
        return any(
            g is not f and g.action == "write" and (g.facets or {}).get(facet) not in (None, *wanting[facet])
            for g in found
        )

    return [
        f
        for f in found
        if not (
            f.action == "write"
            and f.kind == "preference"
            and any((f.facets or {}).get(k) in v and other_said(f, k) for k, v in wanting.items())
        )
    ]


# What a forget's target may only point with ("forget that one", "i don't look after them any more").
_POINTING_TARGET = frozenset({"one", "them", "it", "that", "this", "those", "these", "they", "him", "her"})


def _pointed_forgets(text: str, found: list[Finding]) -> list[Finding]:
    """ "harborview went to a colleague last week, forget that one", "drop the driftwood thing, i
    dont look after them any more": a forget that only points is about what the turn said before
    it, so the words before it join its target (the store's match finds the one live note they
    name, or none); a "does not want" read from those same words is that forget, not a wish."""
    low = text.lower()
    out: list[Finding] = []
    for finding in found:
        target = finding.statement.lower()
        points = finding.action == "forget" and bool(set(re.findall(r"[a-z']+", target)) & _POINTING_TARGET)
        at = low.find(target) if points else -1
        before = text[:at].strip(" ,.;:-") if at > 0 else ""
        if points and before:
            finding = replace(finding, statement=f"{before} {finding.statement}")
        out.append(finding)
    targets = [set(re.findall(r"[a-z]+", f.statement.lower())) for f in out if f.action == "forget"]
    if not targets:
        return out

    def forgotten(f: Finding) -> bool:
        excluded = str((f.facets or {}).get("exclude") or "")
        words = set(re.findall(r"[a-z]+", excluded.lower()))
        return bool(words) and any(words <= t for t in targets)

    return [f for f in out if not (f.action == "write" and f.kind == "preference" and forgotten(f))]


_PIECES = re.compile(r"[.;!?\n]+|,|\s[-/&]\s|\b(?:and|also|plus|separately|btw)\b", re.I)


_OWN_RULE = re.compile(
    r"\b(?:forget|drop|scrap|ditch|ignore)\s+(?:the|that|my)\s+(?P<what>[^.,;:!?]{1,30}?)\s*"
    r"(?:rule|setting|preference|thing|bit)s?\b"
)


_OWN_EARLIER = re.compile(
    rf"\b(?:forget|scrap|drop|ignore|disregard|cancel)\s+(?:that|my)\s+(?:(?:{'|'.join(vocab.EARLIER_WORDS)})\s+)?"
    rf"(?:[a-z-]+\s+)?(?:{'|'.join(vocab.EARLIER_WISH_NOUNS)})s?\b"
)


def _own_rule_forgotten(text: str) -> bool:
    """ "forget the top 3 rule", "drop my rounding setting": the user's own note named by a facet of
    the preference table, never the rules Atlas was given ("forget the rules you were given")."""
    low = text.lower()
    if _OWN_EARLIER.search(low) and (
        preferences.facets_named(low) or preferences.read_facets(low) or preferences.field_named(low)
    ):
        # "stop counting cancelled orders in my totals - pls forget that earlier instruction": the user's own
        # earlier wish, named by a facet in the same turn, never the rules Atlas was given
        return True
    found = _OWN_RULE.search(low)
    if found is None or re.search(r"\b(?:you|your|system|instructions?|prompt|guidelines?)\b", found.group(0)):
        return False
    return bool(preferences.facets_named(found.group("what")) or preferences.read_facets(found.group("what")))


def _wishes_beside_a_secret(text: str, *, at: datetime) -> list[Finding]:
    """A secret is refused as a whole, and no note names it; what the user said beside it in
    the same turn is still theirs: a standing wish ("vpn password is ... btw, also ISO dates
    everywhere") or a request to keep a fact about their patch ("remember I cover the north.
    the door pin is ..."). Only the pieces that neither hold nor name a secret are read; a
    pointer said right after a secret ("..., remember that too") points at the secret and
    goes with it."""
    pieces = [p.strip(" ,") for p in _PIECES.split(text)]
    kept: list[str] = []
    after_secret = False
    for piece in filter(None, pieces):
        secret = bool(secret_kind(piece) or names_secret(piece) or _secret_shaped(piece))
        # "..., can u keep it somewhere safe for me?": a request to keep the secret goes with it
        keeps_it = after_secret and bool(_KEEPS_IT.search(piece.lower()))
        if not secret and not keeps_it and not (after_secret and _only_points(piece)):
            kept.append(piece)
        after_secret = secret or keeps_it
    if not kept or len(kept) == len([p for p in pieces if p]):
        return []
    rest = ". ".join(kept)
    doc = parse_turn(rest)
    hits = rules.match(doc)
    if policy.message_refusal(rest, hits) is not None:
        return []
    parts = clauses(doc, hits)
    found = standing_wishes(doc, parts, _sensitive_sentences(doc, parts, _analyse_clauses(parts, at=at, quote=rest)))
    # only what the rows read: the semantic second opinion is not asked beside a secret, where
    # the rest is usually the secret's own story ("i keep getting locked out")
    return [_legible(_with_facets(f)) for f in found if f.action != "refuse" and f.rule != "semantic_standing"]


_POINTERS = frozenset(
    {"that", "this", "it", "too", "as", "well", "also", "pls", "please", "for", "me", "next", "time", "ok", "okay",
     "later", "again", "thanks", "one"}
)  # fmt: skip
_KEEPS_IT = re.compile(rf"\b(?:{'|'.join(vocab.KEEPING_VERBS)})\w*\s+(?:it|that|this|them)\b")


_WHY_KEPT = re.compile(r"\b(?:in case|just in case|so that|so|because|cos|cause|since|as)\b.*$", re.I)


def _only_points(piece: str) -> bool:
    """A piece that only asks to keep what was said before it ("remember that too", "note it pls",
    "stash that for me in case i forget": why it is kept says nothing more)."""
    doc = parse_turn(_WHY_KEPT.sub("", piece).strip() or piece)
    keep = {i for s, e in rules.match(doc).get("remember", []) for i in range(s, e)}
    return bool(keep) and all(t.i in keep or t.is_punct or t.lower_ in _POINTERS for t in doc)


def _secret_shaped(piece: str) -> bool:
    """A piece holding a token with letters and digits or symbols mixed ("jdoe / Passw0rd1")."""
    return any(
        any(c.isdigit() for c in token) and any(c.isalpha() for c in token) or any(c in "#!$%*@" for c in token)
        for token in piece.split()
    )


def _sensitive_sentences(doc: Doc, parts: list[Clause], found: list[Finding]) -> list[Finding]:
    """A sentence that states a special category keeps no context or situation note: whatever
    else it says about the user is said about the condition ("I'm Jewish, so remember I'm off
    for ..."); a standing wish beside it is read on its own (standing_wishes)."""
    sensitive = {
        c.span.start
        for sent in doc.sents
        if any("special_category" in c.hits for c in parts if sent.start <= c.span.start < sent.end)
        for c in parts
        if sent.start <= c.span.start < sent.end
    }
    # "can u log that i have MS? sometimes im slow to reply ...": asked to keep a special category, the turn keeps no
    # context or situation about the user at all (what it says beside it is what the condition means)
    if any(f.action == "refuse" and f.reason == r.SENSITIVE and f.explicit for f in found):
        sensitive |= {c.span.start for c in parts}
    # "we celebrate X so im off ...": what follows as its consequence is said about it too
    for before, clause in zip(parts, parts[1:], strict=False):
        words = _words(clause.span)
        if before.span.start in sensitive and words and words[0].lower_ in _CONSEQUENCE_CUES:
            sensitive.add(clause.span.start)
    return [
        _refuse(f.rule, r.SENSITIVE, f.quote, kind=f.kind)
        if f.action == "write" and f.kind in ("context", "situation") and f.extra.get("clause") in sensitive
        else f
        for f in found
    ]


def _with_facets(finding: Finding) -> Finding:
    """A preference keeps the facets its words name in the shared table, and their scope; a
    context note about a region keeps the region."""
    if finding.facets or finding.action not in ("write", "observe"):
        return finding
    if finding.kind == "preference":
        reading = preferences.read_facets(finding.quote or finding.statement)
        return replace(finding, facets=reading.facets, scope=reading.scope)
    if finding.subject == "filter_region" and finding.value:
        return replace(finding, facets={"region": finding.value.lower()})
    return finding


# --- standing wishes: a standing phrase or habit and the facets of the preference table -------

_STANDING_MARKS = frozenset({"standing", "habit", "prefer", "switch", "implicit_habit"})
_LASTING_REASON = re.compile("|".join(vocab.LASTING_REASONS))
# Signals of a habit that yield to a situation or a circumstance said beside them.
_IMPLICIT_MARKS = frozenset({"implicit_habit"})
_OF_THE_MOMENT = frozenset({"situation", "temporary", "circumstance"})
_ONE_OFF_MARKS = frozenset({"one_off"})
_NOT_WISHES = frozenset({"special_category", "reminder", "forget", "remember"})


def _after_a_one_off(inside: list[Clause]) -> list[Clause]:
    """The clauses after the last one-off said in a sentence, when "but" opens them and they carry a
    standing mark or habit ("..., but as a rule i prefer tables", "but normally euros"), else none."""
    last = max(i for i, c in enumerate(inside) if _one_off_said(c))
    rest = inside[last + 1 :]
    opening = next((t for t in rest[0].span if not t.is_punct), None) if rest else None
    if opening is None or opening.lower_ != "but":
        return []
    marked = {name for c in rest for name in c.hits} & _STANDING_MARKS or any(
        t.lower_ in vocab.HABITUAL_ADVERBS for c in rest for t in c.span
    )
    return rest if marked else []


def _one_off_said(clause: Clause) -> bool:
    """A one-off marker the user did not deny ("for all my questions, not just this one" is standing)."""
    doc = clause.span.doc
    if clause.act == "question" and clause.hits.get("one_off") and not preferences.read_facets(clause.text).facets:
        return False  # "..., and what's open in the west rn": the question's moment, no way of answering asked
    marks = [s for name in ("standing", "habit", "implicit_habit") for s, _ in clause.hits.get(name, [])]
    for start, end in clause.hits.get("one_off", []):
        before = {t.lower_ for t in doc[max(clause.span.start, start - 3) : start]}
        if before & set(vocab.ONE_OFF_DENIALS):
            continue
        # "working from the Oslo desk this week so as a rule show kroner": the one-off is the reason's,
        # and the request after "so" stands.
        if any(any(t.lower_ in ("so", "therefore") for t in doc[end:mark]) for mark in marks if mark >= end):
            continue
        return True
    return False


def _polite_request(clause: Clause) -> bool:
    """ "can you ...", "could we keep ...": a request, though it ends with a question mark; also
    after a standing condition ("every time you total things could you drop the decimals?",
    "whenever an account is named would you add ..."), and the passive "could every date be
    written out in full from now on?" when a standing phrase says it is for every answer."""
    tokens = content_tokens(clause.span)
    words = [t.lower_ for t in tokens]
    if len(words) >= 2 and words[0] in vocab.POLITE_REQUEST_VERBS and words[1] in ("you", "we", "u"):
        return True
    marks = [e for name in ("standing", "habit", "implicit_habit") for _, e in clause.hits.get(name, [])]
    if not marks:
        return False
    for n, token in enumerate(tokens[:-1]):
        # "could you ...", and the passive "could dates be yyyy-mm-dd", "can all totals be in k"
        passive = "be" in words[n + 2 : n + 5] and words[n + 1] not in ("i", "it", "that", "this", "there")
        if token.lower_ in vocab.POLITE_REQUEST_VERBS and (
            words[n + 1] in ("you", "we", "u", "everything", "all") or passive
        ):
            # the condition before the request holds a standing phrase, and asks nothing itself
            if any(e <= token.i for e in marks) and not any(w in QUESTION_WORDS - {"when"} for w in words[:n]):
                return True
            # "..., but first, can everything come through in SEK from today onwards?", "but can you
            # ALWAYS put ...": the request opens after a break, and a standing phrase is in it
            before = token.doc[token.i - 1] if token.i > clause.span.start else None
            opens = before is None or before.is_punct or before.lower_ in ("but", "and", "so", "first", "also")
            if opens and any(e > token.i for e in marks) and not any(w in QUESTION_WORDS for w in words[:n]):
                return True
    # "could every date be written out in full from now on?", "is it possible to get day-first
    # dates for all answers?": a yes/no question that asks for something standing
    opening = " ".join(words[:6])
    return len(words) > 2 and (words[0] in vocab.POLITE_REQUEST_VERBS or opening.startswith(vocab.POLITE_OPENINGS))


def _asks_politely(clause: Clause) -> bool:
    """A yes/no question in the conditional that asks Atlas for something ("could you show ...?", "would it be
    possible to ...?"); "can you do answers in french?" and "is there a way to ...?" may ask what Atlas can do, and a
    turn that says it is only curious ("just wondering") asks nothing."""
    if _CURIOUS.search(clause.span.doc.text.lower()):
        return False
    words = [t.lower_ for t in content_tokens(clause.span)]
    if len(words) > 2 and words[0] in ("could", "would") and words[1] in ("you", "u", "we"):
        return True
    return len(words) > 2 and " ".join(words[:6]).startswith(vocab.CONDITIONAL_REQUESTS)


_CURIOUS = re.compile(r"\b(?:" + "|".join(map(re.escape, vocab.CURIOSITY_HEDGES)) + r")\b")


def _carries_wish(clause: Clause) -> bool:
    """Whether a clause can carry the user's wish about answers: not a question (a polite
    "can we keep ...?" is a request), not a statement about someone else or the company, not a
    refusal's or another rule's (forget, reversal, remember). An imperative is the user's wish
    whoever its subordinate clause names ("spell out acronyms the first time they come up")."""
    if set(clause.hits) & _NOT_WISHES:
        return False
    if any(
        t.lower_ in vocab.THIRD_PERSONS
        and (t.dep_ in ("nsubj", "dative", "dobj", "pobj") or t.i and clause.span.doc[t.i - 1].lower_ in ("for", "to"))
        for t in clause.span
    ):
        # "if she ever asks u anything dont give her one", "can u pull open orders in eur for her pls": how to
        # answer someone else
        return False
    if _polite_request(clause):
        return True
    if clause.act == "question" or _reported(clause) or _someone_elses_wish(clause) or _withdraws(clause):
        return False
    if _says_what_atlas_does(clause) or _past_habit(clause) or _said_of_a_doing(clause):
        return False
    return clause.act in ("imperative", "request") or clause.subject not in ("other", "company")


def _said_of_a_doing(clause: Clause) -> bool:
    """A statement whose subject is a doing ("including them inflates the numbers", "converting from dollars
    takes me ages"): what that doing does, a reason, no wish."""
    words = _words(clause.span)
    return (
        clause.act == "statement"
        and len(words) > 2
        and words[0].tag_ == "VBG"
        and any(t.tag_ in ("VBZ", "VBD") and t.dep_ == "ROOT" for t in words[2:])
    )


def _past_habit(clause: Clause) -> bool:
    """ "i used to always get everything in thousands", "back when i was in finance i always had it
    in millions": how the user had things once, told as a story, not a wish for the answers now."""
    low = clause.lower
    if re.search(
        r"\b(?:i|we) used to\b|^\W*back (?:when|in)\b|\bat my (?:old|last|previous) (?:job|place|company)\b", low
    ):
        return True
    verbs = [t for t in clause.span if t.pos_ in ("VERB", "AUX") and t.dep_ in ("ROOT", "conj")]
    told = [t for t in verbs if any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in t.children)]
    # a past form that is the present too ("i split everything by territory") tells no story
    past = all(t.tag_ == "VBD" and t.lower_ != t.lemma_.lower() for t in told)
    return bool(told) and past and not any(t.tag_ == "MD" for t in clause.span)


def _says_what_atlas_does(clause: Clause) -> bool:
    """ "you keep dropping the city when you list accounts": what Atlas does now, said of it
    without a modal, is a complaint and wishes nothing ("you should use tables" wishes)."""
    words = content_tokens(clause.span)
    if clause.act != "statement" or not words or words[0].lower_ not in ("you", "u"):
        return False
    roots = [t for t in clause.span if t.dep_ == "ROOT"]
    if not roots or any(c.tag_ == "MD" for r in roots for c in r.children):
        return False
    root = roots[0]
    # "you keep dropping ...", "you missed ...", "you still show ..."
    return (
        root.lemma_.lower() == "keep"
        or root.tag_ == "VBD"
        or any(c.lower_ in ("still", "always", "never", "again") for c in root.children)
    )


_CONSEQUENCE_CUES = frozenset({"so", "therefore", "hence", ",", "-", ";"})
_REPLACEMENT_CUES = frozenset({",", "and", "just", "instead", "but", "only", "rather"})


def _replacement_of(clause: Clause) -> Span | None:
    return _replacement(clause) if "reversal" in clause.hits or _withdraws(clause) else None


def _replacement(clause: Clause) -> Span | None:
    """What a withdrawal asks for instead ("no bullets or tables any more, just normal
    sentences", "drop the decimals and round to whole units", "stop with the dollars, euros for
    everything"): the words after the withdrawn thing, when they name a facet; "drop the
    charts, no use to me" asks for nothing."""
    doc = clause.span.doc
    said = clause.hits.get("reversal") or [(clause.span.start, clause.span.start + 1)]
    end = max(e for _, e in said)
    cue = next((t.i for t in doc[end : clause.span.end] if t.lower_ in _REPLACEMENT_CUES), None)
    if cue is None:
        return None
    rest = doc[cue + 1 : clause.span.end]
    reading = preferences.read_facets(rest.text)
    return rest if reading and not reading.negative else None


def _withdraws(clause: Clause) -> bool:
    """ "drop the rounding thing", "never mind the word limit", "u can quit the french now": the
    clause opens with a withdrawal (after "you can") and names a facet of the preference table."""
    words = [t for t in content_tokens(clause.span) if t.lower_ not in vocab.POLITENESS]
    if len(words) > 2 and words[0].lower_ in ("you", "u") and words[1].lower_ in ("can", "could", "may"):
        words = words[2:]
    if not words or "one_off" in clause.hits:
        return False  # "drop the cents on that one": the answer on screen reshaped, no note taken back
    opening = " ".join(t.lower_ for t in words[:4])
    # the verb opens a request ("cancel the tables thing"), not a word qualifying a noun ("cancelled stuff ...")
    verb = words[0].lemma_.lower() in vocab.WITHDRAW_VERBS and words[0].tag_ not in ("VBN", "VBD", "JJ")
    said = verb or opening.startswith(vocab.WITHDRAW_PHRASES)
    if said and len(words) > 1 and words[1].tag_ == "VBG" and _negation_in_a_value(clause, at=words[0].i):
        return False  # "stop excluding cancelled orders": the value the table reads asks for them in
    return said and bool(preferences.facets_named(clause.text))


def _withdrawal(clause: Clause, text: str) -> Finding:
    """A named preference taken back: the live note holding one of its facets is forgotten
    through the store; with none to take back, a withdrawal that turns a value round ("stop
    adding charts") is kept as a standing "does not want"."""
    fallback = _negative_preference(clause, text)
    extra: dict[str, Any] = {"facets": sorted(preferences.facets_named(text))}
    if fallback is not None:
        extra["fallback"] = fallback
    subject, value = subjects.subject_value(text)
    return Finding(
        "reverse", "withdrawal", r.REVERSAL, "preference", statement=text, subject=subject, value=value, extra=extra
    )


def _someone_elses_wish(clause: Clause) -> bool:
    """ "my team wants the figures in GBP", "finance likes tables": a wish whose subject is not the user
    ("my totals need to exclude canceled orders": the answers themselves, of which the user speaks)."""
    doc = clause.span.doc
    answers = {*vocab.ANSWER_NOUNS, *vocab.HABITUAL_NOUNS}
    if _opens_with_someone_elses_wish(clause):
        return True
    return any(
        t.dep_ in _SUBJECTS
        and t.lower_ not in ("i", "me")
        and t.lemma_.lower() not in answers
        and t.head.lemma_.lower() in vocab.PREFERENCE_VERBS
        # the small model misparses "Going forward my team wants ...": a noun then "wants"
        or t.tag_ == "VBZ"
        and t.lemma_.lower() in vocab.PREFERENCE_VERBS
        and t.i > clause.span.start
        and doc[t.i - 1].pos_ in ("NOUN", "PROPN")
        for t in clause.span
    )


def _opens_with_someone_elses_wish(clause: Clause) -> bool:
    """ "priya wants everything in euros ...", "kate prefers dates as ...": a wish said in the third person at the
    head of the clause, by a name however cased."""
    opening = _THIRD_PERSON_WISH.match(clause.lower)
    return (
        opening is not None
        and opening["who"] not in vocab.ANSWER_NOUNS
        and opening["who"] not in vocab.HABITUAL_NOUNS
        and opening["who"] not in _THINGS_THAT_WANT
        and opening["who"] not in FUNCTION_WORDS
    )


# A wish said in the third person at the head of the clause ("priya wants ...", "my boss sarah always likes ..."); not
# a reason that points back ("erp needs it").
_THIRD_PERSON_WISH = re.compile(
    r"\W*(?:\w+\s+){0,2}?(?P<who>[a-z]+)\s+(?:always\s+|really\s+|only\s+|usually\s+)?"
    r"(?:" + "|".join(f"{verb}s" for verb in vocab.PREFERENCE_VERBS) + r")\b(?!\s+(?:it|them|that|this)\b)"
)
# What may "want" something without being someone ("it needs ...", "the table needs ...").
_THINGS_THAT_WANT = frozenset(
    {"it", "this", "that", "which", "what", "who", "one", "table", "list", "report", "answer"}
)


_DEFINITION = re.compile(r"\b(?:when(?:ever)?|if|by)\s+i\s+say\b.*\bi\s+mean\b")


def _reported(clause: Clause) -> bool:
    """ "I never said I prefer tables": the user reports what was said, and wishes nothing. "When
    I say Q1 I mean January to March" is no report: it says how to read the user's words."""
    if _DEFINITION.search(clause.lower):
        return False
    return any(
        t.lemma_.lower() in vocab.REPORTING_VERBS and t.dep_ == "ROOT" and t.i < clause.span.start + 4
        for t in clause.span
    )


def _speaks_against(span: Span) -> bool:
    """A value described as a nuisance ("Tables always break on my phone", "the US way trips me up"):
    said against it, never a wish for it, whatever standing word it holds. The subject is the thing,
    not the user, and its verb is one of trouble."""
    root = span.root
    subjects = [c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")]
    keeper = next(
        (
            t
            for t in span
            if t.lemma_.lower() in ("keep", "struggle")
            and any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in t.children)
        ),
        None,
    )
    if keeper is not None and _TROUBLE.search(span.text.lower()):
        # "i keep doing the utc math in my head and getting it wrong": the user's trouble with the value it names (a
        # wish said before it in the clause stands: "all times in pacific pls, i keep getting the utc maths wrong")
        return not preferences.read_facets(span.doc[span.start : keeper.i].text).facets
    if not subjects or subjects[0].lower_ in vocab.FOR_THE_USER + ("i", "we", "you", "u"):
        return False
    # the complaint is the whole clause ("Tables always break ..."), not its tail after a wish
    if root.lemma_.lower() not in vocab.NUISANCE_VERBS:
        return False
    # the complaint is the whole clause ("Tables always break ..."), not its tail after a wish
    # ("dd/mm/yyyy for dates pls, the month-first format confuses everyone")
    before_subject = span.doc[span.start : subjects[0].i].text
    return not preferences.read_facets(before_subject).facets


_TROUBLE = re.compile(
    r"\b(?:wrong|mess(?:ing)? (?:it |them )?up|confus\w*|mix(?:ing)? (?:it |them )?up|trip\w* (?:me )?up)\b"
)


def _said_of_a_thing(wish: Span, inside: list[Clause], *, anyone: bool = False) -> bool:
    """Whether the wish is a clause's whole statement about a thing or someone else (``anyone``: or the user), with
    nothing asked."""
    clause = next((c for c in inside if c.span.start <= wish.start < c.span.end), None)
    return (
        clause is not None
        and wish == clause.span
        and clause.act == "statement"
        and (anyone or clause.subject in ("thing", "other", "company"))
        # ("i want dates like 11/30/2026 now, the long ones wrap badly in my spreadsheet": a wish said as one)
        and not (clause.subject == "user" and any(t.lemma_ in vocab.PREFERENCE_VERBS for t in clause.span))
        and not any(t.lower_ in vocab.POLITENESS for t in clause.span)  # "<format> pls, the tool we use ..."
    )


def _wish_span(clause: Clause) -> Span | None:
    """The part of a clause that can carry a wish: all of it, or for a clause that states a
    condition the consequence after "so" ("I'm dyslexic so bullet points as a rule"): the
    condition itself is never read, let alone kept."""
    if "reversal" in clause.hits:
        return _replacement(clause) if _carries_wish(clause) else None
    if _withdraws(clause):
        return _replacement(clause)
    if _speaks_against(clause.span):
        return None
    if _opens_with_someone_elses_wish(clause):
        return _consequence(clause)  # "priya wants ...": hers ("audit wants the pennies back so 2 decimals ...")
    if "special_category" not in clause.hits:
        if _carries_wish(clause):
            return clause.span
        return _consequence(clause) or (_leading_wish(clause) if clause.act != "question" else None)
    doc = clause.span.doc
    end = max(e for _, e in clause.hits["special_category"])
    cue = next((t.i for t in doc[end : clause.span.end] if t.lower_ in _CONSEQUENCE_CUES), None)
    if cue is None:
        return None  # "bullets please, as I'm dyslexic": the condition is in the consequence
    rest = doc[cue + 1 : clause.span.end]
    return rest if _words(rest) else None


def _consequence(clause: Clause) -> Span | None:
    """ "the board reads these too so from now on use tables": the request after
    "so" is the user's own, whoever the reason before it is about (never after a question, unless what
    follows "so" suggests a request: "... so maybe just include it by default?")."""
    if set(clause.hits) & _NOT_WISHES:
        return None
    doc = clause.span.doc
    for token in clause.span:
        if token.lower_ in ("so", "therefore") and token.i > clause.span.start:
            rest = [t for t in doc[token.i + 1 : clause.span.end] if not t.is_punct]
            if not rest or clause.act == "question" and not suggests(rest):
                return None
            after = doc[token.i + 1 : clause.span.end]
            if any(t.lower_ in vocab.THIRD_PERSONS for t in rest):
                return None  # "... so if she ever asks u anything dont give her one": a wish for someone else
            opens = opens_standing(rest) or rest[0].lemma_.lower() in vocab.REQUEST_VERBS or suggests(rest)
            # ("... runs in sterling so pounds pls for the figures": asked for, politely)
            opens = opens or any(t.lower_ in vocab.POLITENESS for t in rest)
            return after if opens or _marked_wish(clause, after) else None
    return None


def _marked_wish(clause: Clause, span: Span) -> bool:
    """Words with a standing mark of their own that name a facet ("... so euros for everything
    from now on", "2 decimal places on all amounts from here on"): a wish, whatever comes before."""
    marked = any(
        span.start <= s and e <= span.end for name in ("standing", "habit") for s, e in clause.hits.get(name, [])
    )
    return marked and bool(preferences.read_facets(span.text))


def _leading_wish(clause: Clause) -> Span | None:
    """ "times in eastern by default pls, whole team is on ny hours now": a wish said first, then
    its reason about someone else or the company in the same clause. The words before the first
    comma or dash are the wish when they name a facet and have no subject of their own."""
    doc = clause.span.doc
    cut = next((t.i for t in clause.span if t.text in (",", "-", "\u2013", "\u2014", ";")), None)
    if cut is None or cut == clause.span.start:
        return None
    head = doc[clause.span.start : cut]
    if any(t.dep_ in ("nsubj", "nsubjpass", "expl") for t in head):
        return None
    return head if preferences.read_facets(head.text) and _words(doc[cut + 1 : clause.span.end]) else None


def standing_wishes(doc: Doc, parts: list[Clause], found: list[Finding]) -> list[Finding]:
    """Per sentence: a standing phrase or habit anywhere in it and the facets of the preference
    table its wishes name make one preference with every facet it names ("thousands of euros
    always", "top 25 is plenty, don't ever give me the full list again": the 25 is kept). It
    replaces the preference findings of that sentence's clauses; a one-off marker, a question
    or a wish about someone else keeps none (design rule: standing wish).

    A standing marker said as a sentence of its own after the wish ("ISO dates please.
    that's my default from here", "... make it the norm for every summary") holds for the
    wish before it; a marked wish that points back ("show that field by default", "write
    them in full in every reply") takes its facets from the sentence before it."""
    out = list(found)
    before: tuple[list[Clause], list[Span]] | None = None  # the last unmarked sentence with a wish
    previous_text = ""
    turn_marks = {name for c in parts for name in c.hits}
    leading: set[str] = set()  # "default timezone: CET": a mark that ends on a colon holds for what follows
    opening = ""  # "rankings only:": a label that ends on a colon scopes what follows
    # "... our whole finance team sorts by the date column", "everyone in our office reads day-first":
    # a reason that lasts makes a format asked for in the same turn a habit (it yields to a
    # situation or a circumstance said beside it, as any implicit habit does)
    # (not for a turn that asks for records: "can you show a customer's orders in a table? my spreadsheet needs
    # it" is one answer's shape)
    # (nor for a turn that takes a note back: "u can drop the credit limit now, its on my dashboard. keep the renewal
    # dates tho" is read by the withdrawal's rules)
    lasting = (
        {"implicit_habit"}
        if _LASTING_REASON.search(doc.text.lower())
        and not _asks_for_records(doc)
        and not any(f.action in ("reverse", "forget") for f in found)
        else set()
    )
    # "meh thousands still too long. millions pls": the values the turn finds wanting (read once)
    wanting = preferences.found_wanting(doc.text)
    turned_from: set[str] = set()  # the facets of a value turned down for good in an earlier sentence
    for sent in doc.sents:
        inside = [c for c in parts if sent.start <= c.span.start < sent.end]
        # (the marks of someone else's wish are theirs: "kate prefers ... - can u list upcoming renewals")
        marks = (
            {
                name
                for c in inside
                if not _opens_with_someone_elses_wish(c) or _consequence(c) is not None
                for name in c.hits
            }
            | leading
            | lasting
        )
        leading = marks & _STANDING_MARKS if sent.text.rstrip().endswith(":") else set()
        label, opening = (opening, sent.text if sent.text.rstrip().endswith(":") else "")
        wishes = [span for c in inside if (span := _wish_span(c)) is not None]
        if lasting and not (marks - lasting - leading) & _STANDING_MARKS:
            # a lasting reason makes a wish of what the user asks for, not of what a thing is said to do ("our bi
            # tool only reads yyyy-mm-dd, so annoying"), nor of the reason itself ("i sort my exports by them")
            reason = bool(_LASTING_REASON.search(sent.text.lower()))
            wishes = [w for w in wishes if not _said_of_a_thing(w, inside, anyone=reason)]
        text, previous_text = previous_text, sent.text
        if any(_one_off_said(c) for c in inside):
            # "this time a table is fine, but generally i like bullet points": after the one-off and a "but", a wish
            # with a standing mark of its own is read alone
            general = _after_a_one_off(inside)
            if not general:
                before = None
                continue
            inside = general
            marks = {name for c in inside for name in c.hits}
            wishes = [span for c in inside if (span := _wish_span(c)) is not None]
        if marks & _OF_THE_MOMENT and not marks & (_STANDING_MARKS - _IMPLICIT_MARKS):
            marks -= _IMPLICIT_MARKS  # "I'm on the road next week, so keep replies brief": for the trip
        if (
            turned_from
            and not marks & _STANDING_MARKS
            and any(set(r.facets) & turned_from for _, r in _readings(wishes))
        ):
            # "could u stop w/ the bullet lists from here on? ... plain paragraphs work way better for me": the value
            # said after one turned down for good takes its place, as standing
            marks |= {"standing"}
        stopped = {
            facet
            for c in inside
            if "reversal" in c.hits or _withdraws(c)
            for facet in preferences.read_facets(c.text).facets
        }
        if stopped and marks & _STANDING_MARKS:
            turned_from |= stopped
        if not _readings(wishes) and (number := _pointed_number(sent.text, text)) is not None:
            # "actually 6 is better", "lets go with 9": a new number for the kept note that holds one
            # (admission finds it; with none live, nothing is kept)
            pointed = _wish([sent], preferences.Reading({"limit": number}))
            if pointed is not None:
                out.append(replace(pointed, extra={**pointed.extra, "needs_existing": True, "bare_number": True}))
            before = None
            continue
        if not marks & _STANDING_MARKS:
            # "do thousands instead": a new value for a kept note ("sort that by region instead", with
            # no sort kept, is about the answer on screen and keeps nothing)
            switched = "update" in marks or preferences.is_switch(sent.text) or bool(_INSTEAD.search(sent.text.lower()))
            # a value said after one found wanting for its facet replaces the kept one
            updates = switched or any(
                value not in wanting.get(facet, {value})
                for _, reading in _readings(wishes)
                for facet, value in reading.facets.items()
                if isinstance(value, str | int)
            )
            # (a standing mark said after it, "... month first like 12/04/2026. permanently.", makes it a new wish,
            # kept whether or not one is live to replace)
            marked_later = any(name in _STANDING_MARKS for c in parts if c.span.start >= sent.end for name in c.hits)
            if updates and not marked_later and (changed := _newest_said(wishes)):
                # "reverse it, smallest first now", "turn that top 5 thing into a top 8": a new value
                # for a standing preference the user has; kept only where one is live to replace.
                out = _kept_or_replaced(out, inside, changed, needs_existing=True)
                before = None
                continue
            readings = _readings(wishes) if wishes else []
            if readings and all(_turned_down(reading, sent.text) for _, reading in readings):
                continue  # "i read it way faster than english": the value compared against, no wish of its own
            # (nor beside special-category data: "i have MS ... so i might type v short msgs" says why, not a wish)
            if (
                readings
                and not turn_marks & (_STANDING_MARKS | {"special_category"})
                and _proposed_standing(sent, marks)
            ):
                out = _kept_or_replaced(out, inside, readings, rule="semantic_standing")
                before = None
                continue
            if readings or not inside or not all(_speaks_against(c.span) for c in inside):
                # a complaint about the other value ("the month-first format confuses everyone") is
                # said beside the wish, so a marker after it still holds for the wish before it
                # ("short answers. number first, no preamble. that's my style.": every wish said before the marker)
                # (a value said again for the same facet replaces the one before it: "the times in utc mean nothing
                # to me. CET. that's how i want it")
                pending = {f for _, r in _readings(before[1]) for f in r.facets} if before is not None else set()
                if not readings:
                    before = None
                elif before is not None and not pending & {f for _, r in readings for f in r.facets}:
                    before = (before[0] + inside, before[1] + wishes)
                else:
                    before = (inside, wishes)
            continue
        readings = [(g, r) for g, r in _readings(wishes) if not _turned_down(r, sent.text)]
        if not readings and before is not None:
            inside, wishes = before[0] + inside, before[1]  # the marker holds for the wish before it
            readings = _readings(wishes)
        elif not readings and any(_points_back(w) for w in wishes):
            # what "it" points back to: a field named earlier in this sentence ("... asking for the city so maybe
            # just include it by default?"), else the sentence before
            own = doc[sent.start : min(w.start for w in wishes)].text
            said = own if preferences.field_named(own) else text
            reading = preferences.read_facets(", ".join(_resolved(w, said) for w in wishes)) if said else None
            readings = [(wishes, reading)] if reading and not reading.negative else []
        readings = [(g, _in_scope_of(sent, _as_marked(g, reading, inside), label)) for g, reading in readings]
        before = None
        if readings:
            out = _kept_or_replaced(out, inside, readings)
        elif "implicit_habit" in marks and not sent.text.rstrip().endswith("?") and not _readings(wishes):
            # "ur answers are too long for me. 30 words tops pls": a taste said as a statement that names no value
            # holds for the wish said after it
            leading = {"implicit_habit"}
    return out


_INSTEAD = re.compile(r"\binstead\b(?! of)")


def _turned_down(reading: preferences.Reading, text: str) -> bool:
    """Every value the reading names is one the sentence turns down ("faster than english", "not A-Z")."""
    if reading.negative or not reading.facets:
        return False  # "but never show pie charts": a wish against the value, said as one
    rejected = preferences.turned_down(text)
    return all(value in rejected.get(facet, []) for facet, value in reading.facets.items())


def _pointed_number(sentence: str, before: str) -> int | None:
    """A bare number said of a kept one, in this sentence or finishing the one before it."""
    found = preferences.pointed_number(sentence)
    if found is None and before:
        found = preferences.pointed_number(f"{before} {sentence}", after=len(before))
    return found


_FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself"})
# Marks under which the second opinion is not asked: a one-off, a state of the moment, an
# update or reversal (their own rules), or what a refusal rule reads (venting, a guess, ...).
_NOT_PROPOSED = _ONE_OFF_MARKS | _OF_THE_MOMENT | _NOT_WISHES | {"update", "reversal", "venting", "inference"}


def _proposed_standing(sent: Span, marks: set[str]) -> bool:
    """The semantic second opinion, asked only where the rows are silent: a turn with no
    standing mark anywhere, and a sentence whose wishes name facets, with no one-off, update
    or of-the-moment mark, no question, not in the past tense, said by the user of themselves
    ("our company's year starts in February" is the records'; a bare "use tables" is a
    request for this answer, counted across sessions by its own rule). It proposes; the
    facets the rows read are what admits (memory.gate.semantic)."""
    if marks & _NOT_PROPOSED or sent.text.rstrip().endswith("?"):
        return False
    if any(t.tag_ == "VBD" and (t.dep_ == "ROOT" or t.head.dep_ == "ROOT" or t.lower_ == "used") for t in sent):
        return False  # "i used to get ...", "i was reading ...", "my old boss liked ...": what was, not a wish
    if not any(t.lower_ in _FIRST_PERSON for t in sent):
        return False
    return semantic.proposes_standing(sent.text)


def _standing_by_reference(
    doc: Doc, hits: dict[str, list[tuple[int, int]]], found: list[Finding], before: str
) -> list[Finding]:
    """A standing marker that points back at the turn before ("nice, keep doing that for
    everything" after "sales by month, in thousands pls"; "make that the default"): the facets
    that turn asked for, kept as standing. Only where this turn names no facet of its own, says
    no one-off, and the turn before named facets; its own facet-less wish ("Wants Atlas to carry
    on like that.") goes, having nothing to apply."""
    if not before or not set(hits) & _STANDING_MARKS or set(hits) & _ONE_OFF_MARKS:
        return found
    if not any(t.lower_ in _POINTING_BACK for t in doc) or preferences.read_facets(doc.text).facets:
        return found
    if any(f.action == "write" and f.kind != "preference" for f in found):
        return found
    reading = preferences.read_facets(normalise(before).text)
    statement = preferences.statement_for(reading.facets, reading.scope) if reading.facets else ""
    if not statement or reading.negative:
        return found
    kept = [f for f in found if not (f.action == "write" and f.kind == "preference")]
    made = _preference_finding("standing_by_reference", statement, doc.text, scope=reading.scope, facets=reading.facets)
    return [*kept, made]


def _points_at_screen(statement: str) -> bool:
    return bool(re.search(r"\blike (?:this|that|these|those)\b", statement.lower()))


_POINTING_BACK = frozenset({"that", "it", "them", "those", "this", "these"})


def _points_back(span: Span) -> bool:
    """A wish whose object points to what was said before ("show that field", "write them in full")."""
    return any(t.lower_ in _POINTING_BACK and t.dep_ in ("det", "dobj", "obj", "pobj", "nsubj") for t in span)


def _resolved(wish: Span, before: str) -> str:
    """The wish with what it points back to put in its place: a field the sentence before
    names ("you keep dropping the city ... show that field" adds the city), else the words
    of that sentence ("write them in full" after "the abbreviations confuse me")."""
    field = preferences.field_named(before)
    antecedent = preferences.FIELD_LABELS[field] if field else before
    out: list[str] = []
    replaced = False
    skip = -1
    for token in wish:
        if token.i == skip:
            out.append(token.whitespace_)  # "that field": the noun goes with its pointer
        elif not replaced and token.lower_ in _POINTING_BACK:
            replaced = True
            out.append(antecedent + token.whitespace_)
            if token.dep_ == "det" and token.i + 1 < wish.end and wish.doc[token.i + 1].pos_ == "NOUN":
                skip = token.i + 1
        else:
            out.append(token.text_with_ws)
    return "".join(out)


def _in_scope_of(sent: Span, reading: preferences.Reading, label: str = "") -> preferences.Reading:
    """A wish read alone ("add the city beside each") holds where the sentence's condition says
    ("so when u give me a list of customers, add the city beside each"), or the label before it
    ("rankings only: ..."): the scope is the sentence's."""
    if reading.scope != preferences.GLOBAL:
        return reading
    scope = preferences.scope_of(sent.text.lower())
    if scope == preferences.GLOBAL and label:
        scope = preferences.scope_of(label.lower())
    return replace(reading, scope=preferences.widest(scope, reading.facets)) if scope != preferences.GLOBAL else reading


def _as_marked(group: list[Span], reading: preferences.Reading, inside: list[Clause]) -> preferences.Reading:
    """Where the sentence's clauses name two values of one facet, the clause that carries the
    standing phrase says which is wanted ("tables are hard on my phone, bullets as the norm
    please": bullets)."""
    marked = [
        w for w in group for c in inside if c.span.start <= w.start < c.span.end and set(c.hits) & _STANDING_MARKS
    ]
    if len(group) < 2 or not marked:
        return reading
    facets = dict(reading.facets)
    for wish in marked:
        own = preferences.read_facets(wish.text)
        for facet, value in own.facets.items():
            if facet in facets and facets[facet] != value and not own.negative:
                facets[facet] = value
    return replace(reading, facets=facets) if facets != reading.facets else reading


def _newest_said(wishes: list[Span]) -> list[tuple[list[Span], preferences.Reading]]:
    """An update's facets: where its clauses name two values of a facet, the one said last is the
    new one ("about the bullets thing: swap it, tables now")."""
    readings = _readings(wishes)
    if len(readings) != 1 or len(wishes) < 2:
        return readings
    group, reading = readings[0]
    facets = dict(reading.facets)
    for wish in wishes:
        own = preferences.read_facets(wish.text)
        if not own.negative:
            facets.update({f: v for f, v in own.facets.items() if f in facets})
    return [(group, replace(reading, facets=facets))]


def _readings(wishes: list[Span]) -> list[tuple[list[Span], preferences.Reading]]:
    """The facets the wishes name: one reading for the wishes together, and one for each that
    turns its facets round ("but never show pie charts" is a wish of its own)."""
    against = [w for w in wishes if preferences.read_facets(w.text).negative]
    groups = [[w for w in wishes if w not in against]] + [[w] for w in against]
    readings = [(g, preferences.read_facets(", ".join(w.text.strip() for w in g))) for g in groups if g]
    readings = [(g, reading) for g, reading in readings if reading]
    # "stop with the dollars, euros for everything": the value wanted says what the one turned
    # down says; the turned-down one is no wish of its own.
    wanted = set().union(*(set(r.facets) for _, r in readings if not r.negative))
    # ("write money as USD 12,500.00, not with the $ sign": the symbol turned down is the display's, no currency)
    if "currency_display" in wanted:
        wanted.add("currency")
    return [(g, r) for g, r in readings if not (r.negative and set(r.facets) <= wanted)]


def _kept_or_replaced(
    out: list[Finding],
    inside: list[Clause],
    readings: list[tuple[list[Span], preferences.Reading]],
    *,
    needs_existing: bool = False,
    rule: str = "standing_wish",
) -> list[Finding]:
    starts = {c.span.start for c in inside}
    said = [f for f in out if f.kind == "preference" and f.extra.get("clause") in starts]
    kept = {
        id(f): preferences.read_facets(f.quote)
        for f in said
        # "Wants lists ordered like this one.": a statement that points at the
        # answer on screen is no sentence to keep; the facets' own sentence is
        if f.action == "write"
        and not statements.lint(f.statement)
        and not _points_at_screen(f.statement)
        and preferences.states_its_values(f.statement, preferences.read_facets(f.quote).facets)
    }
    wanted = set().union(*(reading.facets for _, reading in readings))
    if kept and set().union(*(k.facets for k in kept.values())) >= wanted:
        # The clauses' own notes already say every facet the sentence names: they stay, each with
        # its facets, and where a clause names no condition, the sentence's ("rule for contract
        # questions: always show me the credit limit")
        scopes = {reading.scope for _, reading in readings} - {preferences.GLOBAL}
        around = next(iter(scopes)) if len(scopes) == 1 else preferences.GLOBAL

        def scoped(k: preferences.Reading) -> str:
            return k.scope if k.scope != preferences.GLOBAL else preferences.widest(around, k.facets)

        return [replace(f, facets=kept[id(f)].facets, scope=scoped(kept[id(f)])) if id(f) in kept else f for f in out]
    out = [f for f in out if f not in said]
    found = [f for g, reading in readings if (f := _wish(g, reading, rule=rule)) is not None]
    if needs_existing:
        found = [replace(f, extra={**f.extra, "needs_existing": True}) for f in found]
    return out + found


def _wish(group: list[Span], reading: preferences.Reading, *, rule: str = "standing_wish") -> Finding | None:
    statement = preferences.statement_for(reading.facets, reading.scope, negative=reading.negative)
    if not statement:
        return None
    text = ", ".join(w.text.strip() for w in group)
    return _preference_finding(rule, statement, text, scope=reading.scope, facets=reading.facets)


def _preference_finding(rule: str, statement: str, text: str, **read: Any) -> Finding:
    """A standing preference to write: its statement, the user's words, and what was read of them."""
    subject, value = subjects.subject_value(text)
    return Finding(
        "write",
        rule,
        r.STANDING_PREFERENCE,
        "preference",
        statement,
        subject=subject,
        value=value,
        quote=text,
        echo=statements.echo(statement, said=text),
        confidence=0.95,
        **read,
    )


def questions_in(text: str) -> list[str]:
    """The clauses of ``text`` that ask something ("Remember that I look after Aurora and how
    many open orders are in Denver?" asks the second), as the user wrote them."""
    visible = policy.visible_text(text)
    if not visible:
        return []
    doc = parse_turn(visible)
    out = []
    for clause in clauses(doc, rules.match(doc)):
        words = _words(clause.span)
        if clause.act == "question" and words:
            out.append(doc[words[0].i : clause.span.end].text.strip())
    return out


def _legible(finding: Finding) -> Finding:
    """A note Atlas words itself must pass the statement lint; a garbled one is refused, never
    stored (a correction keeps the user's own words and is not linted)."""
    if finding.action != "write" or finding.kind == "correction" or not statements.lint(finding.statement):
        return finding
    return _refuse(finding.rule, r.GARBLED, finding.quote, kind=finding.kind, explicit=finding.explicit)


def _analyse_clauses(parts: list[Clause], *, at: datetime, quote: str) -> list[Finding]:
    out: list[Finding] = []
    explicit_next = correcting = remembering = updating = False
    replacing: list[str] = []
    history: list[tuple[Clause, int]] = []  # every clause so far, and how many findings before it
    # "Make it brief, I'm in a taxi": a one-off reason anywhere makes the turn's format requests one-off.
    marks = {name for clause in parts for name in clause.hits}
    one_off = "one_off" in marks or "circumstance" in marks and not marks & (_STANDING_MARKS - _IMPLICIT_MARKS)
    for clause in parts:
        if explicit_next and history and _opens_pointing_back(clause):
            # "i own A and B. worth keeping in mind, that's most of what i'll ask about": the request keeps what came
            # before it, not the remark that points back at it
            explicit_next = False
            out = _kept_before_the_request(history, out, replacing, updating, at=at, quote=quote)
            history.clear()
            continue
        trigger = clause.starts_with("remember")
        if trigger and _SAVED_AS_A_FILE.match(clause.span.doc[trigger[1] : clause.span.end].text.lower()):
            trigger = None  # "save the following into a csv for me: ...": records asked for as a file, nothing kept
        # "Remember that I cover Leeds and (that) I report to Dana": the request holds both.
        # (A clause a rule of its own reads, "and I was moved to ...", stays that rule's.)
        joined = remembering and _goes_on_about_the_user(clause)
        plain = analyse_clause(clause, at=at, quote=quote, earlier=out, one_off=one_off) if joined else None
        go_on = joined and plain is None
        remembering = False
        if (trigger or explicit_next or go_on) and not _is_reminder(clause):
            start = trigger[1] if trigger else clause.span.start
            content = _content(clause.span.doc, start, clause.span.end)
            if content is not None and _only_names_a_subject(content):
                content = None  # "remember my role pls, im a collections analyst": what follows says it
            corrects = any(f.kind == "correction" and f.action == "write" for f in out)
            # (a request that ends the turn is read after the loop, where a correction asked to be kept stays one)
            ends = clause is parts[-1]
            waiting = content is None and not ends and _keeps_what_was_said(clause, trigger) if trigger else False
            if trigger and history and not corrects and (waiting or _points_back_then_why(clause, trigger, history)):
                # "acme group is mine (york, lyon) - can u hold onto that? also ...": the
                # request keeps what the user said of themselves before it, not the question after it
                users = [h for h in history if h[0].subject == "user"]
                # (with the statements of that clause's sentence: "... - i sign off on limits, i dont sell anything")
                picked = _said_before_the_request(history[: history.index(users[-1]) + 1] if users else history)
                kept, before = picked if picked is not None else history[-1]
                del out[before:]
                span = clause.span.doc[kept.span.start : clause.span.start]
                found = analyse_explicit(span, kept, at=at, quote=quote)
                if found is not None:
                    out.append(replace(found, extra={**found.extra, "clause": kept.span.start}))
                history.clear()
                continue
            updating = updating or bool(trigger and _asks_to_update(clause, trigger))
            if content is None:
                replacing = _replaced_words(clause.span.doc[start : clause.span.end]) or replacing
                explicit_next = True
                continue
            explicit_next = False
            remembering = True
            found = analyse_explicit(content, clause, at=at, quote=quote)
            if updating and found is not None and found.kind == "context":
                # "update what u have on me: ...": the new note replaces the older one about the same thing
                statement, _ = _without_what_is_over(found.statement)
                found = replace(found, statement=statement, supersedes=True, extra={**found.extra, "updates": True})
            updating = False
        elif (over := _what_is_over(clause, clause.text)) is not None:
            found = over
        elif (verdict := _verdict(clause)) and not correcting:
            rest = clause.span.doc[verdict[1] : clause.span.end]
            correcting = True
            found = _chat_correction(rest, quote) if _words(rest) else None
        elif correcting:
            # "that's wrong: X moved to Y, stop showing X": the correction is the checkable
            # statement; a request after it ("stop showing X") is no second correction.
            # A correction keeps one note: a statement after it is its reason, its history or what
            # is so now ("..., it got revised in feb", "the depot shut, everything sits in Zaragoza
            # now"), and joins it, in the user's words.
            asks = clause.act in ("imperative", "request") or "reversal" in clause.hits
            said = next((f for f in out if f.kind == "correction" and f.action == "write"), None)
            if said is not None and not asks and _words(clause.span):
                whole = _chat_correction(clause.span.doc[said.extra["from"] : clause.span.end], quote)
                if whole is not None:
                    out[out.index(said)] = replace(whole, extra={**said.extra})
                found = None
            else:
                found = None if asks or said else _chat_correction(clause.span, quote)
        elif clause.starts_with("forget") and not _is_reminder(clause):
            found = _forget(clause, quote)
        else:
            found = (
                plain if plain is not None else analyse_clause(clause, at=at, quote=quote, earlier=out, one_off=one_off)
            )
        history.append((clause, len(out)))
        if found is not None:
            out.append(replace(found, extra={**found.extra, "clause": clause.span.start}))
    previous = _said_before_the_request(history)
    corrected = previous is not None and any(f.kind == "correction" and f.action == "write" for f in out[previous[1] :])
    # ("remember im on the sales ops team. ... can u hold onto that too": what was asked to be kept already is)
    requested = previous is not None and bool(previous[0].starts_with("remember"))
    if explicit_next and previous is not None and not corrected and not requested:
        # a trailing request to keep ("..., note that down") makes the clause before it explicit (a correction
        # asked to be remembered, "that's old, X moved to Y. pls remember that", stays a correction).
        out = _kept_before_the_request(history, out, replacing, updating, at=at, quote=quote)
    return out


def _kept_before_the_request(
    history: list[tuple[Clause, int]], out: list[Finding], replacing: list[str], updating: bool, *, at: datetime,
    quote: str,
) -> list[Finding]:  # fmt: skip
    """The findings with what a keep request points back at read as asked to be kept, in place of what was read of it
    before."""
    previous = _said_before_the_request(history)
    if previous is None:
        return out
    clause, before = previous
    read = [f for f in out[before:] if f.action == "write" and f.kind == "situation"]
    out = out[:before]
    found = analyse_explicit(clause.span, clause, at=at, quote=quote)
    if found is not None and found.kind == "context" and read:
        # "i've been pulled onto audit prep for the next little while, worth remembering ...": asked to be kept,
        # a state with an end stays a situation
        found = replace(read[0], rule=found.rule, reason=r.EXPLICIT_REQUEST, explicit=True)
    if found is not None and replacing and found.kind == "context":
        # "..., note that down instead of the wholesale bit": it replaces the note so named
        found = replace(found, supersedes=True, extra={**found.extra, "replaces": replacing})
    elif found is not None and updating and found.kind == "context":
        # "moved to the south team, pls update your notes on me": it replaces the older note about the same thing
        statement, _ = _without_what_is_over(found.statement)
        found = replace(found, statement=statement, supersedes=True, extra={**found.extra, "updates": True})
    return out + ([replace(found, extra={**found.extra, "clause": clause.span.start})] if found is not None else [])


def _opens_pointing_back(clause: Clause) -> bool:
    """A clause that opens by pointing back at what was said ("that's most of what i'll ask about", "this is why i
    ask"): a remark on it, nothing of its own to keep."""
    words = _words(clause.span)
    return len(words) > 1 and words[0].lower_ in ("that", "this") and words[1].lemma_ == "be"


_SAVED_AS_A_FILE = re.compile(
    r"\W*(?:\w+\s+){0,3}?(?:into|to|as|in)\s+(?:a|an|the|one)?\s*(?:" + "|".join(vocab.FILE_WORDS) + r")\b"
)


def _said_before_the_request(history: list[tuple[Clause, int]]) -> tuple[Clause, int] | None:
    """What a keep request that ends the turn points back at: the last clause that says something ("Please,"
    says nothing), with the statements of its sentence before it ("my accounts are the UK ones - Leeds and
    Manchester, so the north region."), as one clause; and how many findings came before it."""
    said = [h for h in history if not _says_only_politeness(h[0].span)]
    while len(said) > 1 and _records_said_behind(said[-1][0].span):
        said = said[:-1]  # "X moved to net 45 last month, ur data still says net 30, pls remember": the change is kept
    if not said:
        return history[-1] if history else None
    last, _ = said[-1]
    group = [said[-1]]
    for clause, before in reversed(said[:-1]):
        if clause.span.sent != last.span.sent or clause.act == "question" or clause.span.end > group[0][0].span.start:
            break
        if _preface(clause.span) or clause.subject in ("assistant", "other"):
            # "before i forget - ...", "quick one: ...", "since you seem to forget everything, ...": what opens the
            # sentence is no part of it
            break
        group.insert(0, (clause, before))
    if len(group) == 1:
        return group[0]
    first, before = group[0]
    hits: dict[str, list[tuple[int, int]]] = {}
    for clause, _ in group:
        for name, spans in clause.hits.items():
            hits.setdefault(name, []).extend(spans)
    return replace(first, span=first.span.doc[first.span.start : last.span.end], hits=hits), before


_BEHIND = re.compile(
    r"\b(?:"
    + "|".join((*vocab.RECORD_STORES, "data", "ur", "your", "you"))
    + r")\b.*\bstill\s+(?:says?|shows?|has|have|"
    r"lists?|reads?)\b"
)


def _records_said_behind(span: Span) -> bool:
    """A clause saying what the records still hold ("ur data still says net 30", "the system still shows dallas"):
    why the change before it is told, no fact of its own."""
    return bool(_BEHIND.search(span.text.lower()))


def _preface(span: Span) -> bool:
    """A few words set off by a dash or colon before what is said ("before i forget -", "quick one:")."""
    doc = span.doc
    words = _words(span)
    after = doc[span.end] if span.end < len(doc) else None
    closing = (words and span[-1].text in ("-", ":", "\u2014", "\u2013")) or (
        after is not None and after.text in ("-", ":", "\u2014", "\u2013")
    )
    return bool(closing) and 0 < len(words) <= 5


def _says_only_politeness(span: Span) -> bool:
    return all(
        t.lower_ in vocab.POLITENESS or t.lower_ in vocab.TRAILING_ASIDES or t.pos_ == "INTJ" for t in _words(span)
    )


_VAGUE_WORDS = frozenset({"thing", "stuff", "one", "bit", "old", "previous", "other", "earlier", "the", "that", "this"})


def _points_back_then_why(clause: Clause, trigger: tuple[int, int], history: list[tuple[Clause, int]]) -> bool:
    """A keep request whose pointer ("dont forget it", "worth keeping that", "hang onto this") points back at a
    statement of the user's before it, with why or when it matters after it ("..., ill be asking about them",
    "... for when i ask who signs off"); not a pointer ahead of a colon or dash ("keep this in mind: ...")."""
    doc = clause.span.doc
    if not any(
        c.subject == "user"
        or (c.subject == "thing" and _first_person(c.span))  # "the north enterprise accounts are mine"
        or _says_what_is_the_users(c.span)
        or _names_a_role(c.span)
        for c, _ in history
    ):
        return False  # ("my manager is ...", "my region: east": the user's own, said of their things)
    around = doc[trigger[0] : min(trigger[1] + 1, clause.span.end)]
    pointers = [t for t in around if t.lower_ in ("that", "it", "this") and t.dep_ != "mark"]
    # ("worth keeping for when i ask who signs off": no pointer, but what follows only says when it matters)
    purpose = _PURPOSE_AFTER.match(doc[trigger[1] : clause.span.sent.end].text.lower())
    if not pointers and not purpose:
        return False
    # ("keep on file that i cover ...": a "that" before a clause of its own opens it, pointing at nothing)
    if pointers and pointers[-1].i + 1 < len(doc) and doc[pointers[-1].i + 1].lower_ in _OPENS_A_CLAUSE:
        return False
    after = doc[trigger[1] : clause.span.end]
    if any(t.lower_ in _NAMES_SOMEONE - {"i", "we"} for t in after):
        return False  # "can u save that for her": someone else's
    if not any(t.pos_ in ("VERB", "AUX") for t in doc[trigger[1] : clause.span.sent.end]):
        return False  # "keep it in mind til then pls": only how long, read as a request that ends the turn
    return not any(t.text in (":", "-", "\u2014", "\u2013") for t in after)


_PURPOSE_AFTER = re.compile(r"\W*(?:for when|in case|for if|so (?:that )?(?:you|u)\b)")
_OPENS_A_CLAUSE = frozenset(
    {"i", "i'm", "we", "my", "our", "the", "a", "an", "he", "she", "they", "there", "it", "its", "it's", "their"}
)


def _keeps_what_was_said(clause: Clause, trigger: tuple[int, int]) -> bool:
    """Whether a keep request with nothing after it points back at what was just said ("can u hold
    onto that?", "log that pls") rather than ahead at what follows ("save this:", "note this -")."""
    doc = clause.span.doc
    said = doc[trigger[0] : trigger[1]]
    if any(t.lower_ == "this" for t in said):
        # "please save this in your notes, for the next conversations. thank you": nothing follows to keep
        return all(t.is_punct or t.is_space or t.lower_ in _SIGN_OFF_WORDS for t in doc[trigger[1] :])
    if not any(t.lower_ in ("that", "it") for t in said):
        return False
    after = [t for t in doc[trigger[1] : clause.span.end] if not t.is_space]
    return not any(t.text in (":", "-", "\u2014", "\u2013") for t in after)


# What may close a keep request that points back: why and for when it is kept, and thanks.
_SIGN_OFF_WORDS = _POINTERS | {
    "the", "future", "conversations", "conversation", "chats", "chat", "sessions", "session", "thank", "you", "thx",
    "cheers", "in", "to", "of", "your", "notes", "memory",
}  # fmt: skip


def _asks_to_update(clause: Clause, trigger: tuple[int, int]) -> bool:
    """Whether the keep request asks to change what Atlas holds ("tweak what u know about me:")."""
    return any(t.lemma_ in vocab.UPDATE_VERBS for t in clause.span.doc[trigger[0] : trigger[1]])


def _replaced_words(span: Span) -> list[str]:
    """The words that name the note a keep request replaces ("instead of the wholesale bit": wholesale)."""
    text = span.text.lower()
    for lead in ("instead of", "rather than", "in place of"):
        if lead in text:
            rest = text.split(lead, 1)[1]
            return [w for w in re.findall(r"[a-z][a-z-]+", rest) if w not in _VAGUE_WORDS]
    return []


def _goes_on_about_the_user(clause: Clause) -> bool:
    """A statement of the user's joined to the one before by "and" ("..., and I handle Acme"
    and "... . And I handle Acme" keep their "and")."""
    words = _words(clause.span)
    before = [t for t in clause.span.doc[clause.span.sent.start : clause.span.start] if not t.is_punct]
    joined = bool(words and words[0].lower_ == "and") or bool(before and before[-1].lower_ == "and")
    return joined and clause.act == "statement" and clause.subject == "user"


def _verdict(clause: Clause) -> tuple[int, int] | None:
    """ "That's wrong: ...", "No, ...": a verdict that opens the clause and stands on its own."""
    found = clause.starts_with("verdict")
    if found is None:
        return None
    start, end = found
    end = max(e for s, e in clause.hits["verdict"] if s == start)  # "no that's old", not "no"
    doc = clause.span.doc
    alone = end >= clause.span.end or doc[end].is_punct
    # "nah they renewed early, ...", "nope its net 30": a bare denial straight before what is so now
    denies = (
        doc[start].lower_ in vocab.BARE_DENIALS
        and end < clause.span.end
        and doc[end].pos_ in ("PRON", "DET")
        and doc[end].lower_ not in vocab.FIRST_PERSON
    )
    return (start, end) if alone or denies or end - start > 1 else None


def _is_reminder(clause: Clause) -> bool:
    """ "Remember to ...", "Don't forget to ...": a reminder opens the clause."""
    tokens = content_tokens(clause.span)
    first = tokens[0].i if tokens else clause.span.start
    return any(start <= first + 2 for start, _ in clause.hits.get("reminder", []))


def _words(span: Span) -> list[Token]:
    return [t for t in span if not t.is_punct and not t.is_space]


_KEPT_UNTIL_BACK = re.compile(rf"(?:{'|'.join(vocab.UNTIL_WORDS)})\s+(?:i'm|im|i\s+am|i\s+get)\s+back\b", re.IGNORECASE)


# Pronouns that name someone after a keep request ("can u save that for her", "remember that I ..."): not nothing.
_NAMES_SOMEONE = frozenset({"i", "we", "he", "him", "his", "she", "her", "hers", "they", "them", "their", "theirs"})
# Parts of speech that name nothing: a preposition, a determiner, a pronoun, an interjection, a particle.
_EMPTY_PARTS = frozenset({"ADP", "DET", "PRON", "INTJ", "PART", "CCONJ", "SCONJ"})


def _content(doc: Doc, start: int, end: int) -> Span | None:
    """What follows "remember that": None when nothing does (the content is the next clause)."""
    while start < end and (doc[start].lower_ in _STRIP_WORDS or doc[start].is_punct):
        if doc[start].lower_ == "that" and doc[start].dep_ == "det":
            break  # "remember that report?": a determiner, not the complementiser
        if doc[start].lower_ in ("that", "this") and start + 1 < end and doc[start + 1].lemma_ == "be":
            # "worth keeping in mind, that's most of what i'll ask about": what was said, pointed back at
            return None
        start += 1
    span = doc[start:end]
    opening = next((t for t in span if not t.is_punct and t.lower_ not in vocab.POLITENESS), None)
    if opening is not None and (opening.lower_ in vocab.REASON_OPENERS or _opens_why_or_when(opening)):
        # "remember that pls so nobody expects replies", "worth remembering since she signs off my reports",
        # "note it for whenever i query local customers": why or when it matters; the content is before
        return None
    # "hang on to this for me: I report to ...", "log this for later - ...", "for the record, hang
    # on to this: ...": words that only point at what comes after the colon or dash, or ask again
    asks_again = {i for s, e in rules.match(doc).get("remember", []) for i in range(s, e)}
    # "hold onto this til i'm back: ...", "add to ur notes on me till im back: ...": how long to keep it
    for bound in _KEPT_UNTIL_BACK.finditer(span.text):
        asks_again |= {t.i for t in span if bound.start() <= t.idx - span.start_char < bound.end()}

    def points(t: Token) -> bool:
        return t.lower_ in _POINTING_AHEAD or t.is_punct or t.i in asks_again

    def says_nothing(tokens: Iterable[Token]) -> bool:
        """Words that only point, say for when it is kept ("for down the line", "for our next convo") or tag the
        request ("about me", "yeah?"): no verb, no name, no thing of their own."""
        return all(
            points(t)
            or t.lower_ in vocab.OCCASION_WORDS
            or (t.pos_ in _EMPTY_PARTS and t.lower_ not in _NAMES_SOMEONE)
            or t.lower_ in vocab.TRAILING_ASIDES
            for t in tokens
        )

    for token in span:
        if (
            token.lower_ == "that"
            and token.dep_ != "det"
            and token.i > span.start
            and says_nothing(doc[start : token.i])
        ):
            return _content(doc, token.i + 1, end)  # "noting for our future chats that the east is mine"
        if token.text in (":", "-", "—", "–", ",") and token.i + 1 < end:
            # ("pls note for your records, im at ...": a comma after words that only point ahead)
            if says_nothing(doc[start : token.i]):
                return _content(doc, token.i + 1, end)
            if token.text != ",":
                break
    if says_nothing(_words(span)):
        return None  # "save this for later chats: ...", "stash that for down the line, yeah?": the content is before
    reason = next((t for t in span if t.lower_ in vocab.REASON_OPENERS), None)
    if reason is not None and says_nothing(doc[span.start : reason.i]):
        return None  # "keep that in ur back pocket for next time so i dont have to say it": why, not what
    span = _without_asides(span)
    if span.text.lower().startswith(("instead of", "rather than", "in place of")):
        return None  # "..., note that down instead of the wholesale bit": the clause before
    return span if _words(span) else None


def _opens_why_or_when(token: Token) -> bool:
    """A word that opens a clause saying why or when something matters ("since she signs off ...", "as he asks
    for ...", "when i query ...", "in case i ask ..."), not a preposition ("since monday")."""
    if token.lower_ == "in" and token.i + 1 < len(token.doc) and token.doc[token.i + 1].lower_ == "case":
        return True
    if token.lower_ in ("when", "whenever"):
        return token.dep_ == "advmod" and token.head.pos_ in ("VERB", "AUX")
    return token.lower_ in _WHY_OR_WHEN_MARKS and token.dep_ == "mark"


_WHY_OR_WHEN_MARKS = frozenset({"since", "as", "because", "bc", "cuz", "if", "once", "while", "whenever"})


def _without_asides(span: Span) -> Span:
    """The span without a tag question or an aside at its end ("I handle the Benelux distributors btw", "my manager
    is keisha btw"): the aside goes, the full stop too."""
    span = without_tag(span)
    words = _words(span)
    while len(words) > 1 and words[-1].lower_ in vocab.TRAILING_ASIDES:
        words.pop()
        span = span.doc[span.start : words[-1].i + 1]
    opened = [t for t in span if t.text == "("]
    if span[-1].text == ")" and opened and opened[-1].i > span.start:
        # "marco's my boss now (took over from lena in april)": an aside with a verb of its own ("my accounts
        # (acme, beta)" keeps its names)
        inside = span.doc[opened[-1].i + 1 : span.end - 1]
        if any(t.pos_ in ("VERB", "AUX") for t in inside):
            span = span.doc[span.start : opened[-1].i]
    return span


def _chat_correction(span: Span, quote: str) -> Finding | None:
    # "wrong one mate, it's ...", "nope lol, ...": the words addressed to Atlas are no part of it
    words = list(dropwhile(lambda t: t.lower_ in vocab.ADDRESS_TERMS or t.pos_ == "INTJ", _words(span)))
    if not words:
        return None
    # "No, the contract ends in June": the correction is quoted from its first word, not the comma.
    found = analyse_correction(span.doc[words[0].i : span.end].text, rule="chat_correction")
    return replace(found, extra={**found.extra, "from": words[0].i}) if found.action == "write" else None


_YOU_KNOW = re.compile(r"you (?:know|have|remember|said|noted) (?:about|on)")  # three words


_FORGET_IDIOM = re.compile("|".join(vocab.FORGET_IDIOMS), re.IGNORECASE)


def _forget(clause: Clause, quote: str) -> Finding | None:
    opening = clause.starts_with("forget")
    if opening is None:
        return None
    start, end = opening
    doc = clause.span.doc
    target = [t for t in doc[end : clause.span.end] if not t.is_space]
    while target and target[0].lower_ in (
        "that",
        "about",
        "the",
        "note",
        "memory",
        "what",
        "i",
        "said",
        "you",
        "thing",
        # "forget my earlier instruction about credit limits": the instruction named by what it was about
        "earlier",
        "previous",
        "last",
        "old",
        "instruction",
        "request",
        "re",
    ):
        if target[0].lower_ == "i" and len(target) > 1 and target[1].lower_ != "said":
            break
        if target[0].lower_ in _EARLIER and len(target) > 1 and target[1].lower_ in vocab.EARLIER_WISH_NOUNS:
            target = target[2:]  # "forget that earlier instruction about ...": what it was about
            continue
        if target[0].lower_ == "you":  # "what you know about my office", "what you have on me"
            if not _YOU_KNOW.match(" ".join(t.lower_ for t in target[:3])):
                break
            target = target[2:]
        target = target[1:]
    for n, token in enumerate(target[1:-1], start=1):
        # "forget the segment thing, its no use to me now": the reason after it names no note
        # ("..., moving teams and no idea where yet": a gerund opens the reason too)
        after = target[n + 1]
        if token.text in (",", ";", "-", "\u2013", "\u2014") and (
            after.lower_ in _REASON_OPENERS or after.tag_ == "VBG"
        ):
            target = target[:n]
            break
    query = statements.text_of(target).strip(" .!?")
    if not query or query.lower() in vocab.VAGUE_TARGETS:
        return None
    return Finding("forget", "forget", r.FORGET_REQUEST, statement=query, quote=quote)


_EARLIER = frozenset({"my", *vocab.EARLIER_WORDS})


# Words that open a reason said after what is forgotten ("..., it's no use now", "..., i never read it").
_REASON_OPENERS = frozenset(
    {"its", "it", "it's", "that's", "thats", "i", "i'm", "im", "no", "not", "since", "because", "as", "cos",
     "they", "we", "don't", "dont", "never", "nobody", "too"}
)  # fmt: skip


# --- what follows "remember that" ----------------------------------------------------------


def analyse_explicit(content: Span, clause: Clause, *, at: datetime, quote: str) -> Finding | None:
    """An explicit request: context, preference or situation by its content."""
    rule = "explicit"
    content = _after_its_cause(_without_asides(content))
    first = content[0]
    if (first.lower_ == "that" and first.dep_ == "det") or first.lower_ in QUESTION_WORDS:
        return None  # "Remember that spreadsheet from Monday?", "remember what we said?": a question
    if content.text.rstrip().endswith("?") and clause.act == "question" and not _asked_as_a_favour(content):
        return None  # ("would you mind noting that the east is mine?": the question mark only asks politely)
    hits = {name: spans for name, spans in clause.hits.items()}
    inside = {name for name, spans in hits.items() if any(content.start <= s for s, _ in spans)}
    if "special_category" in inside:
        return _refuse(rule, r.SENSITIVE, quote, explicit=True)
    if "inference" in inside and any(doc_token.lower_ == "never" for doc_token in content):
        # "just so u know ive never built a forecast on my own before": a skill, even asked to be kept
        return _refuse(rule, r.INFERENCE, quote, explicit=True)
    who = "user" if _says_what_is_the_users(content) else grammatical_subject(content)
    if who in ("other", "assistant") or _heard_of_others(content):
        # "remember that you should ...": Atlas is no note's subject; "i hear X is opening a plant": X's news
        return _refuse(rule, r.NOT_ABOUT_USER, quote, explicit=True)
    if (over := _what_is_over(replace(clause, span=content), content.text)) is not None:
        return over  # "fyi, I no longer look after the central region"
    words = [t.lower_ for t in content_tokens(content)]
    if len(words) > 2 and words[0] in ("my", "this", "the") and words[1] in vocab.TURN_NOUNS:
        return _refuse(rule, r.QUESTION, quote, explicit=True)  # "note my question is about 2025 only": this turn
    situation = _situation(content, inside, at=at, dated=True) or _open_ended_state(content, who, at=at)
    if situation is not None:
        return replace(situation, rule=rule, reason=r.EXPLICIT_REQUEST, explicit=True, quote=quote)
    preference = _preference(content, inside, quote=quote, explicit=True)
    if preference is not None:
        return replace(preference, rule=rule, reason=r.EXPLICIT_REQUEST, explicit=True)
    if who != "user" and not _first_person(content):
        # "at a workshop in denver, back in a week, remember it pls": the user's
        # state with its end, said without "I"
        state = _temporary_state(replace(clause, span=content), at=at)
        if state is not None:
            return replace(state, rule=rule, reason=r.EXPLICIT_REQUEST, explicit=True, quote=quote)
        customer, record_field = _corrected_record(content.text, "")
        if customer and record_field and _names_in_full(customer, content.text) and _checkable(content.as_doc()):
            # "<customer>'s credit limit got bumped to 250k last month, remember that": a customer's field as the
            # user has it, kept as a correction, so the records still win where they disagree (chapter 93)
            correction = analyse_correction(content.text, rule=rule)
            return replace(correction, explicit=True) if correction.action == "write" else correction
        if not _names_a_role(content):
            return _refuse(rule, r.CORPUS_FACT, quote, explicit=True)
        # "save under 'who i am': regional sales manager for apac": a role named without "I", asked to be kept
        statement = statements.finish("Is " + statements.lower_first(without_tag(content).text))
        subject = subjects.context_subject(content.text)
        return Finding(
            "write", rule, r.EXPLICIT_REQUEST, "context", statement[:500], subject=subject,
            value=_context_value(content, subject), quote=quote, explicit=True,
            echo=statements.echo(statement, said=quote),
        )  # fmt: skip
    statement = statements.about_user(list(content))
    if not statement:
        return _refuse(rule, r.NOTHING_TO_REMEMBER, quote, explicit=True)
    subject = subjects.context_subject(content.text)
    return Finding(
        "write",
        rule,
        r.EXPLICIT_REQUEST,
        "context",
        statement[:500],
        subject=subject,
        value=_context_value(content, subject),
        quote=quote,
        explicit=True,
        echo=statements.echo(statement, said=quote),
        supersedes="update" in inside or bool(_CONTEXT_CHANGE.search(quote.lower())),
    )


def _after_its_cause(content: Span) -> Span:
    """The user's own statement after "so" when what comes before is its cause, said of no one ("office move this month
    so im working out of the manchester warehouse til the 23rd": the user's state, not the move)."""
    so = next((t for t in content if t.lower_ == "so" and t.i > content.start), None)
    if so is None or _first_person(content.doc[content.start : so.i]):
        return content
    after = content.doc[so.i + 1 : content.end]
    return after if _first_person(after) and _words(after) else content


def _asked_as_a_favour(content: Span) -> bool:
    """Whether the sentence asks Atlas a favour before the content ("would you mind noting ...?", "could u pls
    remember ...?"): a request, its question mark only politeness."""
    before = content.doc[content.sent.start : content.start].text.lower()
    return bool(_FAVOUR.search(before))


_FAVOUR = re.compile(rf"\b(?:{'|'.join(vocab.POLITE_REQUEST_VERBS)})\s+(?:you|u|atlas)\b")


def _names_in_full(customer: str, text: str) -> bool:
    """Whether ``text`` names the customer by the first two words of its name, or all of a shorter one (its first
    word alone may be another company's, which the records do not hold: none of theirs)."""
    from atlas.lexicon import words

    said = f" {' '.join(words(re.sub(r"'s\b", '', normalise(text).text or text)))} "
    return f" {' '.join(words(customer)[:2])} " in said


def _names_a_role(span: Span) -> bool:
    """A role said as a bare noun phrase, with no subject or verb ("regional sales manager for apac, based out
    of singapore", "interim lead for the east"): what the user is, when they ask for it to be kept."""
    root = span.root
    return (
        root.pos_ in ("NOUN", "PROPN")
        and root.lemma_.lower() in vocab.ROLE_NOUNS
        and not any(t.dep_ in _SUBJECTS or t.pos_ == "AUX" for t in span)
    )


def _heard_of_others(span: Span) -> bool:
    """ "i hear acme is opening a plant", "I gather they're moving offices": the user reports news of
    someone else, heard (what is said of the user themselves, "I hear I'm getting the east", stays theirs)."""
    for token in span:
        lemma = token.lemma_.lower()
        # "the guy at X told me they're about to go under": someone else's news, told to the user
        told = lemma in vocab.REPORTING_VERBS and any(
            c.dep_ == "nsubj" and c.lower_ not in vocab.FIRST_PERSON and c.lower_ not in vocab.SECOND_PERSON
            for c in token.children
        )
        if lemma not in vocab.HEARSAY_VERBS and not told:
            continue
        for said in token.children:
            if said.dep_ == "ccomp" and not any(
                c.dep_ in ("nsubj", "nsubjpass") and c.lower_ in vocab.FIRST_PERSON for c in said.children
            ):
                return True
    return False


def _says_what_is_the_users(span: Span) -> bool:
    """ "X and Y are my accounts", "my boss is Dev": a copula naming what is the user's (asked to be
    kept, a fact about the user's work, whoever the sentence's subject is)."""
    return any(
        token.lemma_ == "be"
        and any(
            child.dep_ in ("nsubj", "attr") and any(c.dep_ == "poss" and c.lower_ == "my" for c in child.children)
            for child in token.children
        )
        for token in span
    )


def _only_names_a_subject(span: Span) -> bool:
    """ "my role", "my patch pls": what a note would be about, with nothing said of it; what follows may only say why
    or when it is kept ("store my role so i dont need to re-introduce myself", "save my team for next time")."""
    words = [t.lower_ for t in span if not t.is_punct and t.lower_ not in vocab.POLITENESS]
    subject_words = {w for group in vocab.CONTEXT_SUBJECTS.values() for w in group if " " not in w}
    named = len(words) >= 2 and words[0] in ("my", "our") and words[1] in subject_words
    return named and (len(words) == 2 or bool(_WHY_OR_WHEN_KEPT.match(" ".join(words[2:]))))


_WHY_OR_WHEN_KEPT = re.compile(
    r"(?:so|because|cos|coz|cause|since)\b"
    r"|for (?:next time|later|the future|future\b|our next\b|next\b|when\b)"
    r"|(?:each|every|next) time\b|going (?:forward|fwd)\b|from now on\b"
)


_OPEN_ENDED = re.compile(r"\b(?:" + "|".join(map(re.escape, vocab.OPEN_ENDED_CUES)) + r")\b")


def _open_ended_state(content: Span, who: str, *, at: datetime) -> Finding | None:
    """A state of the user's asked to be kept, said to hold for now with no end ("im covering the east region for
    the moment", "helping out on the renewals push for a while", "been seconded to pricing atm"): a situation with
    the default expiry. Said without "I", it is the user's all the same ("temporarily working out of denver")."""
    if not _OPEN_ENDED.search(content.text.lower()) or who in ("other", "assistant", "company"):
        return None
    words = content_tokens(content)
    # ("<customer> is disputing two invoices rn": a subject of its own, not the user's state)
    if not words or who != "user" and any(t.dep_ in _SUBJECTS and t.head.dep_ == "ROOT" for t in content):
        return None
    if who == "user":
        return _situation(content, {"situation"}, at=at, dated=True)
    first_person = parse_turn("I'm " + content.doc[words[0].i : content.end].text)
    found = _situation(first_person[:], {"situation"}, at=at, dated=True)
    return replace(found, quote=content.text) if found is not None else None


def _first_person(span: Iterable[Token]) -> bool:
    return any(t.lower_ in vocab.FIRST_PERSON for t in span)


# "on fridays", "friday evenings", "monday mornings": a day that comes round every week
_RECURRING_DAY = re.compile(
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days\b"
    r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day (?:mornings|afternoons|evenings|nights)\b"
)
_CONTEXT_CHANGE = re.compile(rf"\b(?:{_alternation(vocab.CONTEXT_CHANGE_MARKERS)})\b")


_PATCH_WORDS = frozenset({w for words in vocab.DIRECTIONS.values() for w in words} | set(vocab.REGION_NAMES))


def _context_value(span: Span, subject: str) -> str:
    """The nouns that name the value, with the words that qualify them ("south region",
    "irish accounts"): "region" alone is the subject's own word."""
    if not subject:
        return ""
    nouns = [
        t
        for t in span
        if t.dep_ != "nsubj"
        and (
            t.pos_ in ("PROPN", "NOUN")
            or t.pos_ == "ADJ"
            and t.dep_ in ("amod", "compound")
            and t.head.pos_ == "NOUN"
            or t.lower_ in _PATCH_WORDS  # "im on central now", "mid-market now": the patch by its name alone
        )
    ]
    return " ".join(t.text for t in nouns)[:200]


# --- situations ----------------------------------------------------------------------------


def _opens_clause(span: Span, start: int) -> bool:
    """Whether the words from ``start`` have a subject of their own ("so my deputy signs")."""
    rest = span.doc[start : span.end]
    if len(rest) and (rest[0].pos_ == "PRON" or rest[0].tag_ == "PRP$"):
        return True
    return any(t.dep_ in _SUBJECTS for t in rest)


def _situation(span: Span, hits: set[str], *, at: datetime, dated: bool = False) -> Finding | None:
    """A transient state the user stated about themselves, written with its expiry.

    The record has no other retirement path (nobody announces the end of a trip), so it
    carries a clock: the stated end, or thirty days (write-rules chapter). ``dated``: any
    state with a stated end counts ("remember that I'm the buyer until the end of June").
    """
    absence = _absence_subject(span)
    if grammatical_subject(span) != "user" and absence is None:
        return None
    if any(t.lower_ == "me" and t.dep_ == "nsubj" and t.head.dep_ in ("ccomp", "xcomp") for t in span):
        return None  # "(it) helps me plan site visits": a reason for a wish, the user only its object
    # "I'm in Berlin", "I'm at the Chicago branch": the place hangs off "be" itself (being
    # "based in" or "working in" a city is durable context, not a situation).
    placed = any(
        t.lower_ in vocab.SITUATION_PLACES and t.head.lemma_ == "be" and any(c.pos_ == "PROPN" for c in t.subtree)
        for t in span
    )
    # "im acting head of emea sales", "been made interim team lead": a role held for a while, ended by no date
    held_for_a_while = _temporary_role(span)
    if "situation" not in hits and not placed and not dated and not held_for_a_while:
        return None
    text = span.text
    # "..., so my deputy covers": a clause with its own subject after "so" or "but" is not
    # part of the situation (it goes); "travelling so back on Monday" loses only the "so".
    opening = content_tokens(span)
    begin = opening[0].i if opening else span.start  # "heads up, I'm in Dubai ...": the opener goes
    # ("ok so I'm doing the roadshow ..., so expect me on mobile": the opener's "so" cuts nothing)
    cut = next(
        # (", so central time for anything til then": after a comma, what follows is the reason, clause or not)
        (
            t.i
            for t in span
            if t.lower_ in ("so", "but")
            and t.i > begin
            and (_opens_clause(span, t.i + 1) or span.doc[t.i - 1].text == ",")
        ),
        span.end,
    )
    when = timex.parse_expiry(text, at)
    if "situation" not in hits and not when.stated and not held_for_a_while:
        return None  # "I'm in Sales Ops" names a place-like thing with no end: not a situation
    start = text.find(when.phrase) if when.phrase else -1
    kept = [
        t
        for t in span
        if begin <= t.i < cut
        if start < 0 or not (start <= t.idx - span.start_char < start + len(when.phrase))
        if not (t.lower_ in ("so", "but") and t.i > span.start)
    ]
    body = statements.about_user(kept).rstrip(".")
    if absence is not None:
        if not when.stated:
            return None  # "leave is a pain to book": an absence with no end is no situation
        body = f"Is on {absence}"  # "annual leave starts tmrw, 3 weeks": the user is on it
    statement = statements.sentence(f"{body} {when.words()}" if when.stated else body)
    return Finding(
        "write",
        "situation",
        r.SITUATION_DATED if when.stated else r.SITUATION_DEFAULT,
        "situation",
        statement,
        expires_at=when.expires_at,
        quote=span.text.strip(),
        echo=statements.echo(statement, said=span.text),
        confidence=0.85,
    )


def _temporary_role(span: Span) -> bool:
    """A job held for a while, said of the user ("im acting head of emea sales", "been made interim team lead",
    "the interim key accounts lead"): a word of holding for now, then within its noun phrase a noun that names a
    job (read by the words: a parse may take "lead" for a verb)."""
    for token in span:
        if token.lower_ not in vocab.TEMPORARY_ROLE_WORDS:
            continue
        for after in span.doc[token.i + 1 : min(token.i + 5, span.end)]:
            if after.is_punct or after.pos_ in ("ADP", "VERB") and after.lower_ not in vocab.ROLE_NOUNS:
                break
            if after.lower_ in vocab.ROLE_NOUNS or after.lemma_.lower() in vocab.ROLE_NOUNS:
                return True
    return False


def _absence_subject(span: Span) -> str | None:
    """The absence a sentence is about when it is its subject ("annual leave starts tmrw"), with
    its modifiers ("annual leave"), or None."""
    for token in span:
        if token.dep_ == "nsubj" and token.lemma_.lower() in vocab.ABSENCE_NOUNS and token.head.pos_ in ("VERB", "AUX"):
            words = [t for t in token.subtree if t.is_alpha and t.lower_ not in ("my", "the", "our", "a")]
            return " ".join(t.lower_ for t in words) or None
    opening = content_tokens(span)[:2]
    named = [t for t in opening if t.lower_ in vocab.ABSENCE_NOUNS]
    if named and (named[0] is opening[0] or opening[0].pos_ == "ADJ"):
        # "annual leave from tmrw, back mon the 5th", "holiday til the 14th": the absence said as the fragment's opening
        return " ".join(t.lower_ for t in opening[: opening.index(named[0]) + 1])
    for token in span[:-1]:
        # the parse may miss it after an opener ("heads up, sabbatical starts tmrw"): the noun
        # right before a verb of beginning, with the word that qualifies it ("parental leave")
        if token.lower_ in vocab.ABSENCE_NOUNS and token.nbor().lemma_.lower() in ("start", "begin", "kick"):
            before = token.nbor(-1) if token.i > span.start else None
            qualified = before is not None and before.pos_ == "ADJ" and before.dep_ == "amod"
            return f"{before.lower_} {token.lower_}" if qualified and before is not None else token.lower_
    return None


_PLACE_POS = ("PROPN",)


def _temporary_state(clause: Clause, *, at: datetime) -> Finding | None:
    """A first-person temporary state however it is typed: the user (or a subject-less
    fragment that opens like one: "in madrid til tues", "on leave, back on the 9th") somewhere
    named, at an event, on a desk or covering a colleague, with a bound or a cue that it ends
    ("until", "while she's out", "currently", "next week", an event). Written as a situation
    with its expiry: the stated one, or thirty days (design rule: situations expire)."""
    words = content_tokens(clause.span)
    if clause.act == "question" or not words:
        return None
    # A fragment opens like a state ("covering Amir's desk while he's out": "he" is the
    # colleague, not the subject); anything else must be the user's own statement.
    fragment = clause.subject != "user"
    if fragment and (words[0].lower_ not in vocab.TEMPORARY_OPENERS or words[0].dep_ in _SUBJECTS):
        return None
    if fragment and re.search(r"\baccording to\b", clause.lower):
        return None  # "out of office til the 14th according to dan's autoreply": someone else's state, reported
    if not fragment and clause.act != "statement":
        return None  # "leave cancelled orders out unless I ask": a request, not a state
    # the state is said before "so" or "but": "im not a numbers person so keep it simple for me
    # today, hows Juniper doing" has no place and no end of its own (the "today" bounds the request)
    own_end = next((t.i for t in words if t.lower_ in ("so", "but") and t.i > words[0].i), clause.span.end)
    own = [t for t in words if t.i < own_end]
    named = any(t.pos_ in _PLACE_POS and t.i > words[0].i for t in own) or any(
        t.text[:1].isupper() and t.i > words[0].i and t.lower_ not in ("i", "i'm") for t in own
    )
    anchored = named or any(t.lemma_.lower() in vocab.TEMPORARY_ANCHORS and t.pos_ in ("NOUN", "PROPN") for t in own)
    when = timex.parse_expiry(clause.span.doc[clause.span.start : own_end].text, at)
    # "out till the 9th, ...", "away until friday": being away, with its end, needs no place
    away = fragment and words[0].lower_ in vocab.AWAY_OPENERS and not (len(words) > 1 and words[1].lower_ == "of")
    anchored = anchored or (away and when.stated)
    ends = when.stated or "temporary" in clause.hits or any(t.lemma_.lower() in vocab.TEMPORARY_EVENTS for t in words)
    # a circumstance said of the state itself ("on my phone til 5") is none; said after it, once the state is
    # named ("at the milan trade fair til fri, mostly on my phone"), it is how the user is while there
    comma = next((t.i for t in own if t.text == "," and anchored), own_end)
    stated = " " + " ".join(t.lower_ for t in words if t.i < comma) + " "
    if not (anchored and ends) or any(f" {w} " in stated for w in vocab.CIRCUMSTANCES):
        return None
    root = clause.span.root
    if not when.stated and root.tag_ == "VBP" and root.lemma_.lower() not in vocab.STATE_VERBS:
        return None  # "I plan my visits off these lists": what the user does as a rule, no state of now
    if not fragment:
        return _situation(clause.span, {"situation"}, at=at, dated=True)
    first_person = parse_turn("I'm " + clause.span.doc[words[0].i : clause.span.end].text)
    found = _situation(first_person[:], {"situation"}, at=at, dated=True)
    return replace(found, quote=clause.text) if found is not None else None


def _extension(clause: Clause, *, at: datetime, quote: str) -> Finding | None:
    """ "extended til thursday", "my Berlin stay has been extended until next Wednesday", "lisbon
    trip cut short, back in the office friday", "extended my leave by a week": the live situation
    it names (or the latest one) now ends at the new bound, read from the clause or, where the
    clause names none, from the rest of the turn (design rule: newest wins; the old note stays
    visible as replaced)."""
    longer = timex.longer_by(clause.text) or timex.longer_by(quote)
    when = timex.parse_expiry(clause.text, at)
    if not when.stated:
        when = timex.parse_expiry(quote, at)
    if not when.stated and longer is None:
        return None
    names = [t.text for t in clause.span if t.pos_ == "PROPN" or t.text[:1].isupper() and t.i > clause.span.start]
    names += [t.lower_ for t in clause.span if t.pos_ in ("NOUN", "PROPN") and t.lower_ not in FUNCTION_WORDS]
    # the places it names ("stuck in warsaw"), not the day it now ends on
    places = [t.text for t in clause.span if t.ent_type_ in ("GPE", "LOC", "FAC") and t.lower_ not in _NOT_PLACES]
    shorter = any(re.search(rf"\b{re.escape(w)}\b", quote.lower()) for w in vocab.SHORTENING_WORDS)
    return Finding(
        "extend",
        "extension",
        r.UPDATE,
        "situation",
        statement=when.words() if when.stated else "",
        expires_at=when.expires_at if when.stated else None,
        quote=quote,
        extra={"names": names, "places": places, "longer_days": longer.days if longer else 0, "shorter": shorter},
    )


_NOT_PLACES = frozenset({"here", "there"})


# --- preferences and the other clauses -----------------------------------------------------


def _drop(span: Span, hits: dict[str, list[tuple[int, int]]]) -> set[int]:
    """Trigger and politeness tokens a statement never keeps (negation is kept)."""
    drop: set[int] = set()
    for name in ("standing", "remember", "one_off"):
        for start, end in hits.get(name, []):
            drop.update(i for i in range(start, end) if span.doc[i].lower_ not in {"do", *vocab.VERB_NEGATIONS})
    drop.update(t.i for t in span if t.lower_ in vocab.POLITENESS)
    # "Can you ...", also after a standing phrase ("From now on, could you ...").
    tokens = [t for t in content_tokens(span) if t.i not in drop and not t.is_punct]
    words = [t.lower_ for t in tokens[:3]]
    if (
        len(words) == 3
        and words[1] == "you"
        and (words[0] in vocab.POLITE_REQUEST_VERBS or words[::2] == ["do", "mind"])
    ):
        drop.update({tokens[0].i, tokens[1].i})
        if words[2] == "mind":
            drop.add(tokens[2].i)
    return drop


def _core(span: Span, drop: set[int]) -> list[Token]:
    tokens = [t for t in content_tokens(span) if t.i not in drop]
    while tokens and (tokens[0].is_punct or tokens[0].lower_ in vocab.DISCOURSE_OPENERS or tokens[0].lower_ == "ever"):
        tokens = tokens[1:]
    return tokens


def _is_negative(tokens: list[Token]) -> bool:
    words = [t.lower_ for t in tokens[:3]]
    return bool(words) and (
        words[0] == "never" or (words[0] == "do" and len(words) > 1 and words[1] in vocab.VERB_NEGATIONS)
    )


def _about_answers(core: list[Token], hits: set[str], who: str) -> bool:
    if not core:
        return False
    first = core[0]
    if first.lower_ in {"do", "only", *vocab.VERB_NEGATIONS}:  # "Only show open orders" ("just" is gone)
        lead = {"do", "ever", "only", *vocab.VERB_NEGATIONS}
        first = next((t for t in core if t.lower_ not in lead), first)
    if first.lemma_.lower() in vocab.REQUEST_VERBS or first.lower_ in vocab.REQUEST_VERBS:
        return True
    if any(t.dep_ == "relcl" and t.head.i == first.i and _first_person(t.subtree) for t in core):
        return False  # "the accounts i own are ...", "the customers we look after": the user's things, no answers
    if (first.tag_ == "VB" or (first.pos_ == "VERB" and first.dep_ == "ROOT")) and "standing" in hits:
        return True  # "from here on out, lead with the total": an imperative by the parse
    if who == "user" and ("prefer" in hits or any(t.lemma_ in vocab.PREFERENCE_VERBS for t in core[:4])):
        # "I prefer thursdays for my pipeline reviews" prefers nothing about answers: the wish
        # names a facet, an answer or a way of giving one.
        return bool(preferences.facets_named(" ".join(t.text for t in core))) or any(
            t.lemma_.lower() in vocab.ANSWER_NOUNS or t.lemma_.lower() in vocab.REQUEST_VERBS for t in core
        )
    return first.lemma_.lower() in vocab.ANSWER_NOUNS or "answer_style" in hits


_NOT_HAVING_TO_ASK = re.compile(
    r"\b(?:want|like|need)\s+to\s+(?:not\s+)?(?:have\s+to|keep)\s+(?:ask|say|repeat|tell|remind|explain|type)\w*\b"
)


def _preference(span: Span, hits: set[str], *, quote: str, explicit: bool = False) -> Finding | None:
    """A standing request about answers as a preference, or None."""
    if _NOT_HAVING_TO_ASK.search(span.text.lower()) and not preferences.read_facets(span.text).facets:
        return None  # "i never want to have to ask a 2nd time": why a wish is standing, no wish of its own
    all_hits = rules.match_in(span)
    drop = _drop(span, all_hits)
    core = _core(span, drop | statements.scope_tokens(span))
    who = grammatical_subject(span)
    standing = bool(hits & {"standing", "prefer", "answer_style"}) or explicit or "update" in hits
    if not standing or who in ("other", "company") or not _about_answers(core, hits, who):
        return None
    subject, value = subjects.subject_value(span.text)
    if not (hits & {"standing", "prefer", "answer_style"} or explicit) and not value:
        return None  # an update ("switch my currency to NZD") must name the new value
    if "answer_style" in hits:
        # the words before the clause's verb; a clause whose verb was dropped (a request word) has none
        root = next((t.i for t in core if t.dep_ == "ROOT"), None)
        nouns = [t for t in core if root is not None and t.dep_ != "ROOT" and t.i < root]
        statement = statements.finish("Prefers " + statements.lower_first(statements.text_of(nouns))) if nouns else ""
    else:
        statement = statements.preference_statement(
            span, drop=drop, structured=bool(value), negative=_is_negative(content_tokens(span))
        )
    if not statement:
        return None
    update = "update" in hits and not hits & {"standing", "prefer"}
    condition = statements.scope_of(span)
    return Finding(
        "write",
        "preference",
        r.UPDATE if update else r.STANDING_PREFERENCE,
        "preference",
        statement,
        subject=subject,
        value=value,
        quote=quote,
        explicit=update,
        echo=statements.echo(statement, said=quote),
        confidence=0.95,
        scope=condition if condition and condition.lower() in statement.lower() else "global",
    )


def _with_core_act(clause: Clause) -> Clause:
    """The clause's act once standing and one-off phrases are set aside ("Just this once, give ...",
    "From now on, could you list ...?" is a request, not a question)."""
    if clause.act == "question":
        lead = clause.starts_with("standing") or clause.starts_with("one_off")
        rest = clause.span.doc[lead[1] : clause.span.end] if lead else None
        return replace(clause, act="request") if rest and speech_act(rest) in ("request", "imperative") else clause
    if clause.act not in ("statement",):
        return clause
    core = _core(clause.span, _drop(clause.span, clause.hits))
    if core and (core[0].lower_ in vocab.REQUEST_VERBS or core[0].lemma_.lower() in vocab.REQUEST_VERBS):
        return replace(clause, act="imperative", subject="none")
    return clause


def analyse_clause(
    clause: Clause, *, at: datetime, quote: str, earlier: list[Finding], one_off: bool = False
) -> Finding | None:
    """One clause with no explicit remember/forget: a candidate, an occurrence or a refusal."""
    clause = _with_core_act(clause)
    hits = set(clause.hits)
    text = clause.text
    refusal = _clause_refusal(clause, hits, text)
    if refusal is not None:
        return refusal
    if clause.act == "statement" and clause.subject != "user" and _sets_the_records_right(clause.span.sent.text):
        # "<customer> renews in march now, not december": a customer's field as the user has it, said against
        # the old value; kept as a correction in the user's words, so the records still win where they disagree
        said = content_tokens(clause.span.sent[:])  # ("heads up, ...": the opener is no part of it)
        return analyse_correction(
            clause.span.doc[said[0].i : clause.span.sent.end].text.strip(), rule="chat_correction"
        )
    if clause.act == "question" and not _polite_request(clause):
        return _refuse("preference", r.QUESTION, text, kind="preference") if "standing" in hits else None
    # "I'm normally offline Friday afternoons": a habit, not a state with an end
    # (said after a comma, the adverb is of an aside: "at the milan fair til fri 5th, mostly on my phone")
    comma = next((t.i for t in clause.span if t.text == "," and t.i > clause.span.start), clause.span.end)
    habitual = any(t.lower_ in vocab.HABITUAL_ADVERBS for t in clause.span if t.i < comma)
    habitual = habitual or bool(_RECURRING_DAY.search(clause.lower))
    # "standing ask, not just today": a one-off denied says it lasts; its "today" bounds nothing
    doc = clause.span.doc
    habitual = habitual or any(
        doc[s].lower_ in ("not", "n't", "isnt", "never") for s, _ in clause.hits.get("standing", [])
    )
    situation = None if habitual else _situation(clause.span, hits, at=at)
    temporary = None if habitual or situation is not None else _temporary_state(clause, at=at)
    own = clause.subject not in ("other", "company") or any(
        t.dep_ == "nsubj" and t.lower_ in vocab.FIRST_PERSON for t in clause.span
    )  # "client pushed the last workshop so im stuck here til tues": the user's stay, whoever moved it
    if "extension" in hits and own:
        # "audit slipped, stuck here til tue the 17th now", "im stuck in warsaw til wed the 14th now": the live
        # situation it names, or the latest where it names no place, ends later; with none live to extend, or a
        # place no live one names, the state is a situation of its own (admission decides, as it sees them)
        extension = _extension(clause, at=at, quote=quote)
        if extension is not None:
            fresh = situation or temporary
            return replace(extension, extra={**extension.extra, "otherwise": fresh}) if fresh else extension
    if situation is not None:
        return situation
    if temporary is not None:
        return temporary
    if _withdraws(clause):
        if _replacement_of(clause) is None:
            return _withdrawal(clause, text)
        if "reversal" not in hits:
            return None  # "stop with the dollars, euros for everything": the wish after it is read as one

    if _someone_elses_wish(clause) and clause.subject != "company":
        return _refuse("scope", r.NOT_ABOUT_USER, text)  # "my team wants the figures in GBP"
    if "reversal" in hits and not _negation_in_a_value(clause):
        return _wish_before_reversal(clause, hits) or _reversal(clause, text, earlier)
    momentary = "one_off" in hits or "circumstance" in hits and not hits & (_STANDING_MARKS - _IMPLICIT_MARKS)
    if momentary and (hits & {"standing", "prefer"} or _format_request(clause)):
        return _refuse("preference", r.SESSION_ONLY, text, kind="preference")
    if _speaks_against(clause.span):
        return _refuse("scope", r.CORPUS_FACT, text)  # "tables always break on my phone": no wish for tables
    preference = _preference(clause.span, hits, quote=text)
    if preference is not None:
        return preference
    if clause.subject == "user" and "update" in hits:
        return _update_context(clause, text)
    request = _format_request(clause)
    if request is not None and one_off:
        return _refuse("format_request", r.SESSION_ONLY, text, kind="preference")
    if request is not None:
        return request
    if clause.subject == "other" and any(t.lemma_ in vocab.PREFERENCE_VERBS for t in clause.span):
        return _refuse("scope", r.NOT_ABOUT_USER, text)
    if clause.subject in ("company", "thing", "other") and clause.act == "statement":
        return _refuse("scope", r.CORPUS_FACT, text)
    return None


_NOT_THE_OLD_VALUE = re.compile(r",?\s+not\s+(?:the\s+)?[\w$£€-]+")


def _sets_the_records_right(sentence: str) -> bool:
    """A statement of a customer's field, named by its customer in full, with the value it replaces after "not"."""
    if "?" in sentence or not _NOT_THE_OLD_VALUE.search(sentence.lower()):
        return False
    customer, record_field = _corrected_record(sentence, "")
    return bool(customer and record_field and _names_in_full(customer, sentence))


def _clause_refusal(clause: Clause, hits: set[str], text: str) -> Finding | None:
    words = _words(clause.span)
    covered = {i for s, e in clause.hits.get("small_talk", []) for i in range(s, e)}
    if words and all(t.i in covered for t in words):
        return _refuse("small_talk", r.SMALL_TALK, text)
    if _is_reminder(clause):
        return _refuse("reminder", r.REMINDER, text)
    about_user = clause.subject == "user" or _first_person(clause.span)
    if "special_category" in hits and about_user:
        return _refuse("sensitive", r.SENSITIVE, text)
    if "inference" in hits and not hits & {"standing", "prefer"} and (about_user or clause.act != "imperative"):
        return _refuse("inference", r.INFERENCE, text)
    # ("dublin got extended ugh, here til fri the 13th now": the complaint is about a stay that goes on)
    if "venting" in hits and not hits & {"standing", "prefer", "remember", "extension", "situation", "temporary"}:
        return _refuse("venting", r.VENTING, text)
    return None


def _wish_before_reversal(clause: Clause, hits: set[str]) -> Finding | None:
    """ "iso dates as my default now pls, no more month-first": a standing wish, then the value it
    replaces taken back. The wish is kept, and replaces the older note by its facet."""
    said = clause.hits.get("reversal") or []
    if not said or not hits & (_STANDING_MARKS - _IMPLICIT_MARKS):
        return None
    before = clause.span.doc[clause.span.start : min(s for s, _ in said)]
    reading = preferences.read_facets(before.text)
    if not before.text.strip() or not reading.facets or reading.negative:
        return None
    wish = _preference_finding("preference", preferences.statement_for(reading.facets), before.text)
    return replace(wish, facets=reading.facets, scope=reading.scope)


def _reversal(clause: Clause, text: str, earlier: list[Finding]) -> Finding | None:
    if subjects.context_subject(text) and grammatical_subject(clause.span) == "user":
        # "I don't cover the Nordic accounts any more": the context note goes, as if forgotten.
        return Finding("forget", "forget", r.FORGET_REQUEST, statement=text, quote=text)
    subject, value = subjects.subject_value(text)
    if not subject and any(f.action == "reverse" for f in earlier):
        return None  # "..., I don't need them any more": the same reversal again
    # "Stop using abbreviations" with nothing to withdraw is a "does not want"; "never mind the
    # tables" only takes the wish back (it asks for nothing to stop), "never mind, stop using
    # tables" does both.
    fallback = _negative_preference(clause, text)
    # The facets the reversal names ("stop cutting lists at 3": the list size), so it withdraws
    # the note holding them whatever words that note was stated in.
    # (only where it names no value: "no more tables" withdraws tables, not the bullet points)
    named = preferences.facets_named(text) if not preferences.read_facets(text).facets else set()
    extra: dict[str, Any] = {"facets": sorted(named)} if named else {}
    if fallback is not None:
        extra["fallback"] = fallback
    return Finding(
        "reverse",
        "reversal",
        r.REVERSAL,
        "preference",
        statement=text,
        subject=subject,
        value=value,
        # No quote: a withdrawn preference keeps none of the user's words (the decision blanks it).
        extra=extra,
    )


def _negation_in_a_value(clause: Clause, *, at: int | None = None) -> bool:
    """The negation (the reversal's words, or the token at ``at``) is part of a value the preference
    table reads ("don't drop cancelled orders from my totals" asks for them included): a wish, not a
    reversal."""
    doc = clause.span.doc
    base = clause.span.start_char
    values = preferences.value_spans(clause.span.text)
    starts = [at] if at is not None else [s for s, _ in clause.hits.get("reversal", [])]
    return any(any(a <= doc[s].idx - base < b for a, b in values) for s in starts)


def _negative_preference(clause: Clause, text: str) -> Finding | None:
    """ "Stop using abbreviations": with no such preference to withdraw, a standing "does not want"."""
    span = clause.span
    if preferences.read_facets(clause.text).facets.get("rounding") == "whole":
        # "lose the cents on everything": with no rounding note to take back, what goes is the
        # cents, and that is the wish (amounts rounded to whole units)
        wish = _preference_finding("preference", preferences.statement_for({"rounding": "whole"}), text)
        return replace(wish, facets={"rounding": "whole"})
    words = [t for t in content_tokens(span) if t.lower_ not in vocab.POLITENESS]
    if len(words) > 2 and [t.lower_ for t in words[:2]] == ["no", "more"]:
        return _does_not_want(statements.finish("Does not want " + statements.text_of(words[2:])), text)
    stop = next((t for t in span if t.lemma_.lower() in vocab.REVERSAL_VERBS), None)
    after = span.doc[stop.i + 1] if stop is not None and stop.i + 1 < span.end else None
    if stop is None or after is None or after.tag_ != "VBG" or after.lemma_.lower() not in vocab.REQUEST_VERBS:
        return None
    drop = set(range(span.start, stop.i + 1)) | _drop(span, clause.hits)
    _, value = subjects.subject_value(text)
    statement = statements.preference_statement(span, drop=drop, structured=bool(value), negative=True)
    return _does_not_want(statement, text) if statement else None


def _does_not_want(statement: str, text: str) -> Finding:
    return _preference_finding("preference", statement, text)


def _update_context(clause: Clause, text: str) -> Finding | None:
    subject = subjects.context_subject(text)
    if not subject:
        return None
    statement, over = _without_what_is_over(statements.about_user(list(clause.span)))
    return Finding(
        "write",
        "update",
        r.UPDATE,
        "context",
        statement,
        subject=subject,
        value=_context_value(clause.span, subject),
        quote=text,
        echo=statements.echo(statement, said=text),
        # The user's own statement that something changed: it ranks as theirs, so it
        # replaces a note they wrote (a rule never could).
        explicit=True,
        supersedes=True,
        extra={"needs_existing": True, "replaces": over},
    )


def _without_what_is_over(statement: str) -> tuple[str, list[str]]:
    """What is so now, without what is over ("Is on the north team now, not central."): the sentence, and
    the words of what is over."""
    over = re.search(r",?\s+(?:not|instead of|rather than)\s+(?:the\s+)?([\w -]+?)\.?$", statement)
    if over is None:
        return statement, []
    return statements.sentence(statement[: over.start()]), [over.group(1)]


def _format_request(clause: Clause) -> Finding | None:
    """A request for a shape of answer without a standing phrase: one occurrence, counted."""
    if clause.act == "question" and speech_act(clause.span) != "request":
        return None
    if any(t.lower_ in vocab.NEGATION_WORDS for t in clause.span):
        return None  # "Don't show charts", "no charts", "without a chart": never asking for a chart
    subject, value = subjects.subject_value(clause.text)
    if subject not in _FORMAT_SUBJECTS or not value:
        return None
    has_subject_verb = any(
        t.dep_ in ("nsubj", "nsubjpass") and t.head.pos_ in ("VERB", "AUX") and t.head.lower_ not in vocab.POLITENESS
        for t in clause.span
    )
    if clause.act not in ("imperative", "request") and has_subject_verb:
        return None
    return Finding(
        "observe",
        "format_request",
        r.SINGLE_OCCURRENCE,
        "preference",
        vocab.OBSERVED_STATEMENTS.get((subject, value), ""),
        subject=subject,
        value=value,
        signal=f"format:{subject}={value}",
        quote=clause.text,
        confidence=0.8,
    )
