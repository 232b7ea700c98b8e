// SPDX-License-Identifier: MIT
// The time of one kernel on one device: the embedded learned model of its family, or the roofline fallback.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>

#include <prenet/detail/saturating.hpp>
#include <prenet/device_spec.hpp>
#include <prenet/predictors/generated/all.hpp>
#include <prenet/predictors/generated/precision.hpp>
#include <prenet/predictors/kernel.hpp>
#include <prenet/predictors/kernel_features.hpp>
#include <prenet/predictors/kernel_model.hpp>
#include <prenet/predictors/precision_model.hpp>
#include <prenet/precision.hpp>

namespace prenet::predictors {

/// Fixed cost of a kernel the roofline fallback adds: a launch and a tail, about 5 us on every GPU NeuSight timed.
inline constexpr double fallback_launch_ms = 0.005;

/// The name every roofline-fallback prediction is tagged with.
inline constexpr std::string_view roofline_name = "roofline";

struct kernel_estimate {
  double time_ms = 0;
  std::string_view predictor;  ///< the embedded model's name, or "roofline"
  bool out_of_domain = false;  ///< a learned model extrapolating past its training shapes
  bool unseen_device = false;  ///< a learned model used on a device it has no training rows for
};

/// Whether an estimate works out its flags (kernel_estimate's out_of_domain and unseen_device): the estimates a
/// prediction reports do; the monotone envelope's probes (estimate), which lend it only their time, skip them.
enum class domain_flags : std::uint8_t { computed, skipped };

/// The learned models a kernel's estimate reads: at most one per kernel family (a family without one falls back to
/// the roofline) and the precision calibration. `embedded_predictors` are the generated headers'; the trainer builds
/// others at run time, e.g. without any row of one GPU for leave-one-GPU-out validation (`prenet-train validate`).
struct kernel_predictors {
  std::span<const kernel_model* const> kernels;
  const precision_model* precision;
};

/// The predictors embedded in the generated headers: what every estimate uses unless told otherwise.
inline constexpr kernel_predictors embedded_predictors{generated::all, &generated::precision};

/// The model `p` has for a family, or nullptr when only the roofline covers it.
[[nodiscard]] constexpr const kernel_model* model_for(kernel_family f,
                                                      const kernel_predictors& p = embedded_predictors) noexcept {
  for (const kernel_model* m : p.kernels) {
    if (m->family == f) return m;
  }
  return nullptr;
}

/// Whether `p` has a model for a family; a loop over families rather than `model_for(f, p) != nullptr`, which g++ 12
/// with -fsanitize=undefined does not treat as a constant expression.
[[nodiscard]] constexpr bool has_model_for(kernel_family f, const kernel_predictors& p = embedded_predictors) noexcept {
  for (const kernel_model* m : p.kernels) {
    if (m->family == f) return true;
  }
  return false;
}

/// Roofline fallback: max(FLOPs / peak, bytes / bandwidth) plus a launch.
[[nodiscard]] constexpr double roofline_ms(const kernel& kn, const device_spec& d) noexcept {
  return roofline_s(kn, d) * 1e3 + fallback_launch_ms;
}

/// The name of estimates whose multiply-adds run on tensor cores (see estimate).
[[nodiscard]] constexpr std::string_view tensor_core_name(math_mode m) noexcept {
  switch (m) {
    case math_mode::tf32: return "tensor_cores.tf32.roofline_ratio";
    case math_mode::fp16: return "tensor_cores.fp16.roofline_ratio";
    case math_mode::bf16: return "tensor_cores.bf16.roofline_ratio";
    case math_mode::fp32: break;
  }
  return "fp32";
}

/// The kernel as IEEE FP32 runs it: 4-byte elements on CUDA cores (what the learned kernel models were trained on).
[[nodiscard]] constexpr kernel as_fp32(kernel kn) noexcept {
  kn.element_bytes = 4;
  kn.math = math_mode::fp32;
  return kn;
}

/// A convolution as the matrix product cuDNN's implicit-GEMM kernels run: (images x output pixels x input channels .
/// kernel area) times (input channels . kernel area x output channels), one GEMM whose rows are every image's output
/// pixels, as a Dense layer's rows are every token (the filter is shared, not a batch of matrices).
[[nodiscard]] constexpr kernel implicit_gemm(const kernel& conv) noexcept {
  kernel g = conv;
  g.family = kernel_family::gemm;
  g.b = 1;
  g.m = detail::sat_mul(conv.b, detail::sat_mul(conv.out_image(), conv.out_image()));
  g.k = conv.m * conv.k * conv.k;
  g.image = 0;
  g.stride = 1;
  g.padding = 0;
  return g;
}

/// Whether a convolution model's training rows include the window and the image of the convolution whose features
/// are `x`: its kernel size, stride and padding, and its image side. NeuSight's convolutions are all 3x3, stride 1,
/// padding 1, over images of 5 to 252 pixels; a 1x1 projection, a 7x7 stem, a strided 3x3 or the 2x2 to 4x4 images
/// of a ResNet's last stage at 64 to 128 pixels lies outside, and a tree cannot extrapolate to it.
[[nodiscard]] constexpr bool window_trained(const embedded_model& conv_model,
                                            const std::array<float, kernel_feature_count>& x) noexcept {
  constexpr std::array<std::size_t, 4> window_columns{kernel_feature_index("log2_k"), kernel_feature_index("stride"),
                                                      kernel_feature_index("padding"),
                                                      kernel_feature_index("log2_image")};
  for (const std::size_t i : window_columns) {
    if (!conv_model.column_trained(x, i)) return false;
  }
  return true;
}

/// Time of `kn` (run kn.repeat times) on `d`, in IEEE FP32: the learned model of its family, or the roofline. A
/// convolution whose window or image its model has no rows for (window_trained) is predicted as its implicit GEMM by
/// the GEMM model, whose rows span the matrix shapes convolutions reduce to (docs/predictors.md measures what it
/// changed).
[[nodiscard]] constexpr kernel_estimate estimate_fp32(const kernel& kn, const device_spec& d,
                                                     const kernel_predictors& p = embedded_predictors,
                                                     domain_flags flags = domain_flags::computed) noexcept {
  const auto times = static_cast<double>(kn.repeat);
  // A loop rather than `if (model_for(...))`: g++ 12 with -fsanitize=undefined does not treat comparing the
  // address of a generated model with nullptr as a constant expression.
  // Kernel models learned on GPUs say nothing about a CPU: there the roofline of its own specs covers what the
  // CPU's measured layer models (layer_time.hpp) do not.
  if (!d.is_cpu) {
    for (const kernel_model* m : p.kernels) {
      if (m->family != kn.family) continue;
      const auto x = m->inputs(kn, d);
      if (kn.family == kernel_family::conv2d && !window_trained(m->model, x) &&
          has_model_for(kernel_family::gemm, p))
        return estimate_fp32(implicit_gemm(kn), d, p, flags);
      const bool flagged = flags == domain_flags::computed;
      return {.time_ms = m->time_ms(x, kn, d) * times,
              .predictor = m->model.name,
              .out_of_domain = flagged && m->model.out_of_domain(x),
              .unseen_device = flagged && !m->model.trained_on(d.id)};
    }
  }
  return {.time_ms = roofline_ms(kn, d) * times, .predictor = roofline_name};
}

/// The kernel as `d` runs it: a math mode the device lacks runs on CUDA cores (see precision.hpp's plan); only the
/// element size stays.
[[nodiscard]] constexpr kernel as_run_on(kernel kn, const device_spec& d) noexcept {
  if (!supports(d, kn.math)) kn.math = math_mode::fp32;
  return kn;
}

/// The time `own` (run own.repeat times, moving `bytes`) cannot beat: its roofline at the fewest FLOPs a library runs
/// it with (fewest_flops) and the peak of its math mode. The floor estimate_fp32 has (fastest_roofline_s), at the
/// kernel's own peak and element size: with the direct FLOPs a Winograd 3x3 convolution's fp16 time on CUDA cores
/// was clamped above its FP32 time. precision_time_ms keeps it, least_learned_ms reads it.
[[nodiscard]] constexpr double floor_ms(const kernel& own, const device_spec& d, std::int64_t bytes) noexcept {
  const double roofline = roofline_s(fewest_flops(own), static_cast<double>(bytes), d, peak_flops_per_s(own.math, d));
  const double issue = issue_s(own, d);
  return (issue > roofline ? issue : roofline) * 1e3 * static_cast<double>(own.repeat);
}

/// Whether `kn` is an IEEE FP32 kernel, which the learned models time as it is (no precision scaling).
[[nodiscard]] constexpr bool is_ieee_fp32(const kernel& kn) noexcept {
  return kn.math == math_mode::fp32 && kn.element_bytes == 4;
}

/// The board power law `p`'s learned FP32 time of a `f` kernel was computed with (kernel_model::power): every model
/// of one training run is fitted with one law. None (every board at its data-sheet peak) where `p` times the family
/// by its roofline.
[[nodiscard]] constexpr board_power_law fp32_power_law(kernel_family f,
                                                       const kernel_predictors& p = embedded_predictors) noexcept {
  for (const kernel_model* m : p.kernels) {
    if (m->family == f) return m->power;
  }
  return {};
}

/// The narrowest output tile a GEMM runs in: a GEMM's output side (rows or columns) narrower than this costs the
/// multiply-adds of this many (executed_flops), in both rooflines of precision_time_ms. The learned FP32 time of a
/// narrow GEMM — a LoRA adapter's rank, a classifier's few classes, a small batch's rows — carries that waste (nearly
/// flat below 64 columns: docs/precision.md, "Narrow GEMMs", quotes the A100 80GB's times, tests/docs checks them), and
/// reading its roofline at the nominal FLOPs took the kernel for memory-bound, so the precision scaling shortened it by
/// the element size alone (half) where tensor cores shorten the padded compute 16 times: a bf16 LoRA adapter of rank
/// 8 was predicted slower than one of rank 128. Wider sides count as they are: rounding every side up to whole tiles
/// made the scaled time a saw-tooth in size (the learned time is smooth, the rounded roofline is not) and doubled the
/// size pairs that fail docs/monotonicity.md's sweep. The tile is not the 128 x 128 of a large GEMM that work_units
/// counts waves in: padding BERT's 64-wide attention heads to 128 made our Hopper TF32 BERT steps, predicted too slow
/// already, 5% slower (docs/precision.md, "Narrow GEMMs"). The calibration's GEMMs are at least 64 wide on both
/// sides, so its fit does not see the tile.
inline constexpr std::int64_t gemm_output_tile = 64;

/// The FLOPs `kn` runs with a GEMM's rows and columns each at least gemm_output_tile (the inner size as it is); every
/// other family's own FLOPs. Not a bound: floor_ms reads the nominal FLOPs.
[[nodiscard]] constexpr double executed_flops(kernel kn) noexcept {
  if (kn.family == kernel_family::gemm) {
    kn.m = kn.m < gemm_output_tile ? gemm_output_tile : kn.m;
    kn.n = kn.n < gemm_output_tile ? gemm_output_tile : kn.n;
  }
  return static_cast<double>(kn.flops());
}

/// Time of `own` (a kernel `d` runs as it is, see as_run_on; run own.repeat times) in its own precision, from
/// `fp32_ms`, the learned time of its IEEE FP32 twin (as_fp32), and `stretch` (precision_model). The FP32 time, which
/// carries the kernel's shape-dependent inefficiency, is scaled by the ratio of the two rooflines, each plus a launch
/// that no precision shortens:
///
///     t = fp32_ms * (stretch * roofline_own + launch) / (roofline_fp32 + launch),
///     never below roofline_own at fewest_flops (floor_ms)
///
/// Tensor cores shrink the compute term by the ratio of their peak to the FP32 rate, half-size elements the memory
/// term; `stretch` says how much of that the kernel really gets, and is capped so that no kernel is slower than its
/// FP32 twin. A tiny kernel keeps its launch-bound time. Both rooflines count a narrow GEMM's FLOPs at its narrowest
/// tile (executed_flops). `slowdown` (precision_model::slowdown: an unaligned tensor-core GEMM's) divides the peak of
/// the own roofline's compute term and the bandwidth of its memory term, each by what misalignment costs it as
/// measured: the tensor cores' fast loads, far more than the traffic (docs/precision.md, "Alignment"); the cap at the
/// FP32 twin holds as before. Both rooflines read CUDA-core work at the FP32 rate the
/// board sustains (`power`, the law the learned FP32 time was computed with: board_power_law), tensor-core work at
/// the data sheet's tensor peak: the learned FP32 time carries the shortfall of a board whose FP32 peak its power or
/// its issue rate does not hold (the 70 W T4; Ampere and Ada GeForce and professional parts, whose FP32 peak counts
/// two issues per clock), which the tensor cores do not share; what they do fall short of their own peak is the
/// stretch's, calibrated on boards of every kind. The one definition of a kernel's time outside FP32: estimate()
/// uses it with the embedded calibration's stretch, the trainer (`prenet-train precision`) with its candidates'.
[[nodiscard]] constexpr double precision_time_ms(double fp32_ms, const kernel& own, const device_spec& d,
                                                 double stretch, const board_power_law& power,
                                                 const alignment_slowdown& slowdown = {}) noexcept {
  const double fp32_flops_per_s = power.sustained_fp32_flops_per_s(d);
  const double flops = executed_flops(own), bytes = static_cast<double>(own.bytes());
  const double own_peak = own.math == math_mode::fp32 ? fp32_flops_per_s : peak_flops_per_s(own.math, d);
  // Instructions issue alike in every precision (issue_s): a bound both rooflines share.
  const double issue_ms = issue_s(own, d) * 1e3;
  const auto bounded_ms = [issue_ms](double roofline_ms) { return roofline_ms > issue_ms ? roofline_ms : issue_ms; };
  const double own_ms = bounded_ms(roofline_s(flops, bytes, d, own_peak) * 1e3);
  const double slowed_ms =
      !slowdown.any() ? own_ms
                      : bounded_ms(roofline_s(flops, bytes * slowdown.memory, d, own_peak / slowdown.compute) * 1e3);
  const double twin_ms =
      bounded_ms(roofline_s(flops, static_cast<double>(as_fp32(own).bytes()), d, fp32_flops_per_s) * 1e3);
  double stretched_ms = stretch * slowed_ms;
  if (stretched_ms > twin_ms) stretched_ms = twin_ms > own_ms ? twin_ms : own_ms;
  const double scaled_ms = fp32_ms * ((stretched_ms + fallback_launch_ms) / (twin_ms + fallback_launch_ms));
  const double bound_ms = floor_ms(own, d, own.bytes());
  return scaled_ms > bound_ms ? scaled_ms : bound_ms;
}

/// Time of `kn` (run kn.repeat times) on `d` in its own precision, from the learned models alone: estimate() without
/// the monotone envelope. Fused attention has no learned model of its own (fused_attention_estimate).
[[nodiscard]] constexpr kernel_estimate estimate_learned(const kernel& kn, const device_spec& d,
                                                        const kernel_predictors& p = embedded_predictors,
                                                        domain_flags flags = domain_flags::computed) noexcept {
  if (is_ieee_fp32(kn)) return estimate_fp32(kn, d, p, flags);
  const kernel own = as_run_on(kn, d);
  kernel_estimate e = estimate_fp32(as_fp32(own), d, p, flags);
  e.time_ms = precision_time_ms(e.time_ms, own, d, p.precision->stretch(own, d), fp32_power_law(own.family, p),
                                p.precision->slowdown(own));
  if (own.math != math_mode::fp32) e.predictor = tensor_core_name(own.math);
  return e;
}

/// A time no estimate_learned of `kn` goes below: floor_ms, which both estimate_fp32 and precision_time_ms keep; for
/// an FP32 convolution at the bytes of its implicit GEMM where fewer, since the GEMM model may predict it instead.
[[nodiscard]] constexpr double least_learned_ms(const kernel& kn, const device_spec& d) noexcept {
  const bool fp32 = is_ieee_fp32(kn);
  const kernel own = fp32 ? kn : as_run_on(kn, d);
  auto bytes = own.bytes();
  if (fp32 && kn.family == kernel_family::conv2d && implicit_gemm(kn).bytes() < bytes)
    bytes = implicit_gemm(kn).bytes();
  return floor_ms(own, d, bytes);
}

/// How many probes along each work axis a kernel's estimate is checked against (estimate): three, up to 8x the work,
/// reach past the tiny shapes — a 2x2 or 4x4 feature map, a batch of 1 or 2 — where the trees extrapolate.
inline constexpr int monotone_probes = 3;

/// The ways a kernel can be given more of the same work, each probed by estimate()'s monotone envelope.
enum class work_axis : std::uint8_t {
  instances,  ///< independent instances: the batch of a (batched) GEMM or convolution, the rows of a normalisation or
              ///< softmax, the elements of an elementwise kernel
  outputs,    ///< outputs along the other free axis, each the same work: a convolution's image side (its implicit
              ///< GEMM's rows), a GEMM's rows
  reduction,  ///< more work per output: a GEMM's inner dimension (a weight gradient's batch x tokens)
};
inline constexpr std::array<work_axis, 3> work_axes{work_axis::instances, work_axis::outputs, work_axis::reduction};

/// Whether with_more changes `f`'s kernels along `a`.
[[nodiscard]] constexpr bool grows_along(kernel_family f, work_axis a) noexcept {
  switch (a) {
    case work_axis::instances: return f != kernel_family::attention && f != kernel_family::memory;
    case work_axis::outputs: return f == kernel_family::conv2d || f == kernel_family::gemm;
    case work_axis::reduction: return f == kernel_family::gemm;
  }
  return false;
}

/// The least power of two above `v`: twice a power of two, at most twice anything else (1 for v < 1; v itself from
/// 2^62, where the next would not fit).
[[nodiscard]] constexpr std::int64_t next_power_of_two(std::int64_t v) noexcept {
  if (v < 1) return 1;
  if (v >= std::int64_t{1} << 62) return v;
  return static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(v) + 1));
}

