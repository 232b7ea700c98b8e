// expect-error: static.assert.*failed.*ConvTranspose2d: output_padding must be >= 0 and smaller than either stride or dilation
// SPDX-License-Identifier: MIT
// ConvTranspose2d's output padding must be smaller than its stride or its dilation (PyTorch raises otherwise).
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<8, 7, 7>{} | ConvTranspose2d<4, 3, conv_transpose2d_options{.stride = 2, .output_padding = 2}>{};
#else
constexpr auto net = Input<8, 7, 7>{} | ConvTranspose2d<4, 3, conv_transpose2d_options{.stride = 2, .output_padding = 1}>{};
#endif
