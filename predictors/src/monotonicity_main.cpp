// SPDX-License-Identifier: MIT
// prenet-train monotonicity: does more work on the same device take longer? Sweeps the zoo over every catalogued
// GPU with the embedded predictors — the batch doubling from 1 to 256 at the default input, the image side or the
// sequence length growing at batch 4, and fp16 against fp32 at the same shape — and counts the adjacent pairs where
// the prediction falls by more than the tolerance (3%: the size of real alignment effects), naming the kernel family
// whose time fell most. Writes docs/monotonicity.md. Usage: prenet-train monotonicity --report FILE
#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <prenet/models/zoo.hpp>
#include <prenet/prenet.hpp>

#include "codegen.hpp"
#include "subcommands.hpp"
#include "trainer_cli.hpp"

namespace {

using namespace prenet;
namespace fs = std::filesystem;

constexpr double tolerance = 0.03;
constexpr std::size_t families = 7;  ///< kernel_family's enumerators

/// One prediction and its time per kernel family (forward + backward; the optimizer step is not a kernel family).
struct swept {
  double iteration_ms = 0;
  std::array<double, families> family_ms{};
};

swept run(const runtime_network& net, const device_spec& d, std::int64_t batch, precision p) {
  swept out;
  out.iteration_ms = predict(net.nodes(), d, {.batch = batch, .precision = p}).iteration.count();
  const predictors::pass_context c = predictors::pass_of(plan(p, d), batch, true);
  predictors::for_each_layer_pass(net.nodes(), true, [&](std::size_t, const layer_node& n, bool input_grad, bool backward) {
    predictors::pass_context lc = c;
    lc.input_grad = input_grad;
    predictors::for_each_kernel(n, lc, backward, [&](predictors::pass, const kernel& k) {
      out.family_ms[static_cast<std::size_t>(k.family)] += predictors::estimate(k, d).time_ms;
    });
  });
  return out;
}

/// The family whose time fell most from `a` to `b`.
std::string_view culprit(const swept& a, const swept& b) {
  std::size_t worst = 0;
  for (std::size_t f = 1; f < families; ++f)
    if (b.family_ms[f] - a.family_ms[f] < b.family_ms[worst] - a.family_ms[worst]) worst = f;
  return name(static_cast<kernel_family>(worst));
}

struct decrease {
  double ratio;  ///< later / earlier prediction
  std::string what;
};

struct tally {
  std::size_t pairs = 0, falling = 0;
  void add(bool fell) { ++pairs, falling += fell ? 1 : 0; }
};

}  // namespace

