// SPDX-License-Identifier: MIT
// prenet::kernel: one GPU kernel a layer's forward or backward pass runs (a GEMM, a convolution, a norm...).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <boost/describe/enum.hpp>
#include <boost/describe/enumerators.hpp>
#include <boost/mp11/algorithm.hpp>

#include <prenet/precision.hpp>

namespace prenet {

/// What the learned predictors are trained on: the kernels NeuSight and Justus et al. measured.
enum class kernel_family : std::uint8_t {
  gemm,         ///< batched matrix product: b x (m x k) . (k x n); Dense, attention's projections and bmm, RNN gates
  conv2d,       ///< 2-D convolution forward (cuDNN picks the algorithm)
  layernorm,    ///< normalisation over the last dimension of rows x width
  softmax,      ///< softmax over the last dimension of rows x width
  elementwise,  ///< one pointwise op over n elements (see elementwise_op)
  memory,       ///< data movement no learned model covers (gather, pooling, batch norm, update): roofline only
  attention,    ///< fused attention core (scaled_dot_product_attention: flash / memory-efficient): no model of its own
};
BOOST_DESCRIBE_ENUM(kernel_family, gemm, conv2d, layernorm, softmax, elementwise, memory, attention)

/// How many kernel families there are (kernel_family's enumerators), for tables indexed by family.
inline constexpr std::size_t kernel_family_count =
    boost::mp11::mp_size<boost::describe::describe_enumerators<kernel_family>>::value;

/// Pointwise ops NeuSight measured; `_scalar` ops take a tensor and a scalar (one input read).
enum class elementwise_op : std::uint8_t { add, add_scalar, mul, mul_scalar, div, div_scalar, pow, pow_scalar, relu,
                                           gelu, tanh };
BOOST_DESCRIBE_ENUM(elementwise_op, add, add_scalar, mul, mul_scalar, div, div_scalar, pow, pow_scalar, relu, gelu,
                    tanh)

/// How many tensors an elementwise op reads (1 or 2); it always writes one.
[[nodiscard]] constexpr std::int64_t inputs_of(elementwise_op op) noexcept {
  switch (op) {
    case elementwise_op::add:
    case elementwise_op::mul:
    case elementwise_op::div:
    case elementwise_op::pow: return 2;
    default: return 1;
  }
}

[[nodiscard]] constexpr std::string_view name(kernel_family f) noexcept {
  switch (f) {
    case kernel_family::gemm: return "gemm";
    case kernel_family::conv2d: return "conv2d";
    case kernel_family::layernorm: return "layernorm";
    case kernel_family::softmax: return "softmax";
    case kernel_family::elementwise: return "elementwise";
    case kernel_family::memory: return "memory";
    case kernel_family::attention: return "attention";
  }
  return "unknown";
}

/// One kernel with its sizes, FLOPs and minimum memory traffic. Fields a family does not use stay 0.
/// gemm: b, m, n, k. conv2d: b = batch, m = in channels, n = out channels, k = kernel, image, stride, padding.
/// layernorm/softmax: m = rows, n = width. elementwise: m = elements, op. memory: flops and bytes only. attention:
/// flops and bytes given, b = batch x heads, m = query rows a head, n = keys a query row attends to (the mean: about
/// half under a causal mask), k = head dim, and whether it is the backward pass's kernel.
struct kernel {
  kernel_family family = kernel_family::memory;
  elementwise_op op = elementwise_op::add;
  std::int64_t b = 1;
  std::int64_t m = 0;
  std::int64_t n = 0;
  std::int64_t k = 0;
  std::int64_t image = 0;
  std::int64_t stride = 1;
  std::int64_t padding = 0;
  std::int64_t element_bytes = 4;
  std::int64_t repeat = 1;  ///< the kernel runs this many times in a row (an RNN's time steps)
  math_mode math = math_mode::fp32;  ///< what its multiply-adds run on (tensor cores for GEMMs and convolutions)

  friend constexpr bool operator==(const kernel&, const kernel&) = default;

  /// Output height/width of a conv2d kernel.
  [[nodiscard]] constexpr std::int64_t out_image() const noexcept {
    return image + 2 * padding < k ? 0 : (image + 2 * padding - k) / stride + 1;
  }
  /// FLOPs of one run (multiply-add = 2).
  [[nodiscard]] constexpr std::int64_t flops() const noexcept {
    switch (family) {
      case kernel_family::gemm: return 2 * b * m * n * k;
      case kernel_family::conv2d: return 2 * b * n * out_image() * out_image() * m * k * k;
      case kernel_family::layernorm: return 8 * m * n;
      case kernel_family::softmax: return 5 * m * n;
      case kernel_family::elementwise: return m;
      case kernel_family::memory:
      case kernel_family::attention: return flops_;
    }
    return 0;
  }
  /// Bytes of the operands and the result (CM: input + weights + output), each touched once.
  [[nodiscard]] constexpr std::int64_t input_bytes() const noexcept {
    switch (family) {
      case kernel_family::gemm: return b * m * k * element_bytes;
      case kernel_family::conv2d: return b * m * image * image * element_bytes;
      case kernel_family::layernorm:
      case kernel_family::softmax: return m * n * element_bytes;
      case kernel_family::elementwise: return inputs_of(op) * m * element_bytes;
      case kernel_family::memory:
      case kernel_family::attention: return bytes_;
    }
    return 0;
  }
  [[nodiscard]] constexpr std::int64_t weight_bytes() const noexcept {
    switch (family) {
      case kernel_family::gemm: return b * k * n * element_bytes;
      case kernel_family::conv2d: return n * m * k * k * element_bytes;
      case kernel_family::layernorm: return 2 * n * element_bytes;
      default: return 0;
    }
  }
  [[nodiscard]] constexpr std::int64_t output_bytes() const noexcept {
    switch (family) {
      case kernel_family::gemm: return b * m * n * element_bytes;
      case kernel_family::conv2d: return b * n * out_image() * out_image() * element_bytes;
      case kernel_family::layernorm:
      case kernel_family::softmax: return m * n * element_bytes;
      case kernel_family::elementwise: return m * element_bytes;
      case kernel_family::memory:
      case kernel_family::attention: return 0;
    }
    return 0;
  }
  [[nodiscard]] constexpr std::int64_t bytes() const noexcept { return input_bytes() + weight_bytes() + output_bytes(); }

