// SPDX-License-Identifier: MIT
// ResNet-18, -50, -101 and -152 as torchvision builds them (v1.5: the stride sits on the bottleneck's 3x3 convolution).
#pragma once

#include <cstdint>
#include <type_traits>

#include <prenet/dsl.hpp>

namespace prenet::models {

namespace detail {
inline constexpr conv2d_options resnet_1x1{.bias = false};
inline constexpr conv2d_options resnet_3x3{.padding = 1, .bias = false};
template <std::int64_t Stride>
inline constexpr conv2d_options resnet_1x1_strided{.stride = Stride, .bias = false};
template <std::int64_t Stride>
inline constexpr conv2d_options resnet_3x3_strided{.stride = Stride, .padding = 1, .bias = false};

/// The projection shortcut: 1x1 convolution (strided) and BatchNorm, used where shape or channels change.
template <std::int64_t Channels, std::int64_t Stride>
using resnet_projection = Sequential<Conv2d<Channels, 1, resnet_1x1_strided<Stride>>, BatchNorm2d<Channels>>;

/// torchvision's BasicBlock: 3x3 (strided) - BN - ReLU - 3x3 - BN, plus the shortcut, then ReLU.
template <std::int64_t Channels, std::int64_t Stride, bool Project>
using resnet_basic_block =
    Sequential<Residual<Sequential<Conv2d<Channels, 3, resnet_3x3_strided<Stride>>, BatchNorm2d<Channels>, ReLU<true>,
                                   Conv2d<Channels, 3, resnet_3x3>, BatchNorm2d<Channels>>,
                        std::conditional_t<Project, resnet_projection<Channels, Stride>, Identity>>,
               ReLU<true>>;

/// torchvision's Bottleneck: 1x1 - BN - ReLU - 3x3 (strided) - BN - ReLU - 1x1 (4x width) - BN, plus the
/// shortcut, then ReLU.
template <std::int64_t Width, std::int64_t Stride, bool Project>
using resnet_bottleneck =
    Sequential<Residual<Sequential<Conv2d<Width, 1, resnet_1x1>, BatchNorm2d<Width>, ReLU<true>,
                                   Conv2d<Width, 3, resnet_3x3_strided<Stride>>, BatchNorm2d<Width>, ReLU<true>,
                                   Conv2d<4 * Width, 1, resnet_1x1>, BatchNorm2d<4 * Width>>,
                        std::conditional_t<Project, resnet_projection<4 * Width, Stride>, Identity>>,
               ReLU<true>>;

/// A stage of `Blocks` basic blocks; the first projects when it downsamples (every stage but the first).
template <std::int64_t Channels, std::int64_t Blocks, std::int64_t Stride>
using resnet_basic_stage = std::conditional_t<
    (Blocks > 1),
    Sequential<resnet_basic_block<Channels, Stride, (Stride != 1)>,
               Repeat<(Blocks > 1 ? Blocks - 1 : 1), resnet_basic_block<Channels, 1, false>>>,
    resnet_basic_block<Channels, Stride, (Stride != 1)>>;

/// A stage of `Blocks` bottlenecks; the first always projects (channels change from the previous stage).
template <std::int64_t Width, std::int64_t Blocks, std::int64_t Stride>
using resnet_bottleneck_stage = std::conditional_t<
    (Blocks > 1),
    Sequential<resnet_bottleneck<Width, Stride, true>,
               Repeat<(Blocks > 1 ? Blocks - 1 : 1), resnet_bottleneck<Width, 1, false>>>,
    resnet_bottleneck<Width, Stride, true>>;

/// conv1 7x7/2 without bias, BN, ReLU, 3x3/2 max pool: (3, 224, 224) -> (64, 56, 56).
using resnet_stem = Sequential<Conv2d<64, 7, conv2d_options{.stride = 2, .padding = 3, .bias = false}>,
                               BatchNorm2d<64>, ReLU<true>, MaxPool2d<3, pool2d_options{.stride = 2, .padding = 1}>>;
/// Global average pool and the 1000-way classifier.
using resnet_head = Sequential<AdaptiveAvgPool2d<1>, Flatten, Dense<1000>>;

template <std::int64_t B1, std::int64_t B2, std::int64_t B3, std::int64_t B4>
using resnet_bottleneck_body =
    Sequential<resnet_bottleneck_stage<64, B1, 1>, resnet_bottleneck_stage<128, B2, 2>,
               resnet_bottleneck_stage<256, B3, 2>, resnet_bottleneck_stage<512, B4, 2>>;
}  // namespace detail

/// torchvision.models.resnet18(): 11,689,512 parameters, 1.81 GMAC per 224x224 image.
inline constexpr auto resnet18 = Input<3, 224, 224>{} | detail::resnet_stem{}                              //
                                 | detail::resnet_basic_stage<64, 2, 1>{} | detail::resnet_basic_stage<128, 2, 2>{}  //
                                 | detail::resnet_basic_stage<256, 2, 2>{} | detail::resnet_basic_stage<512, 2, 2>{}  //
                                 | detail::resnet_head{};

/// torchvision.models.resnet50(): 25,557,032 parameters, 4.09 GMAC per 224x224 image.
inline constexpr auto resnet50 = Input<3, 224, 224>{} | detail::resnet_stem{}  //
                                 | detail::resnet_bottleneck_body<3, 4, 6, 3>{} | detail::resnet_head{};

/// torchvision.models.resnet101(): 44,549,160 parameters, 7.80 GMAC per 224x224 image.
inline constexpr auto resnet101 = Input<3, 224, 224>{} | detail::resnet_stem{}  //
                                  | detail::resnet_bottleneck_body<3, 4, 23, 3>{} | detail::resnet_head{};

/// torchvision.models.resnet152(): 60,192,808 parameters, 11.5 GMAC per 224x224 image.
inline constexpr auto resnet152 = Input<3, 224, 224>{} | detail::resnet_stem{}  //
                                  | detail::resnet_bottleneck_body<3, 8, 36, 3>{} | detail::resnet_head{};

}  // namespace prenet::models