/// The size of `kn` that grows along `a` (nullptr where `kn` does not grow along it, see grows_along).
[[nodiscard]] constexpr std::int64_t* size_along(kernel& kn, work_axis a) noexcept {
  if (!grows_along(kn.family, a)) return nullptr;
  const bool batched = kn.family == kernel_family::gemm || kn.family == kernel_family::conv2d;
  switch (a) {
    case work_axis::instances: return batched ? &kn.b : &kn.m;
    case work_axis::outputs: return kn.family == kernel_family::conv2d ? &kn.image : &kn.m;
    case work_axis::reduction: return &kn.k;
  }
  return nullptr;
}

/// `kn` with more of its work along `a`: that size raised to the next power of two above it (next_power_of_two),
/// twice the work for a power of two, up to twice for any other size (unchanged where `kn` does not grow along `a`).
/// The probes of every size lie on one grid, so two sizes share the probes above the larger.
[[nodiscard]] constexpr kernel with_more(kernel kn, work_axis a) noexcept {
  if (std::int64_t* size = size_along(kn, a)) *size = next_power_of_two(*size);
  return kn;
}

/// Whether `f`'s kernels grow along one work axis only: layer norm, softmax and elementwise kernels (their rows or
/// elements).
[[nodiscard]] constexpr bool grows_along_one_axis(kernel_family f) noexcept {
  int axes = 0;
  for (const work_axis a : work_axes) axes += grows_along(f, a) ? 1 : 0;
  return axes == 1;
}

