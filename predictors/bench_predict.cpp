// SPDX-License-Identifier: MIT
// Cost of one prediction at run time: a kernel estimate, a layer estimate, and a whole BERT-large forward+backward.
// Prints nanoseconds per call (median of repeated runs); scripts/bench-predictors.sh writes them to docs/.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include <prenet/models/bert.hpp>
#include <prenet/prenet.hpp>

namespace {

/// Median over 15 runs of the time per call of `f`, called `calls` times per run.
template <class F>
double ns_per_call(int calls, F&& f) {
  std::vector<double> runs;
  double sink = 0;
  for (int r = 0; r < 15; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) sink += f(i);
    const auto t1 = std::chrono::steady_clock::now();
    runs.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / calls);
  }
  std::sort(runs.begin(), runs.end());
  if (sink == -1.0) std::puts("");  // keep the work observable
  return runs[runs.size() / 2];
}

}  // namespace

int main() {
  using namespace prenet;
  const auto& bert = models::bert_large;
  const auto nodes = bert.nodes();
  const double kernel_ns = ns_per_call(20000, [](int i) {
    return predictors::estimate(gemm_kernel(1, 4096 + (i & 7), 1024, 4096), devices::v100).time_ms;
  });
  const layer_node& attention = *std::find_if(nodes.begin(), nodes.end(), [](const layer_node& n) {
    return n.spec.kind == layer_kind::multihead_attention;
  });
  const double attention_ns = ns_per_call(2000, [&](int i) {
    return predictors::estimate_layer(attention, devices::a100_40gb, {.batch = 8 + (i & 1)}).forward_ms;
  });
  const double bert_ns = ns_per_call(20, [&](int i) {
    return predictors::estimate_network(nodes, devices::a100_40gb, {.batch = 8 + (i & 1)}).forward_ms;
  });
  std::printf("one gemm kernel estimate: %.0f ns\n", kernel_ns);
  std::printf("one attention layer, forward + backward (%zu kernels): %.0f ns\n",
              predictors::layer_kernels(attention, predictors::pass::forward, {}).size +
                  predictors::layer_kernels(attention, predictors::pass::backward, {}).size,
              attention_ns);
  std::printf("BERT-large (%zu layers), forward + backward: %.1f us\n", nodes.size(), bert_ns / 1000.0);
}
