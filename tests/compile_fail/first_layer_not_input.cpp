// expect-error: Network: the first layer must be Input
// SPDX-License-Identifier: MIT
// A network whose first spec is not an input is rejected.
#include <array>

#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = make_network(std::array{dense_spec(4)});
#else
constexpr auto net = make_network(std::array{input_spec(vector_shape(4)), dense_spec(4)});
#endif
