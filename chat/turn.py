"""The chat turn: one question in, one saved answer out (docs/architecture.md).

1. session state, updated from the question before retrieval (design rule: bounded state);
2. recall from memory, unless memory is paused or the turn is held out (design rule: hold-out);
3. tools over the corpus and document passages;
4. prompt assembly and the responder;
5. the Turn saved with the recalled notes and how each shaped the answer;
6. the write gate queued for after the commit (the turn does not wait for it), unless it has
   nothing to read in the turn (memory.gate.gate_has_work).

Everything from the Turn row to the state write happens in one transaction: a failure saves
nothing partial and raises :class:`TurnFailed` with a message the user can read.
"""

from __future__ import annotations

import logging
import re
from dataclasses import asdict, replace
from functools import lru_cache
from itertools import groupby
from typing import TYPE_CHECKING, Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import DatabaseError, transaction
from django.utils import timezone

from atlas import sentences
from atlas.logcontext import set_log_turn
from atlas.middleware import Conflict, Unavailable
from atlas.normalise import Change, Normalised, normalise
from atlas.text import has_visible_text
from chat import blocks, corrections, executors, holdout, shaping, tools
from chat import prompt as prompt_module
from chat import state as state_module
from chat import vocabulary as vocab
from chat.answering.speech import asks_nothing
from chat.answering.suggestions import Suggestion, suggest
from chat.answering.values import MissingValue, missing_value
from chat.corpus import search_documents
from chat.executors import execute
from chat.feedback import queue_gate, record_followup
from chat.models import ChatSession, Contract, Region, Turn
from chat.planner import Abstention, Context, CustomerRef, Planned, QueryPlan, plan_question
from chat.responders import ResponderError, get_responder
from chat.shaping import Use
from memory.embeddings import EmbeddingError
from memory.events import TurnEvent
from memory.rls import acting_user
from memory.store import record_uses

if TYPE_CHECKING:
    from datetime import datetime

    from atlas.types import User
    from memory.gate.answers import Preview
    from memory.recall import RecalledNote

logger = logging.getLogger(__name__)

MAX_QUESTION_CHARS = 2000
# A passage answers a question no plan covers only above this cosine similarity: questions
# nothing in the records answers peaked at 0.41 (0.61 when they name a customer, so named
# questions never take this path); passages that answered reached 0.45-0.75.
PASSAGE_ANSWER_SIMILARITY = 0.60
_NARROWED = Turn.Influence.NARROWED
# What a turn fills in after its row is made (the id first: the hold-out draw hashes it), written
# in one UPDATE when the turn finishes, whichever way it was answered.
_ANSWER_FIELDS = [
    "kind", "options", "answer", "gate_message", "blocks", "recalled", "eligible", "held_out", "prompt_tokens",
    "gate_queued",
]  # fmt: skip


class TurnFailed(Unavailable):
    """A turn could not be answered; nothing of it was saved (the API answers 503 turn_unavailable)."""


class ConversationDeleted(Conflict):
    """The conversation was deleted (delete-everything) while the turn waited for it: nothing
    was saved, and it is the user's own change, not an outage (the API answers 409)."""


def start_session(user: User, *, title: str = "") -> ChatSession:
    from memory.epoch import hold_generation

    with acting_user(user.pk), transaction.atomic():
        hold_generation(user.pk)  # a parallel delete-everything waits for it, or it for the deletion
        return ChatSession.objects.create(user=user, title=title[:200])


def clean_question(question: str) -> str:
    text = (question or "").replace("\x00", "").strip()
    if not has_visible_text(text):
        raise ValidationError("Type a question first.")
    if len(text) > MAX_QUESTION_CHARS:
        raise ValidationError(f"Questions can be at most {MAX_QUESTION_CHARS} characters; this one has {len(text)}.")
    return text


