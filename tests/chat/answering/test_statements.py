"""A turn that states something about the user and asks nothing is acknowledged, never
answered "I can't answer that" (design rule "statements acknowledged"); a question, however
it is typed, is never taken for a statement. Cases: the helper's paraphrases."""

import pytest

from atlas import sentences
from chat.answering.speech import asks_nothing
from chat.turn import ask
from tests.chat.answering.conftest import paraphrases

pytestmark = pytest.mark.turn

STATEMENTS = [r["turns"][0] for r in paraphrases("statement_not_question")]
QUESTIONS = [r["turns"][0] for kind in ("near_miss", "out_of_scope", "no_such_value") for r in paraphrases(kind)]


@pytest.mark.django_db
@pytest.mark.parametrize("text", STATEMENTS)
def test_a_statement_is_acknowledged(corpus, user, text):
    answer = ask(user, session=None, question=text).answer
    assert not answer.startswith("I can't"), answer
    assert answer == sentences.STATEMENT_ACKNOWLEDGED or answer.startswith(("Noted", "I'll remember", "I won't")), (
        answer
    )


@pytest.mark.parametrize("text", QUESTIONS)
def test_a_question_is_never_read_as_a_statement(text):
    names_customer = any(name in text.lower() for name in ("kestrel", "gateway", "copperline", "fairhaven", "hudson"))
    assert not asks_nothing(text, names_customer=names_customer)