/// `kn` with the size it grows along rounded down to a power of two (the grid with_more's probes lie on), for a
/// family that grows along one axis (grows_along_one_axis); `changed` says whether that changed anything.
[[nodiscard]] constexpr kernel rounded_down(kernel kn, bool& changed) noexcept {
  changed = false;
  if (!grows_along_one_axis(kn.family)) return kn;
  for (const work_axis a : work_axes) {
    std::int64_t* size = size_along(kn, a);
    if (size == nullptr || *size < 1) continue;
    const auto floor = static_cast<std::int64_t>(std::bit_floor(static_cast<std::uint64_t>(*size)));
    changed = floor != *size;
    *size = floor;
  }
  return kn;
}

/// The share of a large GEMM's rate (in the same math mode, on the same device) a fused attention kernel reaches at
/// long sequences, forward and backward. scaled_dot_product_attention's flash kernel is FlashAttention-2, which its
/// paper (Dao 2023) measures at 50-73% of the A100's FP16 tensor peak, close to what GEMMs reach; the backward pass,
/// five products and a recomputed softmax per tile, reaches less. Our learned GEMMs run at 0.97 of that peak on the
/// A100 80GB, so the forward's best, 73%, is 0.75 of their rate; 0.75 and 0.60 are that reading, not a fit: no
/// measurement here has a fused attention kernel (docs/attention.md).
inline constexpr double fused_attention_forward_share = 0.75;
inline constexpr double fused_attention_backward_share = 0.60;
/// What a query row's fixed work (loading its tile, the epilogue's rescale and write) costs in keys it could have
/// attended to instead: two of FlashAttention's 128-key blocks. A row over `keys` keys runs at keys / (keys + 256)
/// of the long-sequence share (0.67 at 512 keys, 0.89 at 2,048).
inline constexpr double fused_attention_fixed_keys = 256;
/// Query rows one thread block of the fused kernel takes: the grid is batch x heads x ceil(queries / 128) blocks.
inline constexpr std::int64_t fused_attention_query_block = 128;
/// The name of fused attention estimates (see fused_attention_estimate).
inline constexpr std::string_view fused_attention_name = "fused_attention.gemm_share";

