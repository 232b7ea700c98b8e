// SPDX-License-Identifier: MIT
// prenet::precision: the numeric precision a training step runs in, as PyTorch runs it on a given device — which
// kernels use tensor cores and at which input type, the element size of each kind of tensor, and what a device
// that lacks the hardware runs instead. docs/precision.md describes each choice.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <boost/describe/enum.hpp>
#include <boost/describe/enumerators.hpp>
#include <boost/mp11/algorithm.hpp>

#include <prenet/device_spec.hpp>
#include <prenet/units.hpp>

namespace prenet {

/// What the user asks for (the CLI's --precision).
enum class precision : std::uint8_t {
  pytorch_default,  ///< "default": stock PyTorch >= 1.12: TF32 for cuDNN convolutions on Ampere+, IEEE FP32 matmuls
  fp32,             ///< IEEE FP32 everywhere (TF32 off)
  tf32,             ///< TF32 for matmuls and convolutions (torch.backends.cuda.matmul.allow_tf32 = True, NGC)
  amp_fp16,         ///< torch.autocast(float16) + GradScaler; fp32 master weights, gradients, optimizer state
  amp_bf16,         ///< torch.autocast(bfloat16); fp32 master weights, gradients, optimizer state
  fp16,             ///< model.half(): every tensor and the optimizer state in fp16
  bf16,             ///< model.bfloat16(): every tensor and the optimizer state in bf16
};
// Measurement files (bench/gpu_measure.py's data/<id>/*.csv) spell a precision, and a kernel's math mode, by its
// enumerator's name ("amp_fp16", "bf16"): the trainers read them with boost::describe::enum_from_string.
BOOST_DESCRIBE_ENUM(precision, pytorch_default, fp32, tf32, amp_fp16, amp_bf16, fp16, bf16)

/// The CLI's spelling: "default", "fp32", "tf32", "amp-fp16", "amp-bf16", "fp16", "bf16".
[[nodiscard]] constexpr std::string_view name(precision p) noexcept {
  switch (p) {
    case precision::pytorch_default: return "default";
    case precision::fp32: return "fp32";
    case precision::tf32: return "tf32";
    case precision::amp_fp16: return "amp-fp16";
    case precision::amp_bf16: return "amp-bf16";
    case precision::fp16: return "fp16";
    case precision::bf16: return "bf16";
  }
  return "?";
}

/// The unit and input type a kernel's multiply-adds run on.
enum class math_mode : std::uint8_t {
  fp32,  ///< CUDA cores, IEEE FP32 (also fp16/bf16 storage on a GPU without tensor cores for it)
  tf32,  ///< tensor cores, TF32 inputs, FP32 accumulate
  fp16,  ///< tensor cores, FP16 inputs, FP32 accumulate
  bf16,  ///< tensor cores, BF16 inputs, FP32 accumulate
};
BOOST_DESCRIBE_ENUM(math_mode, fp32, tf32, fp16, bf16)

/// How many math modes there are: the length of an array indexed by math_mode.
inline constexpr std::size_t math_mode_count =
    boost::mp11::mp_size<boost::describe::describe_enumerators<math_mode>>::value;

/// Bytes of one input element of `m`'s multiply-adds: TF32 and FP32 read fp32 tensors, FP16 and BF16 two-byte ones.
[[nodiscard]] constexpr std::int64_t input_element_bytes(math_mode m) noexcept {
  return m == math_mode::fp16 || m == math_mode::bf16 ? 2 : 4;
}

/// The dense peak of `m` on `d` in FLOP/s: the tensor-core peak of that input type, or the FP32 peak.
[[nodiscard]] constexpr double peak_flops_per_s(math_mode m, const device_spec& d) noexcept {
  switch (m) {
    case math_mode::fp32: return d.peak_fp32_flops_per_s;
    case math_mode::tf32: return d.peak_tf32_tensor_flops_per_s;
    case math_mode::fp16: return d.peak_fp16_tensor_flops_per_s;
    case math_mode::bf16: return d.peak_bf16_tensor_flops_per_s;
  }
  return d.peak_fp32_flops_per_s;
}

/// Whether `d` has tensor cores for `m` (FP32 always runs).
[[nodiscard]] constexpr bool supports(const device_spec& d, math_mode m) noexcept {
  return !d.is_cpu && peak_flops_per_s(m, d) > 0;
}

/// Whether PyTorch's scaled_dot_product_attention can run a kernel built for sm80+ and half tensors
/// (FlashAttention-2, cuDNN's attention) on `d` over tensors of `tensor_element_bytes`, and if not, why. The data sheet
/// tells sm80+ by its BF16 tensor cores, which arrived with the same architecture (Ampere). The one rule for what
/// attention's plan() says runs and for the instruction bound its kernel time applies (kernel_time.hpp).
enum class sm80_attention : std::uint8_t { runs, before_sm80, fp32_tensors };
[[nodiscard]] constexpr sm80_attention sm80_attention_on(const device_spec& d,
                                                         std::int64_t tensor_element_bytes) noexcept {
  if (!supports(d, math_mode::bf16)) return sm80_attention::before_sm80;
  return tensor_element_bytes == 2 ? sm80_attention::runs : sm80_attention::fp32_tensors;
}

/// The element type of parameters (weights, gradients, optimizer state) under `p`.
[[nodiscard]] constexpr dtype parameter_dtype(precision p) noexcept {
  return p == precision::fp16 ? dtype::fp16 : p == precision::bf16 ? dtype::bf16 : dtype::fp32;
}

/// The element type of activations under `p`: autocast's and model.half()'s outputs are half, else fp32.
[[nodiscard]] constexpr dtype activation_dtype(precision p) noexcept {
  switch (p) {
    case precision::amp_fp16:
    case precision::fp16: return dtype::fp16;
    case precision::amp_bf16:
    case precision::bf16: return dtype::bf16;
    default: return dtype::fp32;
  }
}

/// Whether `p` runs torch.autocast (fp32 master weights with half copies made every forward).
[[nodiscard]] constexpr bool autocasts(precision p) noexcept {
  return p == precision::amp_fp16 || p == precision::amp_bf16;
}

/// How a precision runs on one device.
struct precision_plan {
  math_mode matmul = math_mode::fp32;    ///< GEMMs: linear layers, attention's products, recurrent gates
  math_mode conv = math_mode::fp32;      ///< cuDNN convolutions
  std::int64_t activation_bytes = 4;     ///< tensors passed between layers (and saved for backward)
  std::int64_t reduction_bytes = 4;      ///< layer norm and softmax (autocast runs them in fp32)
  std::int64_t parameter_bytes = 4;      ///< weights, their gradients and the optimizer state
  bool autocast = false;                 ///< casts fp32 weights to the half type every forward (autocast's cache)
  bool grad_scaler = false;              ///< GradScaler: unscale and inf checks over the fp32 gradients every step
  /// BatchNorm runs PyTorch's own two-pass kernels, not cuDNN's: ATen hands cuDNN only fp32 inputs and fp16 inputs
  /// with fp32 weights (`_select_batch_norm_backend`), so bf16 activations and half weights take the native path.
  bool native_batchnorm = false;
  bool runnable = true;                  ///< false: PyTorch refuses this precision on the device (see `note`)
  std::string_view note;                 ///< what the device lacks and what runs instead; empty when as asked

