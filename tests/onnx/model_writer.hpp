// SPDX-License-Identifier: MIT
// Writes ONNX models the way torch.onnx.export lays them out (VGG16, ResNet-50, a BERT encoder, an LSTM), for tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace prenet::onnx_test {

/// How small constants (scales, epsilons, shapes) are written: Constant nodes holding a `value` tensor (torch.onnx's
/// TorchScript exporter), Constant nodes with `value_float`, `value_int` or `value_ints` (onnxscript, and so PyTorch's
/// dynamo exporter), or initializers named as an exporter names values ("val_3"), not "onnx::Op_N".
enum class constant_form { value_tensor, value_attribute, named_initializer };

/// How a model is written. Weights are initializers with dims but no data (raw_data empty), so that files stay a
/// few kB: shapes, parameters and FLOPs depend on dims only. `weights_as_inputs` writes them as graph inputs
/// instead, as export_params=False does.
struct write_options {
  std::int64_t batch = 0;          ///< 0: a symbolic "batch_size" dimension, as with dynamic_axes
  bool weights_as_inputs = false;
  bool dropout = true;             ///< training-mode export: Dropout nodes stay in the graph
  /// Negative: Dropout nodes read the data only (ONNX's default ratio, 0.5). Else each is written as torch.onnx 1.13
  /// writes a training-mode nn.Dropout(p) at opset >= 12: a constant ratio p, training_mode true, output and mask.
  float dropout_ratio = -1.0F;
  constant_form constants = constant_form::value_tensor;
};

/// torchvision.models.vgg16() at 224x224, exported in training mode.
[[nodiscard]] std::string vgg16_onnx(const write_options& o = {});
/// torchvision.models.resnet50() at 224x224, exported in training mode (BatchNormalization kept).
[[nodiscard]] std::string resnet50_onnx(const write_options& o = {});
/// A Hugging Face BertModel (pooler included) as PyTorch 1.13 exports it at opset 13: decomposed LayerNorm and GELU,
/// attention as MatMul-Div-Add(mask)-Softmax-MatMul with reshapes computed from Shape, a symbolic "sequence"
/// dimension, and an attention_mask input.
[[nodiscard]] std::string bert_onnx(std::int64_t hidden, std::int64_t layers, std::int64_t heads,
                                    const write_options& o = {});
/// A 2-layer LSTM(128 -> 256, batch_first) over 35 steps, the last step's output into Linear(256, 10).
[[nodiscard]] std::string lstm_onnx(const write_options& o = {});
/// Conv(16 -> 32, 3x3) over (16, 8, 8); nn.GroupNorm(4, 32) as torch.onnx writes it before opset 18 (Reshape to 4
/// groups, InstanceNormalization with a constant unit scale, Reshape back, Mul by the (32, 1, 1) weight, Add the
/// bias); SiLU; nn.InstanceNorm2d(32, affine=True); nn.InstanceNorm2d(32); Relu. PyTorch's parameters:
/// 32 x 16 x 9 + 32 + 64 + 64 = 4,768.
[[nodiscard]] std::string groupnorm_onnx(const write_options& o = {});
/// ONNX's GroupNormalization (8 groups) over (32, 8, 8), then Relu: at opset 21 with a scale and bias per channel
/// (`per_channel`, nn.GroupNorm's 64 parameters), else at opset 18 with one per group (16).
[[nodiscard]] std::string groupnorm_operator_onnx(bool per_channel, const write_options& o = {});
/// Resize as torch.onnx writes nn.Upsample at opset 14, over (8, 8, 8): nearest by `scales` [1, 1, 2, 2], a 3x3 Conv(8
/// -> 8), linear (bilinear) to `sizes` twice the image, then three Resizes prenet has no layer for: cubic, 2 x 1
/// and a downsampling by 2. 584 parameters.
[[nodiscard]] std::string resize_onnx(const write_options& o = {});
/// A small CNN with operators prenet has no layer for: LeakyRelu and a custom-domain op.
[[nodiscard]] std::string custom_ops_onnx(const write_options& o = {});
/// x -> Relu: a graph without parameters (and without a layer that computes much), which still takes time and memory.
[[nodiscard]] std::string parameter_free_onnx(const write_options& o = {});

