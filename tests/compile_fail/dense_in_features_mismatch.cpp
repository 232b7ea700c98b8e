// expect-error: Dense: in_features must equal the input.*s last dimension
// SPDX-License-Identifier: MIT
// Linear whose in_features differs from the input's size does not compose.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<10>{} | Linear<20, 5>{};
#else
constexpr auto net = Input<10>{} | Linear<10, 5>{};
#endif
