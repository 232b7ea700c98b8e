// SPDX-License-Identifier: MIT
// The kernels a layer's forward or backward pass launches, as PyTorch runs them (one rule per layer kind).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include <prenet/layer_node.hpp>
#include <prenet/layers/conv_transpose2d.hpp>
#include <prenet/layers/upsample.hpp>
#include <prenet/predictors/kernel.hpp>

namespace prenet::predictors {

enum class pass : std::uint8_t { forward, backward };

/// A short fixed-capacity list of kernels (constexpr-friendly; no allocation).
struct kernel_list {
  static constexpr std::size_t capacity = 24;
  std::array<kernel, capacity> items{};
  std::size_t size = 0;
  constexpr void push(const kernel& k) noexcept {
    if (size < capacity && k.repeat > 0) items[size++] = k;
  }
  [[nodiscard]] constexpr const kernel* begin() const noexcept { return items.data(); }
  [[nodiscard]] constexpr const kernel* end() const noexcept { return items.data() + size; }
};

/// How a layer is run: batch, element size, whether dropout is active, whether autograd needs d(input).
struct pass_context {
  std::int64_t batch = 1;
  std::int64_t element_bytes = 4;  ///< of the tensors passed between layers
  bool training = true;      ///< dropout runs its kernels only in training
  bool input_grad = true;    ///< false for the first trainable layer: autograd skips d(input)
  math_mode matmul = math_mode::fp32;  ///< GEMMs (see precision_plan)
  math_mode conv = math_mode::fp32;    ///< convolutions
  /// Elements of the ops on autocast's float32 list (layer norm, softmax, pow) and of what they feed by type
  /// promotion: 4 under autocast, else element_bytes.
  std::int64_t reduction_bytes = 4;
  bool native_batchnorm = false;  ///< BatchNorm's two-pass ATen kernels instead of cuDNN's (precision_plan)

