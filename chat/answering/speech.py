"""Whether a turn asks anything: the speech act, read before any plan is trusted.

"I'm in Denver till Friday for the trade show" states something about the user and asks
nothing; answering it "I can't answer that from the records" reads it as a failed question
(design rule **statements acknowledged**). A turn asks when it has a question mark, opens
with a question word or an auxiliary put first ("did", "is", "can"), or opens with a request
("show", "list", "give me"); a fragment about the records ("top customers by profitability")
asks too, however it is typed. Everything else, when no plan reads it, is a statement.
"""

from __future__ import annotations

from atlas.language import parse
from chat import vocabulary as vocab

# Question words and auxiliaries that open a question ("what", "did", "can you").
QUESTION_OPENERS = frozenset(
    {
        "what", "what's", "which", "who", "who's", "whom", "whose", "how", "how's", "when", "when's", "where",
        "where's", "why", "is", "are", "was", "were", "do", "does", "did", "can", "could", "would", "will",
        "should", "has", "have", "had", "any", "may", "might", "shall",
    }
)  # fmt: skip
WH_WORDS = frozenset({"what", "what's", "which", "who", "who's", "how", "how's", "when", "where", "why"})
# Requests that open an imperative question ("show me", "list", "compare").
REQUEST_OPENERS = frozenset(
    {*vocab.ASKING_HEADS, *vocab.LIST_WORDS, *vocab.COMPARE_WORDS, *vocab.RANK_WORDS, "count", "sum", "total", "get"}
)
# Words that open a turn without deciding what it is ("ok", "btw", "fyi", "so").
LEADS = frozenset(
    {"ok", "okay", "btw", "fyi", "so", "hey", "hi", "hello", "well", "also", "and", "oh", "just", "please"}
)
# A want stated is a request ("I need the terms we agreed with ...", "I'd like the totals").
WANTING = frozenset({"need", "want", "like", "wonder", "curious", "know"})
FIRST_PERSON = frozenset({"i", "i'm", "i'll", "i've", "i'd", "me", "my", "we're", "we'll"})


MEASURE_WORDS = frozenset(
    {*vocab.AVERAGE_WORDS, *vocab.SUM_WORDS, *vocab.COUNT_WORDS, *vocab.TOP_WORDS, *vocab.BOTTOM_WORDS}
)


def asks_nothing(text: str, *, names_customer: bool = False) -> bool:
    """True when ``text`` states something and asks nothing of the records; ``names_customer``:
    it names a customer, so a fragment without a verb ("avg delivery time for X") asks."""
    if "?" in text:
        return False
    doc = parse(text)
    words = [t.lower_ for t in doc if not t.is_punct]
    content = [w for w in words if w not in LEADS]
    if not content:
        return bool(words)  # "ok", "thanks"
    opener = content[0]
    if opener in QUESTION_OPENERS or opener in REQUEST_OPENERS:
        return False
    first = next(t for t in doc if not t.is_punct and t.lower_ not in LEADS)
    if first.tag_ == "VB":
        return False  # an imperative ("write me a poem about invoices") asks something
    lemma_list = [t.lemma_.lower() for t in doc]
    wants = any(t.lemma_.lower() in WANTING and t.tag_ in ("VBP", "VBZ", "VB", "MD") for t in doc)
    if wants or ("look", "for") in zip(lemma_list, lemma_list[1:], strict=False):
        return False  # "I need the invoice terms for ...": a request put as a statement
    if set(words) & WH_WORDS:
        return False  # "I don't need the list, just how many accounts do we have"
    if any(t.tag_ == "VB" and t.lemma_.lower() in REQUEST_OPENERS and t.i and doc[t.i - 1].is_punct for t in doc):
        return False  # "open orders count - south and east, give me each": a request after the fragment
    lemmas = {t.lemma_.lower() for t in doc}
    # a noun of the records in any form ("orders", "turnover", "clients") makes a fragment a request
    measured = (lemmas | set(words)) & (vocab.MONEY_WORDS | MEASURE_WORDS | vocab.REVENUE_WORDS | vocab.TOTAL_NOUNS)
    # a field of a record ("credit limit for the vet one", "acct code for X") asks for it
    measured |= (lemmas | set(words)) & {*vocab.CONTRACT_FIELDS, *vocab.CUSTOMER_FIELDS} - {"where", "based"}
    subjects = {vocab.SUBJECT_WORDS.get(w) for w in lemmas | set(words)} - {None}
    about_records = names_customer or bool(subjects or measured)
    first_person = bool(set(words) & FIRST_PERSON) or doc[0].lower_ in ("i", "im")
    return first_person or not about_records
