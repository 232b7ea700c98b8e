#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""What PyTorch's autograd saves for backward, per sample, against prenet's activation memory.

usage: /usr/bin/python3 tests/memory/saved_tensors.py PRENET_SAVED_BYTES_EXE [--doc docs/memory-model.md [--check]]
                                                      [--tolerance PCT] [--torch-counts FILE]

For each case the PyTorch twin of a zoo block (or a whole torchvision model) runs one training forward on the CPU
under torch.autograd.graph.saved_tensors_hooks, at batch 1 and batch 2. Every tensor autograd packs is counted once
by its storage (a tensor saved by several ops, or a view of a saved tensor, is one allocation), parameters excluded;
the batch-2 minus batch-1 difference is the per-sample figure (shared buffers such as a causal mask or rotary tables
cancel out). The LM-head case ends in the loss (F.cross_entropy against int64 labels), which prenet counts with
saved_activations(..., loss_function::cross_entropy).

Two CPU artefacts are taken out so that the count is what a GPU run saves, which is what prenet predicts:
- dropout: on CUDA, F.dropout runs native_dropout and saves a bool mask (1 byte per element); on the CPU it falls back
  to multiplying by a mask of the input's dtype (4 bytes in fp32). The twins run native_dropout (which the CPU has
  too), so the CUDA kernel's saved tensors are what is counted.
- torch 1.13's mean() keeps its input for backward (derivatives.yaml then read self.numel()); torch >= 2 keeps its
  sizes only. The LLaMA twin's RMSNorm takes the mean of squares as sum / n, which saves what torch >= 2's mean does.

Mixed precision (the cases marked "amp-bf16"): the twin runs under CudaAutocast, a torch.overrides.TorchFunctionMode
that applies CUDA autocast's op lists on the CPU, because torch's CPU autocast casts by other lists (and this torch
has no CUDA). The lists are those of PyTorch's documentation, "Automatic Mixed Precision package - torch.amp",
section "Autocast Op Reference" / "CUDA Op-Specific Behavior": an op listed under "CUDA Ops that can autocast to
float16" gets its fp32 floating-point inputs cast to the half type, one listed under "CUDA Ops that can autocast to
float32" gets its half inputs cast to fp32, and any other op runs in the type of its inputs (with type promotion).
Each cast is a new tensor recorded by autograd, as autocast's are, so what an op saves is its cast input. The half
type is bfloat16 (what --precision amp-bf16 runs; torch 1.13 has no fp16 matmul on the CPU; fp16 saves the same
2 bytes). Autocast's cache of the weights' half copies is left out: those copies do not depend on the batch, and
the per-sample difference cancels them. A Python function whose inner ops must meet the lists
(F.multi_head_attention_forward, which hands itself to the mode whole) runs inside the mode again.

torch 1.13's bf16 matrix products on a CPU without AVX-512 BF16 run about 14x slower than fp32 ones, which made the
amp cases minutes. Under them the CPU kernels of aten::mm, bmm, addmm and baddbmm are swapped for numpy's fp32
product cast back to the inputs' type (NumpyMatmuls). What autograd saves is decided above those kernels, by each op's
derivative formula at the Autograd dispatch key, so the swap changes the numbers in the outputs and nothing that is
counted here: the same tensors, of the same type and shape, are saved (checked on every run on a small BERT layer,
GPT-2 block and LLaMA block, which reach all four kernels: swap_changes_nothing_saved). The kernels are PyTorch's own again after the case.

PRENET_SAVED_BYTES_EXE prints prenet's per-sample saved bytes (saved_activations at batch 1, fp32, or under
amp-bf16 for the amp cases) of the same networks as JSON (tests/memory/saved_bytes.cpp). Exit 0 when every case is
within the tolerance (default 3%), 1 when one is not, 77 when torch or torchvision cannot be imported (ctest:
skipped). With --doc, the table between the BEGIN/END markers of that file is rewritten (or, with --check, compared:
exit 1 when it differs).

