"""The chat turn: one question in, one saved answer out (DESIGN.md "The shape").

1. session state, updated from the question before retrieval (chapter 92);
2. recall from memory, unless memory is paused or the turn is held out (chapter 93);
3. tools over the corpus and document passages;
4. prompt assembly and the responder;
5. the Turn saved with the recalled notes and how each shaped the answer;
6. the write gate queued for after the commit (the turn does not wait for it).

Everything from the Turn row to the state write happens in one transaction: a failure saves
nothing partial and raises :class:`TurnFailed` with a message the user can read.
"""

from __future__ import annotations

import logging
import re
from dataclasses import asdict
from itertools import groupby
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import DatabaseError, transaction
from django.utils import timezone

from atlas.text import has_visible_text
from chat import holdout, tools
from chat import prompt as prompt_module
from chat import state as state_module
from chat.feedback import queue_gate, record_followup
from chat.models import ChatSession, Turn
from chat.prompt import PromptPassage, ToolCall
from chat.responders import NARROWED_RETRIEVAL, ResponderError, get_responder
from memory.embeddings import EmbeddingError
from memory.rls import acting_user

logger = logging.getLogger(__name__)

MAX_QUESTION_CHARS = 2000
PASSAGES_PER_TURN = 12

_CONTRACT_WORDS = re.compile(
    r"\b(contract|terms|payment|pay|pays|paying|net\s*\d+|renew\w*|credit|limit)\b", re.IGNORECASE
)
_ORDER_WORDS = re.compile(
    r"\b(orders?|sales|revenue|spend|spent|bought|purchases?|invoices?|overdue|shipped|cancell?ed|paid|"
    r"open|totals?|how much)\b",
    re.IGNORECASE,
)


class TurnFailed(RuntimeError):
    """A turn could not be answered; nothing of it was saved."""


def start_session(user, *, title: str = "") -> ChatSession:
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


def ask(user, *, session: ChatSession | None, question: str, option_id: str | None = None) -> Turn:
    """Answer ``question`` in ``session`` (a new session when None) and save the turn.

    ``option_id`` answers a pending clarifying question with one of its options; typing the
    option (its account code, its city) does the same.
    """
    text = clean_question(question)
    if session is not None and session.user_id != user.pk:
        raise PermissionDenied("That conversation belongs to someone else.")
    try:
        with acting_user(user.pk):
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


def _serialise(user, session: ChatSession | None, *, title: str) -> ChatSession:
    """First in the turn's transaction: the user's deletion generation, then the session row.

    A delete-everything waits for the turn or the turn waits and finds its session gone;
    parallel turns of one session run one after another, each on the state the last saved.
    """
    from memory.epoch import hold_generation

    hold_generation(user.pk)
    if session is None:
        return ChatSession.objects.create(user=user, title=title[:80])
    try:
        return ChatSession.objects.select_for_update().get(pk=session.pk, user_id=user.pk)
    except ChatSession.DoesNotExist:
        raise TurnFailed("This conversation was deleted. Nothing was saved; start a new one.") from None


def _ask(user, *, session: ChatSession | None, question: str, option_id: str | None) -> Turn:
    with transaction.atomic():
        session = _serialise(user, session, title=question)
        state = state_module.load_state(user.pk, session.pk)
        previous_focus = state.focus.id if state.focus else state.last_focus_id
        previous_turn = state.last_turn_id
        mentions = _group_mentions(tools.find_customer_mentions(question))
        resolution = state_module.update_from_question(state, question, mentions=mentions, option_id=option_id)
        # Reserve the turn id first: the hold-out draw hashes it (chapter 93).
        turn = Turn.objects.create(session=session, user=user, question=question, created_at=timezone.now())

        if resolution.clarify is not None:
            _clarify(turn, resolution.clarify)
        else:
            _answer(user, turn, state, resolution, question)

        record_followup(
            session.pk,
            previous_turn,
            stayed=bool(previous_focus) and state.focus is not None and state.focus.id == previous_focus,
        )
        state_module.remember_question(state, question)
        state.last_turn_id = turn.pk
        state.last_focus_id = state.focus.id if state.focus else ""
        state_module.save_state(user.pk, session.pk, state, new=not state.loaded)
        ChatSession.objects.filter(pk=session.pk).update(updated_at=timezone.now())
        queue_gate(
            user_id=user.pk,
            session_key=str(session.pk),
            turn_id=turn.pk,
            text=question,
            filters=state.active_filters(),
        )
    return turn


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
    turn.save(update_fields=["kind", "options", "answer"])


