// SPDX-License-Identifier: MIT
// prenet-train monotonicity: does more work on the same device take longer? Runs models::monotonicity::sweep (the
// batch doubling from 1 to 256 at the default input, the image side or the sequence length growing at batch 4, and
// fp16 against fp32 at the same shape) over the zoo and every catalogued GPU with the embedded predictors and counts
// the adjacent pairs where the prediction falls by more than its tolerance (3%: the size of real alignment effects),
// naming the kernel family whose time fell most, and those beyond the 5% that tests/runtime/monotonicity_test.cpp
// fails on over a sample of the GPUs; and, on its own, models::monotonicity::sweep_devices: whether a GPU at least
// as capable on every data-sheet number is predicted slower. Writes docs/monotonicity.md.
// Usage: prenet-train monotonicity --report FILE
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <boost/describe/enum_to_string.hpp>

#include <prenet/models/monotonicity.hpp>
#include <prenet/models/zoo.hpp>
#include <prenet/prenet.hpp>

#include "codegen.hpp"
#include "subcommands.hpp"
#include "trainer_cli.hpp"

namespace {

using namespace prenet;
namespace fs = std::filesystem;
namespace mono = models::monotonicity;

struct decrease {
  double ratio;  ///< later / earlier prediction
  std::string what;
};

struct tally {
  std::size_t pairs = 0, falling = 0;
  void add(bool fell) { ++pairs, falling += fell ? 1 : 0; }
};

/// A sweep's failing pairs: how many fail the property test's tolerance too, the kernel family that fell most in
/// each, and the pairs themselves, largest reversal first once sorted.
struct failures {
  std::size_t beyond_test = 0;
  std::map<std::string, tally> by_family;
  std::vector<decrease> worst;

