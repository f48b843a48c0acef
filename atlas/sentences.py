"""The product's user-facing sentences, written once.

Views use the constants; templates read the same ones as ``{{ sentences.FORGOTTEN }}``
(:func:`context`, a template context processor in settings.TEMPLATES).
"""

from __future__ import annotations

from typing import Any

# After "Forget this", "Correct it" and the optional reason (memory page and chat panel).
FORGOTTEN = "Forgotten. Atlas won't learn this again."
CORRECTED = "Corrected. Atlas will use your wording from now on."
REASON_NOTED = "Thanks, noted. It helps Atlas learn what not to keep."
FORGOTTEN_REASON_NOTED = "Forgotten. Thanks, noted:"  # followed by the reason, quoted

FEEDBACK_THANKS = "Thanks for the feedback."
CORRECTION_NEEDED = "Write the note as Atlas should keep it."

# Memory controls on the memory page.
MEMORY_PAUSED = "Memory paused."
MEMORY_RESUMED = "Memory is on again."
EVERYTHING_DELETED = "Deleted everything Atlas remembered about you."
EVERYTHING_DELETED_PAUSED = " Memory is paused."

# The API's answers that are not errors of the request's shape.
ALREADY_FORGOTTEN = "This note was already forgotten."
FORGOTTEN_BEFORE_CORRECTION = "This note was forgotten, so there is nothing to correct."
TURN_UNAVAILABLE = "Atlas could not answer right now; nothing was saved. Please try again."
CONVERSATION_DELETED = "This conversation was deleted. Nothing was saved; start a new one."

# Each kind of note with its heading and what it is, in the memory page's words (design rules: who writes a memory).
KIND_SECTIONS: dict[str, tuple[str, str]] = {
    "preference": (
        "Preferences",
        "How you like answers: formats, units, level of detail. Kept until you change them.",
    ),
    "correction": ("Corrections", "Things you corrected, so Atlas doesn't repeat the mistake."),
    "context": ("Context", "Standing facts about your work, such as the region or the accounts you cover."),
    "situation": ("Situations", "Things true for now, such as a quarter-end push. They expire on their own."),
}


def context(request: Any) -> dict[str, Any]:
    """Template context processor: the sentences above as ``sentences``."""
    return {"sentences": {name: value for name, value in globals().items() if name.isupper()}}


# A turn that states something and asks nothing (design rule "statements acknowledged"); what
# the gate keeps from it, it says on the memory page and under the answer, not here.
STATEMENT_ACKNOWLEDGED = (
    "Thanks for letting me know. When you need something from the records, ask me about customers, orders or contracts."
)