/// A language model whose output head is tied to its token embedding (GPT-2's layout), over 16 tokens: Gather of the
/// table `wte` [1000, 64] by token ids, a Linear(64, 64) and a Relu, then the head reading the same table: MatMul by
/// Transpose(wte), as torch.onnx writes it without constant folding, or Gemm(transB = 1) of the table (`gemm_head`).
/// PyTorch counts the table once: 1000 x 64 + 64 x 64 + 64 = 68,160 parameters.
[[nodiscard]] std::string tied_lm_onnx(bool gemm_head, const write_options& o = {});
/// Weights read twice: a Conv(8 -> 8, 3x3, bias) applied twice with the same weights on a (8, 16, 16) input, then
/// global pooling and BatchNorm1d(8) on the pooled (8) features (running statistics kept: a training-mode export).
/// PyTorch's parameters: 8 x 8 x 9 + 8 + 2 x 8 = 600.
[[nodiscard]] std::string shared_weights_onnx(const write_options& o = {});
/// Two data inputs, each through its own Linear(32, 16) to its own graph output: the second branch's weights are on a
/// path from an input to an output that prenet does not predict (the parameter invariant must refuse the file).
[[nodiscard]] std::string side_branch_onnx(const write_options& o = {});
/// LayerNormalization(64) with a scale and no bias (torch's LayerNorm(bias=False)): 64 parameters, where prenet's
/// affine layernorm holds 128.
[[nodiscard]] std::string layernorm_scale_only_onnx(const write_options& o = {});
/// The same as PyTorch <= 1.13 decomposes it (ReduceMean ... Div, Mul by the scale, no Add), then Linear(64, 64):
/// 64 + 4,160 parameters.
[[nodiscard]] std::string layernorm_scale_only_decomposed_onnx(const write_options& o = {});
/// A decomposed LayerNorm whose scale (64) is followed by the Add of a scalar constant: prenet's affine layernorm
/// would count 128 parameters where the file holds 64 (the parameter invariant must refuse it).
[[nodiscard]] std::string layernorm_scalar_shift_onnx(const write_options& o = {});
/// Grouped-query attention over 8 tokens of width 32 (4 query heads, 2 K/V heads of 8, no biases; the batch must be
/// fixed), K repeated for the queries by `repeat_interleave(2, dim=1)` as torch.onnx 1.13 writes it, and the file's
/// producer "pytorch" where `pytorch` (else the writer's). Matrix products per sample: 2 x 8 x 32 x (32 + 16 + 32)
/// for the projections and 2 x 2 x 4 x 8 x 8 x 8 for attention: 49,152 FLOPs.
[[nodiscard]] std::string repeat_interleave_onnx(bool pytorch, const write_options& o);
/// How packed_attention_onnx cuts its packed projection: one Split (GPT-2-style `qkv(x).split(64, dim=2)`), three
/// Slices of the last axis (nn.MultiheadAttention's `in_proj(x).chunk(3, -1)` as torch.onnx writes it), or heads
/// first, then a Split of the leading axis (timm's `qkv(x).reshape(B, N, 3, H, D).permute(2, 0, 3, 1, 4).unbind(0)`:
/// Reshape, Transpose, Split on axis 0, a Squeeze per part), or heads first, then three Slices of each head's last
/// axis (GPT-NeoX's `qkv(x).view(B, S, H, 3 D).permute(0, 2, 1, 3).chunk(3, -1)`: Q, K and V interleaved by head).
enum class packed_cut { split, slices, heads_first, heads_then_last_axis };
/// Self-attention over 16 tokens of width 64 with 4 heads whose Q, K and V come from one packed Linear(64, 192) cut
/// into three, then the output Linear(64, 64): 16,640 parameters.
[[nodiscard]] std::string packed_attention_onnx(const write_options& o = {}, packed_cut cut = packed_cut::split);
/// Linear(64, 64), then a rotary position embedding over 16 tokens: Cos and Sin of positions x an `inv_freq` buffer
/// (32), as a registered buffer is written with export_params=True; then Linear(64, 64). PyTorch's parameters: 8,320.
[[nodiscard]] std::string rotary_buffer_onnx(const write_options& o = {});

