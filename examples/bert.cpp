// SPDX-License-Identifier: MIT
// BERT-base and BERT-large encoders: parameters, FLOPs per sequence, where the work goes, and fine-tuning memory.
#include <array>
#include <cstdint>
#include <cstdio>
#include <span>

#include <boost/describe/enumerators.hpp>
#include <boost/mp11/algorithm.hpp>

#include <prenet/models/bert.hpp>
#include <prenet/prenet.hpp>

namespace {

using namespace prenet;
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

constexpr std::size_t kinds = boost::mp11::mp_size<boost::describe::describe_enumerators<layer_kind>>::value;

void print_totals(const char* label, std::span<const layer_node> nodes, std::int64_t seq) {
  std::printf("%s at %lld tokens: %lld parameters, %.2f GMAC, %.2f GFLOP forward, %.2f GFLOP backward per sequence\n",
              label, static_cast<long long>(seq), static_cast<long long>(params(nodes)),
              static_cast<double>(macs(nodes)) / 1e9, static_cast<double>(forward_flops(nodes)) / 1e9,
              static_cast<double>(backward_flops(nodes)) / 1e9);
}

/// Forward FLOPs and PreNeT CO summed per layer kind, for one batch.
void print_by_kind(std::span<const layer_node> nodes, std::int64_t batch) {
  std::array<std::int64_t, kinds> count{}, flops{}, co{};
  std::int64_t total = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const layer_features f = features(nodes, i, batch);
    const auto k = static_cast<std::size_t>(nodes[i].spec.kind);
    ++count[k];
    flops[k] += f.forward_flops;
    co[k] += f.co;
    total += f.forward_flops;
  }
  std::printf("  %-20s %6s %14s %8s %14s\n", "kind", "layers", "fwd GFLOP", "share", "CO (G)");
  boost::mp11::mp_for_each<boost::describe::describe_enumerators<layer_kind>>([&](auto e) {
    const auto k = static_cast<std::size_t>(e.value);
    if (flops[k] == 0 && co[k] == 0) return;
    std::printf("  %-20s %6lld %14.2f %7.1f%% %14.2f\n", e.name, static_cast<long long>(count[k]),
                static_cast<double>(flops[k]) / 1e9, 100.0 * static_cast<double>(flops[k]) / static_cast<double>(total),
                static_cast<double>(co[k]) / 1e9);
  });
}

void print_memory(const char* label, const memory_breakdown& m, std::int64_t seq, const train_config& cfg) {
  std::printf("%s training memory at batch %lld x %lld tokens (%.*s, fp32): %.2f GiB = weights %.2f + gradients %.2f"
              " + optimizer %.2f + activations %.2f + workspace %.2f + framework %.2f\n",
              label, static_cast<long long>(cfg.batch), static_cast<long long>(seq),
              static_cast<int>(name(cfg.optimizer).size()), name(cfg.optimizer).data(), m.total().gib(),
              m.weights.gib(), m.gradients.gib(), m.optimizer_state.gib(), m.activations.gib(), m.workspace.gib(),
              m.framework.gib());
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
  std::printf("\n");
}

}  // namespace

int main() {
  report("BERT-base", models::bert_base);
  report("BERT-large", models::bert_large);
}
