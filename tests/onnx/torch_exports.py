#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Exports real PyTorch models to ONNX for tests/onnx/torch_export_test.cpp, with PyTorch's own counts.

usage: /usr/bin/python3 tests/onnx/torch_exports.py OUT_DIR [NAME ...]
Writes OUT_DIR/NAME.onnx and OUT_DIR/manifest.json: per model its parameters (sum of p.numel()), the forward FLOPs of
its matrix products and convolutions (counted by a TorchDispatchMode over aten mm/bmm/addmm/baddbmm/convolution while
the module runs once on the export's input), the batch and the export options. Exit 3 when torch cannot be imported.
"""
import json
import math
import os
import sys
import time

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from torch.utils._python_dispatch import TorchDispatchMode
except Exception as e:  # noqa: BLE001
    print(f"torch_exports: cannot import torch ({e})", file=sys.stderr)
    sys.exit(3)

aten = torch.ops.aten


class FlopCounter(TorchDispatchMode):
    """2 x multiply-adds of every matrix product and convolution."""

    def __init__(self):
        super().__init__()
        self.flops = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        p = func.overloadpacket
        if p in (aten.mm, aten.addmm):
            a, b = (args[1], args[2]) if p is aten.addmm else (args[0], args[1])
            self.flops += 2 * a.shape[0] * a.shape[1] * b.shape[1]
        elif p in (aten.bmm, aten.baddbmm):
            a, b = (args[1], args[2]) if p is aten.baddbmm else (args[0], args[1])
            self.flops += 2 * a.shape[0] * a.shape[1] * a.shape[2] * b.shape[2]
        elif p is aten.convolution:
            # A transposed convolution's weight is (in, out / groups, k...): each input element meets out / groups x k
            # of it (counting per output element, as for a convolution, overcounted a stride-2 2x2 ConvTranspose2d
            # from 2C to C channels twice over).
            w, transposed = args[1], args[6]
            self.flops += 2 * (args[0].numel() if transposed else out.numel()) * w.shape[1] * math.prod(w.shape[2:])
        return out


# --- decoders in plain torch ---------------------------------------------------------------------------------------
def new_gelu(x):
    """Hugging Face's NewGELUActivation (GPT-2's gelu_new), op by op: prenet's NewGELU."""
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