PyTorch's side does not depend on how prenet is built: with --torch-counts FILE its per-sample counts are written to
FILE, and read from it instead of counted again when FILE holds the counts of the same recipe (the versions of torch,
torchvision and numpy, and a hash of this script and torch_exports.py). The configurations of one checkout share them
that way (scripts/test.sh); each still runs its own PRENET_SAVED_BYTES_EXE against them.
"""
import argparse
import contextlib
import hashlib
import json
import os
import subprocess
import sys
import warnings

try:
    import numpy as np
    import torch
    import torch.nn as nn
    import torchvision  # noqa: F401 - the ResNet-50 and ViT-B/16 cases
    from torch.overrides import TorchFunctionMode
except Exception as e:  # noqa: BLE001
    print(f"saved_tensors: cannot import torch/torchvision ({e}): skipped", file=sys.stderr)
    sys.exit(77)

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/onnx")
import torch_exports  # noqa: E402 - the repository's own twins (gelu_new, the LLaMA block)


def saved_bytes(module, make_input):
    """Bytes of the distinct non-parameter storages autograd saves in one training forward of `module`."""
    params = {p.data_ptr() for p in module.parameters()}
    seen = {}

    def pack(t):
        s = t.storage()
        ptr = s.data_ptr()
        if ptr not in params and ptr not in seen:
            seen[ptr] = s.nbytes()
        return t

    x = make_input()
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = module(x)
    del out
    return sum(seen.values())


def per_sample(module, make_input, amp=False):
    module.train()
    torch.manual_seed(0)

    def run(b):
        if not amp:
            return saved_bytes(module, lambda: make_input(b))
        with CudaAutocast(), NumpyMatmuls():
            return saved_bytes(module, lambda: make_input(b))

    return run(2) - run(1)


# --- CUDA autocast's op lists on the CPU (see the module docstring) -----------------------------------------------
HALF = torch.bfloat16
# "CUDA Ops that can autocast to float16" (as the functions and Tensor methods that reach a TorchFunctionMode name them)
TO_HALF = {"__matmul__", "__rmatmul__", "addbmm", "addmm", "addmv", "addr", "baddbmm", "bmm", "chain_matmul",
           "multi_dot", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
           "linear", "matmul", "mm", "mv", "prelu"}
# "CUDA Ops that can autocast to float32"
TO_FP32 = {"__pow__", "__rdiv__", "__rpow__", "__rtruediv__", "acos", "asin", "binary_cross_entropy_with_logits",
           "cosh", "cosine_embedding_loss", "cdist", "cosine_similarity", "cross_entropy", "cumprod", "cumsum", "dist",
           "erfinv", "exp", "expm1", "group_norm", "hinge_embedding_loss", "kl_div", "l1_loss", "layer_norm", "log",
           "log_softmax", "log10", "log1p", "log2", "margin_ranking_loss", "mse_loss", "multilabel_margin_loss",
           "multi_margin_loss", "nll_loss", "norm", "normalize", "pdist", "poisson_nll_loss", "pow", "prod",
           "reciprocal", "rsqrt", "sinh", "smooth_l1_loss", "soft_margin_loss", "softmax", "softmin", "softplus",
           "sum", "renorm", "tan", "triplet_margin_loss"}
# Python functions that hand themselves to the mode whole: they run inside it again so that their ops meet the lists.
COMPOSITE = {nn.functional.multi_head_attention_forward}


def cast(x, source, target):
    if isinstance(x, torch.Tensor):
        return x.to(target) if x.dtype in source else x
    if isinstance(x, (list, tuple)):
        return type(x)(cast(v, source, target) for v in x)
    return x


class CudaAutocast(TorchFunctionMode):
    """torch.autocast("cuda", torch.bfloat16)'s casts, applied on the CPU (see the module docstring)."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func in COMPOSITE:
            has = nn.functional.has_torch_function
            nn.functional.has_torch_function = lambda *_: False  # or it hands itself to the mode again
            try:
                with self:
                    return func(*args, **kwargs)
            finally:
                nn.functional.has_torch_function = has
        name = getattr(func, "__name__", "")
        if name in TO_HALF or name in TO_FP32:
            source, target = ({torch.float32}, HALF) if name in TO_HALF else ({HALF}, torch.float32)
            args, kwargs = cast(args, source, target), {k: cast(v, source, target) for k, v in kwargs.items()}
        return func(*args, **kwargs)


class NumpyMatmuls:
    """While open, the CPU kernels of the matrix products autocast sends to bf16 compute in fp32 with numpy and return
    the inputs' type (see the module docstring). Below autograd: what each op saves is unchanged."""

    @staticmethod
    def _product(a, b):
        return np.matmul(a.float().numpy(), b.float().numpy())

    @staticmethod
    def _tensor(array, like):
        return torch.from_numpy(array).to(like.dtype)

    def __enter__(self):
        self.lib = torch.library.Library("aten", "IMPL", "CPU")
        product, tensor = self._product, self._tensor
        with warnings.catch_warnings():  # "Overriding a previously registered kernel": the point
            warnings.simplefilter("ignore", UserWarning)
            self.lib.impl("mm", lambda a, b: tensor(product(a, b), a))
            self.lib.impl("bmm", lambda a, b: tensor(product(a, b), a))
            self.lib.impl("addmm", lambda c, a, b, beta=1, alpha=1:
                          tensor(beta * c.float().numpy() + alpha * product(a, b), a))
            self.lib.impl("baddbmm", lambda c, a, b, beta=1, alpha=1:
                          tensor(beta * c.float().numpy() + alpha * product(a, b), a))
        return self

    def __exit__(self, *exc):
        del self.lib  # the registrations end with the library object: PyTorch's kernels again
        return False