def ask(user: User, *, session: ChatSession | None, question: str, option_id: str | None = None) -> Turn:
    """Answer ``question`` in ``session`` (a new session when None) and save the turn.

    ``option_id`` answers a pending clarifying question with one of its options; typing the
    option (its account code, its city) does the same.
    """
    from memory.gate import one_reading  # the gate loads spaCy on first use

    text = clean_question(question)
    if session is not None and session.user_id != user.pk:
        raise PermissionDenied("That conversation belongs to someone else.")
    try:
        # One look at the customer table per turn: every name lookup in it reads the same index;
        # one reading of the question by the gate (the answer's sentence, then whether to queue it).
        with acting_user(user.pk), tools.one_index(), one_reading():
            return _ask(user, session=session, question=text, option_id=option_id)
    except DatabaseError as exc:
        logger.exception("turn failed: database")
        raise TurnFailed(
            "Atlas could not save this answer because the database failed. Nothing was saved; try again."
        ) from exc
    except EmbeddingError as exc:
        logger.exception("turn failed: embeddings")
        raise TurnFailed(
            "Atlas could not search its records because the embedding model failed. Nothing was saved; try again."
        ) from exc
    except ResponderError as exc:
        logger.exception("turn failed: responder")
        raise TurnFailed(f"Atlas could not compose an answer: {exc} Nothing was saved; try again.") from exc


def _serialise(user: User, session: ChatSession | None, *, title: str) -> tuple[ChatSession, int]:
    """First in the turn's transaction: the user's deletion generation, then the session row.

    A delete-everything waits for the turn or the turn waits and finds its session gone;
    parallel turns of one session run one after another, each on the state the last saved.
    The session's time is moved in the statement that locks its row (the caller loaded the
    row already). Returns the session and the generation held (the gate event is queued
    under it).
    """
    from memory.epoch import hold_generation

    generation = hold_generation(user.pk)
    if session is None:
        return ChatSession.objects.create(user=user, title=title[:80]), generation
    if not ChatSession.objects.filter(pk=session.pk, user_id=user.pk).update(updated_at=timezone.now()):
        raise ConversationDeleted(sentences.CONVERSATION_DELETED)
    return session, generation


def _ask(user: User, *, session: ChatSession | None, question: str, option_id: str | None) -> Turn:
    with transaction.atomic():
        session, generation = _serialise(user, session, title=question)
        state = state_module.load_state(user.pk, session.pk)
        previous_focus = state.focus.id if state.focus else state.last_focus_id
        previous_turn = state.last_turn_id
        # Read once through the normaliser the gate shares (shorthand, contractions, spelling
        # against the domain lexicon); the turn keeps the words the user typed.
        read = normalise(question)
        # Customer names in other words (an abbreviated word, a typo) read as the names on
        # record, said in the answer; a name only near one is offered below, never answered.
        names = tools.read_names(read.text)
        if names.changes:
            spelt = tuple(Change(typed, name, "spelling") for typed, name in names.changes)
            read = replace(read, text=names.text, changes=read.changes + spelt)
        found = tools.find_customer_mentions(read.text)
        picked = None if names.changes or found else _picked_from_the_list(state, read.text)
        if picked is not None:
            # "credit limit for the vet one" after customers were listed: that customer, said
            read = replace(
                read,
                text=read.text.replace(picked[0], picked[1], 1),
                changes=(*read.changes, Change(*picked, "listed")),
            )
            found = tools.find_customer_mentions(read.text)
        mentions = _group_mentions(found)
        # A "did you mean" option typed back is matched as offered, before the normaliser rewrites it.
        offered = bool(state.pending and state.pending.get("plans"))
        typed = question if offered else read.text
        resolution = state_module.update_from_question(state, typed, mentions=mentions, option_id=option_id)
        # Reserve the turn id first: the hold-out draw hashes it (design rule: hold-out).
        turn = Turn.objects.create(session=session, user=user, question=question, created_at=timezone.now())
        set_log_turn(turn.pk)

        if resolution.clarify is not None:
            _clarify(turn, resolution.clarify)
        else:
            _answer(
                user, turn, state, resolution, question, read=read, unsure_names=names.unsure, opens=not previous_turn
            )

        record_followup(
            session.pk,
            previous_turn,
            stayed=bool(previous_focus) and state.focus is not None and state.focus.id == previous_focus,
        )
        state_module.remember_question(state, read.text)
        state.last_turn_id = turn.pk
        state.last_focus_id = state.focus.id if state.focus else ""
        state_module.save_state(user.pk, session.pk, state)
        if not getattr(turn, "correction", False):
            # A correction went to the gate as feedback on the turn it corrects (chat.corrections).
            _queue_gate(
                user,
                turn,
                question,
                filters=state_module.gate_filters(state),
                generation=generation,
                opens_session=not previous_turn,
                before=state.recent_questions[-2] if len(state.recent_questions) > 1 else "",
            )
        turn.save(update_fields=_ANSWER_FIELDS)
    return turn


