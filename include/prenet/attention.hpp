// SPDX-License-Identifier: MIT
// prenet::attention_impl as a run setting: every attention layer of a network run eager or through PyTorch's
// scaled_dot_product_attention, and which fused kernel a device really runs (docs/attention.md).
#pragma once

#include <cstddef>
#include <string_view>

#include <prenet/device_spec.hpp>
#include <prenet/layers/multihead_attention.hpp>
#include <prenet/network.hpp>
#include <prenet/precision.hpp>
#include <prenet/runtime_network.hpp>

namespace prenet {

/// `net` with every attention layer running its core with `a` (shapes, parameters and edges unchanged):
/// `static_assert(training_memory(with_attention(gpt2, attention_impl::sdpa_flash), cfg) < 16_GiB);`
template <std::size_t N>
[[nodiscard]] constexpr network<N> with_attention(network<N> net, attention_impl a) noexcept {
  for (layer_node& n : net.layers) set_impl(n.spec, a);
  return net;
}
[[nodiscard]] inline runtime_network with_attention(runtime_network net, attention_impl a) {
  net.set_attention(a);
  return net;
}

/// What a device runs for an attention implementation asked for.
struct attention_plan {
  attention_impl runs = attention_impl::eager;
  std::string_view note;  ///< why it differs from what was asked; empty when as asked
};

/// Which kernel PyTorch's scaled_dot_product_attention picks for `a` on `d` under precision `p`. Flash attention
/// (FlashAttention-2 in PyTorch >= 2.2) and cuDNN's attention need an sm80+ GPU and fp16/bf16 tensors
/// (sm80_attention_on, precision.hpp). Without either, sdpa runs
/// the memory-efficient kernel, which takes fp32 too and runs on every CUDA GPU prenet catalogues. A CPU runs
/// PyTorch's fused CPU kernel for all three. Saved memory is modelled alike for every fused kernel, and time too
/// but for the tensor instruction each issues (docs/attention.md): flash and memory-efficient sm80's mma.sync, cuDNN
/// the device's own.
[[nodiscard]] constexpr attention_plan plan(attention_impl a, const device_spec& d, precision p) noexcept {
  if ((a != attention_impl::sdpa_flash && a != attention_impl::sdpa_cudnn) || d.is_cpu) return {a, {}};
  struct reasons {
    std::string_view before_sm80, fp32;
  };
  constexpr reasons flash{"flash attention needs sm80+ (BF16 tensor cores): sdpa runs the memory-efficient kernel",
                          "flash attention takes fp16/bf16 tensors only: sdpa runs the memory-efficient kernel on fp32"};
  constexpr reasons cudnn{"cuDNN attention needs sm80+ (BF16 tensor cores): sdpa runs the memory-efficient kernel",
                          "cuDNN attention takes fp16/bf16 tensors only: sdpa runs the memory-efficient kernel on fp32"};
  const reasons& why = a == attention_impl::sdpa_flash ? flash : cudnn;
  switch (sm80_attention_on(d, element_bytes(activation_dtype(p)))) {
    case sm80_attention::before_sm80: return {attention_impl::sdpa_mem_efficient, why.before_sm80};
    case sm80_attention::fp32_tensors: return {attention_impl::sdpa_mem_efficient, why.fp32};
    case sm80_attention::runs: break;
  }
  return {a, {}};
}

}  // namespace prenet