def swap_changes_nothing_saved():
    """NumpyMatmuls' premise, checked on every run: a small BERT layer (addmm, bmm), GPT-2 block (baddbmm: its causal
    mask) and LLaMA block (mm) under CudaAutocast save the same tensors (in order, by type and shape) with PyTorch's
    kernels and with numpy's. Returns the differences."""
    problems = []
    for name, make, inp in (("bert layer", lambda: bert_layer(64, 4, 256), sequence(16, 64)),
                            ("gpt2 block", lambda: Decoder(64, 4, 256), sequence(16, 64)),
                            ("llama block", lambda: llama_block(64, 4, 2, 176), sequence(16, 64))):
        saved = []
        for swap in (False, True):
            torch.manual_seed(0)
            module, packed = make().train(), []
            with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append((t.dtype, tuple(t.shape))) or t,
                                                          lambda t: t):
                with CudaAutocast(), (NumpyMatmuls() if swap else contextlib.nullcontext()):
                    module(inp(2))
            saved.append(packed)
        if saved[0] != saved[1]:
            problems.append(f"{name}: PyTorch's kernels save {saved[0]}, numpy's {saved[1]}")
    return problems


def cuda_dropout(input, p=0.5, training=True, inplace=False):  # noqa: A002 - F.dropout's signature
    """F.dropout as CUDA runs it in training: native_dropout, which saves a bool mask (see the module docstring)."""
    del inplace
    if not training or p == 0:
        return input
    return torch.native_dropout(input, p, True)[0]


nn.functional.dropout = cuda_dropout  # nn.Dropout and multi_head_attention_forward look it up at call time


# --- twins ---------------------------------------------------------------------------------------------------------
def causal(s):
    return torch.full((s, s), float("-inf")).triu(1)


class HuggingFaceLayer(nn.TransformerEncoderLayer):
    """nn.TransformerEncoderLayer without the dropout after the feed-forward's activation: Hugging Face's BertLayer
    (post-norm) and GPT2Block (pre-norm, with a causal mask) as the zoo has them (models::bert_layer_options,
    models::gpt2_block_options)."""

    def _ff_block(self, x):
        return self.dropout2(self.linear2(self.activation(self.linear1(x))))


def bert_layer(d, heads, ff):
    return HuggingFaceLayer(d, heads, ff, dropout=0.1, activation="gelu", batch_first=True)


class Decoder(nn.Module):
    """prenet's TransformerDecoderLayer without cross-attention, as the zoo's GPT-2 has it: pre-norm, causal,
    gelu_new."""

    def __init__(self, d, heads, ff):
        super().__init__()
        self.layer = HuggingFaceLayer(d, heads, ff, dropout=0.1, activation=torch_exports.new_gelu, batch_first=True,
                                      norm_first=True)

    def forward(self, x):
        return self.layer(x, src_mask=causal(x.shape[1]))


def sequence(seq, d):
    return lambda b: torch.randn(b, seq, d, requires_grad=True)


def llama_block(d, heads, kv_heads, ff):
    """tests/onnx/torch_exports.py's LLaMA block (HF LlamaDecoderLayer's eager ops) with its rotary tables."""
    def rms_norm(self, x):
        """HF LlamaRMSNorm: computed in fp32 whatever the input's type, cast back to it before the weight; mean(x^2)
        as sum / n (see the module docstring)."""
        input_dtype = x.dtype
        h = x.to(torch.float32)
        h = h * torch.rsqrt((h * h).sum(-1, keepdim=True) / x.shape[-1] + 1e-6)
        return self.weight * h.to(input_dtype)

    rotate = torch_exports.rotate

    def rotate_in_own_type(x, cos, sin):  # HF's rotary embedding hands cos and sin over in the type of q and k
        return rotate(x, cos.to(x.dtype), sin.to(x.dtype))

    torch_exports.RMSNorm.forward = rms_norm
    torch_exports.rotate = rotate_in_own_type
    block = torch_exports.LlamaBlock(d, heads, kv_heads, ff)
    hd = d // heads

    class WithTables(nn.Module):
        def __init__(self):
            super().__init__()
            self.block = block

        def forward(self, x):
            s = x.shape[1]
            inv = 1.0 / (10000 ** (torch.arange(0, hd, 2).float() / hd))
            ang = torch.outer(torch.arange(s).float(), inv)
            ang = torch.cat((ang, ang), dim=-1)
            return self.block(x, ang.cos(), ang.sin())

    return WithTables()