def _queue_gate(
    user: User,
    turn: Turn,
    question: str,
    *,
    filters: dict[str, str],
    generation: int,
    opens_session: bool = False,
    before: str = "",
) -> None:
    """Queue the write gate for this turn, unless it would find nothing to write or record
    (memory.gate.gate_has_work): then the turn says so (``gate_queued``, saved with the
    answer) and no event or task is made."""
    from memory.gate import gate_has_work, turn_reading

    # The gate reads the turn as of when it was asked, as the preview did.
    event = TurnEvent(
        user_id=user.pk, session_key=str(turn.session_id), turn_id=turn.pk, at=turn.created_at, text=question,
        filters=filters, opens_session=opens_session, before=before,
    )  # fmt: skip
    try:
        idle = not gate_has_work(event, user=user)
    except DatabaseError:
        raise
    except Exception:
        # A reading the gate cannot finish must not cost the user the answer: the gate is queued
        # as before and fails, or not, in the worker, with its retries.
        logger.exception("turn %s: the gate check failed; queueing the gate", turn.pk)
        idle = False
    if idle:
        turn.gate_queued = False
        return
    try:
        read = turn_reading(event)  # read once already, in this turn: the worker need not read it again
    except DatabaseError:
        raise
    except Exception:
        logger.exception("turn %s: the gate's reading could not be kept; the worker reads the text", turn.pk)
        read = None
    queue_gate(
        user_id=user.pk,
        session_key=event.session_key,
        turn_id=turn.pk,
        text=question,
        filters=filters,
        generation=generation,  # held since _serialise, in this transaction
        at=event.at,
        findings=read,
    )


def _group_mentions(found: list[Any]) -> list[list[state_module.Candidate]]:
    """The customers the question names, grouped by the words that named them."""
    grouped = []
    for _, group in groupby(found, key=lambda m: m.matched):
        grouped.append(
            [
                state_module.Candidate(id=str(m.customer_id), name=m.name, city=m.city, account_code=m.account_code)
                for m in group
            ]
        )
    return grouped


def _clarify(turn: Turn, clarify: dict[str, Any]) -> None:
    """One clarifying question listing the candidates; the user picks, Atlas never does."""
    turn.kind = Turn.Kind.CLARIFY
    turn.options = clarify["options"]
    turn.answer = clarify["question"] + "\n" + "\n".join(f"- {o['label']}" for o in clarify["options"])
    turn.blocks = [blocks.summary(clarify["question"]).as_dict()]


