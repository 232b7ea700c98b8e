// SPDX-License-Identifier: MIT
// A consumer project's program: uses prenet through its CMake package and checks one known value.
#include <cstdio>

#include <prenet/prenet.hpp>

int main() {
  using namespace prenet;
  constexpr auto mlp = Input<784>{} | Dense<512>{} | ReLU<>{} | Dense<10>{};
  static_assert(mlp.params() == 784 * 512 + 512 + 512 * 10 + 10);
  std::printf("consumer: %lld parameters\n", static_cast<long long>(mlp.params()));
  return mlp.params() == 407'050 ? 0 : 1;
}