/// Dense tensor-core FLOPs one SM issues per clock with the instruction PyTorch's fused attention kernels are built
/// on: FlashAttention-2 and the memory-efficient kernel issue sm80's warp-level mma.sync, 1,024 multiply-adds a clock
/// in FP16/BF16 and 512 in TF32 — an Ampere SM's full rate (the A100: 312 TFLOP/s = 108 SMs x 2,048 x 1,410 MHz).
/// 0 for CUDA-core math, which has no such bound.
[[nodiscard]] constexpr double fused_attention_flops_per_sm_clock(math_mode m) noexcept {
  switch (m) {
    case math_mode::fp16:
    case math_mode::bf16: return 2048;
    case math_mode::tf32: return 1024;
    default: return 0;
  }
}

/// The share of `d`'s data-sheet peak in math mode `m` that mma.sync can issue (fused_attention_flops_per_sm_clock
/// x SMs x boost clock over the peak), at most 1. 1 on Volta to Ada, on GeForce and workstation Blackwell, where
/// mma.sync is the tensor cores' own instruction; 0.54 on Hopper (the H100 SXM: 535 of 989.5 TFLOP/s) and 0.27
/// on a B200, whose peaks need wgmma or tcgen05, which neither FlashAttention-2 nor the memory-efficient kernel
/// issues (cuDNN's attention does: kernel::native_mma). That FlashAttention-2 runs at 35% of the H100's FP16 peak
/// (FlashAttention-3's paper, Shah et al. 2024; up to 335 TFLOP/s forward and backward in FlashAttention-2's own, Dao
/// 2023), against 50-73% of the A100's, is this bound. Read from the data sheet (SMs, clock, peak), never from a
/// device's name.
[[nodiscard]] constexpr double fused_attention_issue_share(math_mode m, const device_spec& d) noexcept {
  const double per_sm_clock = fused_attention_flops_per_sm_clock(m);
  const double peak = peak_flops_per_s(m, d);
  if (per_sm_clock <= 0 || d.sm_count <= 0 || d.boost_clock_mhz <= 0 || !(peak > 0)) return 1.0;
  const double issue = per_sm_clock * static_cast<double>(d.sm_count) * d.boost_clock_mhz * 1e6;
  // Within 1% the peak is the bound: data sheets round (the A100's 312 TFLOP/s is 311.9 at its clock).
  return issue < 0.99 * peak ? issue / peak : 1.0;
}