def _answer(
    user: User,
    turn: Turn,
    state: state_module.SessionState,
    resolution: state_module.Resolution,
    question: str,
    *,
    read: Normalised,
    unsure_names: tuple[tuple[str, str], ...] = (),
    opens: bool = False,
) -> None:
    from memory.recall import recall_as_acting_user

    before = state.recent_questions[-1] if state.recent_questions else ""  # the turn before, in this chat
    shown = _gate_preview(user, question, at=turn.created_at, opens_session=opens, before=before)
    if shown is not None and shown.standalone:
        if _question_part(user, question) == question:
            # "Remember that ..." / "forget ...": a request about memory, not a data question, so
            # the answer is the gate's own sentence and no stale filter runs a plan.
            _answer_with_gate_sentence(turn, state, shown.message)
            return
        # "Remember that I cover Denver. How many open orders there?": both are answered.
        shown = replace(shown, standalone=False)

    correction = corrections.correction_text(read.text)
    asked = correction or resolution.original_question or read.text
    if shown is not None:
        asked = _question_part(user, asked)
    planned = _plan(state, resolution, asked, correcting=correction is not None)
    # One retrieval text for recall and document search, so the question is embedded once.
    retrieval = _retrieval_query(state, resolution)
    notes = recall_as_acting_user(user, retrieval)  # ask() set the acting user; [] while memory is paused
    eligible, held_out = holdout.decide(turn.pk, recalled_count=len(notes))
    used = [] if held_out else notes
    plan, abstention, narrowed = _narrowed(planned, used, asked)
    if plan is not None and plan.subject == "documents":
        plan = replace(plan, query=retrieval)  # the text recall embedded: one vector per turn
    # a remark beside the wish ("... the slashes get misread in our emails") is no question of a field
    beside = abstention is not None and abstention.reason == vocab.NO_FIELD_REASON and "?" not in asked
    if shown is not None and abstention is not None and (abstention.reason in vocab.NO_PLAN_REASONS or beside):
        # "From now on, amounts in euros" asks nothing of the records: the acknowledgement is the answer.
        _answer_with_gate_sentence(turn, state, shown.message)
        return
    if (
        abstention is not None
        and abstention.reason != vocab.CHANGE_REASON
        and asks_nothing(asked, names_customer=bool(tools.find_customer_mentions(asked)))
    ):
        # "I'm in Denver till Friday": a statement, acknowledged, never "I can't answer that"
        # (design rule "statements acknowledged"); what the gate keeps it says itself.
        _acknowledge(turn, state, sentences.STATEMENT_ACKNOWLEDGED)
        return
    missing = _missing_value(asked, abstention)
    if missing is not None:
        # "There is no retail segment; the segments are ...": what exists, from the data.
        _acknowledge(turn, state, missing.sentence())
        return
    if abstention is not None and unsure_names:
        # A name only near one on record (two words right, one only close): the question with that name,
        # offered as "did you mean", never answered.
        named = _named_as(state, resolution, asked, unsure_names)
        if named is not None:
            _offer(turn, state, asked, named[0], [named[1]])
            return
    if abstention is not None:
        # Most of the question read but one word not: offer the closest plans, answer nothing yet.
        offered = suggest(asked, abstention, _context(state, resolution, asked), today=timezone.localdate())
        if offered:
            _offer(turn, state, asked, abstention.topic, offered)
            return
    quoted = _passage_answer(asked, abstention) if abstention is not None else None
    if quoted is not None:
        plan, abstention = quoted.plan, None

    responder = get_responder()
    # A tool-calling model chooses its own plans; the offline responder renders this one's results.
    uses_tools = getattr(responder, "uses_tools", False)
    # The user's standing preferences for this answer: the plan's (a list size, cancelled orders
    # in totals) before it runs, the rest when the answer is formatted (chat.shaping).
    preferences = shaping.preferences_for(used, plan) if not uses_tools else {}
    plan_uses: dict[int, Use] = {}
    if plan is not None and not uses_tools:
        plan, plan_uses = shaping.shape_plan(plan, preferences, asked)
    results = tuple(execute(plan, today=timezone.localdate())) if plan is not None and not uses_tools else ()
    if quoted is not None:
        results = (quoted,)
    prompt = _prompt(asked, state, plan, results, notes=used, abstention=abstention, preferences=preferences)
    answer = responder.respond(prompt)
    if uses_tools:
        results = answer.results
        plan = results[-1].plan if results else None
    _after_plan(state, plan, planned, results)
    if results or plan is not None:
        state.last_order = _one_order(results)  # an abstention leaves "it" pointing where it was
    answer_blocks = list(answer.blocks)
    if correction is not None:
        answer_blocks = corrections.answer_blocks(answer_blocks, bool(results))
        corrections.record(user, turn, previous_turn_id=state.last_turn_id, text=question)
    influences = {**answer.influences, **plan_uses, **narrowed}
    said = [c.said() for c in read.corrections] + [Change(w, m, "meaning").said() for w, m in planned.readings]
    if said and plan is not None:
        # What was read differently, so a wrong reading is seen, not silently answered.
        answer_blocks.insert(0, blocks.note(" ".join(said)))
    if narrowed and results:
        # The first line says what the note narrowed, and how to ask for the whole.
        answer_blocks.insert(0, blocks.summary(next(iter(narrowed.values())).how))
    turn.recalled = [_recalled_row(note, influences.get(note.memory_id)) for note in used]
    record_uses(user, [i for i in influences if i in {n.memory_id for n in used}], at=turn.created_at)
    turn.eligible = eligible
    turn.held_out = held_out
    _set_answer(turn, answer_blocks, prompt, shown=shown)
    turn.correction = correction is not None


def _prompt(
    asked: str,
    state: state_module.SessionState,
    plan: QueryPlan | None,
    results: tuple[executors.Result, ...],
    *,
    notes: list[RecalledNote],
    abstention: Abstention | None,
    preferences: dict[str, Any] | None = None,
) -> prompt_module.Prompt:
    return prompt_module.assemble_prompt(
        asked,
        session_block=state_module.render_state(state),
        tool_calls=[executors.as_tool_call(r) for r in results],
        notes=notes,
        format=state.format,
        focus_label=state.focus.label if state.focus else "",
        filters=plan.filters.slots() if plan is not None else {},
        results=results,
        abstention=abstention,
        preferences=preferences,
    )


