// SPDX-License-Identifier: MIT
// VGG16 as torchvision builds it (configuration "D", adaptive 7x7 average pool, 4096-4096-1000 classifier).
#pragma once

#include <cstdint>

#include <prenet/dsl.hpp>

namespace prenet::models {

namespace detail {
inline constexpr conv2d_options same_3x3{.padding = 1};
/// A 3x3 convolution keeping the spatial size, followed by an in-place ReLU.
template <std::int64_t Channels>
using vgg_conv = Sequential<Conv2d<Channels, 3, same_3x3>, ReLU<true>>;
}  // namespace detail

/// torchvision.models.vgg16(): 138,357,544 parameters, 15.47 GMAC per 224x224 image.
inline constexpr auto vgg16 = Input<3, 224, 224>{}                                            //
                              | Repeat<2, detail::vgg_conv<64>>{} | MaxPool2d<2>{}             //
                              | Repeat<2, detail::vgg_conv<128>>{} | MaxPool2d<2>{}            //
                              | Repeat<3, detail::vgg_conv<256>>{} | MaxPool2d<2>{}            //
                              | Repeat<3, detail::vgg_conv<512>>{} | MaxPool2d<2>{}            //
                              | Repeat<3, detail::vgg_conv<512>>{} | MaxPool2d<2>{}            //
                              | AdaptiveAvgPool2d<7>{} | Flatten{}                            //
                              | Dense<4096>{} | ReLU<true>{} | Dropout{}                      //
                              | Dense<4096>{} | ReLU<true>{} | Dropout{}                      //
                              | Dense<1000>{};

}  // namespace prenet::models
