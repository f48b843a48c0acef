"""Text checks shared by every input path: is there anything a reader would see?"""

from __future__ import annotations

import unicodedata

# Unicode categories that print nothing: controls, format characters (zero-width space,
# joiners, the byte-order mark, direction marks) and separators.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp"})
# Letters and symbols that render as blank space (Hangul fillers, the braille blank).
_BLANK_CHARACTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def has_visible_text(text: str) -> bool:
    """True when ``text`` has at least one character that shows (so "\\u200b" alone is empty)."""
    return any(
        ch not in _BLANK_CHARACTERS and unicodedata.category(ch) not in _INVISIBLE_CATEGORIES for ch in text or ""
    )