def _set_answer(
    turn: Turn, answer_blocks: list[blocks.Block], prompt: prompt_module.Prompt, *, shown: Preview | None
) -> None:
    if shown is not None:
        # "Noted: you prefer ..." / "I won't keep that: ..." beside the answer (chat/views shows it
        # as the turn's gate line).
        turn.gate_message = shown.message
        answer_blocks.append(blocks.summary(shown.message))
    turn.blocks = [b.as_dict() for b in answer_blocks]
    turn.answer = blocks.blocks_text(answer_blocks)
    turn.prompt_tokens = prompt.tokens
    turn.prompt = prompt  # not stored: for bench_session and debugging


def _plan(
    state: state_module.SessionState, resolution: state_module.Resolution, asked: str, *, correcting: bool
) -> Planned:
    """Plan the question against the session: named customers, focus, the previous plan and
    the filters still alive; then age the filters (the ones stated restart)."""
    if resolution.plan is not None:
        # A "did you mean" option picked: its plan, as offered.
        planned = Planned(QueryPlan.from_dict(resolution.plan), {})
        state_module.decay_filters(state, planned.stated)
        return planned
    context = _context(state, resolution, asked)
    planned = plan_question(asked, context, today=timezone.localdate())
    if correcting and not isinstance(planned.result, QueryPlan) and context.last_plan is not None:
        # "That's wrong" with nothing to look up: what the records say is the last answer's plan.
        planned = Planned(context.last_plan, {}, follow_up=True)
    state_module.decay_filters(state, planned.stated)
    if planned.fmt and not state.format:
        state.format = planned.fmt
    return planned


def _picked_from_the_list(state: state_module.SessionState, text: str) -> tuple[str, str] | None:
    """One of the customers the last answer listed, picked by a word of its name ("the vet one")."""
    last = QueryPlan.from_dict(state.last_plan) if state.last_plan else None
    if last is None or last.subject != "customers" or last.kind != "list" or not tools.may_pick(text):
        return None
    listed = list(executors.customers_for(last.filters).values_list("name", flat=True)[: executors.MAX_ROWS])
    return tools.picked_from(text, listed, known=_planner_words())


@lru_cache(maxsize=1)
def _planner_words() -> frozenset[str]:
    from atlas.lexicon import vocabulary_words

    return frozenset(w.lower() for w in vocabulary_words(vocab))


def _context(state: state_module.SessionState, resolution: state_module.Resolution, asked: str) -> Context:
    mentions = tools.find_customer_mentions(asked)
    groups = _group_mentions(mentions)
    known = {m.account_code.upper() for m in mentions}
    codes = [f"ACCT-{digits}" for digits in vocab.ACCOUNT_CODE_IN_TEXT.findall(asked)]
    focus = state.focus
    named: list[CustomerRef] = []
    for group in groups:
        if len(group) == 1:
            named.append(CustomerRef(int(group[0].id), group[0].name))
        elif focus is not None and focus.id in {c.id for c in group}:
            named.append(CustomerRef(int(focus.id), focus.label))
    last = QueryPlan.from_dict(state.last_plan) if state.last_plan else None
    about = named[0] if len(named) == 1 else focus if focus is not None and focus.type == "customer" else None
    signed = None
    if about is not None and vocab.SINCE_SIGNING.search(asked):
        signed = (
            Contract.objects.filter(customer_id=int(about.id))
            .order_by("-signed_on")
            .values_list("signed_on", flat=True)
        ).first()
    return Context(
        signed_on=signed,
        named=tuple(dict.fromkeys(named)),
        focus=CustomerRef(int(focus.id), focus.label) if focus is not None and focus.type == "customer" else None,
        refers_back=resolution.refers_back,
        last_plan=last,
        carried=state_module.carried_filters(state),
        last_order=state.last_order,
        unknown_codes=tuple(dict.fromkeys(c for c in codes if c not in known)),
    )