class VitPatchEmbedding(nn.Module):
    """prenet's PatchEmbedding: torchvision VisionTransformer's conv_proj, flattening, class token and position embedding
    (the first steps of VisionTransformer.forward and Encoder.forward; Encoder.dropout is p = 0)."""

    def __init__(self, vit):
        super().__init__()
        self.vit = vit

    def forward(self, x):
        x = self.vit._process_input(x)
        x = torch.cat([self.vit.class_token.expand(x.shape[0], -1, -1), x], dim=1)
        return x + self.vit.encoder.pos_embedding


def vit_encoder_block(heads, d, mlp):
    """torchvision's ViT EncoderBlock with vit_b_16's defaults (dropout = attention_dropout = 0.0, LayerNorm eps 1e-6)."""
    from functools import partial
    from torchvision.models.vision_transformer import EncoderBlock
    return EncoderBlock(heads, d, mlp, 0.0, 0.0, partial(nn.LayerNorm, eps=1e-6))


AMP = ", amp-bf16"


class LmHeadLoss(nn.Module):
    """A language model's head and loss: Linear(d, vocab, bias=False), then F.cross_entropy over every position against
    int64 labels (made here, as a data loader's would be; nll_loss saves them)."""

    def __init__(self, d, vocab):
        super().__init__()
        self.head = nn.Linear(d, vocab, bias=False)
        self.vocab = vocab

    def forward(self, x):
        labels = torch.randint(self.vocab, x.shape[:2], generator=torch.Generator().manual_seed(0))
        return nn.functional.cross_entropy(self.head(x).flatten(0, 1), labels.flatten())


def cases():
    import torchvision.models as tv
    return {
        # name (the key of the exe's JSON; AMP at its end: under CudaAutocast): (module, input maker)
        "bert-large layer (S 512)": (lambda: bert_layer(1024, 16, 4096), sequence(512, 1024)),
        "bert-base layer (S 512)": (lambda: bert_layer(768, 12, 3072), sequence(512, 768)),
        "gpt2-medium block (S 1024)": (lambda: Decoder(1024, 16, 4096), sequence(1024, 1024)),
        "gpt2 block (S 1024)": (lambda: Decoder(768, 12, 3072), sequence(1024, 768)),
        "llama-3.2-1b layer (S 512)": (lambda: llama_block(2048, 32, 8, 8192), sequence(512, 2048)),
        "resnet50 (224)": (tv.resnet50, lambda b: torch.randn(b, 3, 224, 224)),
        "vit-b-16 patch embedding (224)": (lambda: VitPatchEmbedding(tv.vit_b_16()),
                                           lambda b: torch.randn(b, 3, 224, 224)),
        "vit-b-16 encoder block (S 197)": (lambda: vit_encoder_block(12, 768, 3072), sequence(197, 768)),
        "vit-b-16 (224)": (tv.vit_b_16, lambda b: torch.randn(b, 3, 224, 224)),
        "gpt2 LM head + cross-entropy (S 128)": (lambda: LmHeadLoss(768, 50257), sequence(128, 768)),
        "groupnorm resblock (128 x 32 x 32)": (lambda: torch_exports.GroupNormResBlock(128),
                                               lambda b: torch.randn(b, 128, 32, 32)),
        "upsample + conv (64 x 16 x 16)": (lambda: nn.Sequential(nn.Upsample(scale_factor=2),
                                                                 nn.Conv2d(64, 32, 3, padding=1)),
                                           lambda b: torch.randn(b, 64, 16, 16)),
        "bert-large layer (S 512)" + AMP: (lambda: bert_layer(1024, 16, 4096), sequence(512, 1024)),
        "bert-base layer (S 512)" + AMP: (lambda: bert_layer(768, 12, 3072), sequence(512, 768)),
        "gpt2 block (S 1024)" + AMP: (lambda: Decoder(768, 12, 3072), sequence(1024, 768)),
        "llama-3.2-1b layer (S 512)" + AMP: (lambda: llama_block(2048, 32, 8, 8192), sequence(512, 2048)),
        "vit-b-16 encoder block (S 197)" + AMP: (lambda: vit_encoder_block(12, 768, 3072), sequence(197, 768)),
        "vit-b-16 (224)" + AMP: (tv.vit_b_16, lambda b: torch.randn(b, 3, 224, 224)),
        "resnet50 (224)" + AMP: (tv.resnet50, lambda b: torch.randn(b, 3, 224, 224)),
        "gpt2 LM head + cross-entropy (S 128)" + AMP: (lambda: LmHeadLoss(768, 50257), sequence(128, 768)),
        "groupnorm resblock (128 x 32 x 32)" + AMP: (lambda: torch_exports.GroupNormResBlock(128),
                                                     lambda b: torch.randn(b, 128, 32, 32)),
    }


