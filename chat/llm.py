"""The optional model path: an OpenAI-compatible chat endpoint that calls the plan executors.

With ``ATLAS_LLM_BASE_URL`` set, the turn sends the question to
``<base>/chat/completions`` with the plan executors offered as function-calling tools. The
model chooses a tool and its arguments; the app turns the arguments into a
:class:`~chat.planner.QueryPlan`, runs it with :mod:`chat.executors` and sends the typed
result back as the tool's output, until the model answers in words (at most
``MAX_ROUNDS`` rounds). The system message holds only the fixed instructions: recalled
notes travel in the user message as quoted data (design rule: notes are data; :func:`chat.prompt.render_notes_block`).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import replace
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone

from atlas.periods import read_period
from chat import blocks as B
from chat import executors, tools
from chat import vocabulary as vocab
from chat.planner import CustomerRef, Filters, QueryPlan
from chat.prompt import Prompt
from chat.responders import Answer, ResponderError, holds_of, render_result
from chat.shaping import Influence, Use, preferences_for, settle, style_for

MAX_ROUNDS = 4

_FILTERS = {
    "customer": {"type": "string", "description": "customer name or account code"},
    "region": {"type": "string", "enum": ["west", "east", "north", "south", "central"]},
    "city": {"type": "string"},
    "segment": {"type": "string", "description": "enterprise, mid-market or small business"},
    "status": {"type": "string", "enum": ["open", "shipped", "overdue", "cancelled", "paid"]},
    "period": {"type": "string", "description": 'e.g. "last quarter", "this year", "2025", "Q3 2026", "March 2026"'},
}


def _tool(name: str, description: str, properties: dict[str, Any], required: list[str] | None = None) -> dict:
    parameters = {"type": "object", "properties": properties, "required": required or []}
    return {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}


TOOLS: list[dict[str, Any]] = [
    _tool(
        "query_orders",
        "Count, total, average, list or rank orders. Sums, averages and rankings leave out cancelled orders "
        "unless a status is given.",
        {
            "measure": {"type": "string", "enum": ["count", "sum", "average", "list", "rank"]},
            **_FILTERS,
            "group_by": {"type": "string", "enum": ["customer", "region", "segment", "city", "status", "month"]},
            "limit": {"type": "integer", "minimum": 1, "maximum": 50},
            "order": {"type": "string", "enum": ["desc", "asc"]},
        },
        ["measure"],
    ),
    _tool("lookup_order", "One order by its number (SO-12345).", {"number": {"type": "string"}}, ["number"]),
    _tool(
        "customer_facts",
        "A customer's account code, city, region and segment.",
        {"customer": _FILTERS["customer"]},
        ["customer"],
    ),
    _tool(
        "contract_terms",
        "A customer's current contract: payment terms, credit limit, renewal date.",
        {"customer": _FILTERS["customer"]},
        ["customer"],
    ),
    _tool(
        "list_customers",
        "Customers by region, city or segment; with status (and min_orders) only those with such orders.",
        {
            **{k: _FILTERS[k] for k in ("region", "city", "segment", "status")},
            "min_orders": {"type": "integer", "minimum": 0},
            "min_total": {"type": "number", "description": "only customers whose orders total more than this"},
            "max_total": {"type": "number", "description": "only customers whose orders total less than this"},
            "terms": {"type": "string", "description": 'payment terms of the current contract, e.g. "net 30"'},
            "count_only": {"type": "boolean"},
        },
    ),
    _tool(
        "compare_orders",
        "Two customers, two regions, two cities or two periods side by side: both figures and which is ahead. "
        "Sums leave out cancelled orders unless a status is given.",
        {
            "measure": {"type": "string", "enum": ["sum", "count", "average"]},
            "customers": {"type": "array", "items": _FILTERS["customer"], "minItems": 2, "maxItems": 2},
            "regions": {"type": "array", "items": _FILTERS["region"], "minItems": 2, "maxItems": 2},
            "cities": {"type": "array", "items": _FILTERS["city"], "minItems": 2, "maxItems": 2},
            "periods": {"type": "array", "items": _FILTERS["period"], "minItems": 2, "maxItems": 2},
            **{k: _FILTERS[k] for k in ("customer", "region", "segment", "status", "period")},
        },
        ["measure"],
    ),
    _tool(
        "renewing_contracts",
        "Contracts whose renewal date falls in a period.",
        {"period": _FILTERS["period"]},
        ["period"],
    ),
    _tool("search_documents", "Search the company's documents.", {"query": {"type": "string"}}, ["query"]),
]


# --- arguments into plans ----------------------------------------------------------------------


def _customer(args: dict[str, Any]) -> tuple[CustomerRef, ...]:
    name = str(args.get("customer") or "").strip()
    if not name:
        return ()
    found = tools.lookup_customer(name)
    if not found.ok:
        options = ", ".join(c["name"] for c in found.candidates)
        raise ValidationError(found.error + (f" Candidates: {options}." if options else ""))
    return (CustomerRef(int(found.data["id"]), found.data["name"]),)


def _filters(args: dict[str, Any]) -> Filters:
    period = None
    if args.get("period"):
        period, _ = read_period(str(args["period"]).lower().replace(",", " ").split(), today=timezone.localdate())
        if period is None:
            raise ValidationError(f'Unknown period "{args["period"]}".')
    region = str(args.get("region") or "").lower()
    status = str(args.get("status") or "").lower()
    if region and region not in vocab.REGION_WORDS:
        raise ValidationError(f'Unknown region "{region}".')
    if status and status not in vocab.STATUS_WORDS:
        raise ValidationError(f'Unknown status "{status}".')
    return Filters(
        customers=_customer(args),
        region=vocab.REGION_WORDS.get(region, ""),
        city=str(args.get("city") or ""),
        segment=str(args.get("segment") or ""),
        status=vocab.STATUS_WORDS.get(status, ""),
        period=period,
    )


def plan_from_tool(name: str, args: dict[str, Any]) -> QueryPlan:
    """The plan a tool call asks for; ``ValidationError`` when its arguments make no sense."""
    if name == "query_orders":
        measure = str(args.get("measure") or "list")
        if measure not in ("count", "sum", "average", "list", "rank"):
            raise ValidationError(f'Unknown measure "{measure}".')
        limit = args.get("limit")
        return QueryPlan(
            measure,
            "orders",
            _filters(args),
            group_by=str(args.get("group_by") or ("customer" if measure == "rank" else "")),
            order="asc" if args.get("order") == "asc" else "desc",
            limit=max(1, min(int(limit), 50)) if limit else (5 if measure == "rank" else None),
        )
    if name == "lookup_order":
        return QueryPlan("lookup", "orders", order_number=str(args.get("number") or "").upper())
    if name in ("customer_facts", "contract_terms"):
        subject = "customers" if name == "customer_facts" else "contracts"
        return QueryPlan("lookup", subject, Filters(customers=_customer(args)))
    if name == "list_customers":
        kind = "count" if args.get("count_only") else "list"
        min_orders = args.get("min_orders")
        if min_orders is None and args.get("status"):
            min_orders = 0
        least, most = (Decimal(str(args[k])) if args.get(k) is not None else None for k in ("min_total", "max_total"))
        terms = str(args.get("terms") or "").lower().strip()
        return QueryPlan(
            kind, "customers", _filters(args), min_orders=min_orders, terms=terms, min_total=least, max_total=most
        )
    if name == "compare_orders":
        return _comparison(args)
    if name == "renewing_contracts":
        return QueryPlan("list", "contracts", _filters(args))
    if name == "search_documents":
        return QueryPlan("list", "documents", query=str(args.get("query") or "")[:2000])
    raise ValidationError(f'Unknown tool "{name}".')


def _comparison(args: dict[str, Any]) -> QueryPlan:
    """A compare_orders call: exactly two customers, two regions, two cities or two periods."""
    measure = str(args.get("measure") or "sum")
    if measure not in ("sum", "count", "average"):
        raise ValidationError(f'Unknown measure "{measure}".')
    filters = _filters(args)
    plan = QueryPlan("compare", "orders", filters, measure="" if measure == "sum" else measure)
    if len(args.get("customers") or ()) == 2:
        named = tuple(c for name in args["customers"] for c in _customer({"customer": name}))
        return replace(plan, filters=replace(filters, customers=named), group_by="customer")
    if len(args.get("regions") or ()) == 2:
        regions = tuple(vocab.REGION_WORDS.get(str(r).lower(), "") for r in args["regions"])
        if not all(regions):
            raise ValidationError(f"Unknown region in {args['regions']}.")
        return replace(plan, filters=replace(filters, region=""), group_by="region", sides=regions)
    if len(args.get("cities") or ()) == 2:
        cities = tuple(_filters({"city": str(c)}).city for c in args["cities"])
        return replace(plan, filters=replace(filters, city=""), group_by="city", sides=cities)
    if len(args.get("periods") or ()) == 2:
        sides = []
        for text in args["periods"]:
            period = _filters({"period": text}).period
            assert period is not None  # _filters raises on a period it cannot read
            sides.append(f"{period.label}|{period.start.isoformat()}|{period.end.isoformat()}")
        return replace(plan, filters=replace(filters, period=None), group_by="period", sides=tuple(sides))
    raise ValidationError("Give two customers, two regions, two cities or two periods to compare.")


def run_tool(name: str, arguments: str) -> tuple[dict[str, Any], list[executors.Result]]:
    """Execute one tool call: its JSON output for the model and the typed results."""
    try:
        args = json.loads(arguments or "{}")
        if not isinstance(args, dict):
            raise ValidationError("Arguments must be a JSON object.")
        plan = plan_from_tool(name, args)
    except (ValueError, TypeError, ValidationError) as exc:
        message = " ".join(exc.messages) if isinstance(exc, ValidationError) else f"Bad arguments: {exc}"
        return {"error": message}, []
    results = executors.execute(plan, today=timezone.localdate())
    return {"results": [executors.result_data(r) for r in results]}, results


# --- the endpoint ----------------------------------------------------------------------------------


class OpenAICompatibleResponder:
    """A model at ``<ATLAS_LLM_BASE_URL>/chat/completions`` that answers by calling the executors."""

    name = "openai-compatible"
    uses_tools = True

    def __init__(self, *, base_url: str, model: str, api_key: str = "", timeout: float = 30.0) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.api_key = api_key
        self.timeout = timeout

    @classmethod
    def from_settings(cls) -> OpenAICompatibleResponder:
        return cls(
            base_url=settings.ATLAS_LLM_BASE_URL,
            model=getattr(settings, "ATLAS_LLM_MODEL", "") or "default",
            api_key=settings.ATLAS_LLM_API_KEY,
            timeout=float(getattr(settings, "ATLAS_LLM_TIMEOUT", 30)),
        )

    def respond(self, prompt: Prompt) -> Answer:
        messages: list[dict[str, Any]] = list(prompt.messages())
        results: list[executors.Result] = []
        for _ in range(MAX_ROUNDS):
            message = self._complete(messages)
            calls = message.get("tool_calls") or []
            if not calls:
                return self._answer(message.get("content"), prompt, results)
            messages.append({"role": "assistant", "content": message.get("content") or "", "tool_calls": calls})
            for call in calls:
                function = call.get("function") or {}
                output, found = run_tool(str(function.get("name", "")), str(function.get("arguments") or "{}"))
                results.extend(found)
                messages.append(
                    {"role": "tool", "tool_call_id": call.get("id", ""), "content": json.dumps(output, default=str)}
                )
        raise ResponderError(f"The language model did not answer after {MAX_ROUNDS} rounds of tool calls.")

    def _answer(self, text: Any, prompt: Prompt, results: list[executors.Result]) -> Answer:
        if not isinstance(text, str) or not text.strip():
            raise ResponderError("The language model endpoint returned an empty answer.")
        parts = [B.summary(p.strip()) for p in text.strip().split("\n\n") if p.strip()]
        # Every recalled note went to the model with the question (preferences with their facets
        # as structured constraints); what Atlas cannot apply is said here, as on the offline path.
        plan = results[-1].plan if results else None
        style = style_for(preferences_for(prompt.notes, plan), prompt.format)
        for result in results:
            render_result(result, style)  # what the results hold that a preference acts on
        settle(style, holds_of(tuple(results), style))
        parts += [B.note(sentence) for sentence in style.declines]
        given = Use(Influence.GIVEN_TO_MODEL, "Given to the model with the question")
        influences = {note.memory_id: given for note in prompt.notes}
        influences.update({i: use for i, use in style.uses.items() if use.code == Influence.DECLINED})
        return Answer(
            text=B.blocks_text(parts),
            blocks=tuple(parts),
            influences=influences,
            responder=self.name,
            results=tuple(results),
        )

    def _complete(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        body = {"model": self.model, "messages": messages, "tools": TOOLS, "tool_choice": "auto", "temperature": 0}
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(self.url, data=json.dumps(body).encode(), headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310 (configured URL)
                reply = json.load(response)
            message = reply["choices"][0]["message"]
        except urllib.error.HTTPError as exc:
            raise ResponderError(f"The language model endpoint answered {exc.code} {exc.reason}.") from exc
        except (OSError, KeyError, IndexError, TypeError, ValueError) as exc:
            raise ResponderError(f"The language model endpoint failed: {exc}") from exc
        if not isinstance(message, dict):
            raise ResponderError("The language model endpoint returned no message.")
        return message
