"""The gate's use of the language pipeline (atlas.language): clauses and what each one does.

One parse per turn. Sentences come from the parser; a sentence splits again where a new
clause with its own subject or request starts after a comma, a dash, a colon or a
semicolon ("use euros, and remember that I cover Benelux" is two findings; "Whenever I ask
about X, include Y" is one). Each clause gets its speech act (question, request,
imperative, statement), its grammatical subject (the user, the assistant, another person,
the company).

The small English model parses lowercase chat imperatives badly: at the start of a
sentence "show amounts in gbp" comes out as a noun subject and "round to whole numbers" as
an adjective (``manage.py measure_parse`` prints the rates). So the request verbs of the
vocabulary are matched as tokens as well: a clause whose first content word is one of them
is an imperative whatever its tag.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from spacy.tokens import Doc, Span, Token

from atlas.language import parse
from memory.gate import vocabulary as vocab

_SEPARATORS = {";", "-", "–", "—", ":", "--", "...", "…", ".."}
QUESTION_WORDS = {"what", "why", "how", "when", "where", "who", "whom", "whose", "which", "if", "whether"}
_POLITE_REQUEST = set(vocab.POLITE_REQUEST_VERBS)
_PRONOUN_SUBJECTS = {"i", "you", "we", "it", "they"}
_SUBORDINATORS = {"whenever", "when", "if", "unless", "for", "every", "each", "while", "because", "since"}
_STANDING_WORDS = {w for phrase in vocab.STANDING_PHRASES for w in phrase.split()} - _SUBORDINATORS
_LEADING_SKIP = set(vocab.POLITENESS) | {w for w in vocab.DISCOURSE_OPENERS if " " not in w}
# "heads up, ...", "by the way ...": openers of several words, longest first.
_LEADING_PHRASES = sorted((tuple(p.split()) for p in vocab.DISCOURSE_OPENERS if " " in p), key=len, reverse=True)
_PERSON_SUBJECTS = set(vocab.OTHER_PEOPLE)
_COMPANY_SUBJECTS = set(vocab.COMPANY_SUBJECTS)
# First words that open a clause of their own after a comma ("..., and note that ...").
_REMEMBER_OPENINGS = tuple(f"{p} " for p in vocab.REMEMBER_PHRASES)
_CLAUSE_OPENERS = {p.split()[0] for p in (*vocab.REMEMBER_PHRASES, *vocab.FORGET_PHRASES)} | {"never", "always", "do"}


@dataclass(frozen=True)
class Clause:
    """One clause of a turn, with what the parse says about it."""

    span: Span
    act: str  # question | request | imperative | statement
    subject: str  # user | assistant | other | company | thing | none
    hits: dict[str, list[tuple[int, int]]] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return self.span.text.strip()

    @property
    def lower(self) -> str:
        return self.span.text.lower()  # apostrophes come straight from the parse

    def starts_with(self, name: str) -> tuple[int, int] | None:
        """The span of rule ``name`` when it opens the clause (after politeness, discourse and
        a polite "can you": "Can you remember that ..." opens with "remember")."""
        tokens = content_tokens(self.span)
        # "can you remember ...", "can atlas hold onto that"
        if len(tokens) > 2 and tokens[0].lower_ in _POLITE_REQUEST and tokens[1].lower_ in vocab.SECOND_PERSON:
            tokens = tokens[2:]
        for lead in vocab.ASKING_LEADS:  # "i'd like you to remember this: ..."
            if tuple(t.lower_ for t in tokens[: len(lead)]) == lead and len(tokens) > len(lead):
                tokens = tokens[len(lead) :]
                break
        first = tokens[0].i if tokens else self.span.start
        # "for the next times please remember ...": when it is for may come before a keep request
        # ("worth filing that away": what it is worth, said before the request)
        # ("may i ask you to bear in mind ...": the polite frame of a keep request)
        later = vocab.KEEP_FOR_LATER | {"worth", *vocab.POLITE_FRAME} if name == "remember" else frozenset()
        # the longest of the rule's phrases at a place ("note down that", not "note")
        for start, end in sorted(self.hits.get(name, []), key=lambda hit: (hit[0], -hit[1])):
            # Nothing but politeness between the clause's first word and the rule (none at all when it is first).
            if all(
                t.lower_ in _LEADING_SKIP or t.is_punct or _sentence_adverb(t) or t.lower_ in later
                for t in self.span.doc[first:start]
            ):
                return start, end
        return None


# Adverbs in -ly that qualify what a word says rather than comment on the sentence.
_NOT_SENTENCE_ADVERBS = frozenset({"only", "early", "daily", "weekly", "monthly", "quarterly", "yearly", "usually"})


def _sentence_adverb(token: Token) -> bool:
    """A comment on the sentence before its request ("more importantly, remember ...",
    "seriously pls note ..."): an -ly adverb, or the "more"/"most" that grades one."""

    def commenting(t: Token) -> bool:
        return t.pos_ == "ADV" and t.lower_.endswith("ly") and t.lower_ not in _NOT_SENTENCE_ADVERBS

    if token.lower_ in ("more", "most") and token.i + 1 < len(token.doc):
        return commenting(token.doc[token.i + 1])
    return commenting(token)


def parse_turn(text: str) -> Doc:
    """The shared parse (atlas.language): the gate reads names from the tagger (PROPN); the
    pipeline is loaded without the entity recogniser, which halves a parse."""
    return parse(text)


def content_tokens(span: Span) -> list[Token]:
    """The clause without leading politeness and discourse words ("ok so please ...")."""
    tokens = [t for t in span if not t.is_space]
    while tokens:
        if tokens[0].lower_ in _LEADING_SKIP or tokens[0].is_punct:
            tokens = tokens[1:]
        elif phrase := next(
            (p for p in _LEADING_PHRASES if tuple(t.lower_ for t in tokens[: len(p)]) == p and len(tokens) > len(p)),
            None,
        ):
            tokens = tokens[len(phrase) :]
        elif (
            len(tokens) > 2
            and tokens[0].lower_ == "for"
            and tokens[1].lower_ in vocab.FOR_THE_USER
            and tokens[2].text == ","
        ):
            tokens = tokens[3:]  # "For me, always use euros"
        else:
            break
    return tokens


_STANDING_LONGEST = max(len(phrase.split()) for phrase in vocab.STANDING_PHRASES)
# The standing phrases as words, longest first ("from now on" before "from now").
# ("never would I want charts": a standing word alone is no phrase before a request)
_STANDING_SPLIT = sorted((tuple(p.split()) for p in vocab.STANDING_PHRASES if " " in p), key=len, reverse=True)


def opens_standing(tokens: Span | list[Token]) -> bool:
    """Whether the words open with a standing phrase ("from now on use tables")."""
    text = " ".join(t.lower_ for t in list(tokens)[:_STANDING_LONGEST]) + " "
    return any(text.startswith(f"{phrase} ") for phrase in vocab.STANDING_PHRASES)


def _is_separator(token: Token) -> bool:
    if token.text in _SEPARATORS:
        # "finance_ops" or "net-60" keep their hyphen: a dash separates only with spaces.
        return token.text != "-" or bool(token.whitespace_) and token.i > 0 and bool(token.doc[token.i - 1].whitespace_)
    return "\n" in token.text


def _starts_clause(tokens: list[Token]) -> bool:
    """Whether the words after a comma begin a clause of their own."""
    words = [t for t in tokens if t.lower_ not in vocab.POLITENESS and not t.is_punct]
    if not words:
        return False
    first = words[0]
    joined = first.lower_ in {"and", "but", "so", "then", "also"} and len(words) > 1
    if joined:
        first = words[1]
    if first.lower_ in _CLAUSE_OPENERS:
        return True
    # ", and what's open in the west rn", ", how many are overdue": a question of its own ("..., which is
    # easier" stays the clause's)
    if first.lower_ in ("what", "how") or joined and first.tag_ in ("WP", "WRB", "WDT"):
        return True
    # ", and from now on use tables": a standing phrase opens a request of its own.
    if opens_standing(words[words.index(first) :]):
        return True
    # A request verb opens a clause, unless it is a noun ("order") or a participle ("broken down").
    if first.lemma_.lower() in vocab.REQUEST_VERBS and first.lower_ not in {"order", "list"} and first.tag_ != "VBN":
        return True
    ids = {t.i for t in tokens}
    return any(t.dep_ in ("nsubj", "nsubjpass", "expl") and t.head.i in ids and t.head.i != t.i for t in words)


def _left_is_clause(tokens: list[Token]) -> bool:
    words = [t for t in tokens if not t.is_punct]
    # "From now on, when you list X, add Y": the condition after a standing phrase is not a clause.
    while words and words[0].lower_ in _STANDING_WORDS:
        words = words[1:]
    if len(words) < 2:
        return False
    if words[0].lower_ in _SUBORDINATORS:
        # "for renewal stuff show amounts in k, the auditors need ...": a request of its own
        # after the condition; "whenever you list X, add Y" has none.
        # ("for totals i always want them in k, and what's open ...": the user's wish after the condition)
        return any(
            t.tag_ == "VB"
            and t.lemma_.lower() in vocab.REQUEST_VERBS
            and t.doc[t.i - 1].lower_ not in ("you", "u", "i", "we")
            or t.dep_ == "ROOT"
            and t.lemma_.lower() in vocab.PREFERENCE_VERBS
            and any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in t.children)
            for t in words[1:]
        )
    # The parse, or the vocabulary where the small model tags a request verb as a noun.
    return any(t.pos_ in ("VERB", "AUX") or t.lower_ in vocab.REQUEST_VERBS for t in words)


def _new_subject(conjunction: Token) -> bool:
    """A conjunction that opens a clause of its own: "... and I manage inbound logistics", "...
    and that I report to Dana", "... and from now on keep it short", "use tables and show ..."."""
    doc = conjunction.doc
    rest = doc[conjunction.i + 1 : conjunction.i + 6]
    if len(rest) > 1 and rest[0].lower_ == "that":
        rest = rest[1:]
    if len(rest) > 1 and rest[0].lower_ in ("also", "then", "plus"):
        rest = rest[1:]  # "... and also what's the total open for the west"
        if rest[0].lower_ in ("what", "how", "what's", "whats", "how's"):
            return True
    if not len(rest):
        return False
    after = rest[0]
    if after.lower_ in ("i", "i'm") and after.dep_ in ("nsubj", "nsubjpass"):
        return True
    if _shares_the_users_subject(after):
        return False  # "I get asked it in every meeting and never know it": the user still speaks
    if opens_standing(doc[after.i : after.i + _STANDING_LONGEST]):
        return True
    if " ".join(t.lower_ for t in doc[after.i : after.i + 4]).startswith(_REMEMBER_OPENINGS):
        return True  # "... and keep in mind I only work Tuesdays": a request of its own
    if after.lower_ in QUESTION_WORDS and conjunction.sent.text.rstrip().endswith("?"):
        return True  # "remember that I handle Acme and what is our revenue?"
    # A second imperative: "use tables and show amounts in euros" are two requests.
    first_verb = after.head.tag_ == "VB" or after.head.lower_ in vocab.REQUEST_VERBS  # the tagger may call it a noun
    return after.tag_ == "VB" and after.dep_ == "conj" and first_verb and after.lower_ in vocab.REQUEST_VERBS


