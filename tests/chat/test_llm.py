"""The model path against a local OpenAI-compatible test server that returns tool calls: the app
executes the plans the model asks for, notes travel as quoted data on the user side (never in
the system message), and the turn records the notes it used."""

import json
import threading
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from atlas.sentences import TURN_UNAVAILABLE
from chat.llm import OpenAICompatibleResponder
from chat.models import Order
from chat.responders import ResponderError, get_responder
from chat.turn import TurnFailed, ask
from memory.rls import acting_user
from memory.store import write_memory

NOTE = "Prefers amounts in thousands of dollars."


class ToolCallingModel(BaseHTTPRequestHandler):
    """First reply: call query_orders; once a tool result is in the messages, answer with it."""

    requests: list = []
    status = 200
    arguments = {"measure": "count", "customer": "Hudson Vale Pharmacy", "status": "open"}

    def do_POST(self):  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(body)
        tool_outputs = [m for m in body["messages"] if m["role"] == "tool"]
        if tool_outputs:
            output = json.loads(tool_outputs[-1]["content"])
            if "error" in output:
                message = {"role": "assistant", "content": f"The records could not answer: {output['error']}"}
            else:
                value = output["results"][0]["value"]
                message = {"role": "assistant", "content": f"Hudson Vale Pharmacy has {value} open orders."}
        else:
            call = {
                "id": "call_1",
                "type": "function",
                "function": {"name": "query_orders", "arguments": json.dumps(type(self).arguments)},
            }
            message = {"role": "assistant", "content": None, "tool_calls": [call]}
        payload = json.dumps({"choices": [{"message": message}]}).encode()
        self.send_response(type(self).status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


@pytest.fixture
def model(settings):
    ToolCallingModel.requests = []
    ToolCallingModel.status = 200
    ToolCallingModel.arguments = {"measure": "count", "customer": "Hudson Vale Pharmacy", "status": "open"}
    server = HTTPServer(("127.0.0.1", 0), ToolCallingModel)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    settings.ATLAS_LLM_BASE_URL = f"http://127.0.0.1:{server.server_port}/v1"
    settings.ATLAS_LLM_MODEL = "tiny"
    settings.ATLAS_LLM_TIMEOUT = 5
    settings.ATLAS_HOLDOUT = False
    yield ToolCallingModel
    server.shutdown()
    server.server_close()


@pytest.mark.django_db
def test_the_model_calls_an_executor_and_the_app_runs_the_plan(corpus, make_user, model):
    user = make_user()
    with acting_user(user.pk):
        note = write_memory(user, kind="preference", statement=NOTE, created_at=datetime(2026, 3, 1, tzinfo=UTC))
    turn = ask(user, session=None, question="How many open orders has Hudson Vale Pharmacy got?")
    count = Order.objects.filter(customer__name="Hudson Vale Pharmacy", status="open").count()
    assert turn.answer == f"Hudson Vale Pharmacy has {count} open orders."
    first, second = model.requests
    assert {t["function"]["name"] for t in first["tools"]} >= {"query_orders", "contract_terms", "lookup_order"}
    system, user_message = first["messages"][0], first["messages"][1]
    assert system["role"] == "system" and NOTE not in system["content"] and "thousands" not in system["content"]
    assert "<recalled-notes>" in user_message["content"] and json.dumps(NOTE) in user_message["content"]
    tool_message = second["messages"][-1]
    assert tool_message["role"] == "tool" and tool_message["tool_call_id"] == "call_1"
    assert json.loads(tool_message["content"])["results"][0]["value"] == count
    assert [(n["memory_id"], n["influence"]) for n in turn.recalled] == [(note.pk, "given-to-model")]


@pytest.mark.django_db
def test_bad_tool_arguments_go_back_to_the_model_as_an_error(corpus, make_user, model):
    model.arguments = {"measure": "count", "customer": "Nobody At All Ltd"}
    turn = ask(make_user(), session=None, question="How many orders has Nobody At All Ltd placed?")
    assert turn.answer.startswith("The records could not answer: No customer matches")


@pytest.mark.django_db
def test_an_endpoint_failure_saves_nothing_and_says_so(corpus, make_user, model):
    model.status = 500
    user = make_user()
    with pytest.raises(TurnFailed, match="answered 500"):
        ask(user, session=None, question="How many open orders has Hudson Vale Pharmacy got?")


@pytest.mark.django_db(transaction=True)
def test_through_the_api_an_endpoint_failure_is_a_503_that_saves_nothing(corpus, make_user, client_for, model):
    model.status = 500
    user = make_user()
    client = client_for(user)
    session_id = client.post("/api/sessions/").json()["id"]
    response = client.post(
        f"/api/sessions/{session_id}/turns/", {"question": "How many open orders has Hudson Vale Pharmacy got?"}
    )
    assert response.status_code == 503 and response["Retry-After"]
    assert response.json() == {"detail": TURN_UNAVAILABLE, "code": "turn_unavailable"}
    assert client.get(f"/api/sessions/{session_id}/turns/").json()["count"] == 0


def test_the_model_path_is_used_only_when_configured(settings):
    settings.ATLAS_LLM_BASE_URL = ""
    assert not getattr(get_responder(), "uses_tools", False)
    settings.ATLAS_LLM_BASE_URL = "http://127.0.0.1:9/v1"
    assert isinstance(get_responder(), OpenAICompatibleResponder)


def test_an_unreachable_endpoint_is_a_responder_error():
    from chat.prompt import assemble_prompt

    prompt = assemble_prompt("q", session_block="", tool_calls=[])
    with pytest.raises(ResponderError):
        OpenAICompatibleResponder(base_url="http://127.0.0.1:9", model="x", timeout=2).respond(prompt)


@pytest.mark.django_db
def test_the_model_gets_preferences_as_structured_facets_and_the_app_says_what_it_cannot_apply(
    corpus, make_user, model
):
    user = make_user()
    model.arguments = {"measure": "sum", "customer": "Hudson Vale Pharmacy"}
    with acting_user(user.pk):
        euros = write_memory(
            user, kind="preference", statement="Prefers amounts in euros (EUR).", facets={"currency": "EUR"}
        )
    turn = ask(user, session=None, question="How much has Hudson Vale Pharmacy spent with us?")
    user_message = model.requests[0]["messages"][1]["content"]
    assert '{"facets": {"currency": "EUR"}, "scope": "global"}' in user_message
    assert turn.answer.endswith(
        "Amounts are shown in USD as recorded; Atlas has no exchange rates to show them in EUR."
    )
    used = {n["memory_id"]: (n["influence"], n["how"]) for n in turn.recalled}
    assert used[euros.pk] == (
        "declined",
        "Amounts are shown in USD as recorded; Atlas has no exchange rates to show them in EUR.",
    )


@pytest.mark.django_db
def test_the_compare_tool_builds_the_plan_the_planner_builds(corpus):
    from chat.llm import plan_from_tool

    plan = plan_from_tool("compare_orders", {"measure": "sum", "regions": ["north", "south"], "period": "last quarter"})
    assert (plan.kind, plan.group_by, plan.sides, plan.filters.period.label) == (
        "compare",
        "region",
        ("north", "south"),
        "last quarter",
    )
    by_terms = plan_from_tool("list_customers", {"terms": "Net 30", "min_total": 1000})
    assert (by_terms.terms, by_terms.min_total) == ("net 30", 1000)
