// SPDX-License-Identifier: MIT
// BERT-base and BERT-large encoders: parameters, FLOPs per sequence, where the work goes, and fine-tuning memory.
#include <array>
#include <cstdint>
#include <cstdio>
#include <span>

#include <prenet/models/bert.hpp>
#include <prenet/prenet.hpp>

#include "report.hpp"

namespace {

using namespace prenet;
using examples::print_by_kind;
using examples::print_memory;
using namespace prenet::literals;

// The models are defined at sequence 512; fine-tuning (GLUE) typically runs at 128 tokens, batch 32, Adam.
constexpr std::int64_t fine_tune_seq = 128;
constexpr train_config fine_tune{.batch = 32, .optimizer = optimizer::adam};

static_assert(models::bert_base.params() == 109'482'240);
static_assert(models::bert_large.params() == 335'141'888);
static_assert(models::bert_base.output_shape() == vector_shape(768));
static_assert(models::bert_large.output_shape() == vector_shape(1024));
// Budgets at the full 512 positions hold while compiling: BERT-base at batch 8 with Adam fits a 16 GiB GPU.
static_assert(training_memory(models::bert_base, {.batch = 8, .optimizer = optimizer::adam}) < 16_GiB);

void print_totals(const char* label, std::span<const layer_node> nodes, std::int64_t seq) {
  std::printf("%s at %lld tokens: %lld parameters, %.2f GMAC, %.2f GFLOP forward, %.2f GFLOP backward per sequence\n",
              label, static_cast<long long>(seq), static_cast<long long>(params(nodes)),
              static_cast<double>(macs(nodes)) / 1e9, static_cast<double>(forward_flops(nodes)) / 1e9,
              static_cast<double>(backward_flops(nodes)) / 1e9);
}

template <std::size_t N>
void report(const char* label, const network<N>& net) {
  print_totals(label, net.nodes(), net.input_shape()[0]);
  const runtime_network short_seq = with_input(net.nodes(), token_shape(fine_tune_seq));
  print_totals(label, short_seq.nodes(), fine_tune_seq);
  std::printf("%s per layer kind, batch %lld x %lld tokens:\n", label, static_cast<long long>(fine_tune.batch),
              static_cast<long long>(fine_tune_seq));
  print_by_kind(short_seq.nodes(), fine_tune.batch);
  print_memory(label, training_memory(short_seq, fine_tune), fine_tune_seq, fine_tune);
  print_memory(label, training_memory(net, {.batch = 8, .optimizer = optimizer::adam}), net.input_shape()[0],
               {.batch = 8, .optimizer = optimizer::adam});
  std::printf("%s predicted time of one training batch of %lld x %lld tokens (forward + backward, fp32):\n", label,
              static_cast<long long>(fine_tune.batch), static_cast<long long>(fine_tune_seq));
  examples::print_times(short_seq.nodes(), fine_tune.batch);
  std::printf("\n");
}

}  // namespace

int main() {
  report("BERT-base", models::bert_base);
  report("BERT-large", models::bert_large);
}