BEGIN, END = "<!-- BEGIN saved-tensors table -->", "<!-- END saved-tensors table -->"


def table(rows):
    out = ["| network | PyTorch saves (MiB/sample) | prenet (MiB/sample) | prenet − PyTorch |",
           "|---|---:|---:|---:|"]
    for name, torch_b, prenet_b in rows:
        out.append(f"| {name} | {torch_b / 2**20:.3f} | {prenet_b / 2**20:.3f} | "
                   f"{100 * (prenet_b - torch_b) / torch_b:+.2f}% |")
    return "\n".join(out) + "\n"


def recipe():
    """What PyTorch's counts depend on: the libraries' versions and the code that builds and counts the twins."""
    here = os.path.dirname(os.path.abspath(__file__))
    code = hashlib.sha256()
    for path in (os.path.join(here, "saved_tensors.py"), os.path.join(here, "..", "onnx", "torch_exports.py")):
        with open(path, "rb") as f:
            code.update(f.read())
    return {"torch": torch.__version__, "torchvision": torchvision.__version__, "numpy": np.__version__,
            "code_sha256": code.hexdigest()}


def torch_counts(path):
    """{case: PyTorch's per-sample saved bytes}: read from `path` when it holds today's recipe's, else counted (and
    written to `path`, when given). None when the matmul swap would change what is counted."""
    today = recipe()
    if path and os.path.exists(path):
        try:
            with open(path) as f:
                cached = json.load(f)
        except (OSError, ValueError):
            cached = {}
        if isinstance(cached, dict) and cached.get("recipe") == today and set(cached.get("counts", {})) == set(cases()):
            print(f"PyTorch's counts read from {path} (the same torch, torchvision, numpy and scripts)", flush=True)
            return cached["counts"]
        print(f"{path} does not hold this recipe's counts: counting afresh", flush=True)
    problems = swap_changes_nothing_saved()
    if problems:
        print("saved_tensors: NumpyMatmuls changes what autograd saves:\n" + "\n".join(problems), file=sys.stderr)
        return None
    counts = {}
    for name, (make, inp) in cases().items():
        torch.manual_seed(0)
        counts[name] = per_sample(make(), inp, amp=name.endswith(AMP))
    if path:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path + ".tmp", "w") as f:
            json.dump({"recipe": today, "counts": counts}, f, indent=1)
        os.replace(path + ".tmp", path)
    return counts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("exe")
    ap.add_argument("--doc")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--tolerance", type=float, default=3.0)
    ap.add_argument("--torch-counts", help="JSON file to keep PyTorch's counts in, shared by builds of one checkout")
    a = ap.parse_args()
    prenet = json.loads(subprocess.run([a.exe], check=True, capture_output=True, text=True).stdout)
    torch.set_num_threads(2)
    counts = torch_counts(a.torch_counts)
    if counts is None:
        return 1
    rows, worst = [], 0.0
    for name in cases():
        t, p = counts[name], prenet[name]
        err = 100 * (p - t) / t
        worst = max(worst, abs(err))
        rows.append((name, t, p))
        print(f"{name}: PyTorch {t:,} B/sample, prenet {p:,} B/sample ({err:+.2f}%)", flush=True)
    status = 0 if worst <= a.tolerance else 1
    if status:
        print(f"saved_tensors: worst {worst:.2f}% exceeds {a.tolerance}%", file=sys.stderr)
    if a.doc:
        text = open(a.doc).read()
        if BEGIN not in text or END not in text:
            print(f"saved_tensors: markers missing in {a.doc}", file=sys.stderr)
            return 2
        new = text[:text.index(BEGIN) + len(BEGIN)] + "\n" + table(rows) + text[text.index(END):]
        if a.check:
            if new != text:
                print(f"saved_tensors: {a.doc} is not current (run tests/memory/saved_tensors.py ... --doc)",
                      file=sys.stderr)
                status = status or 1
            else:
                print("doc identical")
        else:
            open(a.doc, "w").write(new)
    return status


if __name__ == "__main__":
    sys.exit(main())
