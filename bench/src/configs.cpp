// SPDX-License-Identifier: MIT
#include "configs.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <random>

#include <prenet/runtime_network.hpp>

namespace prenet::bench {
namespace {

constexpr std::array<std::string_view, 11> kinds{"dense", "conv2d",      "attention", "embedding",
                                                 "layernorm", "rnn",   "lstm",      "gru",
                                                 "batchnorm2d", "maxpool2d", "activation"};

class draw {
 public:
  draw(std::uint64_t seed, std::int64_t index, int attempt)
      : rng_(seed * 0x9E3779B97F4A7C15ULL ^ (static_cast<std::uint64_t>(index) << 8) ^ static_cast<std::uint64_t>(attempt)) {}
  /// Log-uniform integer in [lo, hi].
  std::int64_t log_int(std::int64_t lo, std::int64_t hi) {
    const double u = std::uniform_real_distribution<double>(std::log(static_cast<double>(lo)),
                                                            std::log(static_cast<double>(hi) + 1))(rng_);
    const auto v = static_cast<std::int64_t>(std::exp(u));
    return v < lo ? lo : v > hi ? hi : v;
  }
  template <std::size_t N>
  std::int64_t pick(const std::array<std::int64_t, N>& v) {
    return v[std::uniform_int_distribution<std::size_t>(0, N - 1)(rng_)];
  }
  bool coin() { return std::uniform_int_distribution<int>(0, 1)(rng_) == 1; }

 private:
  std::mt19937_64 rng_;
};

layer_config candidate(std::string_view kind, draw& d) {
  layer_config c;
  if (kind == "dense") {
    // Up to 4096 rows: a transformer's dense layers see batch x sequence of them; up to 32768 inputs: VGG's
    // classifier reads 25088.
    c.batch = d.log_int(1, 4096);
    c.input = vector_shape(d.log_int(16, 32768));
    c.spec = layer_spec{.kind = layer_kind::dense, .out_features = d.log_int(16, 8192)};
  } else if (kind == "conv2d") {
    c.batch = d.log_int(1, 32);
    const std::int64_t k = d.pick(std::array<std::int64_t, 4>{1, 3, 5, 7});
    const std::int64_t image = d.log_int(std::max<std::int64_t>(k, 8), 128);
    c.input = image_shape(d.log_int(1, 512), image, image);
    c.spec = layer_spec{.kind = layer_kind::conv2d,
                        .out_features = d.log_int(1, 512),
                        .kernel = k,
                        .stride = d.log_int(1, 2),
                        .padding = d.coin() ? k / 2 : 0};
  } else if (kind == "attention") {
    c.batch = d.log_int(1, 16);
    const std::int64_t e = d.pick(std::array<std::int64_t, 6>{64, 128, 256, 384, 512, 768});
    std::int64_t h = d.pick(std::array<std::int64_t, 5>{1, 2, 4, 8, 12});
    while (e % h != 0) h /= 2;
    c.input = sequence_shape(d.log_int(8, 256), e);
    c.spec = layer_spec{.kind = layer_kind::multihead_attention, .in_features = e, .heads = h, .kdim = e, .vdim = e,
                        .causal = d.coin() ? 1 : 0};
  } else if (kind == "embedding") {
    c.batch = d.log_int(1, 64);
    c.input = token_shape(d.log_int(8, 512));
    c.spec = layer_spec{.kind = layer_kind::embedding, .out_features = d.log_int(16, 1024),
                        .num_embeddings = d.log_int(100, 50'000)};
  } else if (kind == "layernorm") {
    c.batch = d.log_int(1, 64);
    const std::int64_t f = d.log_int(32, 2048);
    c.input = sequence_shape(d.log_int(8, 512), f);
    c.spec = layer_spec{.kind = layer_kind::layernorm, .in_features = f};
  } else if (kind == "rnn" || kind == "lstm" || kind == "gru") {
    c.batch = d.log_int(1, 32);
    c.input = sequence_shape(d.log_int(4, 128), d.log_int(8, 512));
    c.spec = layer_spec{.kind = kind == "rnn" ? layer_kind::rnn : kind == "lstm" ? layer_kind::lstm : layer_kind::gru,
                        .out_features = d.log_int(8, 512),
                        .num_layers = d.log_int(1, 2),
                        .bidirectional = d.coin() ? 1 : 0};
  } else if (kind == "batchnorm2d") {
    c.batch = d.log_int(1, 32);
    const std::int64_t image = d.log_int(4, 128), ch = d.log_int(1, 256);
    c.input = image_shape(ch, image, image);
    c.spec = layer_spec{.kind = layer_kind::batchnorm2d, .in_features = ch};
  } else if (kind == "activation") {  // the element-wise layers between the others, on images or sequences
    constexpr std::array<layer_kind, 6> ops{layer_kind::relu,    layer_kind::gelu,    layer_kind::tanh,
                                            layer_kind::sigmoid, layer_kind::softmax, layer_kind::dropout};
    const auto op = ops[static_cast<std::size_t>(d.pick(std::array<std::int64_t, 6>{0, 1, 2, 3, 4, 5}))];
    if (d.coin()) {
      const std::int64_t side = d.log_int(2, 128);
      c.input = image_shape(d.log_int(1, 512), side, side);
    } else {
      c.input = sequence_shape(d.log_int(1, 512), d.log_int(16, 4096));
    }
    // At most 2^24 elements (64 MiB) per batch: what activations of the models this CPU runs reach.
    const std::int64_t per_sample = c.input.numel();
    c.batch = std::min<std::int64_t>(d.log_int(1, 64), std::max<std::int64_t>(1, (std::int64_t{1} << 24) / per_sample));
    c.spec = layer_spec{.kind = op};
  } else {  // maxpool2d
    c.batch = d.log_int(1, 32);
    const std::int64_t k = d.pick(std::array<std::int64_t, 3>{2, 3, 5});
    const std::int64_t image = d.log_int(std::max<std::int64_t>(k, 8), 128);
    c.input = image_shape(d.log_int(1, 256), image, image);
    c.spec = layer_spec{.kind = layer_kind::maxpool2d, .kernel = k, .stride = d.log_int(1, k), .padding = 0};
  }
  return c;
}

double training_flops(const layer_config& c) {
  try {
    runtime_network n(c.input);
    n.append(c.spec);
    n.finish();
    return static_cast<double>(n.forward_flops(c.batch)) + static_cast<double>(n.backward_flops(c.batch));
  } catch (const std::exception&) {
    return INFINITY;  // an impossible shape: draw again
  }
}

}  // namespace

std::span<const std::string_view> bench_kinds() noexcept { return kinds; }

std::optional<layer_config> draw_config(std::string_view kind, std::uint64_t seed, std::int64_t index,
                                        double max_flops) {
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) return std::nullopt;
  layer_config best{};
  double best_flops = INFINITY;
  for (int attempt = 0; attempt < 64; ++attempt) {
    draw d(seed, index, attempt);
    const layer_config c = candidate(kind, d);
    const double f = training_flops(c);
    if (f <= max_flops) return c;
    if (f < best_flops) {
      best_flops = f;
      best = c;
    }
  }
  return best;  // the cheapest of the draws; the bench still records it
}

}  // namespace prenet::bench