/// RMSNorm(64) over 16 tokens as PyTorch <= 1.13 writes Hugging Face's LlamaRMSNorm (Pow, ReduceMean, Add eps, Sqrt,
/// Div(1, .), Mul by x, Mul by the weight; `hf_casts`: with the float32 upcast and the cast back around it), then
/// Linear(64, 128) and F.silu (x * Sigmoid(x)): 64 + 8,320 = 8,384 parameters.
/// `mean_axis`: the axis ReduceMean reduces (1: over the positions, which is no RMSNorm).
[[nodiscard]] std::string rmsnorm_silu_onnx(const write_options& o = {}, bool hf_casts = false,
                                            std::int64_t mean_axis = -1);

/// How tanh_gelu_mlp_onnx writes GELU's tanh form: Hugging Face's gelu_new (`Pow(x, 3)`) with 0.5 * x first, as
/// Hugging Face writes it, or last (x * (1 + tanh(...)) * 0.5); or as torch.onnx exports F.gelu(approximate="tanh")
/// (x * (x * x), 0.5 last).
enum class tanh_gelu_style { gelu_new, gelu_new_half_last, torch_approximate };

/// GPT-2's feed-forward over 16 tokens of width 64: Linear(64, 256), GELU's tanh form as its ops, Linear(256, 64):
/// 33,088 parameters.
[[nodiscard]] std::string tanh_gelu_mlp_onnx(const write_options& o = {},
                                             tanh_gelu_style style = tanh_gelu_style::gelu_new);

/// LLaMA's gated feed-forward over 16 tokens of width 64: down(silu(gate(x)) * up(x)), gate and up Linear(64, 172),
/// down Linear(172, 64), all with biases or none: 33,024 parameters without, 33,432 with.
[[nodiscard]] std::string gated_mlp_onnx(const write_options& o = {}, bool bias = false);

/// How rotary_attention_onnx's K and V get as many heads as Q: `none`, 4 K/V heads (multi-head attention); else 2, each
/// repeated twice in place (grouped-query attention) by Hugging Face's repeat_kv (Unsqueeze(2) -> Expand -> Reshape)
/// or by repeat_interleave(2, dim=1) as torch.onnx writes it (Split into heads, repeat_kv of each, Concat); or, not
/// grouped-query attention, the 2 heads twice over: `heads_twice` (Unsqueeze(1) -> Expand -> Reshape), `tile` (Tile);
/// or one K/V head of 16 broadcast to the 4 query heads by an Expand (multi-query attention, as Falcon writes it):
/// `one_head_expanded`.
enum class kv_repeat { none, repeat_kv, repeat_interleave, heads_twice, tile, one_head_expanded };
/// Self-attention over 16 tokens of width 64, 4 heads, bias-free projections, with a rotary position embedding of q
/// and k as LLaMA writes it (t * cos + cat(-t2, t1) * sin, t1 and t2 Slices of the head's halves; the tables Cos and
/// Sin of positions x an inv_freq buffer): 16,384 parameters with 4 K/V heads, 12,288 with 2, 10,240 with 1.
[[nodiscard]] std::string rotary_attention_onnx(const write_options& o = {}, kv_repeat repeat = kv_repeat::none);

/// nn.MultiheadAttention(64, 4) over a seq-first (seq, batch, 64) input, both dimensions fixed in the file, as
/// torch.onnx 1.13 writes it: in-projection Linear(64, 192) cut by three Slices, heads merged behind the batch,
/// output Linear(64, 64) on the (seq x batch, 64) rows, reshaped back and added to the input: 16,640 parameters.
/// `torch2`: the in-projection cut as PyTorch 2 writes it, `proj.unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2)
/// .squeeze(-2)`, then `proj[0]`, `proj[1]`, `proj[2]` (a Gather of index 0, 1, 2 on axis 0 each).
[[nodiscard]] std::string seq_first_attention_onnx(std::int64_t seq, std::int64_t batch, bool torch2 = false);

/// Self-attention scores over 16 tokens of width 64 masked by two registered buffers, as minGPT-style code writes
/// them: a float (16, 16) mask added to the scores, and a (16, 16) `bias` of ones and zeros compared with 0 for a
/// Where; then Softmax, the product with the values and a Linear(64, 64). Buffers are not parameters: 4,160.
[[nodiscard]] std::string mask_buffers_onnx(const write_options& o = {});

