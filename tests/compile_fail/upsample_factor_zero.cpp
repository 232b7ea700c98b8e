// expect-error: static.assert.*failed.*Upsample: scale_factor must be an integer in 1..1024
// SPDX-License-Identifier: MIT
// Upsample by a factor of 0 is rejected by its facade (nn.Upsample would give an empty image).
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<8, 16, 16>{} | Upsample<0>{};
#else
constexpr auto net = Input<8, 16, 16>{} | Upsample<2>{};
#endif
