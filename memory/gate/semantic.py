"""A semantic second opinion on standing wishes, where the rows are silent.

A sentence that names facets of the preference table but says no standing phrase and no
one-off marker ("bullets are my thing") is scored with the shipped embedding model against
a small table of exemplars of each class: its nearest standing exemplar against its nearest
one-off exemplar. It only proposes; the gate admits the proposal only where the rows found
what a standing preference needs, a facet and its value (design rule: standing wish), and
never over a one-off marker. Precision comes first (design rule: rules on events), so the
margin is set where no measured set lost precision (README, "The write gate").

The exemplars are written here, not copied from any labelled case, and embedded once, at
first use.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from memory.embeddings import EmbeddingError, embed, embed_one

# How much nearer the sentence must be to a standing exemplar than to a one-off one.
STANDING_MARGIN = 0.03

EXEMPLARS: dict[str, tuple[str, ...]] = {
    "standing": (
        "that's the way i always want my numbers",
        "this is how i like things in general",
        "i'm someone who likes it that way every time",
        "that is my usual preference for answers",
        "please keep doing it like that for me in future",
        "i always need it shown like that",
        "that format works for me across the board",
        "i'm used to seeing figures that way, keep it",
        "my habit is to read things in that style",
        "in general that suits me better",
        "i personally prefer it like that overall",
        "that's what i want to see in all my answers",
        "as a matter of course i'd like it that way",
        "stick with that style for everything i ask",
        "that's my standard, please keep to it",
        "i'm the kind of person who wants lists like that",
        "that's my default way of reading reports",
        "it works best for me that way, all the time",
        "from here on that's how i want it",
        "i find it easier that way in every reply",
        "i'm that sort of person, it's who i am as a reader",
        "that's my thing, i go for it every time",
    ),
    "one_off": (
        "can you show that one differently",
        "put this answer in another shape",
        "redo the last one like that",
        "could you change this one for me",
        "show me that result another way",
        "for this report only, change it",
        "just here, give it to me like that",
        "this one would be better sorted",
        "can i see those figures another way",
        "give me that list in a different form",
        "just for this answer, switch it",
        "that one, but differently",
        "can i get that a different way",
        "can i have it like that instead, just here",
        "show the previous result converted",
        "could you reformat what you just sent",
        "make the one above look different",
        "the answer you just gave, but changed",
        "try that again in another format",
        "for the numbers above, use something else",
        "redo it this way for me now",
        "how would that look another way",
        "give me that in another style",
        "put that in a different layout",
        "show me it that way instead",
    ),
}


@lru_cache(maxsize=1)
def _exemplar_vectors() -> dict[str, np.ndarray]:
    """Each class's exemplars, embedded once per process."""
    return {name: np.asarray(embed(list(texts)), dtype=np.float32) for name, texts in EXEMPLARS.items()}


def standing_margin(text: str) -> float:
    """How much nearer ``text`` is to its nearest standing exemplar than to its nearest one-off one."""
    # Read as typed: case and closing punctuation say nothing of standing-ness.
    vector = np.asarray(embed_one(text.strip().rstrip(".!").lower()), dtype=np.float32)
    vectors = _exemplar_vectors()
    return float((vectors["standing"] @ vector).max() - (vectors["one_off"] @ vector).max())


def proposes_standing(text: str) -> bool:
    """Whether the second opinion proposes a standing preference for ``text`` (never an
    admission). Without the model there is no second opinion: the rows alone decide."""
    try:
        return standing_margin(text) >= STANDING_MARGIN
    except EmbeddingError:
        return False