/// A decoder's cross-attention as nn.TransformerDecoderLayer computes it, with the memory a second data input:
/// `tgt` (8, 64) attends to `memory` (12, 64), 4 heads; Q from tgt, K and V projected from the memory (each projection
/// a Linear(64, 64) with bias), output projection, residual Add: 16,640 parameters; matrix products per sample
/// 2 x 64 x 64 x (8 + 12 + 12 + 8) + 2 x 2 x 4 x 8 x 12 x 16 = 352,256 FLOPs.
[[nodiscard]] std::string cross_attention_onnx(const write_options& o = {});
/// An encoder-decoder (nn.Transformer's layout, one layer each) with two symbolic lengths, as an export with
/// dynamic_axes names them: token ids `src` (batch, "src_len") and `tgt` (batch, "tgt_len"), each embedded by its own
/// table (100, 64); the encoder's self-attention over the source (4 heads of 16, projections Linear(64, 64) with
/// bias, residual Add) is the memory, the decoder's cross-attention takes Q from the target and K, V from the memory;
/// then Linear(64, 100) over the target. Parameters 2 x 6,400 + 8 x 4,160 + 6,500 = 52,580; matrix products per
/// sample, S source and T target positions: encoder 2 x 64 x 64 x 4S + 2 x 2 x 4 x 16 x S^2, decoder
/// 2 x 64 x 64 x (2T + 2S) + 2 x 2 x 4 x 16 x T x S, generator 2 x 64 x 100 x T. Both Gathers are Embeddings: the
/// target's ids are read from the network's one input through a junction that keeps them token ids.
[[nodiscard]] std::string encoder_decoder_onnx(const write_options& o = {});
/// Self-attention over 8 tokens of width 64, 4 heads, whose scores get T5's relative position bias: a trainable
/// (32, 4) table gathered by a constant (8, 8) bucket index, transposed to (1, 4, 8, 8), added before the Softmax.
/// PyTorch's parameters: 4 x (64 x 64 + 64) + 32 x 4 = 16,768.
[[nodiscard]] std::string score_bias_attention_onnx(const write_options& o = {});
/// Linear(32, 8) over the last step of a (16, 32) sequence, `x[:, -1]`: Gather of the data along axis 1 by a scalar
/// constant. 264 parameters.
[[nodiscard]] std::string last_step_onnx(const write_options& o = {});
/// CLIP's temperature: Linear(32, 8), then a product with Exp of a scalar parameter `logit_scale` (a graph input of
/// rank 0 with weights_as_inputs): 265 parameters.
[[nodiscard]] std::string scalar_parameter_onnx(const write_options& o = {});
/// DETR's decoder in small: 16 learned queries (a weight, 16 x 64) through Linear(64, 64), attending to a (40, 64)
/// sequence's Linear(64, 64) keys and to the sequence itself: 16 x 64 + 2 x (64 x 64 + 64) parameters. The queries'
/// Linear computes from weights only: 2 x 16 x 64 x 64 FLOPs a step, whatever the batch.
[[nodiscard]] std::string learned_queries_onnx(const write_options& o = {});
/// learned_queries_onnx's queries expanded to the batch first (`queries.unsqueeze(0).expand(B, -1, -1)`, DETR's object
/// queries, an attention-pooling probe): their projection runs per sample.
[[nodiscard]] std::string expanded_queries_onnx(const write_options& o = {});
/// Conv1d(4, 8, 3, padding 1, no bias) + BatchNorm1d(8) over 32 steps as an eval-mode export writes it: BatchNorm
/// folded into a bias of generated name (`onnx::Conv_bias`). PyTorch's parameters: 4 x 8 x 3 + 2 x 8 = 112.
[[nodiscard]] std::string folded_conv1d_onnx(const write_options& o = {});
/// The same as a training-mode export writes it: Conv1d without bias, then BatchNormalization over (N, 8, 32).
[[nodiscard]] std::string conv1d_batchnorm_onnx(const write_options& o = {});
/// spectral_norm(Conv2d(3, 8, 3, padding 1)) as torch.onnx writes it in eval mode, then ReLU on 8 x 8 images: the
/// weight computed each step as weight_orig / (u . W v), W weight_orig viewed as (8, 27), u (8) and v (27) buffers.
/// PyTorch's parameters: 8 x 27 + 8 = 224.
[[nodiscard]] std::string spectral_norm_conv_onnx(const write_options& o = {});
/// A graph convolution over 20 nodes: `w2(bmm(a, relu(w1(bmm(a, x)))))` for node features x (20, 32) and an adjacency
/// a (20, 20), both graph inputs: Linear(32, 64) and Linear(64, 8), 2,632 parameters.
[[nodiscard]] std::string graph_convolution_onnx(const write_options& o = {});
/// One Linear(32, 32) applied twice, `lin(relu(lin(x)))`, as torch.onnx writes it after constant folding: the second
/// application's transposed weight an Identity of the first's (deduplicated by value), its bias the same initializer
/// read again: 1,056 parameters. With `clone`, the second Linear is a copy of the first (copy.deepcopy: equal values,
/// its bias an Identity too): 2,112.
[[nodiscard]] std::string reapplied_linear_onnx(bool clone, const write_options& o = {});
/// Linear(32, 64) + BatchNorm1d(64) over features (N, 64) + ReLU + Linear(64, 10): 2,112 + 128 + 650 = 2,890
/// parameters.
[[nodiscard]] std::string batchnorm1d_features_onnx(const write_options& o = {});
/// weight_norm(Conv1d(4, 8, 3, padding 1), dim = 2) as torch.onnx writes it without constant folding: the weight
/// computed each step from `weight_v` (8, 4, 3) and `weight_g` (1, 1, 3) as v / ReduceL2(v) x g, then ReLU:
/// 96 + 3 + 8 = 107 parameters.
[[nodiscard]] std::string weight_norm_conv1d_onnx(const write_options& o = {});
/// A seq2seq GRU: source tokens (12) through Embedding(100, 16) and GRU(16, 32), whose last state starts a decoder
/// GRU(16, 32) over the target tokens (10, a second data input) embedded by their own table, then Linear(32, 100):
/// 2 x 1,600 + 2 x 4,800 + 3,300 = 16,100 parameters.
[[nodiscard]] std::string seq2seq_gru_onnx(const write_options& o = {});
/// BatchNorm3d(8) over (8, 4, 16, 16) clips (kept, as a training-mode export keeps it), then ReLU: 16 parameters.
[[nodiscard]] std::string batchnorm3d_onnx(const write_options& o = {});
/// Self-attention over 8 tokens of width 64 with 4 heads whose q, k and v projections have biases where `qkv_bias`
/// (k's too where `k_bias`, Whisper's K has none) and whose output projection has one where `out_bias`: Qwen2's
/// layout is (true, true, false), diffusers' Attention (false, false, true). 4 x 64 x 64 weights and the biases.
[[nodiscard]] std::string attention_biases_onnx(bool qkv_bias, bool k_bias, bool out_bias, const write_options& o = {});
/// Layers with one output channel, whose bias (or scale and shift) is a weight of one element: a regression head
/// Linear(64, 1) as Gemm on (batch, 32) inputs (`gemm`) or MatMul + Add on (batch, 10, 32) ones (`linear`), each after
/// Linear(32, 64) + ReLU: 2,113 parameters; a one-class segmentation head Conv2d(16, 1, 1) after Conv2d(3, 16, 3) +
/// ReLU on 16 x 16 images (`conv`): 465; BatchNorm2d(1) (kept, as a training-mode export keeps it) on one-channel
/// 16 x 16 images before Conv2d(1, 16, 3) (`batchnorm`): 162; a shared PReLU slope between two Conv2d(3, 16, 3) and
/// Conv2d(16, 8, 3) (`prelu`): 1,609.
enum class one_output { gemm, linear, conv, batchnorm, prelu };
[[nodiscard]] std::string one_output_onnx(one_output head, const write_options& o = {});
/// The same attention with the bias as torch.onnx writes it after constant folding evaluated the gather (Swin's and
/// MaxViT's relative position bias): one constant `onnx::Add_bias` of (1, heads, 8, 8) where `per_head`, else a mask
/// of (1, 1, 8, 8) shared by the heads. The table's parameters are not in the file: 4 x (64 x 64 + 64) = 16,640.
[[nodiscard]] std::string folded_score_bias_onnx(bool per_head, const write_options& o = {});

