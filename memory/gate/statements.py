"""Statements a user recognises, generated from the parse (write-rules chapter).

One sentence in the third person, at most 25 words, no first-person words left from the
quote, no "your", no trigger or politeness words, no question mark: "Prefers amounts in
thousands of euros.", "Wants the renewal date included in answers about contracts.",
"Covers the Benelux countries." Corrections keep the user's own words (design rule: recognisable statement).
:func:`lint` is the check eval_gate reports and the tests assert.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise

from spacy.tokens import Span, Token

from atlas.language import parse
from memory.gate import vocabulary as vocab
from memory.gate.pipeline import opens_standing

# How a request's verb becomes a note: verb lemma -> template ({obj} is the verb's object,
# {mod} what modifies it: "list orders oldest first" -> "Wants orders listed oldest first.").
VERB_TEMPLATES: dict[str, str] = {
    **{verb: "Prefers {obj} {mod}" for verb in vocab.DELIVERY_VERBS},
    "answer": "Prefers answers {obj} {mod}",
    "reply": "Prefers answers {obj} {mod}",
    "respond": "Prefers answers {obj} {mod}",
    "include": "Wants {obj} included {mod}",
    "add": "Wants {obj} included {mod}",
    "mention": "Wants {obj} mentioned {mod}",
    "list": "Wants {obj} listed {mod}",
    "sort": "Wants {obj} sorted {mod}",
    "order": "Wants {obj} ordered {mod}",
    "rank": "Wants {obj} ranked {mod}",
    "round": "Wants {obj} rounded {mod}",
    "call": "Wants to be called {obj} {mod}",
    "address": "Wants to be addressed {obj} {mod}",  # the user's "as": "as Dr Okafor", "formally"
    # "keep answers short" names its object; "keep it short" means the answers (see below).
    "keep": "Prefers {obj} {mod}",
    "make": "Prefers {obj} {mod}",
}
NEGATIVE_TEMPLATES: dict[str, str] = {
    **{verb: "Does not want {obj} {mod}" for verb in vocab.DELIVERY_VERBS},
    "answer": "Does not want answers {obj} {mod}",
    "reply": "Does not want answers {obj} {mod}",
    "respond": "Does not want answers {obj} {mod}",
    "include": "Does not want {obj} included {mod}",
    "add": "Does not want {obj} included {mod}",
    "mention": "Does not want {obj} mentioned {mod}",
}
# What a verb's missing object means ("round to whole numbers": the figures).
DEFAULT_OBJECTS: dict[str, str] = {"round": "figures", "list": "results", "sort": "results"}
# A request naming something to show, with no format in it, is about content: "include".
_CONTENT_VERBS = {"show", "give", "display", "provide", "put"}
_PREFERENCE_VERB_FORMS = {
    "prefer": "Prefers",
    "want": "Wants",
    "like": "Likes",
    "need": "Needs",
    "love": "Likes",
    "hate": "Does not want",  # the negative form the store and reversals read (is_negative)
    "dislike": "Does not want",
    "expect": "Expects",
    "insist": "Insists",
}
_OBJECT_PRONOUNS = {"it", "that", "this", "them", "things", "everything"}
_DATIVES = {"me", "us"}
_FILLER = {"always", "ever", "again", "just", "also", "really", "please", "pls", "plz", "kindly", "?", "!"}
_CONTRACTED_STEMS = {"ca", "wo", "sha"}  # "can't", "won't", "shan't"
_IRREGULAR_THIRD = {"am": "is", "'m": "is", "m": "is", "have": "has", "'ve": "has", "do": "does", "'d": "would"}
_IRREGULAR_THIRD.update({"'ll": "will", "was": "was", "can": "can", "will": "will", "would": "would", "shall": "shall"})
_IRREGULAR_THIRD.update({"should": "should", "must": "must", "could": "could", "might": "might", "may": "may"})
_THIRD_NEGATIVE = {"don": "doesn", "aren": "isn", "haven": "hasn", "weren": "wasn"}  # the stem before "'t"
_POSSESSIVES = (
    (r"\bmy\b", "their"),
    (r"\bmine\b", "theirs"),
    (r"\bmyself\b", "themselves"),
    (r"\bme\b", "them"),
    (r"\bI'm\b", "they're"),
    (r"\bI\b", "they"),
)
_CURRENCY_CODES = {value.lower(): value for value in vocab.SUBJECT_VALUES["currency"] if value}


def text_of(tokens: list[Token]) -> str:
    return "".join(t.text_with_ws for t in tokens).strip()


def sentence(text: str) -> str:
    """Whitespace tidied, trailing politeness and punctuation gone, capitalised, one period."""
    text = re.sub(r"\s+", " ", text).strip().strip(",;:-–— ")
    text = re.sub(r"\s+([,.;:!?])", r"\1", text)
    politeness = "|".join(re.escape(p) for p in vocab.POLITENESS)
    text = re.sub(rf"[\s,]*\b(?:{politeness})\b[\s.!]*$", "", text, flags=re.I).strip()
    text = text.rstrip(".!?,;: ")
    if not text:
        return ""
    return text[0].upper() + text[1:] + "."


def _straight(text: str) -> str:
    """Lower case with straight apostrophes: "I’m", typed on a phone, is "i'm"."""
    return text.lower().replace("’", "'")


def third_person(verb: str) -> str:
    low = _straight(verb)
    if low in _IRREGULAR_THIRD:
        return _IRREGULAR_THIRD[low]
    if low in vocab.IRREGULAR_PAST or low.endswith("ed"):
        return low  # "the SQL you ran", "what you showed": the past has no -s
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return low + "es"
    if low.endswith("y") and len(low) > 2 and low[-2] not in "aeiou":
        return low[:-1] + "ies"
    return low + "s"


def swap_pronouns(text: str) -> str:
    """Leftover first- and second-person words in the third person ("unless I ask")."""
    text = re.sub(r"\byour\s+", "", text, flags=re.I)
    # "you list" -> "Atlas lists", "you don't" -> "Atlas doesn't", "you can't" -> "Atlas can't".
    text = re.sub(
        r"\byou\s+([a-z]+)[’']t\b",
        lambda m: "Atlas " + _THIRD_NEGATIVE.get(m.group(1).lower(), m.group(1)) + "'t",
        text,
        flags=re.I,
    )
    text = re.sub(r"\byou\s+([a-z]+)\b(?![’'])", lambda m: "Atlas " + third_person(m.group(1)), text, flags=re.I)
    for pattern, replacement in _POSSESSIVES:
        text = re.sub(pattern, replacement, text, flags=re.I)
    return text


def _codes_upper(text: str) -> str:
    return re.sub(r"\b[a-z]{3}\b", lambda m: _CURRENCY_CODES.get(m.group(), m.group()), text)


# A statement's opening verb takes an object, never a clause with its own subject ("Does not
# want they want charts" is a garbled parse); the openings are the ones this module writes.
_HEADS = sorted(
    {form.lower() for form in _PREFERENCE_VERB_FORMS.values()} | {o.strip().lower() for o in vocab.NEGATIVE_OPENINGS},
    key=len,
    reverse=True,
)
_CLAUSE_AS_OBJECT = re.compile(
    rf"(?:{'|'.join(map(re.escape, _HEADS))})(?: atlas to| would| do| did)? (?:they|they're|he|she)\b"
)


def _clause_as_object(statement: str) -> bool:
    """Whether the opening verb's object is a clause with a verb of its own and no "that"
    ("Prefers bullet points work best."), read from the parse of "They want ..."."""
    lowered = statement.lower()
    if _CLAUSE_AS_OBJECT.match(lowered):
        return True
    head = next((h for h in _HEADS if lowered.startswith(h + " ")), None)
    if head is None:
        return False
    doc = parse("They want " + statement[len(head) + 1 :])
    return any(
        # a verb with words of its own after it (the tagger calls "ISO dates" a clause too)
        t.dep_ == "ccomp"
        and t.head.dep_ == "ROOT"
        and t.tag_ in ("VBP", "VBZ")
        and not any(c.dep_ == "mark" for c in t.children)
        and any(not c.is_punct for c in t.rights)
        for t in doc
    )


def is_negative(statement: str) -> bool:
    """A standing "does not want" preference (the statements this module writes for "never ...")."""
    return statement.startswith(vocab.NEGATIVE_OPENINGS)


# "as of today", "starting now": a note holds from the day it was said (its provenance dates
# it), and a "today" read on a later day would be wrong.
_FROM_NOW = re.compile(r",?\s*\b(?:as of|from|starting|beginning|effective)\s+(?:today|now)\b(?!\s+on\b),?", re.I)


def finish(text: str) -> str:
    return sentence(_codes_upper(swap_pronouns(_FROM_NOW.sub(" ", text))))


# --- preferences -------------------------------------------------------------------------


def _scope(span: Span) -> tuple[str, set[int]]:
    """A condition on the request ("whenever I ask about X", "for anything about X"), and the
    tokens it takes; a "for me" is the user, no condition, and goes too."""
    for_the_user: set[int] = set()
    for token in span:
        after = [t for t in span.doc[token.i + 1 : span.end] if not t.is_punct]
        if token.lower_ == "for" and after and all(t.lower_ in vocab.FOR_THE_USER for t in after):
            for_the_user |= {token.i, *(t.i for t in after)}  # "... in euros for me."
            break
        if token.lower_ in ("whenever", "when", "every", "each", "for", "if") and token.i != span.end - 1:
            end = next((t.i for t in span if t.i > token.i and t.text == ","), None)
            # Conditions without a comma: "for anything about timing", "every time I ask about X".
            following = [t.lower_ for t in span.doc[token.i + 1 : token.i + 3]]
            anything_about = following in (["anything", "about"], ["questions", "about"])
            each_time = token.lower_ in ("every", "each") and following == ["time", "i"]
            if token.lower_ in ("for", "every", "each") and end is None and not (anything_about or each_time):
                continue
            stop = end if end is not None else span.end
            # "for anything about renewals from now on": the standing phrase is no part of it.
            stop = next((t.i for t in span.doc[token.i + 1 : stop] if opens_standing(span.doc[t.i : stop])), stop)
            words = [t for t in span.doc[token.i : stop] if not t.is_punct]
            if len(words) > 3 and words[-1].lower_ in ("you", "u") and words[-2].lower_ in vocab.POLITE_REQUEST_VERBS:
                words = words[:-2]  # "whenever i ask for orders can you, put ...": the request opens there
            taken = {t.i for t in span.doc[token.i : stop]}  # the comma after it goes as leading punctuation
            if token.lower_ == "for" and all(w.lower_ in vocab.FOR_THE_USER for w in words[1:]):
                for_the_user |= taken  # "For me, ...": the user, not a condition ("For Acme, ..." is one)
                continue
            about = next((w for w in words if w.lower_ == "about"), None)
            if about is not None:
                return " in answers about " + text_of([w for w in words if w.i > about.i]), taken | for_the_user
            return " " + lower_first(swap_pronouns(text_of(words))), taken | for_the_user
    return "", for_the_user


def _remaining(span: Span, drop: set[int]) -> list[Token]:
    kept = [t for t in span if t.i not in drop and t.lower_ not in _FILLER and not t.is_space]
    while kept and kept[-1].is_punct and kept[-1].text not in ("%", ")"):  # "as 5%" keeps its sign
        kept.pop()
    while kept and (kept[0].is_punct or kept[0].lower_ in vocab.DISCOURSE_OPENERS):
        kept.pop(0)
    return kept


def scope_tokens(span: Span) -> set[int]:
    return _scope(span)[1]


def scope_of(span: Span) -> str:
    """The condition a request carries, as its note words it ("in answers about renewals"), or ""."""
    return _scope(span)[0].strip()


def preference_statement(span: Span, *, drop: set[int], structured: bool, negative: bool = False) -> str:
    """A standing request as a note: "Always give me distances in kilometres" -> "Prefers distances in kilometres."."""
    scope, taken = _scope(span)
    tokens = _remaining(span, drop | taken)
    if not tokens:
        return ""
    own = _own_preference(tokens)
    if own:
        return finish(own + scope)
    only = bool(tokens) and tokens[0].lower_ == "only"  # "Only show open orders": kept with the object
    negations = 0
    # The tokenizer splits "don't" into "do" and "n't" (atlas.language), so "don't" is never one word.
    while tokens and tokens[0].lower_ in {"do", "you", "mind", "only", *vocab.VERB_NEGATIONS}:
        # "Going forward, don't bother with X": the negation after a standing phrase counts too.
        negations += tokens[0].lower_ in vocab.VERB_NEGATIONS
        tokens = tokens[1:]
    if negations > 1:
        return ""  # "never not show the totals": too tangled to keep
    negative = negative or bool(negations)
    if not tokens:
        return ""
    verb = tokens[0]
    lemma = verb.lemma_.lower() if verb.lower_ not in vocab.REQUEST_VERBS else verb.lower_
    if lemma not in vocab.REQUEST_VERBS and verb.lower_.endswith("ing"):
        lemma = verb.lemma_.lower()
    if lemma == "make" and len(tokens) > 2 and tokens[1].lower_ in ("that", "it"):
        return finish("Prefers " + text_of(tokens[2:]) + scope)  # "make that millions": the new value
    if lemma == "be" and len(tokens) > 1:  # "From now on, be more careful": how Atlas should be
        wanted = "Does not want Atlas to be " if negative else "Wants Atlas to be "
        return finish(wanted + text_of(tokens[1:]) + scope)
    if lemma in ("change", "switch", "convert"):  # "convert dollars to euros": euros
        after = text_of(tokens[1:])
        # the new value comes after "to"; without one the note would be "Prefers everything."
        return finish("Prefers " + after.split(" to ", 1)[1] + scope) if " to " in after else ""
    # A verb with an -s ("amounts in thousands") is a noun the tagger misread: no imperative has one.
    if lemma not in vocab.REQUEST_VERBS and (verb.pos_ != "VERB" or verb.tag_ == "VBZ"):
        body = text_of(tokens)
        return finish(("Does not want " if negative else "Prefers ") + lower_first(body) + scope)
    if lemma in _CONTENT_VERBS and not structured and not negative:
        lemma = "include"
    obj, mod = _object_and_modifier(tokens[1:], lemma)
    if not obj and not mod and len(tokens) > 1:
        return ""  # "don't use them from now on": which "them", the note cannot say
    obj = f"only {obj}" if only and obj else obj
    table = NEGATIVE_TEMPLATES if negative else VERB_TEMPLATES
    fallback = ("Does not want Atlas to " if negative else "Wants Atlas to ") + lemma + " {obj} {mod}"
    return finish(table.get(lemma, fallback).format(obj=obj, mod=mod) + scope)


def _object_and_modifier(tokens: list[Token], lemma: str) -> tuple[str, str]:
    # "give me ...", "show us ...": the dative goes ("US date format" keeps its US).
    tokens = [t for t in tokens if t.text not in _DATIVES]
    if tokens and tokens[0].lower_ in _OBJECT_PRONOUNS:
        # "show them as a table": the answers, as the rest says; "don't use them": nothing named
        rest = text_of(tokens[1:])
        return ("answers", rest) if rest else ("", "")
    split = len(tokens)
    seen_noun = False
    for index, token in enumerate(tokens):
        # A hyphenated word ("quarter-on-quarter") or a possessive ("customer's") stays whole;
        # a comma is typed against the word before it and still ends the object.
        comma = token.text == ","
        spaced = index > 0 and (bool(tokens[index - 1].whitespace_) or comma) and token.tag_ != "POS"
        modifier = token.pos_ in ("ADP", "ADV", "PART", "SCONJ") or token.tag_ in ("JJS", "RBS") or comma
        if seen_noun and spaced and modifier:
            split = index
            break
        if token.pos_ not in ("DET", "ADJ", "ADP", "PUNCT"):
            seen_noun = True  # the object has begun (the small model may tag "invoices" a verb)
        elif index == 0 and token.pos_ == "ADP":
            split = 0
            break
    obj, mod = text_of(tokens[:split]), text_of(tokens[split:])
    return obj or DEFAULT_OBJECTS.get(lemma, ""), mod


def _own_preference(tokens: list[Token]) -> str:
    """ "I prefer X" -> "Prefers X"; "I'd rather see X than Y" -> "Prefers to see X rather than Y"."""
    words = [t.lower_ for t in tokens]
    if not words or words[0] not in ("i", "my"):
        return ""
    if words[:2] == ["my", "preference"]:
        rest = [t for t in tokens[2:] if t.lower_ not in ("is", "for")]
        return "Prefers " + text_of(rest)
    # "I prefer X", "I think I'd prefer X", "I, as the account lead, would prefer X".
    for index, token in enumerate(tokens[1:], start=1):
        between = tokens[1:index]
        negated = any(t.lower_ in vocab.VERB_NEGATIONS for t in between)
        if negated and any(t.pos_ == "VERB" for t in between):
            return ""  # the "not" is another verb's: "I never said I prefer X", "I don't think I want X"
        if token.lower_ == "rather":
            after = tokens[index + 1 :]
            if after and after[0].lower_ == "you":  # "I'd rather you didn't use emojis"
                return _rather_atlas(after[1:])
            if after and after[0].lower_ in vocab.VERB_NEGATIONS:  # "I'd rather not see charts"
                return "Does not want to " + text_of(after[1:])
            tail = text_of(after)
            tail = re.sub(r"\bthan\b", "rather than", tail) if "rather than" not in tail else tail
            return "Prefers to " + tail
        form = _PREFERENCE_VERB_FORMS.get(token.lemma_.lower())
        if form == "Likes" and tokens[index - 1].lower_ in ("'d", "would"):
            form = "Wants"  # "I'd like X" asks for X
        after = tokens[index + 1 :]
        if form and after and after[0].lower_ == "you":  # "I'd prefer you not round the figures"
            return _wants_atlas(after[1:], negated=negated) if f"{form} " not in vocab.NEGATIVE_OPENINGS else ""
        # "I'd prefer not to see emojis", "I'd like no charts", "neither tables nor charts"
        if form and after and after[0].lower_ in (*vocab.VERB_NEGATIONS, "no", "neither"):
            negated, after = not negated, after[1:]
        elif form and len(after) > 1 and after[0].lower_ == "to" and after[1].lower_ in vocab.VERB_NEGATIONS:
            negated, after = not negated, [after[0], *after[2:]]  # "I'd prefer to not see charts"
        if form and negated:
            # "I don't want X" does not want it; "I don't hate X" says too little to keep.
            # "neither tables nor charts": does not want tables or charts.
            return (
                ""
                if f"{form} " in vocab.NEGATIVE_OPENINGS
                else "Does not want " + re.sub(r"\bnor\b", "or", text_of(after))
            )
        if form:
            return form + " " + text_of(after)
    return ""


def _wants_atlas(tokens: list[Token], *, negated: bool) -> str:
    """What the user wants Atlas to do: "(you) to round the figures", "(you) not round them"."""
    if tokens and tokens[0].lower_ == "to":
        tokens = tokens[1:]
    if tokens and tokens[0].lower_ in vocab.VERB_NEGATIONS:
        negated, tokens = not negated, tokens[1:]
    wanted = "Does not want Atlas to " if negated else "Wants Atlas to "
    if tokens and tokens[0].tag_ == "JJ":  # "I want you brief": to be brief
        return wanted + "be " + text_of(tokens)
    # A verb in its base form; the tagger's "VBP" after "you" is an adjective it misread
    # ("I want you concise" was "Wants Atlas to concise.").
    if not tokens or tokens[0].pos_ not in ("VERB", "AUX") or tokens[0].tag_ == "VBP":
        return ""
    return wanted + tokens[0].lemma_.lower() + " " + text_of(tokens[1:])


def _rather_atlas(tokens: list[Token]) -> str:
    """What the user would rather Atlas did: "didn't use emojis" -> "Does not want Atlas to use
    emojis"; "used tables" -> "Wants Atlas to use tables"; "" when it is not a verb phrase."""
    if len(tokens) > 1 and tokens[0].pos_ == "AUX" and tokens[1].lower_ in vocab.VERB_NEGATIONS:
        return "Does not want Atlas to " + text_of(tokens[2:])
    if tokens and tokens[0].pos_ == "VERB":
        return "Wants Atlas to " + tokens[0].lemma_.lower() + " " + text_of(tokens[1:])
    return ""