int prenet::trainer::train_monotonicity(int argc, char** argv) {
  const auto flags = read_path_flags(argc, argv, "prenet-train monotonicity", {"--report"},
                                     "prenet-train monotonicity --report FILE");
  const fs::path& report_path = flags.at("--report");
  return run_trainer("prenet-train monotonicity", [&] {
    std::map<std::string, tally> by_axis, by_model, by_family;
    std::vector<decrease> worst;
    const auto pair = [&](const std::string& axis, std::string_view model, const swept& a, const swept& b,
                          const std::string& what) {
      const bool fell = b.iteration_ms < (1 - tolerance) * a.iteration_ms;
      by_axis[axis].add(fell);
      by_model[std::string(model)].add(fell);
      if (!fell) return;
      ++by_family[std::string(culprit(a, b))].falling;
      worst.push_back({b.iteration_ms / a.iteration_ms, what + " (" + std::string(culprit(a, b)) + ")"});
    };
    const std::array<precision, 2> swept_precisions{precision::fp32, precision::amp_fp16};
    for (const models::zoo_entry& z : models::zoo()) {
      const bool image = z.input == models::input_kind::image;
      // Token models at up to 512 tokens keep the 7B-class sweep within a minute.
      const std::int64_t base = image ? z.default_size : std::min<std::int64_t>(z.default_size, 512);
      std::vector<std::int64_t> sizes;
      if (image) {
        for (std::int64_t s = 64; s <= 256; s += 32) sizes.push_back(s);
      } else {
        for (std::int64_t s = 64; s <= std::min<std::int64_t>(z.max_size, 1024); s *= 2) sizes.push_back(s);
      }
      const runtime_network at_base = z.build(base);
      std::vector<runtime_network> at_size;
      for (const std::int64_t s : sizes) at_size.push_back(z.build(s));
      for (const device_spec& d : devices::catalogue) {
        if (d.is_cpu) continue;
        const std::string where = std::string(z.name) + " on " + std::string(d.id);
        for (const precision p : swept_precisions) {
          if (!plan(p, d).runnable) continue;
          const std::string how = where + ", " + std::string(name(p));
          swept prev = run(at_base, d, 1, p);
          for (std::int64_t b = 2; b <= 256; b *= 2) {
            const swept next = run(at_base, d, b, p);
            pair("batch x2", z.name, prev, next, how + ", batch " + std::to_string(b / 2) + " -> " + std::to_string(b));
            prev = next;
          }
          prev = run(at_size.front(), d, 4, p);
          for (std::size_t i = 1; i < sizes.size(); ++i) {
            const swept next = run(at_size[i], d, 4, p);
            pair(image ? "image side" : "sequence length", z.name, prev, next,
                 how + ", batch 4, " + (image ? "image " : "seq ") + std::to_string(sizes[i - 1]) + " -> " +
                     std::to_string(sizes[i]));
            prev = next;
          }
        }
        // Half precision against FP32 at the same shape: never meaningfully slower.
        for (const std::int64_t b : {1, 8, 64}) {
          const swept fp32 = run(at_base, d, b, precision::fp32), half = run(at_base, d, b, precision::fp16);
          const bool slower = half.iteration_ms > (1 + tolerance) * fp32.iteration_ms;
          by_axis["fp16 vs fp32"].add(slower);
          by_model[std::string(z.name)].add(slower);
          if (slower) {
            ++by_family[std::string(culprit(half, fp32))].falling;
            worst.push_back({fp32.iteration_ms / half.iteration_ms,
                             where + ", batch " + std::to_string(b) + ": fp16 slower than fp32 (" +
                                 std::string(culprit(half, fp32)) + ")"});
          }
        }
      }
    }
    std::sort(worst.begin(), worst.end(), [](const decrease& a, const decrease& b) { return a.ratio < b.ratio; });
    std::size_t pairs = 0, falling = 0;
    for (const auto& [axis, t] : by_axis) pairs += t.pairs, falling += t.falling;

    std::ostringstream md;
    md << "# Monotonicity: does more work take longer?\n\nGENERATED by `prenet-train monotonicity --report "
          "docs/monotonicity.md` from the embedded predictors. Do not edit.\n\n"
          "Every zoo model on every catalogued GPU, in fp32 and amp-fp16: the batch doubling from 1 to 256 at the "
          "default input (token models at up to 512 tokens), the image side (64 to 256 by 32) or the sequence "
          "length (64 to 1024 by doubling) growing at batch 4; and pure fp16 against fp32 at batch 1, 8 and 64. A "
          "pair **fails** when the larger run is predicted more than "
       << fixed(100 * tolerance, 0)
       << "% faster (or fp16 more than that slower than fp32). Real GPUs do show small reversals (tile and wave "
          "quantisation), not large ones.\n\n**"
       << falling << " of " << pairs << " pairs fail** (" << fixed(100.0 * static_cast<double>(falling) / static_cast<double>(pairs), 1)
       << "%).\n\n## By sweep\n\n| sweep | pairs | failing | share |\n|---|---|---|---|\n";
    const auto rows = [&md](const std::map<std::string, tally>& m) {
      for (const auto& [k, t] : m)
        md << "| " << k << " | " << t.pairs << " | " << t.falling << " | "
           << fixed(100.0 * static_cast<double>(t.falling) / static_cast<double>(std::max<std::size_t>(t.pairs, 1)), 1) << "% |\n";
    };
    rows(by_axis);
    md << "\n## By model\n\n| model | pairs | failing | share |\n|---|---|---|---|\n";
    rows(by_model);
    md << "\n## The kernel family whose predicted time falls most in a failing pair\n\n| family | failing pairs |\n"
          "|---|---|\n";
    for (const auto& [k, t] : by_family) md << "| " << k << " | " << t.falling << " |\n";
    md << "\n## The 20 largest reversals\n\n| later / earlier | pair (family that fell most) |\n|---|---|\n";
    for (std::size_t i = 0; i < std::min<std::size_t>(20, worst.size()); ++i)
      md << "| " << fixed(worst[i].ratio, 3) << " | " << worst[i].what << " |\n";
    write_if_changed(report_path, md.str());
    std::cerr << "prenet-train monotonicity: " << falling << " of " << pairs << " pairs fail; wrote "
              << report_path.string() << '\n';
  });
}