/// A learned position table cut to the sequence, `tok(ids) + pos[:, :n]` with n = ids.shape[1] as torch.onnx writes
/// it with a dynamic sequence axis (a Slice of the table whose end is computed from Shape), then Linear(32, 32):
/// tok (100, 32), pos (1, 64, 32): PyTorch's parameters 3,200 + 2,048 + 1,056 = 6,304.
[[nodiscard]] std::string sliced_position_table_onnx(const write_options& o = {});

/// A feed-forward block written with torch.einsum over 8 tokens: Einsum("bnd,df->bnf", x, w1 (32, 64)), Relu,
/// Einsum("bnf,fd->bnd", ., w2 (64, 32)): 4,096 parameters, 2 x 2 x 8 x 32 x 64 = 65,536 FLOPs per sample.
[[nodiscard]] std::string einsum_mlp_onnx(const write_options& o = {});

/// A UNet decoder's upsampling on a (8, 7, 7) input: ConvTranspose2d(8, 4, 3, stride 2, padding 1, output_padding 1)
/// to (4, 14, 14), then ReLU: 8 x 4 x 9 + 4 = 292 parameters.
[[nodiscard]] std::string conv_transpose_onnx(const write_options& o = {});
/// Matrix products the importer maps to no layer, on a (8, 16, 16) input: a 1x7 Conv (8 -> 8, pads 3 on the width),
/// a 2x1 ConvTranspose of strides (2, 1) (8 -> 4: (4, 32, 16); a square one is ConvTranspose2d), then the output
/// reshaped to (4, 512) times its transpose, a MatMul of two activations ((4, 4) a sample), flattened into a Gemm
/// (16 -> 10).
[[nodiscard]] std::string matrix_products_onnx(const write_options& o = {});