def _after_plan(
    state: state_module.SessionState,
    plan: QueryPlan | None,
    planned: Planned,
    results: tuple[executors.Result, ...] = (),
) -> None:
    """Tool results set focus confidently (design rule: bounded state): one customer in the plan is
    the focus, and so is the one customer a ranking answered with (the top customer asked for, then
    "their" payment terms asked next)."""
    state.last_plan = plan.to_dict() if plan is not None else None
    top = _one_ranked_customer(results)
    if top is not None:
        _focus_on(state, top.pk, top.name)
        return
    if plan is not None and plan.order_number:
        # "Who was that for?", "what terms are they on?": the order's customer is the focus.
        from chat.models import Customer

        customer = Customer.objects.filter(orders__number__iexact=plan.order_number).first()
        if customer is not None:
            _focus_on(state, customer.pk, customer.name)
            return
    if plan is not None and len(plan.filters.customers) == 1:
        ref = plan.filters.customers[0]
        _focus_on(state, ref.id, ref.name)


def _focus_on(state: state_module.SessionState, pk: int, name: str) -> None:
    state.focus = state_module.Focus(type="customer", id=str(pk), label=name, confident=True)


def _one_ranked_customer(results: tuple[executors.Result, ...]) -> Any:
    """The customer a ranking of customers named alone (its top one), or None."""
    if len(results) != 1 or not isinstance(results[0], executors.Ranking):
        return None
    ranking = results[0]
    if ranking.plan.group_by != "customer" or len(ranking.rows) != 1:
        return None
    from chat.models import Customer

    return Customer.objects.filter(name=ranking.rows[0].label).first()


def _one_order(results: tuple[executors.Result, ...]) -> str:
    """The number of the one order an answer showed (the largest order, an order looked up), or ""."""
    if len(results) != 1:
        return ""
    result = results[0]
    if isinstance(result, executors.Record) and result.noun == "order":
        return result.plan.order_number
    if isinstance(result, executors.RecordList) and result.noun == "order" and len(result.rows) == 1:
        return str(result.rows[0][0]) if result.plan.kind == "rank" else ""
    return ""


def _passage_answer(asked: str, abstention: Abstention) -> executors.Quotes | None:
    """A document question in other words: when no plan fits, no customer is named and the
    best passage is this close to the question, the answer quotes it (threshold measured by
    scripts/measure_passage_threshold.py; forecasts, other topics and missing fields never)."""
    if abstention.reason not in vocab.NO_PLAN_REASONS or tools.find_customer_mentions(asked):
        return None
    if abstention.figure or abstention.topic in vocab.MEASURE_TOPICS:
        return None  # a figure was asked for: a passage about the topic would answer another question
    close = [
        p
        for p in search_documents(asked[:MAX_QUESTION_CHARS], limit=3)
        if (p.similarity or 0.0) >= PASSAGE_ANSWER_SIMILARITY and p.customer_id is None
    ]
    if not close:
        return None
    return executors.Quotes(QueryPlan("list", "documents", query=asked), tuple(close[:1]))


def _gate_preview(
    user: User, question: str, *, at: datetime, opens_session: bool = False, before: str = ""
) -> Preview | None:
    """What the gate will do with this turn, as the answer's sentence (a pure read)."""
    from memory.gate import preview

    return preview(user, question, at=at, opens_session=opens_session, before=before)


def _question_part(user: User, text: str) -> str:
    """The sentences of ``text`` that are not the acknowledged preference or secret, so "How
    many open orders ...? Going forward, amounts in thousands." plans the question only."""
    from atlas.language import parse
    from memory.gate import preview, questions_in

    sentences = [s.text for s in parse(text).sents]
    if len(sentences) < 2:
        # One sentence: "Remember that I look after Aurora and how many open orders ...?"
        asked = [q for q in questions_in(text) if preview(user, q) is None]
        return " ".join(asked) if asked and len(asked[0]) < len(text.strip()) else text
    kept = [s for s in sentences if preview(user, s) is None]
    return " ".join(kept) or text


def _answer_with_gate_sentence(turn: Turn, state: state_module.SessionState, message: str) -> None:
    turn.answer = turn.gate_message = message
    turn.blocks = [blocks.summary(message).as_dict()]
    state.last_plan = None


def _offer(turn: Turn, state: state_module.SessionState, asked: str, word: str, offered: list[Suggestion]) -> None:
    """ "Did you mean" through the clarify path ambiguous names use: the options are buttons on
    the page and ``options`` in the API; picking one answers its plan (chat.state)."""
    plans = [{"id": f"plan-{i}", "label": s.label, "plan": s.plan.to_dict()} for i, s in enumerate(offered, 1)]
    state.pending = {"question": asked, "candidates": [], "plans": plans}
    state.last_plan = None
    _clarify(
        turn,
        {
            "question": f"I didn't follow \u201c{word}\u201d there. Did you mean one of these?",
            "options": [{"id": p["id"], "label": p["label"]} for p in plans],
        },
    )