def _answer(user, turn: Turn, state, resolution, question: str) -> None:
    from memory.recall import recall_for_question, render_recalled_block

    gate_message = _gate_message(user, question)
    if gate_message:
        # "Remember that ..." / "forget ...": a request about memory, not a data question, so the
        # answer is the gate's own sentence and no stale filter runs a tool.
        turn.answer = turn.gate_message = gate_message
        turn.save(update_fields=["answer", "gate_message"])
        return

    asked = resolution.original_question or question
    # One retrieval text for recall and document search, so the question is embedded once.
    retrieval = _retrieval_query(state, resolution)
    notes = recall_for_question(user, retrieval)  # [] while the user has paused memory
    eligible, held_out = holdout.decide(turn.pk, recalled_count=len(notes))
    used = [] if held_out else notes

    narrowed = _narrow_from_notes(state, used, asked, resolution)
    calls = _run_tools(state, asked, resolution, extra_filters=narrowed["filters"])
    passages = _passages(retrieval)

    prompt = prompt_module.assemble_prompt(
        asked,
        session_block=state_module.render_state(state),
        recalled_block=render_recalled_block(used),
        tool_calls=calls,
        passages=passages,
        notes=used,
        format=state.format,
        focus_label=state.focus.label if state.focus else "",
        filters={**narrowed["filters"], **state.active_filters()},
    )
    answer = get_responder().respond(prompt)

    text = answer.text
    influences = dict(answer.influences)
    for memory_id in narrowed["ids"]:
        influences[memory_id] = NARROWED_RETRIEVAL
    turn.answer = text
    turn.recalled = [_recalled_row(note, influences.get(note.memory_id, "in-context")) for note in used]
    turn.eligible = eligible
    turn.held_out = held_out
    turn.prompt_tokens = prompt.tokens
    turn.save(update_fields=["answer", "recalled", "eligible", "held_out", "prompt_tokens"])
    turn.prompt = prompt  # not stored: for bench_session and debugging


def _gate_message(user, question: str) -> str:
    """The gate's own sentence for an explicit "remember"/"forget" request (a pure read)."""
    from memory.gate import preview

    result = preview(user, question)
    return result.message if result is not None else ""


def _recalled_row(note, influence: str) -> dict[str, Any]:
    row = asdict(note)
    for key in ("written_at", "source_at"):
        if row.get(key) is not None:
            row[key] = row[key].isoformat()
    row["influence"] = influence
    return row


def _narrow_from_notes(state, notes, question: str, resolution) -> dict[str, Any]:
    """Filters a recalled note supplies when the question leaves them open.

    "Covers the western sales region" narrows "show me the overdue orders" to the West, and
    the turn records that the note narrowed retrieval. Only for orders questions with no
    customer in focus and no region stated: a named customer or a stated region wins.
    """
    out: dict[str, Any] = {"filters": {}, "ids": []}
    if state.focus is not None or "region" in state.active_filters() or not _ORDER_WORDS.search(question):
        return out
    for note in notes:
        if note.kind not in ("context", "situation", "correction"):
            continue
        region = state_module.detect_filters(note.statement).get("region")
        if region:
            out["filters"]["region"] = region
            out["ids"].append(note.memory_id)
            break
    return out


def _intents(question: str, state, resolution) -> set[str]:
    found = set()
    if _CONTRACT_WORDS.search(question):
        found.add("contract")
    if _ORDER_WORDS.search(question) or resolution.filters_set.get("status"):
        found.add("orders")
    if not found and (resolution.filters_set or resolution.focus_kept or resolution.format_set):
        # "and last quarter?" / "as a table": the follow-up inherits the previous question's subject.
        for earlier in reversed(state.recent_questions):
            if _CONTRACT_WORDS.search(earlier):
                found.add("contract")
            if _ORDER_WORDS.search(earlier):
                found.add("orders")
            if found:
                break
    return found


def _run(name: str, function, **kwargs) -> ToolCall:
    try:
        result = function(**kwargs)
    except ValidationError as exc:
        return ToolCall(name=name, args=kwargs, ok=False, data={"error": " ".join(exc.messages)})
    return ToolCall(
        name=result.name,
        args=dict(result.args or kwargs),
        ok=result.ok,
        data=result.data if result.ok else {"error": result.error},
        candidates=list(result.candidates),
    )


def _run_tools(state, question: str, resolution, *, extra_filters: dict[str, str]) -> list[ToolCall]:
    calls: list[ToolCall] = []
    customer_id = None
    if state.focus is not None and state.focus.type == "customer":
        call = _run("lookup_customer", tools.lookup_customer, name_or_code=state.focus.label)
        calls.append(call)
        state_module.update_from_tool(state, name=call.name, ok=call.ok, data=call.data, args=call.args)
        if call.ok:
            customer_id = int(call.data["id"])
    intents = _intents(question, state, resolution)
    if "contract" in intents and customer_id is not None:
        calls.append(_run("contract_terms", tools.contract_terms, customer_id=customer_id))
    filters = {**extra_filters, **state.active_filters()}
    if "orders" in intents or ("contract" not in intents and customer_id is None and filters):
        call = _run("list_orders", tools.list_orders, customer_id=customer_id, **filters)
        calls.append(call)
        state_module.update_from_tool(state, name=call.name, ok=call.ok, data=call.data, args=call.args)
    return calls


def _retrieval_query(state, resolution) -> str:
    """The question with "their" resolved: the focus's name appended when it is not in it."""
    query = resolution.rewritten
    if state.focus is not None and state.focus.label.lower() not in query.lower():
        query = f"{query} ({state.focus.label})"
    return query[:MAX_QUESTION_CHARS]


def _passages(query: str) -> list[PromptPassage]:
    result = tools.search_documents_tool(query[:MAX_QUESTION_CHARS], limit=PASSAGES_PER_TURN)
    return [
        PromptPassage(title=p["title"], text=p["text"], document_id=p.get("document_id"))
        for p in result.data.get("passages", [])
    ]
