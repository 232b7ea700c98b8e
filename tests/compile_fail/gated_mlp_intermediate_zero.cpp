// expect-error: static.assert.*failed.*GatedMLP: intermediate_size must be > 0
// SPDX-License-Identifier: MIT
// A gated MLP without an intermediate width is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16, 64>{} | GatedMLP<0>{};
#else
constexpr auto net = Input<16, 64>{} | GatedMLP<176>{};
#endif
