// SPDX-License-Identifier: MIT
// Every layer kind's shapes, parameters, FLOPs, CO and memory against hand calculations written out here.
// Each check is a constexpr function run twice: by static_assert while compiling and by GoogleTest at run time.
#include <cstdint>

#include <gtest/gtest.h>

#include <prenet/prenet.hpp>

namespace {

using namespace prenet;
using namespace prenet::literals;

// A check is a constexpr bool function: static_assert runs it in the compiler, the TEST at run time.
#define PRENET_CHECK(Suite, fn) \
  static_assert(fn());          \
  TEST(Suite, fn) { EXPECT_TRUE(fn()); }

/// PyTorch's output length of a convolution or pooling window (aten's pooling_output_shape), written out
/// independently: floor or ceil of (n + 2p - d(k-1) - 1) / s, plus 1; in ceil mode the last window must start
/// inside the input or its left padding.
constexpr std::int64_t torch_out(std::int64_t n, std::int64_t k, std::int64_t s, std::int64_t p, std::int64_t d = 1,
                                 bool ceil_mode = false) {
  const std::int64_t num = n + 2 * p - d * (k - 1) - 1;
  std::int64_t out = num / s + ((ceil_mode && num % s != 0) ? 1 : 0) + 1;
  if (ceil_mode && (out - 1) * s >= n + p) out -= 1;
  return out;
}

/// Sum over the windows of one axis of adaptive pooling: [floor(i n / o), ceil((i + 1) n / o)).
constexpr std::int64_t torch_adaptive_span(std::int64_t n, std::int64_t o) {
  std::int64_t total = 0;
  for (std::int64_t i = 0; i < o; ++i) {
    const std::int64_t start = (i * n) / o;
    const std::int64_t end = ((i + 1) * n) / o + (((i + 1) * n) % o != 0 ? 1 : 0);
    total += end - start;
  }
  return total;
}

// ---------------------------------------------------------------------------------------------------------------
// Dense
// ---------------------------------------------------------------------------------------------------------------

constexpr bool dense_vector_costs() {
  const auto net = Input<128>{} | Dense<64>{} | Dense<10, dense_options{.bias = false}>{};
  constexpr std::int64_t b = 4;
  const layer_features d1 = features(net.nodes(), 1, b), d2 = features(net.nodes(), 2, b);
  return net.output_shape() == vector_shape(10) && net.layers[1].output == vector_shape(64) &&  //
         d1.params == 128 * 64 + 64 && d2.params == 64 * 10 &&                                    //
         net.layers[1].cost().macs == 128 * 64 && net.layers[2].cost().macs == 64 * 10 &&         //
         d1.forward_flops == b * (2 * 128 * 64 + 64) && d2.forward_flops == b * (2 * 64 * 10) &&  //
         // The first trainable layer computes dW (2 in out) and db but no dX; the second dX and dW.
         d1.backward_flops == b * (2 * 128 * 64 + 64) && d2.backward_flops == b * (4 * 64 * 10) &&
         // PreNeT eq. 2: CO = 2 * batch * in * out.
         d1.co == 2 * b * 128 * 64 && d2.co == 2 * b * 64 * 10 &&  //
         net.params() == 128 * 64 + 64 + 64 * 10 && net.macs(b) == b * (128 * 64 + 64 * 10) &&
         net.forward_flops(b) == b * (2 * 128 * 64 + 64 + 2 * 64 * 10) &&
         net.backward_flops(b) == b * (2 * 128 * 64 + 64 + 4 * 64 * 10);
}
PRENET_CHECK(Dense, dense_vector_costs)

constexpr bool dense_sequence_costs() {
  // nn.Linear(32, 16) over 10 positions: every position is a row of the matmul.
  const auto net = Input<10, 32>{} | Dense<16>{};
  const layer_features f = features(net.nodes(), 1, 3);
  return net.output_shape() == sequence_shape(10, 16) && f.params == 32 * 16 + 16 &&
         net.macs() == 10 * 32 * 16 && f.forward_flops == 3 * (2 * 10 * 32 * 16 + 10 * 16) &&
         f.co == 2 * 3 * 10 * 32 * 16;
}
PRENET_CHECK(Dense, dense_sequence_costs)

constexpr bool tied_and_linear() {
  // A tied head shares its weight: no parameters, but all of the matmul's work.
  const auto tied = Input<8, 32>{} | Dense<100, dense_options{.bias = false, .tied = true}>{};
  const auto linear = Input<768>{} | Linear<768, 3072>{} | Linear<3072, 768, false>{};
  return tied.params() == 0 && tied.macs() == 8 * 32 * 100 && tied.forward_flops() == 2 * 8 * 32 * 100 &&
         linear.params() == 768 * 3072 + 3072 + 3072 * 768 && linear.output_shape() == vector_shape(768);
}
PRENET_CHECK(Dense, tied_and_linear)

// ---------------------------------------------------------------------------------------------------------------
// Conv2d
// ---------------------------------------------------------------------------------------------------------------

constexpr bool conv2d_output_shapes() {
  // ResNet's stem: 224, k7, s2, p3 -> 112.
  const auto stem = Input<3, 224, 224>{} | Conv2d<64, 7, conv2d_options{.stride = 2, .padding = 3}>{};
  // 7x7, k3, dilation 2, no padding -> 3 (the dilated kernel reaches 5).
  const auto dilated = Input<16, 7, 7>{} | Conv2d<8, 3, conv2d_options{.dilation = 2}>{};
  // 10x10, k3, s3, p1 -> floor(9 / 3) + 1 = 4; grouped.
  const auto grouped = Input<32, 10, 10>{} | Conv2d<64, 3, conv2d_options{.stride = 3, .padding = 1, .groups = 4}>{};
  // 32x32, k5, s2 -> floor(27 / 2) + 1 = 14.
  const auto strided = Input<3, 32, 32>{} | Conv2d<16, 5, conv2d_options{.stride = 2}>{};
  // 20x20, k3, dilation 3, p2 -> 20 + 4 - 6 - 1 + 1 = 18.
  const auto wide = Input<4, 20, 20>{} | Conv2d<4, 3, conv2d_options{.padding = 2, .dilation = 3}>{};
  return stem.output_shape() == image_shape(64, 112, 112) && torch_out(224, 7, 2, 3) == 112 &&
         dilated.output_shape() == image_shape(8, 3, 3) && torch_out(7, 3, 1, 0, 2) == 3 &&
         grouped.output_shape() == image_shape(64, 4, 4) && torch_out(10, 3, 3, 1) == 4 &&
         strided.output_shape() == image_shape(16, 14, 14) && torch_out(32, 5, 2, 0) == 14 &&
         wide.output_shape() == image_shape(4, 18, 18) && torch_out(20, 3, 1, 2, 3) == 18;
}
PRENET_CHECK(Conv2d, conv2d_output_shapes)

constexpr bool conv2d_params_and_co() {
  const auto stem = Input<3, 224, 224>{} | Conv2d<64, 7, conv2d_options{.stride = 2, .padding = 3, .bias = false}>{};
  const auto dilated = Input<16, 7, 7>{} | Conv2d<8, 3, conv2d_options{.dilation = 2}>{};
  const auto grouped = Input<32, 10, 10>{} | Conv2d<64, 3, conv2d_options{.stride = 3, .padding = 1, .groups = 4}>{};
  const auto depthwise =
      Input<32, 28, 28>{} | Conv2d<32, 3, conv2d_options{.padding = 1, .groups = 32, .bias = false}>{};
  constexpr std::int64_t b = 2;
  return stem.params() == 64 * 3 * 7 * 7 &&
         // PreNeT eq. 3: CO = batch * Ho * Wo * K^2 * Cin * Cout.
         features(stem.nodes(), 1, b).co == b * 112 * 112 * 7 * 7 * 3 * 64 &&
         stem.macs() == 112 * 112 * 7 * 7 * 3 * 64 &&
         // Dilation changes the output size, not the weights.
         dilated.params() == 8 * 16 * 3 * 3 + 8 && dilated.macs() == 3 * 3 * 3 * 3 * 16 * 8 &&
         features(dilated.nodes(), 1, b).co == b * 3 * 3 * 3 * 3 * 16 * 8 &&
         // Groups: every output channel sees Cin / groups input channels (weights and CO alike).
         grouped.params() == 64 * (32 / 4) * 3 * 3 + 64 && grouped.macs() == 4 * 4 * 3 * 3 * (32 / 4) * 64 &&
         features(grouped.nodes(), 1, b).co == b * 4 * 4 * 3 * 3 * (32 / 4) * 64 &&
         depthwise.params() == 32 * 1 * 3 * 3 && depthwise.macs() == 28 * 28 * 3 * 3 * 32;
}
PRENET_CHECK(Conv2d, conv2d_params_and_co)

constexpr bool conv2d_flops() {
  // conv1 8x8 -> 8x8 (padding 1), conv2 8x8 -> 6x6.
  const auto net = Input<3, 8, 8>{} | Conv2d<4, 3, conv2d_options{.padding = 1}>{} | Conv2d<5, 3>{};
  constexpr std::int64_t macs1 = 4 * 8 * 8 * 3 * 9, macs2 = 5 * 6 * 6 * 4 * 9;
  constexpr std::int64_t bias1 = 4 * 8 * 8, bias2 = 5 * 6 * 6;
  const layer_features c1 = features(net.nodes(), 1, 1), c2 = features(net.nodes(), 2, 1);
  return c1.forward_flops == 2 * macs1 + bias1 && c2.forward_flops == 2 * macs2 + bias2 &&
         c1.backward_flops == 2 * macs1 + bias1 &&  // first trainable: dW and db only
         c2.backward_flops == 4 * macs2 + bias2 &&  // dX (transposed conv), dW and db
         net.backward_flops(3) == 3 * (c1.backward_flops + c2.backward_flops);
}
PRENET_CHECK(Conv2d, conv2d_flops)

// ---------------------------------------------------------------------------------------------------------------
// ConvTranspose2d (shapes, parameters and multiply-adds: nn.ConvTranspose2d's, and FlopCounter's count of
// aten.convolution with transposed = True, on PyTorch 1.13)
// ---------------------------------------------------------------------------------------------------------------

constexpr bool conv_transpose2d_counts() {
  using o = conv_transpose2d_options;
  // A UNet's upsampling: k2, s2 doubles the image.
  const auto unet = Input<64, 16, 16>{} | ConvTranspose2d<32, 2, o{.stride = 2}>{};
  // DCGAN's generator: k4, s2, p1 doubles it too.
  const auto dcgan = Input<128, 8, 8>{} | ConvTranspose2d<64, 4, o{.stride = 2, .padding = 1, .bias = false}>{};
  // k3, s2, p1 gives 2n - 1; output padding 1 makes it 2n.
  const auto outpad = Input<32, 7, 7>{} | ConvTranspose2d<16, 3, o{.stride = 2, .padding = 1, .output_padding = 1}>{};
  // Groups and dilation: (5 - 1) + 2 x 2 + 1 = 9.
  const auto grouped = Input<16, 5, 5>{} | ConvTranspose2d<24, 3, o{.dilation = 2, .groups = 4}>{};
  const auto depthwise =
      Input<32, 10, 10>{} | ConvTranspose2d<32, 3, o{.stride = 2, .padding = 1, .groups = 32, .bias = false}>{};
  // Output padding below the dilation, not the stride: (6 - 1) - 2 + 4 + 1 + 1 = 9.
  const auto dilated = Input<8, 6, 6>{} | ConvTranspose2d<8, 3, o{.padding = 1, .output_padding = 1, .dilation = 2}>{};
  return unet.output_shape() == image_shape(32, 32, 32) && unet.params() == 8224 && unet.macs() == 2'097'152 &&
         dcgan.output_shape() == image_shape(64, 16, 16) && dcgan.params() == 131'072 && dcgan.macs() == 8'388'608 &&
         outpad.output_shape() == image_shape(16, 14, 14) && outpad.params() == 4624 && outpad.macs() == 225'792 &&
         grouped.output_shape() == image_shape(24, 9, 9) && grouped.params() == 888 && grouped.macs() == 21'600 &&
         depthwise.output_shape() == image_shape(32, 19, 19) && depthwise.params() == 288 &&
         depthwise.macs() == 28'800 && dilated.output_shape() == image_shape(8, 9, 9) && dilated.params() == 584 &&
         dilated.macs() == 20'736;
}
PRENET_CHECK(ConvTranspose2d, conv_transpose2d_counts)

constexpr bool upsample_counts() {
  // nn.Upsample(scale_factor=2): twice the height and width, no parameters, nothing saved (its backward needs the
  // sizes only); nearest copies, bilinear mixes 8 FLOPs per output (docs/flops.md).
  const auto nearest = Input<16, 7, 9>{} | Upsample<2>{};
  const auto bilinear = Input<16, 7, 9>{} | Upsample<4, upsample_mode::bilinear>{};
  const auto unet = Input<64, 16, 16>{} | Upsample<2>{} | Conv2d<32, 3, conv2d_options{.padding = 1}>{};
  return nearest.output_shape() == image_shape(16, 14, 18) && nearest.params() == 0 &&
         nearest.forward_flops() == 0 && bilinear.output_shape() == image_shape(16, 28, 36) &&
         bilinear.forward_flops() == 8 * 16 * 28 * 36 && saved_activations(nearest, 1) == bytes{0} &&
         // The convolution saves the upsampled map, not its input.
         saved_activations(unet, 1) == bytes{64 * 32 * 32 * 4} && unet.params() == 32 * 64 * 9 + 32;
}
PRENET_CHECK(Upsample, upsample_counts)

TEST(Upsample, RejectsAFactorOutOfRangeAndNonImages) {
  runtime_network image(image_shape(8, 4, 4));
  EXPECT_THROW(image.append(upsample_spec(0)), shape_error);
  EXPECT_THROW(image.append(upsample_spec(max_upsample_factor + 1)), shape_error);
  layer_spec cubic = upsample_spec(2);
  cubic.kernel = 2;  // no such mode
  EXPECT_THROW(image.append(cubic), shape_error);
  EXPECT_THROW((runtime_network(sequence_shape(8, 32)).append(upsample_spec(2))), shape_error);
}

// A layer applied again (layer_spec::tied = tied_all, ONNX imports of a reused module): the same work, saved tensors
// and gradients, no parameters of its own.
constexpr bool tied_all_holds_no_parameters() {
  layer_spec conv = conv2d_spec(16, 3, {.padding = 1});
  const shape in = image_shape(8, 12, 12), out = detail::output_shape(conv, in, 1);
  const layer_cost own = detail::cost(conv, in, out);
  conv.tied = tied_all;
  const layer_cost again = detail::cost(conv, in, out);
  return own.params == 16 * 8 * 9 + 16 && again.params == 0 && again.forward_flops == own.forward_flops &&
         again.backward_flops == own.backward_flops && again.input_grad_flops == own.input_grad_flops &&
         again.saves_input == own.saves_input;
}
PRENET_CHECK(Tied, tied_all_holds_no_parameters)

TEST(Tied, WeightOnlyTyingIsADenseRule) {
  runtime_network net(image_shape(8, 12, 12));
  layer_spec conv = conv2d_spec(16, 3);
  conv.tied = tied_weight;
  EXPECT_THROW(net.append(conv), shape_error);
  conv.tied = 3;
  EXPECT_THROW(net.append(conv), shape_error);
  conv.tied = tied_all;
  EXPECT_NO_THROW(net.append(conv));
  EXPECT_EQ(net.params(), 0);
}

// ---------------------------------------------------------------------------------------------------------------
// Pooling
// ---------------------------------------------------------------------------------------------------------------

constexpr bool pooling_output_shapes() {
  const auto stem_pool = Input<64, 112, 112>{} | MaxPool2d<3, pool2d_options{.stride = 2, .padding = 1}>{};
  const auto floor7 = Input<1, 7, 7>{} | MaxPool2d<2>{};
  const auto ceil7 = Input<1, 7, 7>{} | MaxPool2d<2, pool2d_options{.ceil_mode = true}>{};
  // 6, k3, s2: floor 2, ceil 3 (the last window starts at 4, inside the input).
  const auto floor6 = Input<1, 6, 6>{} | MaxPool2d<3, pool2d_options{.stride = 2}>{};
  const auto ceil6 = Input<1, 6, 6>{} | MaxPool2d<3, pool2d_options{.stride = 2, .ceil_mode = true}>{};
  // 5, k2, s2, p1, ceil: ceil(5 / 2) + 1 = 4 windows, but the 4th would start at 6 >= 5 + 1 (only right
  // padding): PyTorch drops it -> 3.
  const auto ceil_dropped =
      Input<1, 5, 5>{} | MaxPool2d<2, pool2d_options{.stride = 2, .padding = 1, .ceil_mode = true}>{};
  const auto avg = Input<4, 7, 7>{} | AvgPool2d<3, pool2d_options{.stride = 2}>{};
  // MaxPool dilation 2, k3 (stride defaults to 3), 9 -> floor((9 - 4 - 1) / 3) + 1 = 2.
  const auto dilated = Input<2, 9, 9>{} | MaxPool2d<3, pool2d_options{.dilation = 2}>{};
  return stem_pool.output_shape() == image_shape(64, 56, 56) && torch_out(112, 3, 2, 1) == 56 &&
         floor7.output_shape() == image_shape(1, 3, 3) && torch_out(7, 2, 2, 0) == 3 &&
         ceil7.output_shape() == image_shape(1, 4, 4) && torch_out(7, 2, 2, 0, 1, true) == 4 &&
         floor6.output_shape() == image_shape(1, 2, 2) && torch_out(6, 3, 2, 0) == 2 &&
         ceil6.output_shape() == image_shape(1, 3, 3) && torch_out(6, 3, 2, 0, 1, true) == 3 &&
         ceil_dropped.output_shape() == image_shape(1, 3, 3) && torch_out(5, 2, 2, 1, 1, true) == 3 &&
         avg.output_shape() == image_shape(4, 3, 3) && torch_out(7, 3, 2, 0) == 3 &&
         dilated.output_shape() == image_shape(2, 2, 2) && torch_out(9, 3, 3, 0, 2) == 2;
}
PRENET_CHECK(Pooling, pooling_output_shapes)

constexpr bool pooling_flops() {
  // Max: k^2 - 1 comparisons per window; average: k^2 additions (the division folded in); no parameters.
  const auto max = Input<64, 112, 112>{} | MaxPool2d<3, pool2d_options{.stride = 2, .padding = 1}>{};
  const auto avg = Input<4, 7, 7>{} | AvgPool2d<3, pool2d_options{.stride = 2}>{};
  return max.params() == 0 && max.forward_flops() == 64 * 56 * 56 * (9 - 1) && max.macs() == 0 &&
         avg.params() == 0 && avg.forward_flops() == 4 * 3 * 3 * 9;
}
PRENET_CHECK(Pooling, pooling_flops)

constexpr bool adaptive_avgpool_flops() {
  // 5 -> 3: windows [0,2) [1,4) [3,5), lengths 2 + 3 + 2 = 7 (they overlap); 10 -> 4: [0,3) [2,5) [5,8) [7,10),
  // 3 + 3 + 3 + 3 = 12. Every window element is one addition.
  const auto odd = Input<2, 5, 10>{} | AdaptiveAvgPool2d<3, 4>{};
  // 7 -> 5: [0,2) [1,3) [2,5) [4,6) [5,7): 2 + 2 + 3 + 2 + 2 = 11.
  const auto seven = Input<1, 7, 7>{} | AdaptiveAvgPool2d<5>{};
  // 14 -> 7 divides: 2x2 windows that tile the input, every element read once.
  const auto even = Input<3, 14, 14>{} | AdaptiveAvgPool2d<7>{};
  return odd.output_shape() == image_shape(2, 3, 4) && odd.forward_flops() == 2 * 7 * 12 &&
         torch_adaptive_span(5, 3) == 7 && torch_adaptive_span(10, 4) == 12 &&  //
         seven.forward_flops() == 11 * 11 && torch_adaptive_span(7, 5) == 11 &&  //
         even.output_shape() == image_shape(3, 7, 7) && even.forward_flops() == 3 * 14 * 14 &&
         odd.params() == 0;
}
PRENET_CHECK(Pooling, adaptive_avgpool_flops)

// ---------------------------------------------------------------------------------------------------------------
// Normalisation, activations, dropout, embeddings
// ---------------------------------------------------------------------------------------------------------------

constexpr bool normalisation_costs() {
  const auto bn = Input<16, 8, 8>{} | BatchNorm2d<16>{};
  const auto ln = Input<10, 32>{} | LayerNorm<32>{};
  const auto ln_plain = Input<10, 32>{} | LayerNorm<32, false>{};
  const auto ln_inferred = Input<10, 48>{} | LayerNorm<>{};
  // weight and bias per channel / feature; 8 FLOPs per element forward (docs/flops.md).
  return bn.params() == 2 * 16 && bn.forward_flops() == 8 * 16 * 8 * 8 && bn.macs() == 0 &&
         ln.params() == 2 * 32 && ln.forward_flops() == 8 * 10 * 32 && ln_plain.params() == 0 &&
         ln_inferred.params() == 2 * 48;
}
PRENET_CHECK(Normalisation, normalisation_costs)

constexpr bool groupnorm_costs() {
  // nn.GroupNorm(32, 320): a weight and a bias per channel (640), whatever the groups; affine=False holds none.
  const auto unet = Input<320, 16, 16>{} | GroupNorm<32, 320>{};
  const auto inferred = Input<64, 8, 8>{} | GroupNorm<8>{};
  const auto plain = Input<64, 8, 8>{} | GroupNorm<4, 64, false>{};
  const auto instance = Input<6, 5, 5>{} | GroupNorm<6>{};  // InstanceNorm2d(6, affine=True)
  // 8 FLOPs per element forward, as every normalisation (docs/flops.md); saved: the input and an fp32 mean and
  // inverse standard deviation per group.
  return unet.params() == 640 && unet.output_shape() == image_shape(320, 16, 16) &&
         unet.forward_flops() == 8 * 320 * 16 * 16 && unet.macs() == 0 && inferred.params() == 128 &&
         plain.params() == 0 && instance.params() == 12 &&
         saved_activations(plain, 1) == bytes{64 * 8 * 8 * 4 + 2 * 4 * 4} &&
         saved_activations(unet, 1) == bytes{320 * 16 * 16 * 4 + 2 * 4 * 32};
}
PRENET_CHECK(Normalisation, groupnorm_costs)

TEST(Normalisation, GroupNormRejectsChannelsItsGroupsDoNotDivide) {
  runtime_network net(image_shape(30, 8, 8));
  EXPECT_THROW(net.append(groupnorm_spec(32)), shape_error);
  EXPECT_THROW(net.append(groupnorm_spec(3, 32)), shape_error);  // the channels stated are not the input's
  EXPECT_THROW(net.append(groupnorm_spec(0)), shape_error);
  EXPECT_THROW(net.append(groupnorm_spec(4, 30)), shape_error);  // 30 channels in 4 groups
  net.append(groupnorm_spec(3, 30));
  EXPECT_EQ(net.params(), 60);
  EXPECT_THROW((runtime_network(sequence_shape(8, 32)).append(groupnorm_spec(4))), shape_error);  // tokens x features
}

constexpr bool activation_costs() {
  // Point-wise: ReLU and Tanh 1 FLOP per element, Sigmoid 3, GELU and Softmax 5; no parameters.
  const auto net = Input<10, 20>{} | ReLU<>{} | Tanh{} | Sigmoid{} | GELU{} | Softmax{} | ReLU<true>{};
  constexpr std::int64_t n = 10 * 20;
  return net.params() == 0 && net.output_shape() == sequence_shape(10, 20) &&
         net.layers[1].cost().forward_flops == n && net.layers[2].cost().forward_flops == n &&
         net.layers[3].cost().forward_flops == 3 * n && net.layers[4].cost().forward_flops == 5 * n &&
         net.layers[5].cost().forward_flops == 5 * n && net.layers[6].cost().forward_flops == n &&
         // Nothing before them trains: no backward work at all.
         net.backward_flops() == 0;
}
PRENET_CHECK(Activation, activation_costs)

constexpr bool embedding_costs() {
  const auto net = Tokens<128>{} | Embedding<1000, 64>{} | PositionalEmbedding<512, 64>{} | AddedEmbedding<2, 64>{};
  constexpr std::int64_t b = 3;
  bool co_ok = true;
  for (std::size_t i = 1; i < net.size(); ++i) co_ok = co_ok && features(net.nodes(), i, b).co == b * 128 * 64;
  return co_ok &&  // PreNeT eq. 5: CO = batch * seq * dim, for each table
         net.output_shape() == sequence_shape(128, 64) && net.params() == (1000 + 512 + 2) * 64 &&
         net.layers[1].cost().forward_flops == 0 &&        // a gather
         net.layers[2].cost().forward_flops == 128 * 64 && // gather and add
         net.macs() == 0;
}
PRENET_CHECK(Embedding, embedding_costs)

// ---------------------------------------------------------------------------------------------------------------
// Recurrent layers: PyTorch parameter formulas and PreNeT eqs. 6-8
// ---------------------------------------------------------------------------------------------------------------

/// nn.LSTM / nn.GRU / nn.RNN parameters: per layer and direction, gates * H * (I_l + H) + 2 * gates * H, where
/// I_l is the input size for layer 0 and H * directions after it.
constexpr std::int64_t torch_rnn_params(std::int64_t gates, std::int64_t input, std::int64_t hidden,
                                        std::int64_t layers, bool bidirectional) {
  const std::int64_t dirs = bidirectional ? 2 : 1;
  std::int64_t total = 0;
  for (std::int64_t l = 0; l < layers; ++l) {
    const std::int64_t in = l == 0 ? input : hidden * dirs;
    total += dirs * (gates * hidden * (in + hidden) + 2 * gates * hidden);
  }
  return total;
}

constexpr bool recurrent_params() {
  // nn.LSTM(10, 20, num_layers=2, bidirectional=True): layer 0 2 * (80 * 30 + 160) = 5120, layer 1 (input 40)
  // 2 * (80 * 60 + 160) = 9920.
  const auto lstm = Input<5, 10>{} | LSTM<20, rnn_options{.num_layers = 2, .bidirectional = true}>{};
  // nn.GRU(32, 64): 3 * 64 * 96 + 6 * 64.
  const auto gru = Input<7, 32>{} | GRU<64>{};
  // nn.RNN(16, 8, num_layers=3): 8 * 24 + 16, then 8 * 16 + 16 twice.
  const auto rnn = Input<10, 16>{} | RNN<8, rnn_options{.num_layers = 3}>{};
  const auto no_bias = Input<10, 16>{} | LSTM<8, rnn_options{.bias = false}>{};
  return lstm.params() == 15'040 && lstm.params() == torch_rnn_params(4, 10, 20, 2, true) &&
         lstm.output_shape() == sequence_shape(5, 40) &&  //
         gru.params() == 3 * 64 * 96 + 6 * 64 && gru.params() == torch_rnn_params(3, 32, 64, 1, false) &&
         gru.output_shape() == sequence_shape(7, 64) &&  //
         rnn.params() == (8 * 24 + 16) + 2 * (8 * 16 + 16) && rnn.params() == torch_rnn_params(1, 16, 8, 3, false) &&
         no_bias.params() == 4 * 8 * (16 + 8);
}
PRENET_CHECK(Recurrent, recurrent_params)

constexpr bool recurrent_co() {
  constexpr std::int64_t b = 4;
  // RNN (eq. 6): B * T * (2 (I H + H^2) + H), I = 16, H = 8, T = 10.
  const auto rnn = Input<10, 16>{} | RNN<8>{};
  // LSTM (eq. 7): B * T * (4 (2 (I H + H^2) + H) + 2 H), I = 10, H = 20, T = 5.
  const auto lstm = Input<5, 10>{} | LSTM<20>{};
  // GRU (eq. 8): B * T * (3 (2 (I H + H^2) + H) + 2 H), I = 32, H = 64, T = 7.
  const auto gru = Input<7, 32>{} | GRU<64>{};
  return features(rnn.nodes(), 1, b).co == b * 10 * (2 * (16 * 8 + 8 * 8) + 8) &&
         features(lstm.nodes(), 1, b).co == b * 5 * (4 * (2 * (10 * 20 + 20 * 20) + 20) + 2 * 20) &&
         features(gru.nodes(), 1, b).co == b * 7 * (3 * (2 * (32 * 64 + 64 * 64) + 64) + 2 * 64) &&
         // The matmuls: gates * H * (I + H) per step.
         lstm.macs() == 5 * 4 * 20 * (10 + 20) && gru.macs() == 7 * 3 * 64 * (32 + 64);
}
PRENET_CHECK(Recurrent, recurrent_co)

// ---------------------------------------------------------------------------------------------------------------
// Attention and transformer layers
// ---------------------------------------------------------------------------------------------------------------

constexpr bool attention_costs() {
  constexpr std::int64_t s = 16, e = 64, h = 8, b = 2;
  const auto mha = Input<s, e>{} | MultiheadAttention<e, h>{};
  const auto no_bias = Input<s, e>{} | MultiheadAttention<e, h, attention_options{.bias = false}>{};
  // Cross-attention to a 20-position memory of key size 32 and value size 48: q E*E, k E*kdim, v E*vdim, out E*E.
  const auto cross =
      Input<s, e>{} | MultiheadAttention<e, h, attention_options{.kdim = 32, .vdim = 48, .kv_seq = 20}>{};
  // Qwen2's q, k and v biases without an output one; diffusers' output bias alone. Their bias additions (forward)
  // are the projections' outputs they are added to.
  const auto qkv_only = Input<s, e>{} | MultiheadAttention<e, h, attention_options{.out_bias = false}>{};
  const auto out_only =
      Input<s, e>{} | MultiheadAttention<e, h, attention_options{.bias = false, .out_bias_only = true}>{};
  const std::int64_t fwd = no_bias.nodes()[1].cost().forward_flops;
  return mha.params() == 4 * e * e + 4 * e && no_bias.params() == 4 * e * e &&
         qkv_only.params() == 4 * e * e + 3 * e && out_only.params() == 4 * e * e + e &&
         qkv_only.nodes()[1].cost().forward_flops == fwd + 3 * s * e &&
         out_only.nodes()[1].cost().forward_flops == fwd + s * e &&
         mha.nodes()[1].cost().forward_flops == fwd + 4 * s * e &&
         cross.params() == e * e + e * 32 + e * 48 + e * e + 4 * e &&
         // Q, K, V and output projections plus Q K^T and P V.
         mha.macs() == 4 * s * e * e + 2 * s * s * e && mha.output_shape() == sequence_shape(s, e) &&
         // PreNeT eq. 4: heads * (S E^2 + 2 S^2 E + S^2 + S^2 E + S E^2) * batch.
         features(mha.nodes(), 1, b).co == h * (s * e * e + 2 * s * s * e + s * s + s * s * e + s * e * e) * b;
}
PRENET_CHECK(Attention, attention_costs)

constexpr bool transformer_layer_params() {
  constexpr std::int64_t d = 32, ff = 64;
  // Attention 4 d^2 + 4 d, two LayerNorms 2 * 2 d, feed-forward d ff + ff + ff d + d.
  constexpr std::int64_t layer = (4 * d * d + 4 * d) + 4 * d + (d * ff + ff + ff * d + d);
  const auto enc = Input<10, d>{} | TransformerEncoderLayer<d, 4, ff>{};
  const auto pre = Input<10, d>{} | TransformerEncoderLayer<d, 4, ff, transformer_options{.norm_first = true}>{};
  const auto dec = Input<10, d>{} | TransformerDecoderLayer<d, 4, ff>{};
  // With cross-attention: one more attention block and LayerNorm.
  const auto seq2seq = Input<10, d>{} | TransformerDecoderLayer<d, 4, ff, transformer_options{.memory_seq = 12}>{};
  return enc.params() == layer && pre.params() == layer && dec.params() == layer &&
         seq2seq.params() == layer + (4 * d * d + 4 * d) + 2 * d &&
         enc.macs() == 4 * 10 * d * d + 2 * 10 * 10 * d + 2 * 10 * d * ff;
}
PRENET_CHECK(Attention, transformer_layer_params)

// ---------------------------------------------------------------------------------------------------------------
// Backward FLOPs: what autograd really runs
// ---------------------------------------------------------------------------------------------------------------

constexpr bool backward_skips_input_grad() {
  const auto net = Input<20>{} | ReLU<>{} | Dense<10>{} | ReLU<>{} | Dense<5>{};
  // ReLU before anything trains: no backward. Dense<10> first trainable: dW 2*20*10 and db 10, no dX.
  // ReLU after: masks 10 gradients. Dense<5>: dX 2*10*5, dW 2*10*5, db 5.
  constexpr std::int64_t relu1 = 0, dense1 = 2 * 20 * 10 + 10, relu2 = 10, dense2 = 4 * 10 * 5 + 5;
  bool per_layer = true;
  constexpr std::int64_t expected[] = {0, relu1, dense1, relu2, dense2};
  for (std::size_t i = 0; i < net.size(); ++i)
    per_layer = per_layer && features(net.nodes(), i, 2).backward_flops == 2 * expected[i] &&
                backward_flops_of(net.nodes(), i) == expected[i];
  return per_layer && net.backward_flops(2) == 2 * (relu1 + dense1 + relu2 + dense2);
}
PRENET_CHECK(Backward, backward_skips_input_grad)

constexpr bool backward_after_embedding() {
  // The embedding scatter-adds its 8 x 16 gradient rows; the Dense after it needs its dX for that.
  const auto net = Tokens<8>{} | Embedding<100, 16>{} | Dense<4>{};
  return net.backward_flops() == 8 * 16 + (4 * 8 * 16 * 4 + 8 * 4);
}
PRENET_CHECK(Backward, backward_after_embedding)

// ---------------------------------------------------------------------------------------------------------------
// Training memory
// ---------------------------------------------------------------------------------------------------------------

constexpr bool memory_components() {
  const auto net = Input<100>{} | Dense<50>{} | ReLU<>{} | Dense<10>{};
  constexpr std::int64_t p = 100 * 50 + 50 + 50 * 10 + 10;
  const memory_breakdown sgd = training_memory(net, {.batch = 1, .optimizer = optimizer::sgd});
  const memory_breakdown momentum = training_memory(net, {.batch = 1, .optimizer = optimizer::momentum});
  const memory_breakdown adam = training_memory(net, {.batch = 1, .optimizer = optimizer::adam});
  const memory_breakdown half = training_memory(net, {.batch = 1, .optimizer = optimizer::adam, .precision = precision::fp16});
  const memory_breakdown bare = training_memory(net, {.batch = 1, .optimizer = optimizer::adam, .framework = 0_B});
  const bytes parts = bare.weights + bare.gradients + bare.optimizer_state + bare.activations + bare.workspace +
                      bare.allocator + bare.framework + bare.calibration;
  return net.params() == p && adam.weights == bytes{4 * p} &&  //
         sgd.optimizer_state == 0_B && momentum.optimizer_state == adam.weights &&
         adam.optimizer_state == 2 * adam.weights &&  // Adam's two moments
         half.weights == bytes{2 * p} && 2 * half.weights == adam.weights &&
         half.optimizer_state == 2 * half.weights &&  //
         adam.framework == predictors::generated::memory.context && bare.framework == 0_B &&
         framework_bytes({.framework = 3_MiB}) == 3_MiB && bare.total() == parts;
}
PRENET_CHECK(Memory, memory_components)

constexpr bool saved_activations_linear_in_batch() {
  const auto net = Input<3, 32, 32>{} | Conv2d<16, 3, conv2d_options{.padding = 1}>{} | BatchNorm2d<16>{} |
                   ReLU<true>{} | MaxPool2d<2>{} | Flatten{} | Dense<10>{};
  const bytes a1 = saved_activations(net, 1), a2 = saved_activations(net, 2), a7 = saved_activations(net, 7);
  return a2 == 2 * a1 && a7 == 7 * a1 &&
         training_memory(net, {.batch = 64}).total() > training_memory(net, {.batch = 1}).total();
}
PRENET_CHECK(Memory, saved_activations_linear_in_batch)

constexpr bool backward_peak_by_hand() {
  // Input 100 -> Dense 50 -> ReLU -> Dense 10, fp32. Saved: the input (first saved by Dense 1) and the ReLU output
  // (by the ReLU, then Dense 2). At batch 1000 the peak is Dense 1's backward: the input still saved (400,000 B),
  // every gradient (22,240 B), d(output) 200,000 B and d(input) 400,000 B; each block rounded to 512 B.
  const auto net = Input<100>{} | Dense<50>{} | ReLU<>{} | Dense<10>{};
  const memory_breakdown big = training_memory(net, {.batch = 1000, .optimizer = optimizer::adam, .framework = 0_B});
  const bool backward = big.phase == memory_phase::backward && big.activations == 400'000_B &&
                        big.gradients == 22'240_B && big.workspace == 600'000_B && big.weights == 22'240_B &&
                        big.optimizer_state == 44'480_B &&
                        big.allocator == bytes{(1'023'488 - 1'022'240) + (22'528 - 22'240) * 3};
  // At batch 1 the update is the peak: weights, gradients, Adam's two moments and one temporary.
  const memory_breakdown small = training_memory(net, {.batch = 1, .optimizer = optimizer::adam, .framework = 0_B});
  const bool update = small.phase == memory_phase::optimizer_step && small.activations == 0_B &&
                      small.gradients == small.weights && small.workspace == small.weights;
  // SGD and momentum update in place: no temporary.
  const memory_breakdown sgd = training_memory(net, {.batch = 1, .optimizer = optimizer::momentum, .framework = 0_B});
  return backward && update && (sgd.phase == memory_phase::backward || sgd.workspace == 0_B);
}
PRENET_CHECK(Memory, backward_peak_by_hand)

constexpr bool saved_activations_counted_once() {
  // Dense -> ReLU -> Dense: ReLU saves its output for its backward and the second Dense saves the same tensor as
  // its input: 50 elements once. With the first Dense's input (100) that is 150 elements, not 200.
  const auto relu = Input<100>{} | Dense<50>{} | ReLU<>{} | Dense<10>{};
  // In place: the ReLU writes over the first Dense's output; still that one tensor.
  const auto inplace = Input<100>{} | Dense<50>{} | ReLU<true>{} | Dense<10>{};
  // GELU saves its input (the first Dense's output) and the second Dense the GELU output: two tensors.
  const auto gelu = Input<100>{} | Dense<50>{} | GELU{} | Dense<10>{};
  constexpr std::int64_t b = 3;
  return saved_activations(relu, b) == bytes{b * (100 + 50) * 4} &&
         saved_activations(inplace, b) == bytes{b * (100 + 50) * 4} &&
         saved_activations(gelu, b) == bytes{b * (100 + 50 + 50) * 4} &&
         saved_activations(relu, b, dtype::bf16) == bytes{b * (100 + 50) * 2};
}
PRENET_CHECK(Memory, saved_activations_counted_once)

constexpr bool saved_activations_special_cases() {
  // Dropout keeps a 1-byte mask per element whatever the dtype, and its output is the next Dense's input.
  const auto dropout = Input<100>{} | Dense<50>{} | Dropout{} | Dense<10>{};
  // A residual block: the block's input is saved by its first Dense and the add's output by the Dense after.
  const auto residual = Input<64>{} | Dense<64>{} | Residual<Sequential<Dense<64>, ReLU<>>>{} | Dense<8>{};
  // Token ids are not saved as activations; the embedding keeps them as int64 indices (8 bytes per token).
  const auto tokens = Tokens<16>{} | Embedding<100, 32>{} | Dense<4>{};
  const auto acts = [](const auto& net, dtype t) { return saved_activations(net, 1, t); };
  return acts(dropout, dtype::fp32) == bytes{(100 + 50) * 4 + 50} &&
         acts(dropout, dtype::fp16) == bytes{(100 + 50) * 2 + 50} &&
         // input of the first Dense, input of the inner Dense, ReLU output, sum: 4 x 64 elements.
         acts(residual, dtype::fp32) == bytes{4 * 64 * 4} &&
         acts(tokens, dtype::fp32) == bytes{16 * 8 + 16 * 32 * 4};
}
PRENET_CHECK(Memory, saved_activations_special_cases)

constexpr bool saved_activations_under_autocast() {
  // CUDA autocast (autocast_rule_of): the input is fp32; Dense casts it to the half type and saves its cast; ReLU
  // runs in its input's type; the second Dense reads a half tensor and saves that tensor: the bf16 count.
  const auto relu = Input<100>{} | Dense<50>{} | ReLU<>{} | Dense<10>{};
  // LayerNorm casts the half Dense output to fp32 and saves the cast (plus fp32 mean and rstd); its output is fp32,
  // which the next Dense casts back to half and saves.
  const auto norm = Input<64>{} | Dense<64>{} | LayerNorm<64>{} | Dense<8>{};
  // A half body plus the fp32 shortcut is fp32 (type promotion): GELU saves the sum at 4 bytes.
  const auto promoted = Input<64>{} | Residual<Sequential<Dense<64>, ReLU<>>>{} | GELU{};
  // Attention (no dropout): the input's half cast, q, k, v and the context in half; the softmax output (2 heads x
  // 8 x 8) in fp32 and the half cast of it that P V saves.
  const auto attention = Input<8, 16>{} | MultiheadAttention<16, 2>{};
  // An embedding's lookup is fp32 (the fp32 table's type): the Dense after it saves a half cast.
  const auto tokens = Tokens<16>{} | Embedding<100, 32>{} | Dense<4>{};
  // Convolution, BatchNorm (on no autocast list: it runs in its half input's type), ReLU: the bf16 count.
  const auto conv = Input<3, 8, 8>{} | Conv2d<4, 3, conv2d_options{.padding = 1}>{} | BatchNorm2d<4>{} | ReLU<>{};
  // GroupNorm is on the float32 list: it saves a fp32 cast of the convolution's half output, and its fp32 output is
  // what ReLU saves (2 groups: 2 x 2 statistics).
  const auto gn = Input<3, 8, 8>{} | Conv2d<4, 3, conv2d_options{.padding = 1}>{} | GroupNorm<2>{} | ReLU<>{};
  const auto amp = [](const auto& net) { return saved_activations(net, 1, precision::amp_bf16); };
  const std::int64_t scores = 2 * 8 * 8, seq = 8 * 16;
  return amp(relu) == bytes{(100 + 50) * 2} && amp(relu) == saved_activations(relu, 1, dtype::bf16) &&
         amp(norm) == bytes{64 * 2 + (64 * 4 + 2 * 4) + 64 * 2} &&
         saved_activations(norm, 1, dtype::bf16) == bytes{64 * 2 + (64 * 2 + 2 * 4) + 64 * 2} &&
         amp(promoted) == bytes{64 * 2 + 64 * 2 + 64 * 4} &&
         amp(attention) == bytes{seq * 2 + 3 * seq * 2 + scores * 4 + scores * 2 + seq * 2} &&
         amp(tokens) == bytes{16 * 8 + 16 * 32 * 2} &&
         amp(conv) == saved_activations(conv, 1, dtype::bf16) &&
         amp(gn) == bytes{3 * 64 * 2 + (4 * 64 * 4 + 2 * 2 * 4) + 4 * 64 * 4} &&
         saved_activations(norm, 3, precision::fp32) == saved_activations(norm, 3) &&
         saved_activations(norm, 3, precision::amp_fp16) == 3 * amp(norm);
}
PRENET_CHECK(Memory, saved_activations_under_autocast)

constexpr bool layer_features_bytes() {
  const auto net = Input<3, 32, 32>{} | Conv2d<16, 3, conv2d_options{.padding = 1}>{};
  const layer_features f = features(net.nodes(), 1, 8, dtype::fp16);
  return f.batch == 8 && f.params == 16 * 3 * 9 + 16 && f.cm_weights_bytes == 2 * (16 * 3 * 9 + 16) &&
         f.cm_input_bytes == 8 * 3 * 32 * 32 * 2 && f.cm_output_bytes == 8 * 16 * 32 * 32 * 2 &&
         f.saved_bytes == f.cm_input_bytes;  // convolution saves its input for dW
}
PRENET_CHECK(Features, layer_features_bytes)

// ---------------------------------------------------------------------------------------------------------------
// The run-time path: the same hand values through runtime_network and with_input, with detailed diagnostics
// ---------------------------------------------------------------------------------------------------------------

TEST(RuntimeNetwork, MatchesHandValues) {
  runtime_network net(image_shape(3, 224, 224));
  net.append(Conv2d<64, 7, conv2d_options{.stride = 2, .padding = 3, .bias = false}>{})
      .append(BatchNorm2d<64>{})
      .append(ReLU<true>{})
      .append(MaxPool2d<3, pool2d_options{.stride = 2, .padding = 1}>{})
      .append(AdaptiveAvgPool2d<1>{})
      .append(Flatten{})
      .append(Dense<1000>{});
  net.finish();
  EXPECT_EQ(net.output_shape(), vector_shape(1000));
  EXPECT_EQ(net.nodes()[4].output, image_shape(64, 56, 56));
  EXPECT_EQ(net.params(), 64 * 3 * 49 + 2 * 64 + 64 * 1000 + 1000);
  EXPECT_EQ(net.macs(), 112LL * 112 * 49 * 3 * 64 + 64 * 1000);
  EXPECT_EQ(features(net.nodes(), 5, 1).forward_flops, 64 * 56 * 56);  // adaptive pool to 1x1: every element
}

TEST(RuntimeNetwork, RecurrentAndAttention) {
  runtime_network lstm(sequence_shape(5, 10));
  lstm.append(LSTM<20, rnn_options{.num_layers = 2, .bidirectional = true}>{});
  EXPECT_EQ(lstm.params(), 15'040);
  EXPECT_EQ(lstm.output_shape(), sequence_shape(5, 40));

  runtime_network mha(sequence_shape(16, 64));
  mha.append(MultiheadAttention<64, 8>{});
  EXPECT_EQ(mha.params(), 4 * 64 * 64 + 4 * 64);
  EXPECT_EQ(features(mha.nodes(), 1, 2).co,
            8 * (16 * 64 * 64 + 2 * 16 * 16 * 64 + 16 * 16 + 16 * 16 * 64 + 16 * 64 * 64) * 2);
}

TEST(RuntimeNetwork, WithInputRebindsSequence) {
  constexpr std::int64_t d = 32, ff = 64;
  constexpr auto model = Tokens<16>{} | Embedding<100, d>{} | PositionalEmbedding<16, d>{} |
                         TransformerEncoderLayer<d, 4, ff>{};
  // Matmul work of one layer at sequence s: 4 s d^2 (projections) + 2 s^2 d (scores, context) + 2 s d ff.
  const auto layer_macs = [](std::int64_t s) { return 4 * s * d * d + 2 * s * s * d + 2 * s * d * ff; };
  static_assert(model.macs() == 4 * 16 * d * d + 2 * 16 * 16 * d + 2 * 16 * d * ff);
  const runtime_network shorter = with_input(model.nodes(), token_shape(8));
  EXPECT_EQ(shorter.macs(), layer_macs(8));
  EXPECT_EQ(shorter.params(), model.params());
  EXPECT_EQ(shorter.output_shape(), sequence_shape(8, d));
  const memory_breakdown compile_time = training_memory(model, {.batch = 4});
  const memory_breakdown run_time = training_memory(runtime_network(model), {.batch = 4});
  EXPECT_EQ(compile_time.total(), run_time.total());
  EXPECT_EQ(compile_time.activations, run_time.activations);
  EXPECT_EQ(saved_activations(model, 4), saved_activations(runtime_network(model), 4));
  EXPECT_THROW((void)with_input(model.nodes(), token_shape(17)), shape_error);  // beyond 16 positions
}

}  // namespace
