"""Typed answer blocks: what the responder produces and the chat page renders.

A summary line, a table, a bullet list, a quote from a document (with its title) or a
side note (a stale memory, a currency Atlas cannot convert to). The page renders each kind
with its own markup (escaped by the template); the stored answer text is the same blocks
flattened, for the API and for the prompt of a later model call.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

KINDS = ("summary", "table", "bullets", "quote", "note")


@dataclass(frozen=True)
class Block:
    kind: str  # one of KINDS
    text: str = ""
    header: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    items: tuple[str, ...] = ()
    title: str = ""  # a quote's document title

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        return {
            k: (list(map(list, v)) if k == "rows" else list(v) if isinstance(v, tuple) else v) for k, v in data.items()
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Block:
        return cls(
            kind=str(data.get("kind", "summary")),
            text=str(data.get("text", "")),
            header=tuple(data.get("header") or ()),
            rows=tuple(tuple(r) for r in data.get("rows") or ()),
            items=tuple(data.get("items") or ()),
            title=str(data.get("title", "")),
        )


def summary(text: str) -> Block:
    return Block("summary", text=text)


def note(text: str) -> Block:
    return Block("note", text=text)


def table(header: list[str] | tuple[str, ...], rows: list[tuple[str, ...]] | tuple[tuple[str, ...], ...]) -> Block:
    return Block("table", header=tuple(header), rows=tuple(tuple(r) for r in rows))


def bullets(items: list[str] | tuple[str, ...]) -> Block:
    return Block("bullets", items=tuple(items))


def quote(title: str, text: str) -> Block:
    return Block("quote", text=text, title=title)


@dataclass(frozen=True)
class Rendered:
    blocks: tuple[Block, ...] = field(default_factory=tuple)

    @property
    def text(self) -> str:
        return blocks_text(self.blocks)


def block_text(block: Block) -> str:
    if block.kind == "table":
        lines = [" | ".join(block.header), " | ".join("---" for _ in block.header)]
        lines += [" | ".join(cell.replace("|", "/") for cell in row) for row in block.rows]
        return "\n".join(lines)
    if block.kind == "bullets":
        return "\n".join(f"- {item}" for item in block.items)
    if block.kind == "quote":
        return f"From \u201c{block.title}\u201d: \u201c{block.text}\u201d"
    return block.text


def blocks_text(blocks: tuple[Block, ...] | list[Block]) -> str:
    return "\n\n".join(t for t in (block_text(b) for b in blocks) if t).strip()
