"""How well the small English model parses chat imperatives, and what the gate does about it.

``manage.py measure_parse [--json]``: our own imperatives (the way people type to a chat:
lowercase, no punctuation, politeness and standing phrases in front), each in three
spellings (as typed, lowercase, capitalised with a period). For each spelling it prints the
share whose request verb the parser tags as a base-form verb (VB) and makes the root, and
the share the gate reads as an imperative (the parse combined with the vocabulary's request
verbs, memory.gate.pipeline.speech_act).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from spacy.tokens import Doc, Token

from memory.gate import vocabulary as vocab

IMPERATIVES = (
    "show amounts in gbp",
    "list invoices newest first",
    "round to two decimals",
    "give me the totals in yen",
    "put it in a table",
    "sort customers by balance",
    "use metric units",
    "include the region in every answer",
    "keep it short",
    "report revenue in thousands",
    "answer in french",
    "call me jo",
    "skip the charts",
    "add the account code",
    "mention the due date",
    "order them by size",
    "display dates as yyyy-mm-dd",
    "send me the csv",
    "make it a bullet list",
    "quote prices in euros",
    "format numbers with commas",
    "break it down by month",
    "pls show totals first",
    "from now on show totals in usd",
    "always list the biggest first",
)


def _first_verb(doc: Doc) -> Token | None:
    words = [t for t in doc if t.lower_ not in vocab.POLITENESS and not t.is_punct]
    standing = {w for phrase in vocab.STANDING_PHRASES for w in phrase.split()}
    while words and words[0].lower_ in standing:
        words = words[1:]
    return words[0] if words else None


class Command(BaseCommand):
    help = "Measure how the language pipeline parses lowercase chat imperatives."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        from atlas.language import parse
        from memory.gate.pipeline import speech_act

        spellings = {
            "as typed": list(IMPERATIVES),
            "capitalised.": [text[0].upper() + text[1:] + "." for text in IMPERATIVES],
            "please + typed": ["please " + text for text in IMPERATIVES],
        }
        figures = {}
        for name, texts in spellings.items():
            tagged = rooted = read = 0
            for text in texts:
                doc = parse(text)
                verb = _first_verb(doc)
                tagged += int(verb is not None and verb.tag_ == "VB")
                rooted += int(verb is not None and verb.tag_ == "VB" and verb.dep_ == "ROOT")
                read += int(speech_act(doc[:]) in ("imperative", "request"))
            figures[name] = {
                "n": len(texts),
                "verb_tagged_VB": round(tagged / len(texts), 3),
                "verb_is_root_VB": round(rooted / len(texts), 3),
                "gate_reads_imperative": round(read / len(texts), 3),
            }
            self.stdout.write(
                f"{name:16} n={len(texts)}  parser tags the verb VB {tagged / len(texts):.0%}, "
                f"VB and root {rooted / len(texts):.0%}; gate reads an imperative {read / len(texts):.0%}"
            )
        if options["json"]:
            self.stdout.write(json.dumps(figures))