[[nodiscard]] constexpr kernel_estimate fused_attention_estimate(const kernel& kn, const device_spec& d,
                                                                 const kernel_predictors& p) noexcept;

/// Time of `kn` (run kn.repeat times) on `d` in its own precision (kn.math, kn.element_bytes): the learned FP32
/// estimate of its twin through precision_time_ms and the embedded calibration. Always finite and positive for
/// kernels with work to do. Estimates on tensor cores are tagged with tensor_core_name; docs/precision.md
/// describes the model and its accuracy.
///
/// More of the same work never takes less time: a learned estimate is the least of those of `kn` and of `kn` with
/// more of its work along each work_axis it grows along, that size raised to the next three powers of two above it
/// (with_more: 2, 4 and 8 times a power of two). The trees, fitted on a ratio to the roofline, extrapolate at tiny
/// shapes (a 4x4 feature map, a batch of 1) to times above those of the same kernel on more data; and
/// precision_time_ms scales a launch-bound FP32 time by a ratio of rooflines that falls as the work grows. The
/// iteration time then fell as the batch or the image grew (docs/monotonicity.md). The envelope caps such
/// a kernel at the least time the models give for more of it; where the estimate already grows with the work it is
/// unchanged. Because the probes lie on one grid of powers of two, a size and a larger one share every probe above the
/// larger (a 6x6 feature map is probed at 8x8, 16x16 and 32x32, an 8x8 one at 16x16, 32x32 and 64x64), and steps that
/// are not doublings (an image side of 96 becoming 128) keep the order too; they can still fall where the larger
/// size's own estimate is below every probe of the smaller. A layer norm, softmax or elementwise kernel is also no
/// faster than the same kernel with its size rounded down to the grid (rounded_down). The roofline (families without
/// a model, a CPU) grows with the work and needs none.
[[nodiscard]] constexpr kernel_estimate estimate(const kernel& kn, const device_spec& d,
                                                const kernel_predictors& p = embedded_predictors) noexcept {
  if (kn.family == kernel_family::attention) return fused_attention_estimate(kn, d, p);
  kernel_estimate e = estimate_learned(kn, d, p);
  if (d.is_cpu || !has_model_for(kn.family, p)) return e;
  // Each probe at most quadruples FLOPs and bytes: stop while they stay well inside 64-bit integers.
  constexpr std::int64_t most_probed = std::int64_t{1} << 58;
  // A probe is evaluated only while its floor (least_learned_ms, which grows along each chain) is below the
  // estimate so far: it could not lower it otherwise. Kernels near their roofline, most at large batches, skip them.
  std::array<kernel, work_axes.size()> probe{};
  std::array<bool, work_axes.size()> open{};
  double least_probe_ms = std::numeric_limits<double>::infinity();
  for (std::size_t a = 0; a < work_axes.size(); ++a) probe[a] = kn, open[a] = grows_along(kn.family, work_axes[a]);
  for (int i = 0; i < monotone_probes; ++i) {
    for (std::size_t a = 0; a < work_axes.size(); ++a) {
      if (!open[a] || probe[a].flops() >= most_probed || probe[a].bytes() >= most_probed) continue;
      probe[a] = with_more(probe[a], work_axes[a]);
      open[a] = least_learned_ms(probe[a], d) < e.time_ms;
      if (!open[a]) continue;
      const double probe_ms = estimate_learned(probe[a], d, p, domain_flags::skipped).time_ms;
      if (probe_ms < least_probe_ms) least_probe_ms = probe_ms;
      if (probe_ms < e.time_ms) e.time_ms = probe_ms;
    }
  }
  // Nor faster than the kernel with its size rounded down to a power of two, for the families that grow along one
  // axis (rounded_down): a size between two grid points where the trees dip below both is raised to the lower one's
  // time, up to the least probe. The rows of a small layer norm or softmax are launch-bound, where the trees' times
  // scatter by +-20% from one size to the next (an A100 80GB's layer norm over 768 columns: 0.045 ms for 128 rows,
  // 0.032 ms for 148). Checked where a probe was evaluated (the kernel is far enough from its roofline for the trees
  // to decide its time) and none was faster: a kernel whose probes were all skipped, or that a probe capped, is
  // monotone already. GEMMs and convolutions grow along two or three axes, and rounding them all down mixed the
  // axes' grids (more failing pairs in docs/monotonicity.md's sweep, and an evaluation more per kernel in constexpr
  // budgets).
  if (least_probe_ms > e.time_ms && least_probe_ms < std::numeric_limits<double>::infinity()) {
    bool rounded = false;
    if (const kernel low = rounded_down(kn, rounded); rounded) {
      const double low_ms = estimate_learned(low, d, p, domain_flags::skipped).time_ms;
      if (low_ms > e.time_ms) e.time_ms = low_ms < least_probe_ms ? low_ms : least_probe_ms;
    }
  }
  return e;
}

