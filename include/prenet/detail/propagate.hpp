// SPDX-License-Identifier: MIT
// Shape inference state machine: turns a stream of layer_specs into layer_nodes, tracking skip connections.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include <prenet/detail/dispatch.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_node.hpp>

namespace prenet::detail {

/// Deepest nesting of Residual blocks inside each other.
inline constexpr std::int64_t max_residual_depth = 16;

struct propagation {
  struct frame {
    shape skip{};       // the block's input, fed to the shortcut
    shape main_out{};   // the main branch's output, set at residual_shortcut
    bool in_shortcut = false;
  };
  shape current{};
  std::int64_t next_index = 0;
  std::array<frame, max_residual_depth> stack{};
  std::int64_t depth = 0;
  layer_kind last_kind = layer_kind::input;

  /// Validates `s`, infers its shapes and returns its node; throws shape_error naming the layer index.
  constexpr layer_node step(const layer_spec& s) {
    const std::int64_t i = next_index++;
    if (std::is_constant_evaluated()) {
      validate(s);  // the rule's own message is the compile error
    } else {
      try {
        validate(s);
      } catch (const shape_error& e) {
        throw shape_error(e.what(), i, current);  // at run time, also name the layer and its input
      }
    }
    const layer_kind previous = last_kind;
    last_kind = s.kind;
    require((s.kind == layer_kind::input) == (i == 0),
            i == 0 ? "Network: the first layer must be Input<...> or Tokens<...>"
                   : "Network: Input may only be the first layer", i, current);
    layer_node node{s, current, current};
    switch (s.kind) {
      case layer_kind::residual_begin:
        require(depth < max_residual_depth, "Residual: nesting must be at most 16 deep", i, current);
        stack[static_cast<std::size_t>(depth++)] = frame{current, {}, false};
        node.gradient_sums = 1;  // the block reads the stream, and so does the shortcut
        return node;
      case layer_kind::residual_shortcut: {
        require(depth > 0 && !top().in_shortcut, "Residual: shortcut marker without an open Residual", i, current);
        require(previous != layer_kind::residual_begin, "Residual: the block must contain at least one layer", i,
                current);
        top().main_out = current;
        top().in_shortcut = true;
        current = top().skip;
        node.output = current;
        return node;
      }
      case layer_kind::residual_add: {
        require(depth > 0 && top().in_shortcut, "Residual: add marker without an open Residual", i, current);
        require(top().main_out == current,
                "Residual: the block's output shape must equal the shortcut's (add a projection shortcut)", i,
                current);
        --depth;
        return node;
      }
      default:
        node.output = output_shape(s, current, i);
        current = node.output;
        return node;
    }
  }
  /// Throws unless every Residual opened has been closed.
  constexpr void finish() const {
    require(depth == 0, "Residual: block left open (missing residual_add)", next_index, current);
  }

 private:
  constexpr frame& top() { return stack[static_cast<std::size_t>(depth - 1)]; }
};

}  // namespace prenet::detail
