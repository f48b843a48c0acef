"""A turn that states something about the user and asks nothing is acknowledged, never
answered "I can't answer that" (design rule "statements acknowledged"); a question, however
it is typed, is never taken for a statement. Cases: the helper's paraphrases."""

import pytest

from atlas import sentences
from chat.answering.speech import asks_nothing
from chat.turn import ask, start_session
from tests.chat.answering.conftest import paraphrases

pytestmark = pytest.mark.turn

STATEMENTS = [r["turns"][0] for r in paraphrases("statement_not_question")]
# helper-83's rows (written after the change by a helper who never read the planner): a question, then
# only a pleasantry ("ok thanks", "k cool"), which is acknowledged and never answered with the question again.
PLEASANTRIES_AFTER = [r["turns"] for r in paraphrases("pleasantry_after_answer")]
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


@pytest.mark.django_db
@pytest.mark.parametrize("turns", PLEASANTRIES_AFTER, ids=lambda turns: turns[1])
def test_a_pleasantry_after_an_answer_is_acknowledged_never_answered_again(corpus, user, turns):
    session = start_session(user)
    ask(user, session=session, question=turns[0])
    answer = ask(user, session=session, question=turns[1]).answer
    assert answer == sentences.STATEMENT_ACKNOWLEDGED, answer