  std::int64_t flops_ = 0;  ///< memory and attention families only: FLOPs and bytes given directly
  std::int64_t bytes_ = 0;
  /// Memory family only: the thread instructions its CUDA-core code issues, for a kernel whose index arithmetic
  /// rather than its bytes or FLOPs bounds it (ATen's depthwise convolutions: issue_s); 0 when neither does.
  std::int64_t instructions_ = 0;
  /// A GEMM whose inner dimension k runs over the rows of both operands (a weight gradient X^T dY, attention's dV
  /// and dK): its stored matrices' leading dimensions are m and n; every other GEMM's are k and n (tensor_core_aligned).
  bool reduces_rows = false;
  bool backward = false;  ///< attention only: the backward pass's kernel
  /// Attention only: the kernel issues the device's own widest tensor-core instructions (cuDNN's attention: wgmma on
  /// Hopper), not sm80's mma.sync (FlashAttention-2, the memory-efficient kernel): fused_attention_issue_share.
  bool native_mma = false;
};

/// Whether a tensor-core GEMM `kn` has every stored matrix's leading dimension a multiple of 16 bytes (k and n, or m
/// and n when it reduces_rows), which cuBLAS needs for its fastest tensor-core kernels: on our H200 unaligned bf16
/// GEMMs reach a fifth of the aligned ones' share of the peak, TF32 a third (docs/precision.md, "Alignment"). A
/// GEMM's rows (tokens) are never a leading dimension. Other families are not checked (true).
[[nodiscard]] constexpr bool tensor_core_aligned(const kernel& kn) noexcept {
  if (kn.family != kernel_family::gemm || kn.element_bytes <= 0 || 16 % kn.element_bytes != 0) return true;
  const std::int64_t per_16_bytes = 16 / kn.element_bytes;
  return (kn.reduces_rows ? kn.m : kn.k) % per_16_bytes == 0 && kn.n % per_16_bytes == 0;
}

[[nodiscard]] constexpr kernel gemm_kernel(std::int64_t b, std::int64_t m, std::int64_t n, std::int64_t k,
                                           std::int64_t element_bytes = 4) noexcept {
  return kernel{.family = kernel_family::gemm, .b = b, .m = m, .n = n, .k = k, .element_bytes = element_bytes};
}
[[nodiscard]] constexpr kernel conv2d_kernel(std::int64_t batch, std::int64_t in_channels, std::int64_t out_channels,
                                             std::int64_t kernel_size, std::int64_t image, std::int64_t stride,
                                             std::int64_t padding, std::int64_t element_bytes = 4) noexcept {
  return kernel{.family = kernel_family::conv2d, .b = batch, .m = in_channels, .n = out_channels, .k = kernel_size,
                .image = image, .stride = stride, .padding = padding, .element_bytes = element_bytes};
}
[[nodiscard]] constexpr kernel rows_kernel(kernel_family f, std::int64_t rows, std::int64_t width,
                                           std::int64_t element_bytes = 4) noexcept {
  return kernel{.family = f, .m = rows, .n = width, .element_bytes = element_bytes};
}
[[nodiscard]] constexpr kernel elementwise_kernel(elementwise_op op, std::int64_t elements,
                                                  std::int64_t element_bytes = 4) noexcept {
  return kernel{.family = kernel_family::elementwise, .op = op, .m = elements, .element_bytes = element_bytes};
}
[[nodiscard]] constexpr kernel memory_kernel(std::int64_t flops, std::int64_t bytes,
                                             std::int64_t instructions = 0) noexcept {
  return kernel{.family = kernel_family::memory, .flops_ = flops, .bytes_ = bytes, .instructions_ = instructions};
}
/// A cast of `elements` elements from `from_bytes` to `to_bytes` each (autocast's casts to and from the half type):
/// one read and one write, streamed.
[[nodiscard]] constexpr kernel cast_kernel(std::int64_t elements, std::int64_t from_bytes,
                                           std::int64_t to_bytes) noexcept {
  return memory_kernel(0, elements * (from_bytes + to_bytes));
}
/// One fused attention kernel (a pass of scaled_dot_product_attention) with its FLOPs and the bytes it streams, over
/// `heads` (batch x heads) of `queries` rows, each attending to `keys` keys (the mean), of `head_dim` each;
/// `native_mma` for cuDNN's kernel (kernel::native_mma).
[[nodiscard]] constexpr kernel fused_attention_kernel(std::int64_t flops, std::int64_t bytes, std::int64_t heads,
                                                      std::int64_t queries, std::int64_t keys, std::int64_t head_dim,
                                                      bool backward, bool native_mma = false) noexcept {
  return kernel{.family = kernel_family::attention, .b = heads, .m = queries, .n = keys, .k = head_dim,
                .flops_ = flops, .bytes_ = bytes, .backward = backward, .native_mma = native_mma};
}

}  // namespace prenet