def _shares_the_users_subject(after: Token) -> bool:
    """An adverb of how often, then a verb joined to one whose subject is "I" ("I get asked it ... and
    never know it"): the same subject goes on, no clause (and no request) of its own."""
    if after.dep_ not in ("advmod", "neg") or after.head.dep_ != "conj":
        return False
    return any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ == "i" for c in after.head.head.children)


_HEADINGS = frozenset({*vocab.ANSWER_NOUNS, "ranking", "report", "leaderboard"})


def _heading(tokens: Span) -> bool:
    """A few words naming a kind of answer before a colon or a dash ("lists:", "customer
    rankings -"): a heading, not a clause of its own."""
    words = [t for t in tokens if not t.is_punct and not t.is_space and t.lower_ not in _LEADING_SKIP]
    return (
        0 < len(words) <= 3
        and words[-1].lemma_.lower() in _HEADINGS
        and not any(t.pos_ in ("VERB", "AUX", "PRON") for t in words)
    )


def _split_sentence(sent: Span, hits: dict[str, list[tuple[int, int]]] | None = None) -> list[Span]:
    doc = sent.doc
    pieces: list[Span] = []
    start = sent.start
    # "at the dallas site tue thru thu this week, remember that pls": a keep request after a comma
    # ends the clause before it, though that clause has no verb of its own
    keeps = {s for s, _ in (hits or {}).get("remember", [])}
    trailing = _trailing_requests(sent, hits or {})
    for token in sent:
        if token.i in trailing and token.i > start:
            # "... til the 23rd pls note that": a keep request that ends the sentence, typed with no comma before it
            pieces.append(doc[start : token.i])
            start = token.i
            continue
        if _is_separator(token) and _heading(doc[start : token.i]):
            continue  # "rankings: 12 rows by default": the heading names what the rest is about
        if _is_separator(token):
            if token.i > start:
                pieces.append(doc[start : token.i])
            start = token.i + 1
        elif token.dep_ == "cc" and token.i > start and _new_subject(token):
            pieces.append(doc[start : token.i])
            start = token.i + 1
        elif token.text == "," and token.i > start:
            right = [t for t in doc[token.i + 1 : sent.end]]
            opening = next((t for t in right if not t.is_punct and t.lower_ not in _LEADING_SKIP), None)
            keep_after = opening is not None and opening.i in keeps
            # (a keep request a row reads opens a clause of its own: "..., carry it over into our next chats")
            if keep_after or (_left_is_clause(list(doc[start : token.i])) and _starts_clause(right[:12])):
                pieces.append(doc[start : token.i])
                start = token.i + 1
    if start < sent.end:
        pieces.append(doc[start : sent.end])
    return [p for p in pieces if any(not t.is_punct and not t.is_space for t in p)]


