// SPDX-License-Identifier: MIT
// prenet::optimizer: the training optimizers, with the state they keep and the work of one update.
#pragma once

#include <cstdint>
#include <string_view>

#include <boost/describe/enum.hpp>

namespace prenet {

/// `none` means no update step (forward + backward only, as NeuSight's training traces).
enum class optimizer : std::uint8_t { none, sgd, momentum, adam, adamw, rmsprop, adagrad };
BOOST_DESCRIBE_ENUM(optimizer, none, sgd, momentum, adam, adamw, rmsprop, adagrad)

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
    case optimizer::adamw: return 2;
  }
  return 0;
}

/// Parameter-sized temporaries one update allocates besides its state: PyTorch's multi-tensor (foreach) Adam,
/// AdamW, RMSprop and Adagrad build sqrt(second moment) as new tensors before dividing; SGD and momentum update in
/// place.
[[nodiscard]] constexpr std::int64_t update_temporaries_per_param(optimizer o) noexcept {
  switch (o) {
    case optimizer::adam:
    case optimizer::adamw:
    case optimizer::rmsprop:
    case optimizer::adagrad: return 1;
    case optimizer::none:
    case optimizer::sgd:
    case optimizer::momentum: return 0;
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
    case optimizer::adam: return 12;
    case optimizer::adamw: return 14;
    case optimizer::rmsprop: return 7;
    case optimizer::adagrad: return 5;
  }
  return 0;
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
  }
  return "unknown";
}

}  // namespace prenet