def lower_first(text: str) -> str:
    if text[:2].isupper() or not text:
        return text
    return text[0].lower() + text[1:]


# --- context and situations ----------------------------------------------------------------


_OPENER_PHRASES = tuple(tuple(p.split()) for p in vocab.DISCOURSE_OPENERS if " " in p)


def _opener_words(tokens: list[Token]) -> int:
    """How many tokens a discourse opener of several words takes at the start ("heads up ...")."""
    said = tuple(t.lower_ for t in tokens[:4])
    return next((len(p) for p in _OPENER_PHRASES if said[: len(p)] == p), 0)


def about_user(tokens: list[Token]) -> str:
    """A first-person clause as a note about the user ("I cover X" -> "Covers X.")."""
    tokens = [t for t in tokens if not t.is_space]
    while tokens and (tokens[0].is_punct or tokens[0].lower_ in vocab.DISCOURSE_OPENERS or _opener_words(tokens)):
        tokens = tokens[max(1, _opener_words(tokens)) :]
    # "Scratch Bristol, I've moved to Cardiff": the words before the comma are an aside.
    comma = next((i for i, t in enumerate(tokens[:-1]) if t.text == "," and tokens[i + 1].lower_ == "i"), None)
    if tokens and tokens[0].lower_ not in ("i", "i'm") and comma is not None:
        tokens = tokens[comma + 1 :]
    if owned := _the_users_things(tokens):
        return owned
    lead = _time_or_place_lead(tokens)
    if lead:  # "Since March I cover Leeds" -> "Covers Leeds since March."
        said = about_user(tokens[lead:])
        phrase = _FROM_NOW.sub("", text_of([t for t in tokens[:lead] if not t.is_punct])).strip()
        if not phrase or not said:
            return said
        return said[:-1] + " " + (phrase if tokens[0].pos_ == "PROPN" else lower_first(phrase)) + "."
    if not tokens or tokens[0].lower_ not in ("i", "i'm"):  # the tokenizer splits "im" into "i" "m"
        return finish(text_of(tokens))
    rest = _without_aside(tokens[1:])
    words: list[str] = []
    for index, token in enumerate(rest):
        if (token.pos_ == "ADV" or token.lower_ == "not") and index < 2:  # "I never ...", "I not only ..."
            words.append(token.lower_)
            continue
        past = token.tag_ in ("VBD", "VBN") and _straight(token.text) not in _IRREGULAR_THIRD
        # The tokenizer's norm reads a contraction's stem ("ca" of "can't" is "can", "wo" is "will").
        verb = token.norm_ if token.lower_ in _CONTRACTED_STEMS else token.text
        words.append(token.lower_ if past else third_person(verb))  # "I visited" -> "Visited"
        tail = rest[index + 1 :]
        if tail and _straight(tail[0].text).lower() in vocab.NEGATION_CLITICS:  # "I don't" -> "Does not"
            words[-1] = "cannot" if words[-1] == "can" else words[-1] + " not"
            tail = tail[1:]
        words.append(_third_person_verbs(tail))
        break
    return finish(" ".join(w for w in words if w))