_ENDS_A_REQUEST = frozenset(
    {"that", "it", "this", "down", "for", "me", "too", "ok", "okay", "lol", "thx", "thanks", "ty"}
)


def _trailing_requests(sent: Span, hits: dict[str, list[tuple[int, int]]]) -> set[int]:
    """Where a keep request that ends the sentence begins ("... working out of the leeds warehouse til friday pls note
    that"), with the politeness before it, when nothing but pointers and thanks follow it and words come before it."""
    doc = sent.doc
    out: set[int] = set()
    for start, end in hits.get("remember", []):
        if not sent.start + 3 <= start < sent.end or end > sent.end:
            continue
        if doc[start].pos_ not in ("VERB", "AUX") and doc[start].lower_ not in ("remember", "note", "keep", "pls"):
            continue  # "... tuck that away for next time": when it is for, not a request of its own
        after = [t for t in doc[end : sent.end] if not t.is_punct and not t.is_space]
        if all(t.lower_ in _ENDS_A_REQUEST or t.lower_ in vocab.POLITENESS for t in after):
            while start > sent.start and doc[start - 1].lower_ in vocab.POLITENESS:
                start -= 1
            before = doc[start - 1]
            # (", so remember.", "... and note that": a separator or a joining word already sets it apart)
            if (before.is_alpha or before.like_num) and before.lower_ not in _JOINING_WORDS:
                out.add(start)
    return out