  /// True when some kernel runs outside IEEE FP32 (tensor cores or 2-byte tensors): the precision calibration
  /// (predictors/precision_model.hpp) then scales it.
  [[nodiscard]] constexpr bool calibrated() const noexcept {
    return matmul != math_mode::fp32 || conv != math_mode::fp32 || activation_bytes != 4 || reduction_bytes != 4;
  }
};

/// How PyTorch runs `p` on `d`. A device without the tensor cores a precision asks for runs what PyTorch runs
/// there: TF32 requests run IEEE FP32 before Ampere (the flags are silently ignored); fp16 runs its GEMMs at the
/// FP32 rate on GPUs without FP16 tensor cores (cuBLAS computes in FP32 there); autocast to bfloat16 raises on a GPU
/// without BF16 support before PyTorch 2.3 and is refused here, and model.bfloat16() runs emulated at the FP32 rate
/// there (but not through a convolution: plan(nodes, ...) in predict.hpp refuses a network with one). A CPU runs
/// every precision; prenet predicts it at its FP32 rate.
[[nodiscard]] constexpr precision_plan plan(precision p, const device_spec& d,
                                            bool keep_batchnorm_fp32 = false) noexcept {
  precision_plan out;
  switch (p) {
    case precision::fp32: return out;
    case precision::pytorch_default:
      if (supports(d, math_mode::tf32)) out.conv = math_mode::tf32;
      return out;
    case precision::tf32:
      if (!supports(d, math_mode::tf32)) {
        out.note = "no TF32 tensor cores: runs as IEEE FP32";
        return out;
      }
      out.matmul = out.conv = math_mode::tf32;
      return out;
    case precision::amp_fp16:
    case precision::amp_bf16:
    case precision::fp16:
    case precision::bf16: {
      const math_mode half = activation_dtype(p) == dtype::fp16 ? math_mode::fp16 : math_mode::bf16;
      out.autocast = autocasts(p);
      out.activation_bytes = element_bytes(activation_dtype(p));
      out.parameter_bytes = element_bytes(parameter_dtype(p));
      out.reduction_bytes = out.autocast ? 4 : out.activation_bytes;  // autocast runs norms and softmax in fp32
      out.grad_scaler = p == precision::amp_fp16;
      out.native_batchnorm =
          activation_dtype(p) == dtype::bf16 || (parameter_dtype(p) != dtype::fp32 && !keep_batchnorm_fp32);
      if (supports(d, half)) {
        out.matmul = out.conv = half;
      } else if (d.is_cpu) {
        out.note = "a CPU: predicted at its FP32 rate (prenet has no model of its half-precision units)";
      } else if (p == precision::amp_bf16) {
        out.runnable = false;
        out.note = "no BF16 support: torch.autocast(dtype=torch.bfloat16) raises on this device before PyTorch 2.3, "
                   "later versions emulate bfloat16 without tensor cores and cuDNN has no bfloat16 convolutions "
                   "before sm80";
      } else {
        out.note = half == math_mode::fp16 ? "no FP16 tensor cores: half-precision math at the FP32 rate"
                                           : "no BF16 support: bfloat16 math emulated at the FP32 rate";
      }
      return out;
    }
  }
  return out;
}

}  // namespace prenet