_THIRD_PERSON = {"i": "they", "my": "their", "me": "them", "myself": "themselves", "am": "are", "'m": "are", "m": "are"}


def _the_users_things(tokens: list[Token]) -> str:
    """ "accounts I own are A, B and C" -> "The accounts they own are A, B and C.": things the user has, named by
    what the user does with them; "" when the clause is not said so."""
    at = next((i for i, t in enumerate(tokens[:4]) if t.lower_ == "i"), 0)
    if not at or at + 1 >= len(tokens) or tokens[at + 1].dep_ != "relcl" or tokens[at + 1].head.i > tokens[at].i:
        return ""
    named = [t.text for t in tokens[:at] if t.lower_ not in ("the", "my", "our")]
    rest = [_THIRD_PERSON.get(t.lower_, t.text) for t in tokens[at:]]
    return finish(" ".join(["The", *named, *rest]))


def _time_or_place_lead(tokens: list[Token]) -> int:
    """How many words come before the clause's "I" when they are a phrase of their own, with no
    verb and no "and" ("since March I ...", "in Q3 I ...", "now I ..."); 0 otherwise."""
    at = next((i for i, t in enumerate(tokens[:5]) if t.lower_ in ("i", "i'm")), 0)
    before = tokens[:at]
    verbs = [t for t in before if t.pos_ in ("VERB", "AUX") and t.lower_ not in ("starting", "beginning")]
    if not before or verbs or any(t.pos_ in ("CCONJ", "PRON") for t in before):
        return 0
    return at


