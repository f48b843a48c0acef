"""Reason codes of the write gate, and the plain sentence the answer gives for each refusal.

Every admission and refusal the gate records carries one of these codes (GateDecision.reason,
filterable by staff); a refusal the user asked for explicitly is answered with its sentence.
"""

from __future__ import annotations

# admitted
CORRECTION = "correction"
STANDING_PREFERENCE = "standing_preference"
EXPLICIT_REQUEST = "explicit_request"
REPEATED_SESSIONS = "repeated_in_3_sessions"
SITUATION_DATED = "situation_dated"
SITUATION_DEFAULT = "situation_default_30d"
UPDATE = "update_supersedes"
FORGET_REQUEST = "forget_request"
REVERSAL = "reversal_forgets"
REFRESHED = "duplicate_refreshed"
# refused
NO_COMMENT = "no_comment"
VENTING = "venting"
NOT_CHECKABLE = "correction_not_checkable"
SECRET = "secret"
INSTRUCTION = "instruction_to_system"
SENSITIVE = "special_category"
EMPTY = "empty_text"
SMALL_TALK = "small_talk"
INFERENCE = "inference"
SESSION_ONLY = "session_only"
REMINDER = "reminder_task"
QUESTION = "question_not_preference"
CORPUS_FACT = "corpus_fact"
NOT_ABOUT_USER = "not_about_user"
SINGLE_OCCURRENCE = "single_occurrence"
SUPPRESSED = "suppressed"
USER_AUTHORED = "user_authored_kept"
PAUSED = "paused"
FORGET_NO_MATCH = "forget_no_match"
FORGET_AMBIGUOUS = "forget_ambiguous"
REVERSAL_NO_MATCH = "reversal_no_match"
NOTHING_TO_REMEMBER = "nothing_to_remember"
GARBLED = "statement_unclear"

# How many separate sessions make a repeated signal evidence (chapters 93 and 98).
MIN_SESSIONS = 3

# Why a refusal: the sentence after "I won't remember that: ...", and the 400 message of
# the correct/import paths (memory.gate.policy).
WHY: dict[str, str] = {
    SECRET: "it looks like a secret (a password, code, key or account number), and Atlas never stores secrets",
    INSTRUCTION: "it reads as an instruction to Atlas itself, not something about you",
    SENSITIVE: (
        "it mentions health or another special category of personal data, which Atlas never keeps, even when asked"
    ),
    EMPTY: "there is no visible text in it",
    CORPUS_FACT: "it's about the company or its data, which Atlas looks up in the business records, not in your notes",
    NOT_ABOUT_USER: "it's about someone else, and your notes only hold things about you",
    REMINDER: "it's a reminder or a task, and Atlas keeps notes about you, not a to-do list",
    SMALL_TALK: "it's small talk, with nothing to keep",
    INFERENCE: "it would be a guess about you (a mood or a skill), and Atlas never stores guesses",
    SESSION_ONLY: "it sounds like it's just for now, so I'll apply it here without keeping a note",
    NOTHING_TO_REMEMBER: "I couldn't tell what you wanted me to remember",
    GARBLED: "I couldn't put it into a clear note; saying it in one short sentence helps",
    PAUSED: "your memory is paused; you can resume it on the memory page",
    VENTING: "it says the answer was bad but not what is right, so there is nothing to correct",
    NOT_CHECKABLE: "it doesn't state a figure, date or name I could check",
}


def why(reason: str) -> str:
    return WHY.get(reason, "it isn't something Atlas keeps as a note about you")