class GPT2Block(nn.Module):
    def __init__(self, d, heads, dropout=None):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.fc, self.out = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)
        self.heads = heads
        # Hugging Face's GPT-2 (and prenet's DSL twin): dropout on the attention probabilities (attn_pdrop), the
        # attention output and the MLP's output; none after its activation (GPT2MLP: c_fc, act, c_proj, dropout).
        self.drop = nn.Dropout(dropout) if dropout is not None else nn.Identity()

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q, k, v = (t.view(b, s, self.heads, d // self.heads).transpose(1, 2) for t in (q, k, v))
        att = (q @ k.transpose(-2, -1)) / math.sqrt(d // self.heads)
        mask = torch.ones(s, s, dtype=torch.bool).triu(1)
        att = self.drop(att.masked_fill(mask, float("-inf")).softmax(-1))
        x = x + self.drop(self.proj((att @ v).transpose(1, 2).reshape(b, s, d)))
        return x + self.drop(self.out(new_gelu(self.fc(self.ln2(x)))))


class GPT2(nn.Module):
    def __init__(self, vocab=1000, d=128, heads=4, layers=2, seq=64, dropout=None):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, d), nn.Embedding(seq, d)
        self.drop = nn.Dropout(dropout) if dropout is not None else nn.Identity()
        self.blocks = nn.ModuleList(GPT2Block(d, heads, dropout) for _ in range(layers))
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        self.head.weight = self.wte.weight  # tied

    def forward(self, idx):
        x = self.drop(self.wte(idx) + self.wpe(torch.arange(idx.shape[1])))
        for b in self.blocks:
            x = b(x)
        return self.head(self.ln(x))


class RMSNorm(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.weight


def rotate(x, cos, sin):
    x1, x2 = x.chunk(2, dim=-1)
    return x * cos + torch.cat((-x2, x1), dim=-1) * sin


def repeat_kv(x, n):
    """Hugging Face's repeat_kv: each of x's (b, kv, s, d) heads n times in place, as repeat_interleave(n, dim=1)."""
    b, kv, s, d = x.shape
    return x[:, :, None].expand(b, kv, n, s, d).reshape(b, kv * n, s, d)


class LlamaBlock(nn.Module):
    def __init__(self, d, heads, kv_heads, hidden, repeat="interleave"):
        super().__init__()
        self.h, self.kv, self.hd, self.repeat = heads, kv_heads, d // heads, repeat
        self.n1, self.n2 = RMSNorm(d), RMSNorm(d)
        self.q = nn.Linear(d, d, bias=False)
        self.k = nn.Linear(d, kv_heads * self.hd, bias=False)
        self.v = nn.Linear(d, kv_heads * self.hd, bias=False)
        self.o = nn.Linear(d, d, bias=False)
        self.gate, self.up = nn.Linear(d, hidden, bias=False), nn.Linear(d, hidden, bias=False)
        self.down = nn.Linear(hidden, d, bias=False)

    def forward(self, x, cos, sin):
        b, s, d = x.shape
        h = self.n1(x)
        q = self.q(h).view(b, s, self.h, self.hd).transpose(1, 2)
        k = self.k(h).view(b, s, self.kv, self.hd).transpose(1, 2)
        v = self.v(h).view(b, s, self.kv, self.hd).transpose(1, 2)
        q, k = rotate(q, cos, sin), rotate(k, cos, sin)
        rep = self.h // self.kv
        if rep > 1 and self.repeat == "interleave":
            k, v = k.repeat_interleave(rep, dim=1), v.repeat_interleave(rep, dim=1)
        elif rep > 1:
            k, v = repeat_kv(k, rep), repeat_kv(v, rep)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(self.hd)
        att = att.masked_fill(torch.ones(s, s, dtype=torch.bool).triu(1), float("-inf")).softmax(-1)
        x = x + self.o((att @ v).transpose(1, 2).reshape(b, s, d))
        h = self.n2(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


class Llama(nn.Module):
    def __init__(self, vocab=1000, d=128, heads=4, kv_heads=2, hidden=344, layers=2, repeat="interleave"):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList(LlamaBlock(d, heads, kv_heads, hidden, repeat) for _ in range(layers))
        self.norm = RMSNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        self.hd = d // heads

    def forward(self, idx):
        s = idx.shape[1]
        inv = 1.0 / (10000 ** (torch.arange(0, self.hd, 2).float() / self.hd))
        ang = torch.outer(torch.arange(s).float(), inv)
        ang = torch.cat((ang, ang), dim=-1)
        cos, sin = ang.cos(), ang.sin()
        x = self.emb(idx)
        for b in self.blocks:
            x = b(x, cos, sin)
        return self.head(self.norm(x))


class UNet(nn.Module):
    """A small UNet: double 3x3 convolutions with BatchNorm, max-pool down, ConvTranspose2d up, Concat skips."""

    def __init__(self, ch=(16, 32, 64)):
        super().__init__()

        def double(i, o):
            return nn.Sequential(nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True),
                                 nn.Conv2d(o, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))
        self.downs = nn.ModuleList(double(i, o) for i, o in zip((3,) + ch[:-1], ch))
        self.ups = nn.ModuleList(nn.ConvTranspose2d(ch[i + 1], ch[i], 2, stride=2)
                                 for i in reversed(range(len(ch) - 1)))
        self.up_convs = nn.ModuleList(double(2 * ch[i], ch[i]) for i in reversed(range(len(ch) - 1)))
        self.out = nn.Conv2d(ch[0], 2, 1)

    def forward(self, x):
        skips = []
        for i, d in enumerate(self.downs):
            x = d(F.max_pool2d(x, 2) if i else x)
            skips.append(x)
        skips.pop()
        for up, conv in zip(self.ups, self.up_convs):
            x = conv(torch.cat([skips.pop(), up(x)], dim=1))
        return self.out(x)


class Decoder(nn.Module):
    """nn.TransformerDecoder with a causal mask; the memory is a second input (its K and V projections feed the
    cross-attention)."""

    def __init__(self, d=256, heads=4, layers=2):
        super().__init__()
        self.dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(d, heads, 4 * d, batch_first=True), layers)

    def forward(self, tgt, memory):
        n = tgt.shape[1]
        return self.dec(tgt, memory, tgt_mask=torch.triu(torch.full((n, n), float("-inf")), 1))


class T5Attention(nn.Module):
    """T5's attention: no biases, no scaling, a relative position bias gathered from a (buckets, heads) table."""

    def __init__(self, d, heads, relative_bias):
        super().__init__()
        self.h = heads
        self.q, self.k, self.v, self.o = (nn.Linear(d, d, bias=False) for _ in range(4))
        self.rel = nn.Embedding(32, heads) if relative_bias else None

    def forward(self, x, kv=None, bias=None):
        b, n, d = x.shape
        kv = x if kv is None else kv
        m = kv.shape[1]
        q, k, v = (t.view(b, -1, self.h, d // self.h).transpose(1, 2) for t in (self.q(x), self.k(kv), self.v(kv)))
        if self.rel is not None:  # a simplified bucketing: relative distance clamped to +-15
            rel = (torch.arange(m)[None, :] - torch.arange(n)[:, None]).clamp(-15, 15) + 16
            bias = self.rel(rel).permute(2, 0, 1).unsqueeze(0)
        scores = q @ k.transpose(2, 3) + (bias if bias is not None else 0)
        return self.o((scores.softmax(-1) @ v).transpose(1, 2).reshape(b, n, d)), bias


class T5Style(nn.Module):
    """A T5-style encoder-decoder over (source, target) tokens: RMSNorm-like T5LayerNorm, relative position bias in each
    stack's first layer (reused by the next), cross-attention, ReLU feed-forward, a shared token embedding."""

    def __init__(self, vocab=1000, d=128, heads=4, ff=512, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        norm = lambda: RMSNorm(d)  # noqa: E731
        ffn = lambda: nn.Sequential(nn.Linear(d, ff, bias=False), nn.ReLU(), nn.Linear(ff, d, bias=False))  # noqa: E731
        self.enc = nn.ModuleList(nn.ModuleDict({"n1": norm(), "att": T5Attention(d, heads, i == 0), "n2": norm(),
                                                "ff": ffn()}) for i in range(layers))
        self.dec = nn.ModuleList(nn.ModuleDict({"n1": norm(), "att": T5Attention(d, heads, i == 0), "n2": norm(),
                                                "cross": T5Attention(d, heads, False), "n3": norm(), "ff": ffn()})
                                 for i in range(layers))
        self.enc_norm, self.dec_norm = norm(), norm()
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, src, tgt):
        x, bias = self.emb(src), None
        for layer in self.enc:
            a, bias = layer["att"](layer["n1"](x), bias=bias)
            x = x + a
            x = x + layer["ff"](layer["n2"](x))
        memory, y, bias = self.enc_norm(x), self.emb(tgt), None
        for layer in self.dec:
            a, bias = layer["att"](layer["n1"](y), bias=bias)
            y = y + a
            y = y + layer["cross"](layer["n2"](y), kv=memory)[0]
            y = y + layer["ff"](layer["n3"](y))
        return self.head(self.dec_norm(y))


class MoE(nn.Module):
    """A mixture of experts written with torch.einsum: top-2 routing, each token's expert weights gathered."""

    def __init__(self, vocab=1000, d=128, experts=4, ff=256):
        super().__init__()
        self.emb, self.gate = nn.Embedding(vocab, d), nn.Linear(d, experts, bias=False)
        self.w1 = nn.Parameter(torch.randn(experts, d, ff) * 0.02)
        self.w2 = nn.Parameter(torch.randn(experts, ff, d) * 0.02)
        self.head = nn.Linear(d, vocab)

    def forward(self, idx):
        x = self.emb(idx)
        weight, chosen = self.gate(x).topk(2, dim=-1)
        h = F.gelu(torch.einsum("bnd,bnkdf->bnkf", x, self.w1[chosen]))
        y = torch.einsum("bnkf,bnkfd->bnkd", h, self.w2[chosen])
        return self.head(x + (y * weight.softmax(-1).unsqueeze(-1)).sum(2))


class TimmBlock(nn.Module):
    """timm's ViT block: packed qkv cut by reshape-permute-unbind, attention written out, GELU MLP."""

    def __init__(self, d=256, heads=8):
        super().__init__()
        self.h = heads
        self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = self.qkv(self.n1(x)).reshape(b, n, 3, self.h, d // self.h).permute(2, 0, 3, 1, 4).unbind(0)
        att = (q @ k.transpose(-2, -1) * (d // self.h) ** -0.5).softmax(-1)
        x = x + self.proj((att @ v).transpose(1, 2).reshape(b, n, d))
        return x + self.mlp(self.n2(x))


class LstmLm(nn.Module):
    def __init__(self, vocab=1000, d=128, hidden=256):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.lstm = nn.LSTM(d, hidden, num_layers=2, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, idx):
        return self.head(self.lstm(self.emb(idx))[0])


# Exports that need more than the default (eval mode, export_params=False):
# - gpt2_style ties its head to the token embedding; torch.onnx writes the head's weight as a transposed copy of the
#   table, which only the values tell apart from an untied head: exported with its parameters.
# - vgg19_bn's convolutions have a bias before each BatchNorm; an eval-mode export folds BatchNorm into the bias, and
#   the file no longer says whether the convolution had one: exported in training mode, which keeps BatchNorm.
# - swin_t adds to each window's scores a bias gathered from a trainable (169, heads) table by a constant index; constant
#   folding evaluates the gather into a (heads, 49, 49) tensor the size of the scores, which no longer says how large the
#   table is (nor that it is a parameter rather than a mask): exported without constant folding, which keeps the table.
#   maxvit_t's block and grid attention hold the same kind of table, and are exported the same way. (Folded, prenet
#   notes such per-head constants added to the scores: tests/onnx/onnx_parameter_test.cpp.)
# - speech_conv1d's weight_norm: constant folding evaluates the weight from weight_g and weight_v into one tensor (one
#   parameter per kernel tap short of PyTorch's, weight_g); without it the graph computes the weight, as training does.
# - the DSL twins (twin_*: the architecture and input of `prenet predict --model NAME`, see DSL_TWINS in
#   check_torch_exports.py) are exported in training mode, which keeps their Dropout layers as the DSL has them;
#   twin_gpt2 without constant folding, so that its tied head reads the token table (export_params=False).
EXPORT_OPTIONS = {"gpt2_style": {"export_params": True}, "vgg19_bn": {"training": True},
                  "swin_t": {"constant_folding": False}, "maxvit_t": {"constant_folding": False},
                  "speech_conv1d": {"constant_folding": False},
                  # Learned queries passed as graph inputs are taken for data (docs/onnx.md, "Limits").
                  "detr_object_queries": {"dynamic_batch": True, "export_params": True},
                  "siglip_attention_pool": {"export_params": True},
                  "twin_vgg16": {"training": True},
                  "twin_resnet50": {"training": True}, "twin_gpt2": {"training": True, "constant_folding": False},
                  "twin_vit_b_16": {"training": True}}


class NeoXBlock(nn.Module):
    """GPT-NeoX's (Pythia's) parallel block in plain torch: x + attention(ln1(x)) + mlp(ln2(x)), its packed projection
    viewed as (B, S, heads, 3 x head) and chunked on the last axis (Q, K and V interleaved by head)."""

    def __init__(self, d=256, heads=4):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.dense = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.up, self.down = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, s, self.heads, 3 * d // self.heads).permute(0, 2, 1, 3).chunk(3, -1)
        a = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(d // self.heads), -1) @ v
        return x + self.dense(a.transpose(1, 2).reshape(b, s, d)) + self.down(F.gelu(self.up(self.ln2(x))))


class MqaBlock(nn.Module):
    """Falcon-style multi-query attention in plain torch: one K/V head (a packed Linear(d, 2 x head)) broadcast to every
    query head by expand, beside the feed-forward (a parallel block)."""

    def __init__(self, d=256, heads=8):
        super().__init__()
        self.h, self.hd = heads, d // heads
        self.q, self.kv, self.o = nn.Linear(d, d), nn.Linear(d, 2 * self.hd), nn.Linear(d, d)
        self.ln = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        b, s, d = x.shape
        y = self.ln(x)
        q = self.q(y).view(b, s, self.h, self.hd).transpose(1, 2)
        k, v = self.kv(y).view(b, s, 1, 2 * self.hd).transpose(1, 2).split(self.hd, -1)
        k, v = k.expand(b, self.h, s, self.hd), v.expand(b, self.h, s, self.hd)
        a = ((q @ k.transpose(-1, -2)) / math.sqrt(self.hd)).softmax(-1) @ v
        return x + self.o(a.transpose(1, 2).reshape(b, s, d)) + self.ff(y)


class Albert(nn.Module):
    """ALBERT's cross-layer sharing: a factorised embedding, then one encoder layer applied four times (constant folding
    transposes its weights once per application, and torch.onnx writes the copies as Identities of the first)."""

    def __init__(self, vocab=1000, e=64, d=128):
        super().__init__()
        self.emb, self.proj = nn.Embedding(vocab, e), nn.Linear(e, d)
        self.layer = nn.TransformerEncoderLayer(d, 4, 256, batch_first=True)

    def forward(self, idx):
        x = self.proj(self.emb(idx))
        for _ in range(4):
            x = self.layer(x)
        return x


class SpeechConv(nn.Module):
    """1-D convolutions over 80 mel features as speech models run them: QuartzNet-style depthwise-separable Conv1d +
    BatchNorm1d + ReLU blocks (an eval-mode export folds each BatchNorm into its Conv's bias), then wav2vec 2.0's
    positional convolution, grouped, under weight_norm over the kernel axis (without constant folding the weight is
    computed from weight_g and weight_v in the graph), added back, LayerNorm and a Linear head over the frames."""

    def __init__(self, mels=80, d=128, blocks=3):
        super().__init__()
        self.pre = nn.Sequential(nn.Conv1d(mels, d, 11, stride=2, padding=5, bias=False), nn.BatchNorm1d(d), nn.ReLU())
        self.blocks = nn.Sequential(*[nn.Sequential(nn.Conv1d(d, d, 13, padding=6, groups=d, bias=False),
                                                    nn.Conv1d(d, d, 1, bias=False), nn.BatchNorm1d(d), nn.ReLU())
                                      for _ in range(blocks)])
        self.pos = nn.utils.weight_norm(nn.Conv1d(d, d, 31, padding=15, groups=16), name="weight", dim=2)
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, 29)

    def forward(self, x):  # (batch, mels, frames)
        h = self.blocks(self.pre(x))
        h = h + F.gelu(self.pos(h))
        return self.head(self.norm(h.transpose(1, 2)))


class GroupNormResBlock(nn.Module):
    """A diffusion UNet's residual block: GroupNorm(32), SiLU and a 3x3 convolution, twice, and the skip."""

    def __init__(self, ch):
        super().__init__()
        self.body = nn.Sequential(nn.GroupNorm(32, ch), nn.SiLU(), nn.Conv2d(ch, ch, 3, padding=1),
                                  nn.GroupNorm(32, ch), nn.SiLU(), nn.Conv2d(ch, ch, 3, padding=1))

    def forward(self, x):
        return x + self.body(x)


class DiffusionBlocks(nn.Module):
    """A diffusion UNet's level: a 3x3 stem, two GroupNorm residual blocks, a nearest 2x upsampling and its 3x3,
    GroupNorm, SiLU and the output 3x3 after a bilinear 2x upsampling; an InstanceNorm2d (style transfer's, affine)
    before the stem."""

    def __init__(self, ch=64):
        super().__init__()
        self.norm_in = nn.InstanceNorm2d(3, affine=True)
        self.conv_in = nn.Conv2d(3, ch, 3, padding=1)
        self.blocks = nn.Sequential(GroupNormResBlock(ch), GroupNormResBlock(ch))
        self.up = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(ch, ch, 3, padding=1))
        self.out = nn.Sequential(nn.GroupNorm(32, ch), nn.SiLU(), nn.Upsample(scale_factor=2, mode="bilinear"),
                                 nn.Conv2d(ch, 3, 3, padding=1))

    def forward(self, x):
        return self.out(self.up(self.blocks(self.conv_in(self.norm_in(x)))))


class DetrDecoderLayer(nn.Module):
    """DETR's decoder layer, seq-first: the query positions added to Q and K of both attentions, post-norm."""

    def __init__(self, d=256, heads=8, ff=1024):
        super().__init__()
        self.self_attn, self.cross_attn = nn.MultiheadAttention(d, heads), nn.MultiheadAttention(d, heads)
        self.ff = nn.Sequential(nn.Linear(d, ff), nn.ReLU(), nn.Linear(ff, d))
        self.n1, self.n2, self.n3 = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)

    def forward(self, tgt, memory, pos, query_pos):
        q = k = tgt + query_pos
        tgt = self.n1(tgt + self.self_attn(q, k, tgt, need_weights=False)[0])
        tgt = self.n2(tgt + self.cross_attn(tgt + query_pos, memory + pos, memory, need_weights=False)[0])
        return self.n3(tgt + self.ff(tgt))


class Detr(nn.Module):
    """DETR's transformer over a backbone's (B, S, C) features: input projection, encoder, and a decoder whose object
    queries are an nn.Embedding repeated to the batch (`unsqueeze(1).repeat(1, B, 1)`), its first target
    zeros_like of them; class and box heads."""

    def __init__(self, channels=512, d=256, seq=64, queries=100, layers=2, classes=92):
        super().__init__()
        self.input_proj = nn.Linear(channels, d)
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, 8, 4 * d), layers)
        self.pos = nn.Parameter(torch.randn(seq, 1, d))
        self.query_embed = nn.Embedding(queries, d)
        self.dec = nn.ModuleList(DetrDecoderLayer(d) for _ in range(layers))
        self.cls, self.box = nn.Linear(d, classes), nn.Linear(d, 4)

    def forward(self, x):
        memory = self.enc(self.input_proj(x).transpose(0, 1) + self.pos)
        query_pos = self.query_embed.weight.unsqueeze(1).repeat(1, x.shape[0], 1)
        tgt = torch.zeros_like(query_pos)
        for layer in self.dec:
            tgt = layer(tgt, memory, self.pos, query_pos)
        h = tgt.transpose(0, 1)
        return self.cls(h) + self.box(h).sum(-1, keepdim=True)


class AttentionPoolHead(nn.Module):
    """SigLIP's multihead attention pooling over a transformer encoder: a learned probe expanded to the batch attends
    over the tokens, then LayerNorm + MLP on it, and a classifier."""

    def __init__(self, d=256, heads=8, classes=10):
        super().__init__()
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, heads, 4 * d, batch_first=True), 2)
        self.probe = nn.Parameter(torch.randn(1, 1, d))
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.norm = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.fc = nn.Linear(d, classes)

    def forward(self, x):
        x = self.enc(x)
        x = self.attn(self.probe.expand(x.shape[0], -1, -1), x, x, need_weights=False)[0]
        x = x + self.mlp(self.norm(x))
        return self.fc(x[:, 0])


def tokens(batch, seq):
    return torch.randint(0, 1000, (batch, seq))


def models():
    """name -> (constructor, input). Small inputs where the model allows; 224 where torchvision fixes it."""
    import torchvision.models as tv
    img = lambda n: torch.randn(2, 3, n, n)  # noqa: E731
    m = {
        "transformer_encoder": (lambda: nn.TransformerEncoder(
            nn.TransformerEncoderLayer(512, 8, 2048, batch_first=True), 6), torch.randn(2, 64, 512)),
        "transformer_encoder_seq_first": (lambda: nn.TransformerEncoder(
            nn.TransformerEncoderLayer(256, 4, 1024), 2), torch.randn(32, 2, 256)),
        "gpt2_style": (GPT2, tokens(2, 64)),
        "llama_style": (Llama, tokens(2, 64)),
        "llama_repeat_kv_style": (lambda: Llama(repeat="expand"), tokens(2, 64)),
        "llama_mha_style": (lambda: Llama(kv_heads=4), tokens(2, 64)),
        "lstm_lm": (LstmLm, tokens(2, 32)),
        "vit_b_16": (lambda: tv.vit_b_16(image_size=64), img(64)),
        "swin_t": (tv.swin_t, img(64)),
        "convnext_tiny": (tv.convnext_tiny, img(64)),
        "maxvit_t": (tv.maxvit_t, img(224)),  # its partitions need 224 (7 x 7 windows and grids of a 7 x 7 map)
        "inception_v3": (lambda: tv.inception_v3(aux_logits=False, init_weights=False), img(299)),
        "vgg19_bn": (tv.vgg19_bn, img(224)),
        "unet": (UNet, img(64)),
        "transformer_decoder": (Decoder, (torch.randn(2, 32, 256), torch.randn(2, 48, 256))),
        "t5_style": (T5Style, (tokens(2, 32), tokens(2, 16))),
        "moe_einsum": (MoE, tokens(2, 32)),
        "timm_vit_blocks": (lambda: nn.Sequential(TimmBlock(), TimmBlock()), torch.randn(2, 64, 256)),
        "speech_conv1d": (SpeechConv, torch.randn(2, 80, 128)),
        "gpt_neox_blocks": (lambda: nn.Sequential(NeoXBlock(), NeoXBlock()), torch.randn(2, 64, 256)),
        "albert_shared_layer": (Albert, tokens(2, 32)),
        "falcon_mqa_blocks": (lambda: nn.Sequential(MqaBlock(), MqaBlock()), torch.randn(2, 64, 256)),
        "diffusion_groupnorm_blocks": (DiffusionBlocks, img(32)),
        "detr_object_queries": (Detr, torch.randn(2, 64, 512)),
        "siglip_attention_pool": (AttentionPoolHead, torch.randn(2, 64, 256)),
    }
    # DSL twins: models::vgg16 and models::resnet50 at 224 x 224, models::gpt2 (GPT-2 small) over 128 tokens.
    m["twin_vgg16"] = (tv.vgg16, img(224))
    m["twin_resnet50"] = (tv.resnet50, img(224))
    m["twin_gpt2"] = (lambda: GPT2(vocab=50257, d=768, heads=12, layers=12, seq=1024, dropout=0.1), tokens(2, 128))
    m["twin_vit_b_16"] = (tv.vit_b_16, img(224))
    for name in ["resnet18", "resnet50", "resnext50_32x4d", "wide_resnet50_2", "densenet121", "googlenet",
                 "mobilenet_v2", "mobilenet_v3_large", "efficientnet_b0", "regnet_y_400mf", "shufflenet_v2_x1_0",
                 "squeezenet1_1", "mnasnet1_0", "alexnet", "vgg11"]:
        kw = {"aux_logits": False, "init_weights": False} if name == "googlenet" else {}
        m[name] = (lambda n=name, kw=kw: getattr(tv, n)(**kw), img(224 if name in ("alexnet", "vgg11") else 64))
    return m


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    table = models()
    names = sys.argv[2:] or list(table)
    manifest = {}
    torch.manual_seed(0)
    for name in names:
        make, x = table[name]
        xs = x if isinstance(x, tuple) else (x,)  # several data inputs: the first is the stream prenet follows
        mod = make().eval()
        params = sum(p.numel() for p in mod.parameters())
        counter = FlopCounter()
        with counter:
            mod(*xs)
        options = EXPORT_OPTIONS.get(name, {})
        start = time.monotonic()
        try:
            if options.get("training"):
                mod.train()
            torch.onnx.export(mod, xs, os.path.join(out, name + ".onnx"),
                              export_params=options.get("export_params", False), opset_version=14,
                              do_constant_folding=options.get("constant_folding", True),
                              training=torch.onnx.TrainingMode.TRAINING if options.get("training")
                              else torch.onnx.TrainingMode.EVAL,
                              input_names=["input"] + [f"input{i}" for i in range(1, len(xs))],
                              output_names=["output"],
                              dynamic_axes={"input": {0: "batch"}} if options.get("dynamic_batch") else None)
        except Exception as e:  # noqa: BLE001 - recorded: the test reports the model as not exportable
            manifest[name] = {"error": str(e).splitlines()[0][:200]}
            print(f"{name}: export failed: {manifest[name]['error']}", file=sys.stderr)
            continue
        manifest[name] = {"params": params, "matmul_flops": counter.flops, "batch": xs[0].shape[1] if
                          name == "transformer_encoder_seq_first" else xs[0].shape[0],
                          "export_s": round(time.monotonic() - start, 2), "options": options}
        print(f"{name}: {params:,} parameters, {counter.flops:,} FLOPs", flush=True)
        with open(os.path.join(out, "manifest.json"), "w") as f:
            json.dump(manifest, f, indent=1)


if __name__ == "__main__":
    main()