_JOINING_WORDS = frozenset({"so", "and", "but", "then", "also", "just", "or", "pls", "please"})


def _merge_leads(pieces: list[Span], hits: dict[str, list[tuple[int, int]]]) -> list[Span]:
    """A piece that is only a standing or one-off phrase ("Going forward, ...") leads the next."""
    covered = {i for name in ("standing", "one_off") for s, e in hits.get(name, []) for i in range(s, e)}
    out: list[Span] = []
    lead: int | None = None
    for piece in pieces:
        words = [t for t in piece if not t.is_punct and not t.is_space and t.lower_ not in _LEADING_SKIP]
        if words and all(t.i in covered for t in words):
            lead = piece.start if lead is None else lead
            continue
        out.append(piece.doc[lead : piece.end] if lead is not None else piece)
        lead = None
    if lead is not None:
        out.append(pieces[-1].doc[lead : pieces[-1].end])
    return out


def speech_act(span: Span) -> str:
    tokens = content_tokens(span)
    # "from now on can i get amounts in euros?": the act is the request's after the standing phrase
    standing = next((p for p in _STANDING_SPLIT if tuple(t.lower_ for t in tokens[: len(p)]) == p), ())
    if standing and len(tokens) > len(standing) + 2:
        tokens = [t for t in tokens[len(standing) :] if not (t.is_punct and t.i == tokens[len(standing)].i)]
    if not tokens:
        return "statement"
    first = tokens[0]
    second = tokens[1].lower_ if len(tokens) > 1 else ""
    third = tokens[2].lower_ if len(tokens) > 2 else ""
    if first.lower_ in _POLITE_REQUEST and second == "you" or (first.lower_, second, third) == ("do", "you", "mind"):
        return "request"  # "would you ...?", "do you mind using euros?"
    if first.lower_ in _POLITE_REQUEST | {"may"} and second in ("i", "we") and third in ("get", "have", "see"):
        return "request"  # "could we have those as a numbered list?"
    # "When I ask about sales, ..." opens a condition, not a question ("When do we ...?").
    condition = first.lower_ in _SUBORDINATORS and second in _PRONOUN_SUBJECTS
    # "when listing overdue orders, put ...": a condition with its subject left out before the -ing form
    condition = condition or (first.lower_ in _SUBORDINATORS and len(tokens) > 1 and tokens[1].tag_ == "VBG")
    # "when the question is about a contract, ...", "if my question's about a customer, ...": a
    # condition on a question, said with no question mark
    condition = condition or (
        first.lower_ in _SUBORDINATORS and second in ("the", "a", "an", "my", "any", "your") and not _asks(span)
    )
    asks_of = ("you", "u", "we", "they", "i") if first.lower_ == "do" else _PRONOUN_SUBJECTS
    if first.lower_ in ("do", "does", "did") and second in asks_of:
        return "question"  # "do you normally count cancelled orders?" asks; "do it as a table" asks for it
    if _inverted(first):
        return "question"  # "do your totals include cancelled orders by default?", "is that always in usd"
    if _asks(span) and first.lemma_.lower() in vocab.REQUEST_VERBS and _is_imperative_verb(first):
        return "imperative"  # "write months in words?": a request typed with a question mark
    if suggests(tokens):
        return "imperative"  # "maybe just stick it in by default?": a request put as a suggestion
    if _asks(span) or first.lower_ in QUESTION_WORDS and not condition:
        return "question"
    if first.pos_ == "AUX" and second in _PRONOUN_SUBJECTS:
        return "question"
    # "Do use tables" needs no word of its own here: "do" is a request verb.
    if first.lower_ in {"never", "always", "just", "only"} or _is_imperative_verb(first):
        return "imperative"
    return "statement"


