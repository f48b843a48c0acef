"""Responders: format and preferences honoured, the conflict sentence, the optional endpoint."""

import json
import threading
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from chat.prompt import PromptPassage, ToolCall, assemble_prompt
from chat.responders import (
    IN_CONTEXT,
    SHAPED_FORMAT,
    OfflineResponder,
    OpenAICompatibleResponder,
    ResponderError,
    get_responder,
)
from memory.recall import RecalledNote

CUSTOMER = {
    "id": 1,
    "name": "Northline Freight",
    "city": "Portland",
    "region": "west",
    "segment": "mid-market",
    "account_code": "ACCT-10442",
}
CONTRACT = {
    "customer_id": 1,
    "customer": "Northline Freight",
    "city": "Portland",
    "account_code": "ACCT-10442",
    "payment_terms": "net 45",
    "payment_days": 45,
    "renewal_date": "2028-05-31",
    "credit_limit": "115000.00",
    "signed_on": "2026-06-01",
}
ROWS = [
    {
        "number": f"SO-{88000 + n}",
        "customer": "Northline Freight",
        "ordered_on": f"2026-09-{10 + n:02d}",
        "amount": f"{1200 + n * 100}.50",
        "currency": "USD",
        "status": "overdue",
    }
    for n in range(8)
]
ORDERS = {"rows": ROWS, "totals": {"count": 8, "sum": "12404.00", "currency": "USD", "by_status": {}}}


def note(statement, *, kind="preference", memory_id=1, written=datetime(2026, 3, 14, 15, tzinfo=UTC)):
    return RecalledNote(
        memory_id=memory_id,
        kind=kind,
        statement=statement,
        author="user",
        written_at=written,
        source_quote="",
        source_at=written,
        source_session="",
        source_turn=None,
        reason="preference" if kind == "preference" else "ranked",
        score=None,
    )


def prompt_for(*calls, notes=(), fmt="", passages=()):
    return assemble_prompt(
        "What about Northline Freight?",
        session_block="",
        recalled_block="",
        tool_calls=list(calls),
        passages=list(passages),
        notes=list(notes),
        format=fmt,
        focus_label="Northline Freight",
    )


LOOKUP = ToolCall("lookup_customer", {"name_or_code": "Northline Freight"}, True, CUSTOMER)
TERMS = ToolCall("contract_terms", {"customer_id": 1}, True, CONTRACT)
LIST = ToolCall("list_orders", {"customer_id": 1, "status": "overdue"}, True, ORDERS)


def answer(*calls, **kwargs):
    return OfflineResponder().respond(prompt_for(*calls, **kwargs))


def test_default_answer_states_the_contract_from_the_tool_result():
    text = answer(LOOKUP, TERMS).text
    assert "Northline Freight (Portland, acct ACCT-10442) pays on net 45 (45 days)" in text
    assert "31 May 2028" in text and "$115,000.00" in text


def test_short_format_is_one_line():
    text = answer(LOOKUP, TERMS, fmt="short").text
    assert "\n" not in text and "net 45" in text


def test_table_format_renders_plain_rows():
    text = answer(LOOKUP, LIST, fmt="table").text
    lines = text.splitlines()
    assert "Order | Date | Amount | Status" in lines
    assert "SO-88000 | 10 Sep 2026 | $1,200.50 | overdue" in lines
    assert len([line for line in lines if line.startswith("SO-")]) == 8


def test_detailed_format_lists_every_field_as_bullets():
    text = answer(LOOKUP, TERMS, fmt="detailed").text
    assert "- Payment terms: net 45 (45 days)" in text and "- Signed: 1 Jun 2026" in text


def test_default_order_answer_summarises_and_lists_recent_orders():
    text = answer(LOOKUP, LIST).text
    assert text.startswith("8 overdue orders for Northline Freight (Portland, acct ACCT-10442), totalling $12,404.00.")
    assert text.count("\n- SO-") == 5


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        ("Wants dates as YYYY-MM-DD.", "2028-05-31"),
        ("Prefers amounts in thousands.", "$115.0k"),
        ("Show currency as a code, e.g. USD amounts.", "USD 115,000.00"),
    ],
)
def test_preferences_shape_the_answer_and_are_recorded_as_shaping_it(statement, expected):
    result = answer(LOOKUP, TERMS, notes=[note(statement)])
    assert expected in result.text
    assert result.influences == {1: SHAPED_FORMAT}


def test_bullet_preference_turns_the_answer_into_bullets():
    result = answer(LOOKUP, TERMS, notes=[note("Prefers bullet points.")])
    assert "- Payment terms: net 45" in result.text
    assert result.influences == {1: SHAPED_FORMAT}