/// MobileNet's activations on a (-1, 16) input, opset 14: Clip to [0, 6] (ReLU6), HardSwish, HardSigmoid, then a Clip
/// to [-1, 1], which is not a ReLU.
[[nodiscard]] std::string hard_activations_onnx(const write_options& o = {});

/// How an exporter writes scaled_dot_product_attention (dynamo_block_onnx): onnxscript's torchlib at opset 18 (K
/// transposed through a Reshape to 3-D, Q and K^T each multiplied by sqrt(scale), MatMul, Softmax, MatMul), the same
/// with is_causal (a constant (S, S) mask added to the scores), the same before onnxscript's optimizer folded its
/// scale (computed from Q's shape through CastLike and Sqrt), or ONNX's Attention operator (opset 23) over heads
/// split off (B, H, S, D) or over the projections' (B, S, H x D) with q_num_heads and kv_num_heads.
enum class sdpa_form { torchlib, torchlib_causal, torchlib_unoptimized, attention_operator, attention_operator_3d };
/// A pre-LN transformer block over 16 tokens of width 64 (4 heads, MLP 256) as PyTorch's dynamo exporter writes it:
/// LayerNormalization, Linear as Transpose(weight) -> MatMul -> Add, GELU as torchlib's Div-Erf-Add-Mul(x)-Mul(0.5)
/// (ONNX's Gelu, opset 20, with the Attention operator), residual adds. PyTorch's parameters: 49,984.
[[nodiscard]] std::string dynamo_block_onnx(const write_options& o, sdpa_form attention);
/// Hugging Face's LlamaDecoderLayer (width 64, 4 heads of 16, 2 K/V heads, MLP 128) over 16 tokens as the dynamo
/// exporter writes it with SDPA at opset 18: RMSNorm decomposed with ReduceMean's axes an input, projections without
/// bias (Transpose -> MatMul), the rotary cos and sin tables folded into (1, 1, 16, 16) initializers, K and V repeated
/// by Unsqueeze -> Expand -> Reshape, the causal mask folded, a SiLU-gated MLP. PyTorch's parameters: 36,992.
[[nodiscard]] std::string dynamo_llama_block_onnx(const write_options& o);
/// ONNX's RMSNormalization(64) (opset 23) over 16 tokens, then Linear(64, 64): 64 + 4,160 parameters.
[[nodiscard]] std::string rmsnormalization_onnx(const write_options& o = {});

/// `blocks` residual blocks on a (1, 4, 8, 8) input: `y = Add(x, Relu(x))`, as shared/repro's slow_residual file.
[[nodiscard]] std::string residual_chain_onnx(int blocks);
/// Two skips whose sub-graphs cross on a (1, 4, 8, 8) input i: x = Relu(i), y = Add(x, Add(Relu(x), i)). The inner
/// Add's sub-graph {x, Relu(x)} is read after it (by the outer Add), the outer one's reads i from before its fork:
/// neither is a residual block.
[[nodiscard]] std::string crossing_skips_onnx();

}  // namespace prenet::onnx_test