  /// `k` as this pass runs it: GEMMs and convolutions on their math mode, norms and softmax at their element size.
  [[nodiscard]] constexpr kernel run(kernel k) const noexcept {
    switch (k.family) {
      case kernel_family::gemm:
      case kernel_family::attention: k.math = matmul; break;  // a fused attention core runs its products as GEMMs
      case kernel_family::conv2d: k.math = conv; break;
      case kernel_family::layernorm:
      case kernel_family::softmax: k.element_bytes = reduction_bytes; break;
      default: break;
    }
    return k;
  }
};

/// The pass context of a precision plan.
[[nodiscard]] constexpr pass_context pass_of(const precision_plan& p, std::int64_t batch, bool training) noexcept {
  return {.batch = batch, .element_bytes = p.activation_bytes, .training = training, .matmul = p.matmul,
          .conv = p.conv, .reduction_bytes = p.reduction_bytes, .native_batchnorm = p.native_batchnorm};
}

namespace detail {

/// `k`, a GEMM whose inner dimension runs over the rows of both operands (kernel::reduces_rows).
[[nodiscard]] constexpr kernel row_reduction(kernel k) noexcept {
  k.reduces_rows = true;
  return k;
}

[[nodiscard]] constexpr kernel sized(kernel k, std::int64_t eb, std::int64_t repeat = 1) noexcept {
  k.element_bytes = eb;
  k.repeat = repeat;
  return k;
}

/// The three kernels of a convolution layer: its forward and, in backward, the gradients of its input and weight.
enum class conv_kernel : std::uint8_t { forward, input_gradient, weight_gradient };

/// Whether PyTorch hands a depthwise convolution of `n` over `b` images to cuDNN rather than to ATen's own kernels
/// (`use_cudnn_depthwise` with cuDNN 8.2 or newer, PyTorch 1.12 to 2.x): fp16 only (model.half() or autocast fp16;
/// the fp16 math mode, which a plan gives only to a GPU with FP16 tensor cores), at least 32 channels, a 1x1, 3x3 or
/// 5x5 window without dilation, an image at least 7 wide, and stride 1 or, at stride 2, the shapes its heuristic
/// lists. Everything else (fp32, TF32, bf16, ConvNeXt's 7x7) runs ATen's. The backward runs on the forward's.
[[nodiscard]] constexpr bool cudnn_depthwise(const layer_node& n, std::int64_t b, math_mode conv) noexcept {
  const layer_spec& s = n.spec;
  const std::int64_t ch = n.input[0], w = n.input[2], k = s.kernel;
  const bool window = k == 1 || k == 3 || k == 5;
  if (conv != math_mode::fp16 || ch < 32 || !window || s.dilation != 1 || w < 7) return false;
  if (s.stride == 1) return true;
  if (s.stride != 2) return false;
  if (b == 1) return k != 1 || w <= 28;
  return (k == 1 && b <= 16 && ch >= 128 && w <= 7) || (k != 1 && (ch >= 512 || (ch >= 256 && w >= 28)));
}

/// Thread instructions of ATen's depthwise kernels (aten/src/ATen/native/cuda/DepthwiseConv2d.cu), estimated from
/// their structure: thread-per-element loops on CUDA cores whose index arithmetic, not their bytes, bounds them.
/// The forward runs a thread per output and the input gradient one per input, each first splitting its flat index
/// into image, channel, row and column (three integer divisions by run-time sizes: `per_element`), then a tap of the
/// window per iteration (bounds checks, offsets, two loads, two conversions from the half type, one multiply-add),
/// unrolled for the 1x1, 3x3 and 5x5 windows they are compiled for and a loop otherwise. The weight gradient runs
/// one thread block per channel and tap, which streams every output of its channel and splits each output's index
/// again (a division per output and tap). Not measured: no kernel data here times a depthwise convolution, and the
/// counts are of the order a compiler emits for such loops. What they change: docs/onnx-accuracy.md.
struct depthwise_instructions {
  static constexpr std::int64_t per_element = 60;
  static constexpr std::int64_t forward_per_tap = 8, forward_per_tap_looped = 12;
  static constexpr std::int64_t input_gradient_per_tap = 10, input_gradient_per_tap_looped = 14;
  static constexpr std::int64_t weight_gradient_per_tap = 36;
};

/// One kernel of a Conv2d (or of a PatchEmbedding's projection: kernel = stride = patch, no padding) over `b` images
/// with `eb`-byte elements on math mode `conv`. Square images in the zoo; a non-square one is approximated by the
/// square of equal area. A convolution's input and weight gradients each do the forward's FLOPs over the same
/// tensors: both are timed as its forward.
///
/// A grouped convolution is its groups' independent convolutions, in / groups to out / groups channels each, in one
/// launch: the kernel of b x groups of them. A depthwise one (one input channel a group: MobileNet's, EfficientNet's,
/// ConvNeXt's 7x7) is no matrix product at all: each output reads its own channel's window, on CUDA cores, so it is
/// a memory-family kernel of the bytes it moves (input, output and filter once) and its FLOPs, and of the
/// instructions ATen's kernels issue for it (depthwise_instructions), which bound it: ConvNeXt-T's 7x7s at batch 256
/// under AMP on an RTX 3090 take about 96 ms of a step timm measures at 314 ms, where their bytes gave 7 and the step
/// 0.70x of the measured one (0.99x now). Only a forward that cuDNN runs (cudnn_depthwise) is timed by its bytes
/// alone. Its gradients, which cuDNN runs too, are timed as ATen's: no kernel data here measures cuDNN's, and with
/// their bytes alone the MobileNets' and MNASNets' AMP steps on that GPU came out 0.71-0.85x of timm's while their
/// forward passes came out 1.23-1.39x of its inference tables, so their backward is where the time went
/// (docs/onnx-accuracy.md). Read as one convolution over every channel, ResNeXt's 32 groups cost 32 times the
/// multiply-adds and a depthwise 7x7 of ConvNeXt-T's 96 channels 96 times; as an implicit GEMM of one column, its
/// window's 49 taps multiplied the traffic.
///
/// A dilated window (DeepLab's) has the taps of the undilated one over a wider reach: the kernel is the undilated
/// window with the padding that gives the same output, less input where that padding would be negative.
[[nodiscard]] constexpr kernel convolution(const layer_node& n, std::int64_t b, std::int64_t eb,
                                           conv_kernel which = conv_kernel::forward,
                                           math_mode conv = math_mode::fp32) noexcept {
  const layer_spec& s = n.spec;
  const std::int64_t g = s.groups > 1 ? s.groups : 1;
  if (g > 1 && n.input[0] == g) {
    const std::int64_t in = b * n.input.numel(), outputs = b * n.output.numel(), taps = s.kernel * s.kernel;
    // Counted in double: the weight gradient's count is 18 times the FLOPs, which stay inside 64 bits with less room.
    double instructions = 0;
    if (which != conv_kernel::forward || !cudnn_depthwise(n, b, conv)) {
      using i = depthwise_instructions;
      const bool unrolled = s.kernel == 1 || s.kernel == 3 || s.kernel == 5;
      const auto multiplier = static_cast<double>(s.out_features / g);  // outputs per input channel
      const auto t = static_cast<double>(taps);
      switch (which) {  // threads (outputs or inputs) x (their index splitting + their taps)
        case conv_kernel::forward:
          instructions = static_cast<double>(outputs) *
                         (i::per_element + t * (unrolled ? i::forward_per_tap : i::forward_per_tap_looped));
          break;
        case conv_kernel::input_gradient:
          instructions = static_cast<double>(in) *
                         (i::per_element + multiplier * t *
                                               (unrolled ? i::input_gradient_per_tap : i::input_gradient_per_tap_looped));
          break;
        case conv_kernel::weight_gradient:
          instructions = static_cast<double>(outputs) * t * i::weight_gradient_per_tap;
          break;
      }
    }
    constexpr double most_instructions = 4e18;  // saturates rather than overflows: far past any real layer
    return memory_kernel(2 * outputs * taps, (in + outputs + s.out_features * taps) * eb,
                         static_cast<std::int64_t>(instructions < most_instructions ? instructions
                                                                                     : most_instructions));
  }
  std::int64_t image = 1;
  while ((image + 1) * (image + 1) <= n.input[1] * n.input[2]) ++image;
  std::int64_t padding = s.padding - (s.dilation - 1) * (s.kernel - 1) / 2;
  if (padding < 0) image += 2 * padding, padding = 0;
  return sized(conv2d_kernel(b * g, n.input[0] / g, s.out_features / g, s.kernel, image, s.stride, padding), eb);
}

/// A convolution's kernels in one pass: forward `forward`; backward `input_gradient` for dX (where the input needs a
/// gradient) and the weight gradient (where the weights train: `weight_grad`). A Conv2d passes its own three; a
/// ConvTranspose2d its adjoint convolution's with the first two traded.
constexpr void convolutions(kernel_list& out, const layer_node& n, pass p, const pass_context& c, bool weight_grad,
                            std::int64_t b, std::int64_t eb, conv_kernel forward, conv_kernel input_gradient) noexcept {
  if (p == pass::forward) {
    out.push(convolution(n, b, eb, forward, c.conv));
  } else {
    if (c.input_grad) out.push(convolution(n, b, eb, input_gradient, c.conv));
    if (weight_grad) out.push(convolution(n, b, eb, conv_kernel::weight_gradient, c.conv));
  }
}

/// Forward GEMM x (rows x in) . W (in x out) and, for backward, dX = dY . W^T and dW = X^T . dY (none when the
/// weight is frozen: `weight_grad` false).
constexpr void linear(kernel_list& out, pass p, std::int64_t rows, std::int64_t in, std::int64_t outf, bool input_grad,
                      bool weight_grad, std::int64_t eb, std::int64_t repeat = 1) noexcept {
  if (p == pass::forward) {
    out.push(sized(gemm_kernel(1, rows, outf, in), eb, repeat));
    return;
  }
  if (input_grad) out.push(sized(gemm_kernel(1, rows, in, outf), eb, repeat));
  if (weight_grad) out.push(sized(row_reduction(gemm_kernel(1, in, outf, rows)), eb, repeat));
}

/// The kernels of `n`'s LoRA adapters (training_setup.hpp's lora_adapter, kernel by kernel): forward x A^T, h B^T,
/// the scale and the sum into the base output; backward dB, d(h), the scale, dA and, with `c.input_grad`, d(x)
/// and its sum into the base's.
constexpr void lora_adapters(kernel_list& out, const layer_node& n, pass p, const pass_context& c) noexcept {
  const std::int64_t r = n.role.lora_rank, b = c.batch, eb = c.element_bytes;
  if (r <= 0 || n.role.lora_projections == 0) return;
  for_each_projection(n.spec, n.input, [&](const projection_shape& x) {
    if ((n.role.lora_projections & x.id) == 0) return;
    const std::int64_t rows = b * x.rows;
    if (p == pass::forward) {
      out.push(sized(gemm_kernel(1, rows, r, x.in), eb));
      out.push(sized(gemm_kernel(1, rows, x.out, r), eb));
      out.push(sized(elementwise_kernel(elementwise_op::mul_scalar, rows * x.out), eb));
      out.push(sized(elementwise_kernel(elementwise_op::add, rows * x.out), eb));
      return;
    }
    out.push(sized(row_reduction(gemm_kernel(1, r, x.out, rows)), eb));  // dB
    out.push(sized(elementwise_kernel(elementwise_op::mul_scalar, rows * x.out), eb));
    out.push(sized(gemm_kernel(1, rows, r, x.out), eb));  // d(h)
    out.push(sized(row_reduction(gemm_kernel(1, x.in, r, rows)), eb));   // dA
    if (c.input_grad) {
      out.push(sized(gemm_kernel(1, rows, x.in, r), eb));  // d(x)
      out.push(sized(elementwise_kernel(elementwise_op::add, rows * x.in), eb));
    }
  });
}

}  // namespace detail

/// Score pairs a fused kernel computes per head: causal self-attention skips the tiles above the diagonal
/// (FlashAttention's causal=True), S (S + 1) / 2 of S^2; everything else computes all S x S_kv.
[[nodiscard]] constexpr std::int64_t fused_pairs(std::int64_t seq, std::int64_t kv, bool causal_self) noexcept {
  return causal_self ? seq * (seq + 1) / 2 : seq * kv;
}

/// One pass of the attention core as one fused kernel (scaled_dot_product_attention, flash or memory-efficient) over
/// `batch` x `heads` heads of `seq` queries, `kv` keys and `head_dim` each, at `element_bytes` an element: an
/// attention layer's (detail::fused_attention), and that of our bench's SDPA rows (prenet-train validate). Modelled
/// by its FLOPs and the bytes it must stream, and timed at a share of the learned GEMM rate (kernel_time.hpp,
/// fused_attention_estimate). Per score pair and head: forward Q K^T and P V (4 d FLOPs), scale and online softmax (6);
/// backward recomputes Q K^T and the softmax from the saved logsumexp and runs dV, dP, dQ, dK (10 d), softmax backward
/// (4) and the recomputed softmax (6). Bytes: forward reads q, k, v and writes the output and the fp32 logsumexp;
/// backward reads q, k, v, the output, its gradient, the logsumexp and the row sums D = rowsum(dO * O) it first
/// computes, and writes dq, dk, dv. Dropout is fused (Philox in the kernel): no extra pass. `native_mma` for
/// cuDNN's kernel, which issues the device's own tensor instructions (kernel::native_mma).
[[nodiscard]] constexpr kernel fused_attention_pass(std::int64_t batch, std::int64_t heads, std::int64_t seq,
                                                    std::int64_t kv, std::int64_t head_dim, bool causal_self,
                                                    std::int64_t element_bytes, pass p,
                                                    bool native_mma = false) noexcept {
  const std::int64_t b = batch, h = heads > 0 ? heads : 1, d = head_dim, e = h * d, eb = element_bytes;
  const std::int64_t pairs = b * h * fused_pairs(seq, kv, causal_self);
  const std::int64_t q_bytes = b * seq * e * eb, kv_bytes = 2 * b * kv * e * eb, row_bytes = 4 * b * h * seq;
  const std::int64_t keys = seq > 0 && b > 0 ? (pairs / (b * h) + seq - 1) / seq : 0;  // a row's, mean, rounded up
  kernel k = p == pass::forward
                 ? fused_attention_kernel(pairs * (4 * d + 6), q_bytes + kv_bytes + q_bytes + row_bytes, b * h, seq,
                                          keys, d, false, native_mma)
                 : fused_attention_kernel(pairs * (10 * d + 10),
                                          3 * q_bytes + kv_bytes + 2 * row_bytes + q_bytes + kv_bytes, b * h, seq,
                                          keys, d, true, native_mma);
  k.element_bytes = eb;
  return k;
}

namespace detail {

constexpr void fused_attention(kernel_list& out, const layer_node& n, pass p, const pass_context& c) noexcept {
  const layer_spec& s = n.spec;
  const std::int64_t seq = n.input[0], h = s.heads > 0 ? s.heads : 1;
  out.push(fused_attention_pass(c.batch, h, seq, s.kv_seq == 0 ? seq : s.kv_seq, s.in_features / h,
                                s.causal != 0 && s.kv_seq == 0, c.element_bytes, p,
                                impl_of(s) == attention_impl::sdpa_cudnn));
}

/// The eager attention core's forward: Q K^T, scaling, softmax, dropout (in training, when the layer has attention
/// dropout: at p = 0 PyTorch's dropout returns its input without a kernel), P V. Under autocast the probabilities
/// are fp32 (autocast_rule_of's fp32_elements, which the memory side saves): the softmax, on autocast's float32 list,
/// casts its half input to fp32 and writes fp32, dropout runs in its input's type, and P V, a half op, casts the
/// probabilities back to half; backward casts their gradients the other way.
constexpr void eager_core_forward(kernel_list& out, const layer_node& n, const pass_context& c) noexcept {
  const layer_spec& s = n.spec;
  const std::int64_t b = c.batch, seq = n.input[0], e = s.in_features, h = s.heads > 0 ? s.heads : 1;
  const std::int64_t kv = s.kv_seq == 0 ? seq : s.kv_seq, d = e / h, eb = c.element_bytes, scores = b * h * seq * kv;
  const std::int64_t pb = c.reduction_bytes;  // the probabilities' element bytes
  out.push(sized(gemm_kernel(b * h, seq, kv, d), eb));                          // Q K^T
  out.push(sized(elementwise_kernel(elementwise_op::mul_scalar, scores), eb));  // scaling
  if (pb != eb) out.push(cast_kernel(scores, eb, pb));
  out.push(sized(rows_kernel(kernel_family::softmax, b * h * seq, kv), pb));
  if (c.training && attention_dropout(s))  // dropout on the probabilities
    out.push(sized(elementwise_kernel(elementwise_op::mul, scores), pb));
  if (pb != eb) out.push(cast_kernel(scores, pb, eb));
  out.push(sized(gemm_kernel(b * h, seq, d, kv), eb));                          // P V
}

constexpr void attention(kernel_list& out, const layer_node& n, pass p, const pass_context& c) noexcept {
  const layer_spec& s = n.spec;
  const std::int64_t b = c.batch, seq = n.input[0], e = s.in_features, h = s.heads > 0 ? s.heads : 1;
  const std::int64_t kv = s.kv_seq == 0 ? seq : s.kv_seq, d = e / h, eb = c.element_bytes;
  const std::int64_t ke = prenet::detail::kv_width(s);  // num_kv_heads x head_dim
  const bool self = s.kv_seq == 0;
  const bool grad_in = c.input_grad, wg = !n.role.frozen;
  linear(out, p, b * seq, e, e, grad_in, wg, eb);                    // q projection
  linear(out, p, b * kv, s.kdim > 0 ? s.kdim : e, ke, grad_in && self, wg, eb);  // k projection (kdim 0 = embed_dim)
  linear(out, p, b * kv, s.vdim > 0 ? s.vdim : e, ke, grad_in && self, wg, eb);  // v projection
  if (s.positional != 0) {  // rotary embedding of q and k: x cos + rotate_half(x) sin (its transpose backward)
    const std::int64_t qk = b * (seq * e + kv * ke);
    out.push(memory_kernel(0, 2 * qk * eb));                                    // rotate_half: a copy
    out.push(sized(elementwise_kernel(elementwise_op::mul, qk), eb, 2));
    out.push(sized(elementwise_kernel(elementwise_op::add, qk), eb));
  }
  if (ke != e) {  // repeat_kv: K and V expanded to every query head; backward sums the copies back
    const std::int64_t expanded = b * kv * e, grouped = b * kv * ke;
    out.push(sized(p == pass::forward ? memory_kernel(0, (expanded + grouped) * eb)
                                      : memory_kernel(expanded, (expanded + grouped) * eb), eb, 2));
  }
  const std::int64_t scores = b * h * seq * kv;
  if (fused(impl_of(s))) {
    fused_attention(out, n, p, c);
  } else if (p == pass::forward) {
    eager_core_forward(out, n, c);
  } else {
    const std::int64_t pb = c.reduction_bytes;  // the probabilities' element bytes (eager_core_forward)
    out.push(sized(gemm_kernel(b * h, seq, kv, d), eb));  // dP = dC V^T
    out.push(sized(row_reduction(gemm_kernel(b * h, kv, d, seq)), eb));  // dV = P^T dC
    if (pb != eb) out.push(cast_kernel(scores, eb, pb));
    if (c.training && attention_dropout(s)) out.push(sized(elementwise_kernel(elementwise_op::mul, scores), pb));
    // Softmax backward as one pass like the forward's. NeuSight's per-node traces time it at 2.6x the forward and
    // dropout's backward at 2.0-2.7x, but modelling that made whole runs worse (docs/predictors.md, "Backward").
    out.push(sized(rows_kernel(kernel_family::softmax, b * h * seq, kv), pb));
    if (pb != eb) out.push(cast_kernel(scores, pb, eb));
    out.push(sized(elementwise_kernel(elementwise_op::mul_scalar, scores), eb));
    out.push(sized(gemm_kernel(b * h, seq, d, kv), eb));  // dQ = dS K
    out.push(sized(row_reduction(gemm_kernel(b * h, kv, d, seq)), eb));  // dK = dS^T Q
  }
  linear(out, p, b * seq, e, e, true, wg, eb);  // output projection
}

/// Hugging Face's gelu_new over `e` elements (gelu_form::tanh_eager), op by op as eager PyTorch runs it: forward
/// 0.5 x, x^3, its product by 0.044715, the sum with x, the product by sqrt(2 / pi), tanh, 1 + and the last product;
/// backward the last product's two gradients, tanh's, the two scalar products, pow's 3 x^2 g (three kernels), the
/// 0.5 and the sum of x's three gradients. Under autocast pow (on the float32 list) casts x to fp32 and everything
/// after it runs in fp32 by type promotion (`c.reduction_bytes`, the float32 list's elements) but 0.5 x; backward
/// casts x's fp32 gradients back to half.
constexpr void gelu_tanh_eager(kernel_list& out, pass p, std::int64_t e, const pass_context& c) noexcept {
  const std::int64_t eb = c.element_bytes, fb = c.reduction_bytes;
  const auto op = [e](elementwise_op o) { return elementwise_kernel(o, e); };
  if (p == pass::forward) {
    out.push(sized(op(elementwise_op::mul_scalar), eb));  // 0.5 x
    if (fb != eb) out.push(cast_kernel(e, eb, fb));       // pow's cast of x
    out.push(sized(op(elementwise_op::pow_scalar), fb));  // x^3
    out.push(sized(op(elementwise_op::mul_scalar), fb));  // 0.044715 x^3
    out.push(sized(op(elementwise_op::add), fb));         // x + 0.044715 x^3
    out.push(sized(op(elementwise_op::mul_scalar), fb));  // sqrt(2 / pi) (...)
    out.push(sized(op(elementwise_op::tanh), fb));
    out.push(sized(op(elementwise_op::add_scalar), fb));  // 1 + tanh
    out.push(sized(op(elementwise_op::mul), fb));         // 0.5 x (1 + tanh)
    return;
  }
  out.push(sized(op(elementwise_op::mul), fb, 2));         // the last product's gradients
  out.push(sized(op(elementwise_op::mul), fb));            // tanh's: (1 - y^2) g
  out.push(sized(op(elementwise_op::mul_scalar), fb, 2));  // the products by sqrt(2 / pi) and 0.044715
  out.push(sized(op(elementwise_op::pow_scalar), fb));     // pow's: x^2,
  out.push(sized(op(elementwise_op::mul_scalar), fb));     //   3 x^2,
  out.push(sized(op(elementwise_op::mul), fb));            //   3 x^2 g
  if (fb != eb) {  // x's two fp32 gradients cast back to half
    kernel casts = cast_kernel(e, fb, eb);
    casts.repeat = 2;
    out.push(casts);
  }
  out.push(sized(op(elementwise_op::mul_scalar), eb));     // 0.5 x's
  out.push(sized(op(elementwise_op::add), eb, 2));         // x's three gradients summed
}

/// ATen's normalisation kernels over statistics per channel (BatchNorm2d's native kernels) or per group of a sample
/// (GroupNorm's), `elements` of `eb` bytes: forward the statistics (a read of x), then the transform (x in, y out);
/// backward the sums of dy and dy * x (both read), then d(x) from x and dy. The per-channel affine gradients reduce
/// those sums, far smaller than x, and are not timed.
constexpr void two_pass_norm(kernel_list& out, pass p, std::int64_t elements, std::int64_t eb) noexcept {
  if (p == pass::forward) {
    out.push(memory_kernel(3 * elements, elements * eb));
    out.push(memory_kernel(5 * elements, 2 * elements * eb));
  } else {
    out.push(memory_kernel(4 * elements, 2 * elements * eb));
    out.push(memory_kernel(8 * elements, 3 * elements * eb));
  }
}

constexpr void recurrent(kernel_list& out, const layer_node& n, pass p, const pass_context& c) noexcept {
  const layer_spec& s = n.spec;
  const std::int64_t g = s.kind == layer_kind::lstm ? 4 : s.kind == layer_kind::gru ? 3 : 1;
  const std::int64_t b = c.batch, t = n.input[0], h = s.out_features, dirs = 1 + s.bidirectional;
  const std::int64_t eb = c.element_bytes;
  const bool wg = !n.role.frozen;
  for (std::int64_t l = 0; l < (s.num_layers > 1 ? 2 : 1); ++l) {
    // Layer 0 reads the input; layers 1.. read the previous layer's (dirs * h) output and are alike: repeat them.
    const std::int64_t x = l == 0 ? n.input[1] : h * dirs;
    const std::int64_t layers = l == 0 ? dirs : dirs * (s.num_layers - 1);
    linear(out, p, b * t, x, g * h, l > 0 || c.input_grad, wg, eb, layers);  // input projection, all steps at once
    linear(out, p, b, h, g * h, true, wg, eb, layers * t);                  // recurrent GEMM, one per step
    out.push(sized(elementwise_kernel(elementwise_op::mul, b * g * h), eb, layers * t));  // gate nonlinearities
  }
}

}  // namespace detail

/// The kernels selective recomputation runs again in `n`'s backward: its eager attention core's forward (none for
/// other layers; training_setup.hpp's recomputes_core).
[[nodiscard]] constexpr kernel_list core_recompute_kernels(const layer_node& n, const pass_context& c) noexcept {
  kernel_list out;
  if (recomputes_core(n.spec)) detail::eager_core_forward(out, n, c);
  return out;
}

/// Kernels of one pass of `n`'s LoRA adapters (none without): up to 4 adapters of 6 kernels.
[[nodiscard]] constexpr kernel_list lora_kernels(const layer_node& n, pass p, const pass_context& c) noexcept {
  kernel_list out;
  detail::lora_adapters(out, n, p, c);
  return out;
}

/// Kernels of one pass of layer `n` (shapes per sample; `c.batch` samples), its LoRA adapters aside (lora_kernels).
[[nodiscard]] constexpr kernel_list layer_kernels(const layer_node& n, pass p, const pass_context& c) noexcept {
  kernel_list out;
  const layer_spec& s = n.spec;
  const std::int64_t b = c.batch, eb = c.element_bytes;
  const std::int64_t in_elems = b * n.input.numel(), out_elems = b * n.output.numel();
  const bool fwd = p == pass::forward;
  const bool wg = !n.role.frozen;  // a frozen layer computes no gradient of its own parameters
  using detail::sized;
  // Backward starts where the output's gradients meet: autograd adds each further reader's into the first
  // (layer_node::gradient_sums; a residual stream's fork, read by the block and by the skip).
  if (!fwd && n.gradient_sums > 0) {
    out.push(sized(elementwise_kernel(elementwise_op::add, out_elems), eb, n.gradient_sums));
  }
  switch (s.kind) {
    case layer_kind::dense: {
      const std::int64_t in = n.input.last();  // the spec's in_features may be 0 (inferred)
      detail::linear(out, p, in_elems / in, in, s.out_features, c.input_grad, wg, eb);
      if (!fwd && s.bias && wg) out.push(memory_kernel(out_elems, out_elems * eb));  // bias gradient: a column sum
      break;
    }
    case layer_kind::conv2d:
      detail::convolutions(out, n, p, c, wg, b, eb, detail::conv_kernel::forward, detail::conv_kernel::input_gradient);
      break;
    case layer_kind::conv_transpose2d: {
      // The input gradient of the convolution it is the adjoint of (layers/conv_transpose2d.hpp, adjoint_conv2d), as
      // cuDNN runs it forward; backward, that convolution's forward for dX and its weight gradient for dW: the
      // adjoint's three kernels, its forward and input gradient trading passes.
      layer_node adjoint = n;
      adjoint.spec = prenet::detail::adjoint_conv2d(s, n.input);
      adjoint.input = n.output;
      adjoint.output = n.input;
      detail::convolutions(out, adjoint, p, c, wg, b, eb, detail::conv_kernel::input_gradient,
                           detail::conv_kernel::forward);
      break;
    }
    case layer_kind::patch_embedding: {
      // conv_proj (kernel = stride = patch), as Conv2d runs it; then the class token's concatenation (a copy of the
      // flattened, transposed patches) and the position embedding's addition. Backward: the position embedding's
      // and class token's gradients are sums over the batch; the concatenation's gradient is a view.
      const kernel k = detail::convolution(n, b, eb);
      const std::int64_t table = n.output.numel();  // one row per token
      if (fwd) {
        out.push(k);
        if (s.num_embeddings > 0) out.push(memory_kernel(0, 2 * out_elems * eb));
        if (s.positional) out.push(sized(elementwise_kernel(elementwise_op::add, out_elems), eb));
      } else {
        if (c.input_grad) out.push(k);
        if (wg) {
          out.push(k);
          if (s.positional || s.num_embeddings > 0) out.push(memory_kernel(out_elems, (out_elems + table) * eb));
        }
      }
      break;
    }
    case layer_kind::maxpool2d:
    case layer_kind::avgpool2d:
    case layer_kind::adaptive_avgpool2d:
      out.push(fwd ? memory_kernel(out_elems * s.kernel * s.kernel, (in_elems + out_elems) * eb)
                   : memory_kernel(in_elems, (2 * in_elems + out_elems) * eb));
      break;
    case layer_kind::batchnorm2d:
      if (!c.native_batchnorm) {  // cuDNN: one kernel each way
        out.push(fwd ? memory_kernel(8 * in_elems, 2 * in_elems * eb)
                     : memory_kernel(12 * in_elems, 3 * in_elems * eb));
      } else {
        detail::two_pass_norm(out, p, in_elems, eb);
      }
      break;
    case layer_kind::upsample: {
      // ATen's upsample kernels: forward one thread per output reading its input pixel (nearest) or four (bilinear);
      // backward the nearest gradient gathers each input's s x s outputs, the bilinear one zeroes d(input) and
      // scatters every output's gradient into its four inputs.
      const layer_cost k = n.cost();
      if (fwd) {
        out.push(memory_kernel(b * k.forward_flops, (in_elems + out_elems) * eb));
      } else {
        if (upsample_mode_of(s) == upsample_mode::bilinear) out.push(memory_kernel(0, in_elems * eb));
        out.push(memory_kernel(b * k.input_grad_flops, (in_elems + out_elems) * eb));
      }
      break;
    }
    case layer_kind::groupnorm:  // ATen's native_group_norm, on autocast's float32 list
      detail::two_pass_norm(out, p, in_elems, c.reduction_bytes);
      break;
    case layer_kind::layernorm: {
      const std::int64_t width = n.input.last();
      const kernel k = sized(rows_kernel(kernel_family::layernorm, in_elems / width, width), eb);
      out.push(k);
      if (!fwd && wg) out.push(k);  // backward: d(input), then d(gamma) and d(beta): two passes over the rows
      break;
    }
    case layer_kind::rmsnorm: {  // the layer-norm row kernel (one reduction per row), without the mean
      const std::int64_t width = n.input.last();
      const kernel k = sized(rows_kernel(kernel_family::layernorm, in_elems / width, width), eb);
      out.push(k);
      if (!fwd && wg) out.push(k);  // backward: d(input), then d(weight)
      break;
    }
    case layer_kind::gated_mlp: {
      const std::int64_t hidden = n.input.last(), rows = in_elems / hidden, inner = rows * s.out_features;
      if (fwd) {
        detail::linear(out, p, rows, hidden, s.out_features, c.input_grad, wg, eb, 2);  // gate and up projections
        out.push(sized(elementwise_kernel(elementwise_op::tanh, inner), eb));     // SiLU (one transcendental)
        out.push(sized(elementwise_kernel(elementwise_op::mul, inner), eb));      // gate * up
        detail::linear(out, p, rows, s.out_features, hidden, true, wg, eb);           // down projection
      } else {
        detail::linear(out, p, rows, s.out_features, hidden, true, wg, eb);           // down projection
        out.push(sized(elementwise_kernel(elementwise_op::mul, inner), eb, 2));   // d(gate), d(up) of the product
        out.push(sized(elementwise_kernel(elementwise_op::mul, inner), eb));      // SiLU backward
        detail::linear(out, p, rows, hidden, s.out_features, c.input_grad, wg, eb, 2);  // gate and up projections
        if (c.input_grad) out.push(sized(elementwise_kernel(elementwise_op::add, in_elems), eb));  // their d(input)s
        if (s.bias && wg) out.push(memory_kernel(2 * inner + in_elems, (2 * inner + in_elems) * eb));  // bias gradients
      }
      break;
    }
    case layer_kind::embedding:
      if (fwd) {
        out.push(memory_kernel(0, 2 * out_elems * eb + 8 * b * n.output[0]));  // gather rows by index
        if (s.additive) out.push(sized(elementwise_kernel(elementwise_op::add, out_elems), eb));
      } else if (wg) {  // the whole backward is the table's gradient
        out.push(memory_kernel(0, s.num_embeddings * s.out_features * eb));  // zero the table's gradient
        out.push(memory_kernel(out_elems, 2 * out_elems * eb));              // scatter-add rows
      }
      break;
    case layer_kind::multihead_attention: detail::attention(out, n, p, c); break;
    case layer_kind::rnn:
    case layer_kind::lstm:
    case layer_kind::gru: detail::recurrent(out, n, p, c); break;
    case layer_kind::relu:
      out.push(sized(elementwise_kernel(fwd ? elementwise_op::relu : elementwise_op::mul, in_elems), eb));
      break;
    case layer_kind::gelu:
      if (gelu_form_of(s) == gelu_form::tanh_eager) {
        detail::gelu_tanh_eager(out, p, in_elems, c);
        break;
      }
      out.push(sized(elementwise_kernel(fwd ? elementwise_op::gelu : elementwise_op::mul, in_elems), eb));
      break;
    case layer_kind::tanh:
    case layer_kind::sigmoid:
    case layer_kind::silu:
      out.push(sized(elementwise_kernel(fwd ? elementwise_op::tanh : elementwise_op::mul, in_elems), eb));
      break;
    case layer_kind::softmax: {
      const std::int64_t width = n.input.last();
      out.push(sized(rows_kernel(kernel_family::softmax, in_elems / width, width), eb));  // backward: see attention
      break;
    }
    case layer_kind::dropout:
      if (c.training) out.push(sized(elementwise_kernel(elementwise_op::mul, in_elems), eb));  // mask and scale
      break;
    case layer_kind::residual_add:
      if (fwd) out.push(sized(elementwise_kernel(elementwise_op::add, out_elems), eb));
      break;  // backward: the gradient flows to both branches unchanged
    case layer_kind::opaque:
      if (const opaque_product_shape m = product_of(s); m.rows > 0) {
        // A matrix product (opaque_product): one GEMM forward; backward, the gradients of both operands (an input
        // and a weight, or two activations), each the forward's FLOPs. A convolution runs as its implicit GEMM on
        // the convolutions' math mode (a conv2d kernel of 1 x 1 over single-pixel images: rows x inner x columns),
        // the rest on the matmul's.
        const opaque_product& g = m.product;
        const kernel k =
            g.form == product_form::instances ? sized(gemm_kernel(b * g.instances, m.rows, g.columns, g.inner), eb)
            : g.form == product_form::convolution
                ? sized(conv2d_kernel(b * m.rows * g.instances, g.inner, g.columns, 1, 1, 1, 0), eb)
                : sized(gemm_kernel(g.instances, b * m.rows, g.columns, g.inner), eb);
        if (fwd) {
          out.push(k);
        } else {
          if (c.input_grad) out.push(k);
          if (wg || g.form == product_form::instances) out.push(k);  // a weight's gradient, or the other activation's
        }
        break;
      }
      // The roofline fallback: the operator's own FLOPs and bytes; backward reads the output's gradient and the
      // saved input and writes the input's gradient (twice the traffic), with the cost rule's FLOPs.
      if (s.opaque_flops > 0 || s.opaque_elements > 0) {
        out.push(fwd ? memory_kernel(b * s.opaque_flops, b * s.opaque_elements * eb)
                     : memory_kernel(b * n.cost().backward_flops, 2 * b * s.opaque_elements * eb));
      }
      break;
    case layer_kind::input:
    case layer_kind::reshape:
    case layer_kind::flatten:
    case layer_kind::select_token:
    case layer_kind::residual_begin:
    case layer_kind::residual_shortcut: break;  // views: no kernel
  }
  return out;
}

/// Calls `f(pass, kernel)` for every kernel `n` (and its LoRA adapters) runs in forward and, when `with_backward`, backward, each as the
/// pass runs it (c.run: math mode and element size). The one walk over a layer's kernels: layer_time.hpp's
/// estimates and the precision trainer both use it.
template <class F>
constexpr void for_each_kernel(const layer_node& n, const pass_context& c, bool with_backward, F&& f) {
  for (const pass p : {pass::forward, pass::backward}) {
    if (p == pass::backward && !with_backward) break;
    for (const kernel& k : layer_kernels(n, p, c)) f(p, c.run(k));
    if (n.role.lora_rank > 0) {
      for (const kernel& k : lora_kernels(n, p, c)) f(p, c.run(k));
    }
  }
}

}  // namespace prenet::predictors
