// SPDX-License-Identifier: MIT
// prenet::optimizer: the training optimizers, with the state they keep and the work of one update.
#pragma once

#include <cstdint>
#include <string_view>

#include <boost/describe/enum.hpp>

namespace prenet {

/// `none` means no update step (forward + backward only, as NeuSight's training traces). Every optimizer updates as
/// stock PyTorch does on a GPU (the multi-tensor "foreach" implementation, see update_traffic_of) but the fused
/// ones: `adam_fused` and `adamw_fused` are torch.optim.Adam/AdamW(fused=True) and apex's FusedAdam, one kernel that
/// reads and writes every tensor once.
enum class optimizer : std::uint8_t { none, sgd, momentum, adam, adamw, rmsprop, adagrad, adam_fused, adamw_fused };
BOOST_DESCRIBE_ENUM(optimizer, none, sgd, momentum, adam, adamw, rmsprop, adagrad, adam_fused, adamw_fused)

/// Optimizer state kept per parameter, in parameter-sized tensors: momentum buffer 1, Adam's two moments 2,
/// RMSprop's square average 1, Adagrad's sum of squares 1 (PyTorch's defaults, no amsgrad, no centring).
[[nodiscard]] constexpr std::int64_t state_tensors_per_param(optimizer o) noexcept {
  switch (o) {
    case optimizer::none:
    case optimizer::sgd: return 0;
    case optimizer::momentum:
    case optimizer::rmsprop:
    case optimizer::adagrad: return 1;
    case optimizer::adam:
    case optimizer::adamw:
    case optimizer::adam_fused:
    case optimizer::adamw_fused: return 2;
  }
  return 0;
}

/// Parameter-sized temporaries one update allocates besides its state: PyTorch's multi-tensor (foreach) Adam,
/// AdamW, RMSprop and Adagrad build sqrt(second moment) as new tensors before dividing; SGD and momentum update in
/// place, and a fused update computes everything in registers.
[[nodiscard]] constexpr std::int64_t update_temporaries_per_param(optimizer o) noexcept {
  switch (o) {
    case optimizer::adam:
    case optimizer::adamw:
    case optimizer::rmsprop:
    case optimizer::adagrad: return 1;
    case optimizer::none:
    case optimizer::sgd:
    case optimizer::momentum:
    case optimizer::adam_fused:
    case optimizer::adamw_fused: return 0;
  }
  return 0;
}

/// FLOPs per parameter of one update (a square root or division counts 1): SGD w -= lr g: 2; momentum
/// b = m b + g, w -= lr b: 4; Adam two moments (3 + 4), bias corrections and the step (5): 12; AdamW adds the
/// decoupled decay: 14; RMSprop: 7; Adagrad: 5.
[[nodiscard]] constexpr std::int64_t update_flops_per_param(optimizer o) noexcept {
  switch (o) {
    case optimizer::none: return 0;
    case optimizer::sgd: return 2;
    case optimizer::momentum: return 4;
    case optimizer::adam:
    case optimizer::adam_fused: return 12;
    case optimizer::adamw:
    case optimizer::adamw_fused: return 14;
    case optimizer::rmsprop: return 7;
    case optimizer::adagrad: return 5;
  }
  return 0;
}

/// How one update of `o` streams memory on a GPU: the kernels it launches (for a model whose tensors fit one chunk
/// list) and the parameter-sized tensors they read and write in all (a tensor read by one op and written by the next
/// counts twice). Stock PyTorch runs the multi-tensor ("foreach") update, one op per arithmetic step over every
/// parameter; a fused update is one pass. Our H200 steps (data/h200/e2e.csv) time PyTorch's AdamW at 17.0 ms on
/// GPT-2 large: 774M parameters at 84 bytes each are 65 GB, 13.5 ms at the data sheet's bandwidth (28 bytes, one
/// pass, would be 4.5 ms).
struct update_traffic {
  std::int64_t ops = 0;            ///< kernels one update launches
  std::int64_t tensor_passes = 0;  ///< parameter-sized tensors read or written, summed over its kernels
};
[[nodiscard]] constexpr update_traffic update_traffic_of(optimizer o) noexcept {
  switch (o) {
    case optimizer::none: return {};
    case optimizer::sgd: return {1, 3};       // p -= lr g
    case optimizer::momentum: return {3, 8};  // b *= mu; b += g; p -= lr b
    // m = lerp(m, g); v *= b2; v += (1 - b2) g g; s = sqrt(v); s /= sqrt(c2); s += eps; p -= lr / c1 m / s
    case optimizer::adam: return {7, 19};
    case optimizer::adamw: return {8, 21};    // adam's, after the decoupled decay p *= 1 - lr wd
    case optimizer::rmsprop: return {5, 14};  // v *= a; v += (1 - a) g g; s = sqrt(v); s += eps; p -= lr g / s
    case optimizer::adagrad: return {4, 12};  // v += g g; s = sqrt(v); s += eps; p -= lr g / s
    case optimizer::adam_fused:
    case optimizer::adamw_fused: return {1, 7};  // p, m and v read and written, g read
  }
  return {};
}

[[nodiscard]] constexpr std::string_view name(optimizer o) noexcept {
  switch (o) {
    case optimizer::none: return "none";
    case optimizer::sgd: return "sgd";
    case optimizer::momentum: return "momentum";
    case optimizer::adam: return "adam";
    case optimizer::adamw: return "adamw";
    case optimizer::rmsprop: return "rmsprop";
    case optimizer::adagrad: return "adagrad";
    case optimizer::adam_fused: return "adam-fused";
    case optimizer::adamw_fused: return "adamw-fused";
  }
  return "unknown";
}

}  // namespace prenet