  void add(const mono::pair& p) {
    beyond_test += mono::reversed(p, mono::test_tolerance) ? 1 : 0;
    const std::string family(mono::culprit(p.smaller, p.larger));
    ++by_family[family].falling;
    worst.push_back({p.ratio(), p.what + " (" + family + ")"});
  }
  void sort() {
    std::sort(worst.begin(), worst.end(), [](const decrease& a, const decrease& b) { return a.ratio < b.ratio; });
  }
};

/// `part` as a percentage of `whole`, one decimal (0 of nothing is 0.0).
std::string percent(std::size_t part, std::size_t whole) {
  return trainer::fixed(100.0 * static_cast<double>(part) / static_cast<double>(std::max<std::size_t>(whole, 1)), 1);
}

/// Kernels of one family, smallest first, each with more work than the one before along one axis.
struct kernel_sweep {
  std::string name;  ///< what grows, for the report
  std::vector<kernel> sizes;
};

/// Sizes from `first` to `last`, each at least one more and about an eighth more than the one before.
std::vector<std::int64_t> growing(std::int64_t first, std::int64_t last) {
  std::vector<std::int64_t> v;
  for (std::int64_t x = first; x <= last; x += std::max<std::int64_t>(1, x / 8)) v.push_back(x);
  return v;
}

/// The kernel-level sweeps: each kernel family on its own, its work growing along the axis the models see most.
std::vector<kernel_sweep> kernel_sweeps() {
  std::vector<kernel_sweep> out;
  for (const std::int64_t channels : {64, 128, 256, 512}) {
    for (const std::int64_t batch : {1, 8, 32}) {
      kernel_sweep s{.name = "conv2d 3x3, image side 2-64", .sizes = {}};
      for (std::int64_t image = 2; image <= 64; ++image)
        s.sizes.push_back(conv2d_kernel(batch, channels, channels, 3, image, 1, 1));
      out.push_back(std::move(s));
    }
  }
  for (const std::int64_t width : {768, 1024, 4096}) {
    kernel_sweep g{.name = "gemm, rows 8-4096", .sizes = {}};
    for (const std::int64_t rows : growing(8, 4096)) g.sizes.push_back(gemm_kernel(1, rows, width, width));
    out.push_back(std::move(g));
    for (const kernel_family f : {kernel_family::layernorm, kernel_family::softmax}) {
      kernel_sweep r{.name = std::string(name(f)) + ", rows 8-65536", .sizes = {}};
      for (const std::int64_t rows : growing(8, 65536)) r.sizes.push_back(rows_kernel(f, rows, width));
      out.push_back(std::move(r));
    }
  }
  for (const elementwise_op op : {elementwise_op::add, elementwise_op::gelu}) {
    kernel_sweep e{.name = "elementwise, elements 2^10-2^26", .sizes = {}};
    for (const std::int64_t n : growing(std::int64_t{1} << 10, std::int64_t{1} << 26))
      e.sizes.push_back(elementwise_kernel(op, n));
    out.push_back(std::move(e));
  }
  return out;
}

/// What stays fixed in a kernel sweep's step from `a` to `b` and what grows: "batch 1, 64 channels, 4 -> 5".
std::string step_name(const kernel& a, const kernel& b) {
  const bool conv = a.family == kernel_family::conv2d;
  const std::string fixed_part = conv ? "batch " + std::to_string(a.b) + ", " + std::to_string(a.m) + " channels"
                                 : a.family == kernel_family::elementwise
                                     ? std::string(boost::describe::enum_to_string(a.op, "op"))
                                     : "width " + std::to_string(a.n);
  return fixed_part + ", " + std::to_string(conv ? a.image : a.m) + " -> " + std::to_string(conv ? b.image : b.m);
}

/// Kernel by kernel: predictors::estimate of each sweep's adjacent sizes on every catalogued GPU, in FP32 and in
/// half precision (on tensor cores where the GPU has them), and how often the larger is predicted faster.
std::string kernel_level_section() {
  struct sweep_tally {
    std::size_t steps = 0, beyond_tolerance = 0, beyond_test = 0;
    double worst = 1;
    std::string where;
  };
  std::map<std::string, sweep_tally> by_sweep;
  for (const kernel_sweep& s : kernel_sweeps()) {
    sweep_tally& t = by_sweep[s.name];
    for (const device_spec& d : devices::catalogue) {
      if (d.is_cpu) continue;
      for (const bool half : {false, true}) {
        double before_ms = 0;
        for (std::size_t i = 0; i < s.sizes.size(); ++i) {
          kernel kn = s.sizes[i];
          if (half) {  // estimate runs it on CUDA cores where the GPU has no FP16 tensor cores (as_run_on)
            kn.element_bytes = 2;
            kn.math = math_mode::fp16;
          }
          const double ms = predictors::estimate(kn, d).time_ms;
          if (i > 0) {
            const double ratio = ms / before_ms;
            ++t.steps;
            t.beyond_tolerance += ratio < 1 - mono::tolerance ? 1 : 0;
            t.beyond_test += ratio < 1 - mono::test_tolerance ? 1 : 0;
            if (ratio < t.worst) {
              t.worst = ratio;
              t.where = std::string(d.id) + (half ? ", fp16, " : ", fp32, ") + step_name(s.sizes[i - 1], s.sizes[i]);
            }
          }
          before_ms = ms;
        }
      }
    }
  }
  std::ostringstream md;
  md << "\n## Kernel by kernel\n\nThe sweeps above sum hundreds of kernels, and most kernels' reversals are "
        "small beside the step; one kernel at a time (predictors::estimate, the monotone envelope included) on every "
        "catalogued GPU, in FP32 and in half precision (tensor cores where the GPU has them), each size about an "
        "eighth more work than the one before (a convolution's image side one pixel more). The learned trees are not "
        "monotone in work: the envelope caps a size by its larger probes, but a size whose own estimate dips below "
        "every probe of the size before it still comes out faster.\n\n"
        "| sweep | adjacent steps | over "
     << trainer::fixed(100 * mono::tolerance, 0) << "% faster | over " << trainer::fixed(100 * mono::test_tolerance, 0)
     << "% faster | worst (later / earlier) |\n|---|---|---|---|---|\n";
  for (const auto& [sweep, t] : by_sweep) {
    md << "| " << sweep << " | " << t.steps << " | " << t.beyond_tolerance << " ("
       << percent(t.beyond_tolerance, t.steps) << "%) | " << t.beyond_test << " | " << trainer::fixed(t.worst, 3)
       << (t.where.empty() ? "" : " (" + t.where + ")") << " |\n";
  }
  return md.str();
}

}  // namespace