_SUGGESTED_VERBS = frozenset({*vocab.REQUEST_VERBS, *vocab.PLACING_VERBS})


def suggests(tokens: list[Token]) -> bool:
    """A request put as a suggestion: "maybe just include it", "perhaps put it in"."""
    words = [t for t in tokens if t.lower_ not in (*vocab.SUGGESTION_WORDS, "just")]
    return (
        bool(tokens and words)
        and tokens[0].lower_ in vocab.SUGGESTION_WORDS
        and (words[0].lemma_.lower() in _SUGGESTED_VERBS)
    )


def _inverted(first: Token) -> bool:
    """A "do" or a "be" before its subject: the word order of a question, with or without its
    question mark ("does the ranking count cancelled ones", "are these figures rounded"). "Do it as a
    table" has no subject after "do": a request."""
    if first.lower_ in ("do", "does", "did"):
        # "do your totals include ...": "do" helps a verb after its subject ("do thousands every time" has none)
        head = first.head
        if first.dep_ != "aux" or head.pos_ != "VERB" or head.i <= first.i:
            return False
        return any(c.dep_ in ("nsubj", "nsubjpass") and first.i < c.i < head.i for c in head.children)
    if first.lower_ not in ("is", "are", "was", "were", "am"):
        return False
    head = first if first.dep_ == "ROOT" else first.head
    return any(c.dep_ in ("nsubj", "nsubjpass", "expl") and c.i > first.i for c in head.children)


_TAGS = re.compile(r"[,.]\s*(?:" + "|".join(map(re.escape, vocab.TAG_QUESTIONS)) + r")\s*\?+\s*$", re.I)