def _third_person_verbs(tokens: list[Token]) -> str:
    """The rest of "I ..." with the verbs that share its subject in the third person too
    ("based in Lisbon but travel to Madrid" -> "... but travels to Madrid")."""
    shared = {
        t.i
        for t in tokens
        if t.dep_ == "conj"
        and t.tag_ in ("VBP", "VB")
        and not any(c.dep_ in ("nsubj", "nsubjpass") for c in t.children)
    }
    return "".join((third_person(t.text) if t.i in shared else t.text) + t.whitespace_ for t in tokens).strip()


def _without_aside(tokens: list[Token]) -> list[Token]:
    """ "I, as the account lead, approve ..." -> "approve ...": the aside after the subject goes."""
    if not tokens or tokens[0].text != ",":
        return tokens
    close = next((i for i, t in enumerate(tokens[1:], start=1) if t.text == ","), 0)
    return tokens[close + 1 :]


# --- the answer's echo, and the lint -------------------------------------------------------

_SECOND = {"is": "are", "was": "were", "has": "have", "does": "do", "would": "would", "will": "will"}
_LEADING_ADVERBS = ("always", "never", "also", "now", "still", "just", "often", "sometimes", "not", "even")


def echo(statement: str, *, said: str = "") -> str:
    """The note in the second person, for the chat answer ("you cover the western region").

    ``said``: the user's words. A "they" or "their" the user said is somebody else ("before
    they renew"); one they did not say is the user, in the note's third person.
    """
    body = statement.rstrip(".")
    if body.lower().startswith("no longer ") and len(body) > 10:  # "No longer handles X"
        return echo(body[10].upper() + body[11:], said=said).replace("you ", "you no longer ", 1)
    first, _, rest = body.partition(" ")
    low = first.lower()
    if rest and (low.endswith("ly") or low in _LEADING_ADVERBS):
        return echo(rest[0].upper() + rest[1:], said=said).replace("you ", f"you {low} ", 1)  # "Only handles X"
    if low == "does" and rest.startswith("not "):
        return "you don't " + rest[4:]
    if low in _SECOND:
        verb = _SECOND[low]
    elif low.endswith("ies"):
        verb = low[:-3] + "y"
    elif low.endswith(("shes", "ches", "xes", "sses", "oes")):
        verb = low[:-2]
    elif low.endswith("s") and low not in ("usually", "always"):
        verb = low[:-1]
    elif low == "their":
        return "your " + rest  # "Their pronouns are they/them": the value keeps its own words
    elif _said_of_someone_else(low, said):
        if low in _DETERMINERS:  # "both Kestrel and Mercer are your accounts", not "Both ..."
            body = body[0].lower() + body[1:]
        return _second_person(body, said)  # "Dana is their manager" -> "Dana is your manager"
    else:
        return "you " + body[0].lower() + body[1:]
    rest = _as_said(rest, said)
    rest = _second_person(rest, said)
    return f"you {verb} {rest}".strip()