def test_format_preference_applies_when_the_session_has_none_and_the_slot_wins_otherwise():
    assert "\n" not in answer(LOOKUP, TERMS, notes=[note("Prefers short answers.")]).text
    assert "Contract | Value" in answer(LOOKUP, TERMS, notes=[note("Prefers short answers.")], fmt="table").text


def test_a_currency_it_cannot_convert_to_is_said_not_faked():
    result = answer(LOOKUP, LIST, notes=[note("Show amounts in euros.")])
    assert "Atlas has no exchange rates to show them in EUR" in result.text
    assert "€" not in result.text


def test_a_currency_preference_on_contract_figures_is_not_claimed_as_shaping_the_answer():
    result = answer(LOOKUP, TERMS, notes=[note("Prefers amounts in euros.", memory_id=3)])
    assert "Atlas has no exchange rates to show them in EUR" in result.text
    assert result.influences == {3: IN_CONTEXT}


def test_a_stale_note_loses_to_the_contract_and_the_answer_says_so():
    stale = note("Northline Freight is on net 30 payment terms.", kind="correction", memory_id=7)
    result = answer(LOOKUP, TERMS, notes=[stale])
    assert "pays on net 45" in result.text
    assert "A note from March said net 30, which no longer matches the contract." in result.text
    assert result.influences == {7: IN_CONTEXT}


def test_a_note_about_another_customer_is_not_a_conflict():
    other = note("Kestrel Foods is on net 30 payment terms.", kind="correction")
    assert "no longer matches" not in answer(LOOKUP, TERMS, notes=[other]).text


def test_a_matching_note_is_not_a_conflict():
    same = note("Northline Freight pays net 45.", kind="context")
    assert "no longer matches" not in answer(LOOKUP, TERMS, notes=[same]).text


def test_without_tool_results_it_answers_from_passages():
    passage = PromptPassage(
        "Free delivery policy", "Orders above $2,500 ship free. Smaller orders pay the zone rate.", 1
    )
    text = answer(passages=[passage]).text
    assert text.startswith('From "Free delivery policy":')


def test_with_nothing_to_go_on_it_says_so():
    assert "couldn't find anything" in answer().text


class _Endpoint(BaseHTTPRequestHandler):
    received: list = []
    reply: dict = {"choices": [{"message": {"role": "assistant", "content": "Net 45, from the contract."}}]}
    status = 200

    def do_POST(self):  # noqa: N802
        length = int(self.headers["Content-Length"])
        type(self).received.append((self.path, self.headers.get("Authorization"), json.loads(self.rfile.read(length))))
        body = json.dumps(type(self).reply).encode()
        self.send_response(type(self).status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def endpoint():
    _Endpoint.received = []
    _Endpoint.status = 200
    server = HTTPServer(("127.0.0.1", 0), _Endpoint)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/v1"
    server.shutdown()
    server.server_close()


def test_openai_compatible_responder_sends_the_assembled_prompt(endpoint):
    prompt = prompt_for(LOOKUP, TERMS, notes=[note("Prefers short answers.")])
    responder = OpenAICompatibleResponder(base_url=endpoint, model="tiny", api_key="k-123", timeout=5)
    result = responder.respond(prompt)
    assert result.text == "Net 45, from the contract."
    path, auth, body = _Endpoint.received[0]
    assert path == "/v1/chat/completions" and auth == "Bearer k-123"
    assert body["model"] == "tiny"
    assert body["messages"][0]["role"] == "system" and "You are Atlas" in body["messages"][0]["content"]
    assert "net 45" in body["messages"][1]["content"]
    assert result.influences == {1: IN_CONTEXT}


def test_openai_compatible_responder_error_is_clear(endpoint):
    _Endpoint.status = 500
    with pytest.raises(ResponderError, match="answered 500"):
        OpenAICompatibleResponder(base_url=endpoint, model="tiny", timeout=5).respond(prompt_for(LOOKUP))


def test_unreachable_endpoint_is_a_responder_error():
    with pytest.raises(ResponderError):
        OpenAICompatibleResponder(base_url="http://127.0.0.1:9", model="x", timeout=2).respond(prompt_for(LOOKUP))


def test_the_endpoint_is_used_only_when_configured(settings, endpoint):
    settings.ATLAS_LLM_BASE_URL = ""
    assert isinstance(get_responder(), OfflineResponder)
    settings.ATLAS_LLM_BASE_URL = endpoint
    settings.ATLAS_LLM_MODEL = "tiny"
    assert isinstance(get_responder(), OpenAICompatibleResponder)
