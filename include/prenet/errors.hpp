// SPDX-License-Identifier: MIT
// prenet::shape_error: the one exception for invalid layers and impossible compositions.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include <prenet/shape.hpp>

namespace prenet {

/// Thrown for an invalid hyperparameter or an impossible composition. Thrown from `constexpr` code, so in a
/// constant expression it becomes a compile error that shows the message; at run time it is catchable.
/// `what()` reads `layer 5: Dense: input must be rank 1 or 2 ... [input shape (512, 7, 7)]`.
class shape_error : public std::logic_error {
 public:
  explicit shape_error(const std::string& message) : std::logic_error(message) {}
  shape_error(const char* rule, std::int64_t layer_index, const shape& input)
      : std::logic_error(format(rule, layer_index, input)) {}

 private:
  static std::string format(const char* rule, std::int64_t layer_index, const shape& input) {
    std::string s = "layer " + std::to_string(layer_index) + ": " + rule + " [input shape " + to_string(input) + "]";
    return s;
  }
};

namespace detail {
/// Raise a shape_error. At compile time the diagnostic shows this call with its arguments: the rule text,
/// the layer index and the input shape (clang prints all three, g++ prints the rule's source line).
constexpr void fail(const char* rule, std::int64_t layer_index, const shape& input) {
  if (rule != nullptr) throw shape_error(rule, layer_index, input);
}
/// Raise a shape_error for a rule broken by a layer's own hyperparameters (no input involved).
constexpr void fail(const char* rule) {
  if (rule != nullptr) throw shape_error(std::string(rule));
}
}  // namespace detail

}  // namespace prenet

namespace prenet::detail {
/// `fail(rule)` unless `ok`.
constexpr void require(bool ok, const char* rule) {
  if (!ok) fail(rule);
}
/// `fail(rule, layer_index, input)` unless `ok`.
constexpr void require(bool ok, const char* rule, std::int64_t layer_index, const shape& input) {
  if (!ok) fail(rule, layer_index, input);
}
}  // namespace prenet::detail