int prenet::trainer::train_monotonicity(int argc, char** argv) {
  const auto flags = read_path_flags(argc, argv, "prenet-train monotonicity", {"--report"},
                                     "prenet-train monotonicity --report FILE");
  const fs::path& report_path = flags.at("--report");
  return run_trainer("prenet-train monotonicity", [&] {
    std::map<std::string, tally> by_axis, by_model;
    failures failed;
    // The stronger-GPU sweep, reported on its own: no property test holds it (see its section).
    tally stronger;
    failures stronger_failed;
    for (const models::zoo_entry& z : models::zoo()) {
      mono::sweep(z, devices::catalogue, true, [&](const mono::pair& p) {
        const bool fell = mono::reversed(p);
        by_axis[std::string(p.axis)].add(fell);
        by_model[std::string(p.model)].add(fell);
        if (fell) failed.add(p);
      });
      mono::sweep_devices(z, devices::catalogue, true, [&](const mono::pair& p) {
        const bool fell = mono::reversed(p);
        stronger.add(fell);
        if (fell) stronger_failed.add(p);
      });
    }
    failed.sort();
    stronger_failed.sort();
    std::size_t pairs = 0, falling = 0;
    for (const auto& [axis, t] : by_axis) pairs += t.pairs, falling += t.falling;

    std::ostringstream md;
    md << "# Monotonicity: does more work take longer?\n\nGENERATED by `prenet-train monotonicity --report "
          "docs/monotonicity.md` from the embedded predictors. Do not edit.\n\n"
          "Every zoo model on every catalogued GPU, in fp32 and amp-fp16: the batch doubling from 1 to 256 at the "
          "default input (token models at up to 512 tokens), the image side (64 to 256 by 32) or the sequence "
          "length (64 to 1024 by doubling) growing at batch 4; and pure fp16 against fp32 at batch 1, 8 and 64. A "
          "pair **fails** when the larger run is predicted more than "
       << fixed(100 * mono::tolerance, 0)
       << "% faster (fp16 against fp32: the fp32 run is the larger). Real GPUs do show small reversals (tile and wave "
          "quantisation), not large ones.\n\n**"
       << falling << " of " << pairs << " pairs fail** (" << percent(falling, pairs)
       << "%); " << failed.beyond_test << " by more than " << fixed(100 * mono::test_tolerance, 0)
       << "%, the tolerance of the property test (tests/runtime/monotonicity_test.cpp, which sweeps every model on "
          "three of these GPUs each).\n\n## By sweep\n\n| sweep | pairs | failing | share |\n|---|---|---|---|\n";
    const auto rows = [&md](const std::map<std::string, tally>& m) {
      for (const auto& [k, t] : m)
        md << "| " << k << " | " << t.pairs << " | " << t.falling << " | " << percent(t.falling, t.pairs) << "% |\n";
    };
    rows(by_axis);
    const auto largest = [&md](const failures& f) {  // the 20 largest reversals
      for (std::size_t i = 0; i < std::min<std::size_t>(20, f.worst.size()); ++i)
        md << "| " << fixed(f.worst[i].ratio, 3) << " | " << f.worst[i].what << " |\n";
    };
    md << "\n## By model\n\n| model | pairs | failing | share |\n|---|---|---|---|\n";
    rows(by_model);
    md << "\n## The kernel family whose predicted time falls most in a failing pair\n\n| family | failing pairs |\n"
          "|---|---|\n";
    for (const auto& [k, t] : failed.by_family) md << "| " << k << " | " << t.falling << " |\n";
    md << "\n## The 20 largest reversals\n\n| later / earlier | pair (family that fell most) |\n|---|---|\n";
    largest(failed);
    md << "\n## A stronger GPU\n\nEvery pair of catalogued GPUs where one is at least as capable as the other on "
          "every data-sheet number that can shorten a kernel (FP32 and tensor peaks, memory bandwidth, SMs, boost "
          "clock, L2, board power; models::monotonicity::stronger) and more capable on one, every zoo model at its "
          "default input (token models at up to 512 tokens) at batch 1 and 32, in fp32, tf32 and amp-fp16 where both "
          "run it: the weaker GPU should not be predicted more than "
       << fixed(100 * mono::tolerance, 0) << "% faster. **" << stronger.falling << " of " << stronger.pairs
       << " pairs fail** (" << percent(stronger.falling, stronger.pairs) << "%), " << stronger_failed.beyond_test
       << " by more than " << fixed(100 * mono::test_tolerance, 0)
       << "%. No property test holds this sweep: docs/precision.md (\"Accuracy\") says where the reversals come from "
          "and what removing them cost on the held-out runs.\n\n| family that fell most | failing pairs |\n"
          "|---|---|\n";
    for (const auto& [k, t] : stronger_failed.by_family) md << "| " << k << " | " << t.falling << " |\n";
    md << "\n| weaker / stronger | pair (family that fell most) |\n|---|---|\n";
    largest(stronger_failed);
    md << kernel_level_section();
    write_if_changed(report_path, md.str());
    std::cerr << "prenet-train monotonicity: " << falling << " of " << pairs << " pairs fail, " << stronger.falling
              << " of " << stronger.pairs << " stronger-GPU pairs; wrote "
              << report_path.string() << '\n';
  });
}