_DETERMINERS = frozenset({"both", "the", "a", "an", "all", "each", "every", "our", "their", "these", "those"})

# The note's third person, the answer's second, and the user's first ("my" became "their").
_ECHO_PRONOUNS = (
    ("their", "your", "my"),
    ("they", "you", "i"),
    ("them", "you", "me"),
    ("themselves", "yourself", "myself"),
)


def _second_person(text: str, said: str) -> str:
    """Each "their", "they", "them" the note has, in order, is "your"/"you" where the user said
    "my", "I", "me", and stays where the user said it themselves ("before they renew")."""
    words = [w.split("'")[0] for w in re.findall(r"[a-z']+", _straight(said))]
    for third, second, first in _ECHO_PRONOUNS:
        said_in_order = [w for w in words if w in (third, first)]
        if first == "i" and first in said_in_order:
            said_in_order.remove(first)  # the subject "I" the note leaves out ("I cover X" -> "Covers X")
        seen = iter(said_in_order)

        def swap(found: re.Match, seen: Iterator[str] = seen, second: str = second) -> str:
            return found.group() if next(seen, "") == found.group() else second

        text = re.sub(rf"\b{third}\b", swap, text)
    return text


def _said_of_someone_else(first: str, said: str) -> bool:
    """Whether a note opens with its own subject ("Dana is their manager"), not a verb of the
    user's ("Moved to Ops", "Cannot work Fridays"): the user never said "I" before that word."""
    if not said or first in _IRREGULAR_THIRD.values() or first in ("cannot", "had", "did"):
        return False
    return not re.search(rf"\b(?:i|i['’]m)\s+(?:\w+\s+)?{re.escape(first)}\b", said, re.I)


