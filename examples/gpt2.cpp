// SPDX-License-Identifier: MIT
// GPT-2 small, medium and large: parameters with the tied LM head, FLOPs per sequence, where the work goes, memory.
#include <array>
#include <cstdint>
#include <cstdio>
#include <span>

#include <prenet/models/gpt2.hpp>
#include <prenet/prenet.hpp>

#include "report.hpp"

namespace {

using namespace prenet;
using examples::print_by_kind;
using examples::print_memory;
using namespace prenet::literals;

static_assert(models::gpt2.params() == 124'439'808);
static_assert(models::gpt2_medium.params() == 354'823'168);
static_assert(models::gpt2_large.params() == 774'030'080);
static_assert(models::gpt2.output_shape() == sequence_shape(1024, 50257));
// The LM head is tied: it does the vocabulary projection's work but adds no parameters.
static_assert(models::gpt2.layers.back().cost().params == 0 &&
              models::gpt2.layers.back().cost().macs == 1024LL * 768 * 50257);
// GPT-2 small at its full context with AdamW in fp32: batch 4 fits a 16 GiB GPU, batch 8 does not (its attention
// keeps the softmax output, the dropped probabilities and the dropout mask, 12 x 1024 x 1024 each per layer).
inline constexpr train_config full_context{.batch = 4, .optimizer = optimizer::adamw};
static_assert(training_memory(models::gpt2, full_context) < 16_GiB);
static_assert(training_memory(models::gpt2, {.batch = 8, .optimizer = optimizer::adamw}) > 16_GiB);

template <std::size_t N>
void print_totals(const char* label, const network<N>& net) {
  std::printf("%-12s %lld parameters, %.1f GMAC, %.1f GFLOP forward, %.1f GFLOP backward per %lld-token sequence\n",
              label, static_cast<long long>(net.params()), static_cast<double>(net.macs()) / 1e9,
              static_cast<double>(net.forward_flops()) / 1e9, static_cast<double>(net.backward_flops()) / 1e9,
              static_cast<long long>(net.input_shape()[0]));
}

}  // namespace

int main() {
  print_totals("GPT-2", models::gpt2);
  print_totals("GPT-2 medium", models::gpt2_medium);
  print_totals("GPT-2 large", models::gpt2_large);

  std::printf("\nGPT-2 per layer kind, batch %lld x 1024 tokens:\n", static_cast<long long>(full_context.batch));
  print_by_kind(models::gpt2.nodes(), full_context.batch);

  std::printf("\ntraining memory\n");
  print_memory("GPT-2", training_memory(models::gpt2, full_context), 1024, full_context);
  constexpr train_config half{.batch = 8, .optimizer = optimizer::adamw, .precision = precision::bf16};
  print_memory("GPT-2", training_memory(models::gpt2, half), 1024, half);
  // A shorter context, re-bound at run time: the same layers from a 256-token input.
  const runtime_network short_ctx = with_input(models::gpt2.nodes(), token_shape(256));
  constexpr train_config short_cfg{.batch = 32, .optimizer = optimizer::adamw};
  print_memory("GPT-2", training_memory(short_ctx, short_cfg), 256, short_cfg);
  print_memory("GPT-2 medium", training_memory(models::gpt2_medium, {.batch = 4, .optimizer = optimizer::adamw}), 1024,
               {.batch = 4, .optimizer = optimizer::adamw});
  print_memory("GPT-2 large", training_memory(models::gpt2_large, {.batch = 1, .optimizer = optimizer::adamw}), 1024,
               {.batch = 1, .optimizer = optimizer::adamw});
}
