// SPDX-License-Identifier: MIT
// The README's quick start, compiled and run by ctest so the README cannot drift from the library.
#include <cstdio>

#include <prenet/prenet.hpp>

using namespace prenet;
using namespace prenet::literals;

// A small CNN for 32x32 RGB images, described layer by layer with PyTorch's names.
constexpr auto cnn = Input<3, 32, 32>{}                                          //
                     | Conv2d<32, 3, conv2d_options{.padding = 1}>{} | ReLU<>{}  //
                     | MaxPool2d<2>{}                                            //
                     | Conv2d<64, 3, conv2d_options{.padding = 1}>{} | ReLU<>{}  //
                     | MaxPool2d<2>{} | Flatten{}                                //
                     | Dense<256>{} | ReLU<>{} | Dense<10>{};

// Shapes, parameters and memory are computed while compiling: budgets are static_asserts.
static_assert(cnn.output_shape() == vector_shape(10));
static_assert(cnn.params() == 1'070'794);
static_assert(training_memory(cnn, {.batch = 128, .optimizer = optimizer::adam}) < 2_GiB);

int main() {
  const memory_breakdown mem = training_memory(cnn, {.batch = 128, .optimizer = optimizer::adam});
  std::printf("params: %lld\n", static_cast<long long>(cnn.params()));
  std::printf("forward: %.1f MFLOP per image, backward: %.1f MFLOP per image\n", cnn.forward_flops() / 1e6,
              cnn.backward_flops() / 1e6);
  std::printf("training memory at batch 128 with Adam: %.0f MiB (activations %.0f MiB)\n", mem.total().mib(),
              mem.activations.mib());
}