/// Time of a fused attention kernel (a pass of scaled_dot_product_attention, kn.family attention) on `d`. No model
/// here was trained on one, and it has no FP32 twin to scale; its products are tensor-core GEMMs on tiles held on
/// chip, so it runs at a share of the rate `d` reaches on a large GEMM in the same math mode (the learned GEMM model
/// through the precision calibration: an 8192 x 8192 x 8192 product) times the share of the peak its instruction can
/// issue (fused_attention_issue_share: below 1 on Hopper and data-centre Blackwell, 1 for cuDNN's kernel, which
/// issues the device's own: kernel::native_mma), that share shrunk by each query row's fixed work
/// (fused_attention_fixed_keys) and by the last wave of thread blocks the device is not full for, never faster than
/// its roofline (FLOPs at the math mode's peak, bytes at the memory bandwidth). Plus a launch. A CPU, which runs
/// PyTorch's fused CPU kernel and has no GEMM model, gets the roofline.
[[nodiscard]] constexpr kernel_estimate fused_attention_estimate(const kernel& kn, const device_spec& d,
                                                                 const kernel_predictors& p) noexcept {
  const kernel own = as_run_on(kn, d);
  const double flops = static_cast<double>(own.flops()), times = static_cast<double>(own.repeat);
  const double roofline = roofline_s(flops, static_cast<double>(own.bytes()), d, peak_flops_per_s(own.math, d));
  if (d.is_cpu || !has_model_for(kernel_family::gemm, p)) {
    return {.time_ms = (roofline * 1e3 + fallback_launch_ms) * times, .predictor = roofline_name};
  }
  kernel gemm = gemm_kernel(1, 8192, 8192, 8192, own.element_bytes);
  gemm.math = own.math;
  const kernel_estimate g = estimate(gemm, d, p);
  // cuDNN's kernel takes half tensors on sm80+ only; elsewhere sdpa runs the memory-efficient one (the rule
  // attention.hpp's plan() applies too), whose instruction bound applies.
  const bool native = own.native_mma && sm80_attention_on(d, own.element_bytes) == sm80_attention::runs;
  const double gemm_flops_per_s = static_cast<double>(gemm.flops()) / (g.time_ms * 1e-3) *
                                  (native ? 1.0 : fused_attention_issue_share(own.math, d));
  const double keys = static_cast<double>(own.n > 0 ? own.n : 1);
  const std::int64_t blocks = own.b * ((own.m + fused_attention_query_block - 1) / fused_attention_query_block);
  const std::int64_t sms = d.sm_count > 0 ? d.sm_count : 1;
  const double full_waves_share =
      blocks > 0 ? static_cast<double>(blocks) / static_cast<double>((blocks + sms - 1) / sms * sms) : 1.0;
  const double share = (own.backward ? fused_attention_backward_share : fused_attention_forward_share) *
                       keys / (keys + fused_attention_fixed_keys) * full_waves_share;
  const double compute = flops / (gemm_flops_per_s * share);
  return {.time_ms = ((compute > roofline ? compute : roofline) * 1e3 + fallback_launch_ms) * times,
          .predictor = fused_attention_name, .unseen_device = g.unseen_device};
}

}  // namespace prenet::predictors
