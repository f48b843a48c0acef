"""DRF's JSON parser with one more refusal: nesting too deep to decode is a 400, not a 500."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import IO, Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

# No Atlas request nests deeper than a few levels; a body that does is refused unread.
MAX_JSON_DEPTH = 32


def _too_deep(body: bytes, limit: int) -> bool:
    depth = 0
    in_string = escaped = False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return False


class JSONParser(parsers.JSONParser):
    def parse(
        self, stream: IO[Any] | None, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        body = stream.read() if stream is not None else b""
        if _too_deep(body, MAX_JSON_DEPTH):
            raise ParseError(f"JSON parse error - nested more than {MAX_JSON_DEPTH} levels deep.")
        try:
            return super().parse(io.BytesIO(body), media_type, parser_context)
        except RecursionError as exc:
            raise ParseError("JSON parse error - nested too deeply.") from exc
