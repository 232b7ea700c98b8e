// SPDX-License-Identifier: MIT
// The launch-bound model of tests/runtime/host_dispatch_test.cpp and of docs/predictors.md's "host launches" figures
// (tests/docs/doc_figures.cpp prints them): eleven Dense layers, ten of them 16 wide, at batch 1 every kernel takes
// microseconds, so a training step is the host's launches.
#pragma once

#include <prenet/dsl.hpp>

namespace prenet_tests {

inline constexpr auto tiny_mlp = [] {
  using namespace prenet;
  return Input<16>{} | Dense<16>{} | ReLU{} | Dense<16>{} | ReLU{} | Dense<16>{} | ReLU{} | Dense<16>{} | ReLU{} |
         Dense<16>{} | ReLU{} | Dense<16>{} | ReLU{} | Dense<16>{} | ReLU{} | Dense<16>{} | ReLU{} | Dense<16>{} |
         ReLU{} | Dense<16>{} | ReLU{} | Dense<10>{};
}();

}  // namespace prenet_tests