def _named_as(
    state: state_module.SessionState,
    resolution: state_module.Resolution,
    asked: str,
    unsure: tuple[tuple[str, str], ...],
) -> tuple[str, Suggestion] | None:
    """The first near name that, spelt as on record, makes the question plan: (as typed, the option)."""
    from chat.answering.suggestions import describe

    for typed, name in unsure:
        if typed not in asked:
            continue
        fixed = asked.replace(typed, name, 1)
        planned = plan_question(fixed, _context(state, resolution, fixed), today=timezone.localdate()).result
        if isinstance(planned, QueryPlan) and describe(planned):
            return typed, Suggestion(describe(planned), planned, 1.0)
    return None


def _missing_value(asked: str, abstention: Abstention | None) -> MissingValue | None:
    if abstention is None or abstention.reason not in vocab.NO_PLAN_REASONS:
        return None
    unread = abstention.topic if abstention.topic.isalpha() else ""
    return missing_value(asked, unread=unread)


def _acknowledge(turn: Turn, state: state_module.SessionState, sentence: str) -> None:
    """A plain sentence is the whole answer (a statement acknowledged, a value that is not there)."""
    turn.answer = sentence
    turn.blocks = [blocks.summary(sentence).as_dict()]
    state.last_plan = None


def _recalled_row(note: RecalledNote, use: Use | None) -> dict[str, Any]:
    """A recalled note as the turn keeps it: the panel lists it only if it shaped the answer
    (``influence`` empty: recalled, and nothing in the answer came from it)."""
    row = asdict(note)
    for key in ("written_at", "source_at"):
        if row.get(key) is not None:
            row[key] = row[key].isoformat()
    row["influence"] = use.code if use is not None else ""
    row["how"] = use.how if use is not None else ""
    return row


# A question that asks for everything: no note narrows it (design rule "narrowing").
_WHOLE = re.compile(
    r"\b(?:in total|all (?:the )?(?:regions|customers|segments|accounts)|across (?:all |the |every )?"
    r"(?:regions|company|board|business|segments|customers|accounts)|company[- ]?wide|(?:the )?whole "
    r"(?:company|business)|every (?:region|customer|segment)|each region|overall|everything|everyone|"
    r"(?:by|per) (?:region|segment)|all of (?:them|us)|" + "|".join(sorted(vocab.WHOLE_SCOPE_WORDS)) + r")\b"
)


def _narrowed(
    planned: Planned, notes: list[RecalledNote], question: str
) -> tuple[QueryPlan | None, Abstention | None, dict[int, Use]]:
    """The plan, narrowed to a region a context note names, when the question leaves it open.

    "Covers the western sales region" narrows "show me the overdue orders" to the West, and the
    answer's first line says so. Never a question that states its own scope (a customer, a
    region, a follow-up's carried filters), asks for everything ("in total", "company-wide",
    "across all regions") or groups by region; never from a situation or a correction. The
    region is read from the note's structured facets, never from its text.
    """
    result = planned.result
    if isinstance(result, Abstention):
        return None, result, {}
    plan = result
    filters = plan.filters
    stated = filters.customers or filters.region or filters.city or filters.segment
    if plan.subject != "orders" or stated or planned.follow_up:
        return plan, None, {}
    if plan.group_by in ("region", "segment", "city") or _WHOLE.search(question.lower()):
        return plan, None, {}
    for note in notes:
        region = str((note.facets or {}).get("region", "")).lower()
        if note.kind != "context" or region not in {r.value for r in Region}:
            continue
        label = Region(region).label
        how = (
            f"Narrowed to the {label} region, from your note \u201c{note.statement.rstrip('.')}\u201d. "
            f"Ask for all regions to see the whole company."
        )
        return replace(plan, filters=replace(plan.filters, region=region)), None, {note.memory_id: Use(_NARROWED, how)}
    return plan, None, {}


def _retrieval_query(state: state_module.SessionState, resolution: state_module.Resolution) -> str:
    """The question with "their" resolved: the focus's name appended when it is not in it."""
    query = resolution.rewritten
    if state.focus is not None and state.focus.label.lower() not in query.lower():
        query = f"{query} ({state.focus.label})"
    return query[:MAX_QUESTION_CHARS]
