// expect-error: SelectToken: index must be inside the sequence
// SPDX-License-Identifier: MIT
// SelectToken with an index past the end of the sequence does not compose.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16, 64>{} | SelectToken<16>{};
#else
constexpr auto net = Input<16, 64>{} | SelectToken<15>{};
#endif