def _asks(span: Span) -> bool:
    """A question mark that ends a question, not a tag after a statement ("I handle X, ok?")."""
    text = span.text.rstrip()
    return text.endswith("?") and not _TAGS.search(text)


def without_tag(span: Span) -> Span:
    """The span without a tag question at its end ("..., ok?")."""
    found = _TAGS.search(span.text.rstrip())
    if found is None:
        return span
    cut = span.start_char + found.start()
    return span.doc[span.start : max(span.start + 1, next((t.i for t in span if t.idx >= cut), span.end))]


def _is_imperative_verb(token: Token) -> bool:
    # The parse when it is right, the vocabulary when the small model tags the verb a noun.
    if token.tag_ == "VB" and not any(c.dep_ in ("nsubj", "nsubjpass") for c in token.children):
        return True
    return token.lower_ in vocab.REQUEST_VERBS


def grammatical_subject(span: Span) -> str:
    subjects = [t for t in span if t.dep_ in ("nsubj", "nsubjpass") and span.start <= t.head.i < span.end]
    root = span.root
    if root.tag_ == "VB" and not any(c.dep_ in ("nsubj", "nsubjpass", "aux", "expl") for c in root.children):
        # "show me each account's code always, the york team keys stuff off it": a request opens the clause, so
        # the subject of the reason after it is not the clause's
        return "none"
    if subjects and all(_in_a_condition(t) for t in subjects[:1]):
        # "when we're talking contracts always give me ...", "whenever a customer comes up mention ...": the
        # condition's subject is not the clause's; the main verb's own subject is, and a request has none
        main = [t for t in subjects if not _in_a_condition(t) and t.head == span.root]
        return _who(main[0]) if main else "none"
    for token in subjects:
        return _who(token)
    tokens = content_tokens(span)
    if tokens and tokens[0].lower_ in ("i", "i'm", "im"):
        return "user"
    if len(tokens) > 1 and tokens[0].lower_ in vocab.ELIDED_PERFECT and tokens[1].tag_ == "VBN":
        return "user"  # "been made acting team lead", "got moved to central": the "I've" left out, as people type
    return "none"


_CONDITION_WORDS = frozenset({"when", "whenever", "if", "once", "while"})


def _in_a_condition(token: Token) -> bool:
    """The subject of a condition said before the main clause ("when we're talking contracts, ...")."""
    head = token.head
    return (
        head.dep_ == "advcl"
        and head.i > token.i
        and any(c.dep_ in ("advmod", "mark") and c.lower_ in _CONDITION_WORDS and c.i < token.i for c in head.children)
    )


def _on_my_team(token: Token) -> bool:
    """A subject said to be on the user's team ("sofia on my team", "someone in our office"): a person."""
    return any(
        prep.dep_ == "prep"
        and any(o.lemma_.lower() in vocab.PEOPLE_NOUNS + ("office", "desk", "department") for o in prep.children)
        for prep in token.children
    )


def _who(token: Token) -> str:
    word = token.lower_
    if word in ("i", "me"):  # the tokenizer splits "im" into "i" "m"
        return "user"
    if word in vocab.SECOND_PERSON:
        return "assistant"
    owners = {c.lower_ for c in token.children if c.dep_ == "poss"}
    if word in _COMPANY_SUBJECTS or owners & {"our", "we"} and word not in _PERSON_SUBJECTS:
        return "company"
    if word in _PERSON_SUBJECTS or token.ent_type_ == "PERSON" or _on_my_team(token):
        return "other"
    if owners & {"my"}:
        return "user"
    return "thing"


def clauses(doc: Doc, hits: dict[str, list[tuple[int, int]]]) -> list[Clause]:
    """The turn's clauses in order, each with the rule rows that matched inside it."""
    out: list[Clause] = []
    for sent in doc.sents:
        for span in _merge_leads(_split_sentence(sent, hits), hits):
            inside = {
                name: [(s, e) for s, e in spans if span.start <= s and e <= span.end] for name, spans in hits.items()
            }
            inside = {name: spans for name, spans in inside.items() if spans}
            out.append(
                Clause(
                    span=span,
                    act=speech_act(span),
                    subject=grammatical_subject(span),
                    hits=inside,
                )
            )
    return out