def _as_said(text: str, said: str) -> str:
    """A verb the note put in the third person, back as the user said it ("and manages" ->
    "and manage" when they said "manage")."""
    own = set(re.findall(r"[a-z]+", said.lower()))

    def back(found: re.Match) -> str:
        word = found.group()
        if word in own:
            return word
        bases = (word[:-1], word[:-2], word[:-3] + "y") if word.endswith("s") else ()
        return next((b for b in bases if b in own), word)

    # Only a verb after "and", "but" or "or": the note's own nouns ("answers") stay as they are.
    return re.sub(r"(?<=\b(?:and|but) )[a-z]+\b|(?<=\bor )[a-z]+\b", back, text) if own else text


def lint(statement: str) -> list[str]:
    """What keeps a statement from reading as the user's own, in the third person."""
    problems = []
    words = re.findall(r"[a-z']+", _straight(statement))
    banned = [w for w in words if w in vocab.STATEMENT_BANNED_WORDS]
    if banned:
        problems.append("first or second person: " + ", ".join(sorted(set(banned))))
    lowered = statement.lower()
    for phrase in vocab.STATEMENT_BANNED_PHRASES:
        if re.search(rf"\b{re.escape(phrase)}\b", lowered):
            problems.append(f"trigger phrase: {phrase}")
    if "?" in statement:
        problems.append("question mark")
    if re.search(r"\b(?:from|of|since|starting|in|at|by|with|for|to|on)\s+until\b", lowered):
        problems.append("a word with nothing after it")  # "Handles Acme as of until Tuesday ..."
    if len(re.findall(r"\buntil\b", lowered)) > 1:
        problems.append("two ends")  # "Is in Madrid, then Lisbon until the 30th until Friday ..."
    if _clause_as_object(statement) or re.match(r"(?:prefers|wants|likes) (?:be|is|are)\b", lowered):
        problems.append("a clause where the object should be")  # "Prefers be more careful."
    pronoun_only = r"(?:does not want|doesn't want|wants|prefers|likes) (?:it|them|that|this|those|these)\.?"
    if re.fullmatch(pronoun_only, lowered):
        problems.append("only a pronoun where the object should be")  # "Does not want it." after a reason
    repeated = sorted({a for a, b in pairwise(words) if a == b})
    if repeated:
        problems.append("a word twice in a row: " + ", ".join(repeated))
    if re.search(r"(?:^|\s)n[’']t\b|^(?![AI] )[A-Z] |\w(?:ns|ds)[’']t\b|\bnots\b", statement):
        problems.append("a word split from its contraction")  # "Cas n't work", "S as the lead"
    last = re.findall(r"[\w'%$€£]+", _straight(statement).lower())[-1:]  # "up to 15%" ends on "15%"
    if last and last[0] in vocab.UNFINISHED_ENDINGS:
        problems.append(f"ends on {last[0]!r}")  # "Covers Leeds and.", "Prefers never."
    if words[-2:-1] == ["not"] and words[-1] in vocab.DENIAL_LIMITERS:
        problems.append(f"ends on 'not {words[-1]}'")  # the first words of "not only for now"
    if len(statement.split()) > vocab.MAX_STATEMENT_WORDS:
        problems.append(f"more than {vocab.MAX_STATEMENT_WORDS} words")
    if not statement or not statement[0].isupper() or not statement.endswith("."):
        problems.append("not one sentence")
    return problems
