// SPDX-License-Identifier: MIT
// The time of one kernel on one device: the embedded learned model of its family, or the roofline fallback.
#pragma once

#include <string_view>

#include <prenet/device_spec.hpp>
#include <prenet/predictors/generated/all.hpp>
#include <prenet/predictors/kernel.hpp>
#include <prenet/predictors/kernel_features.hpp>
#include <prenet/predictors/kernel_model.hpp>

namespace prenet::predictors {

/// Fixed cost of a kernel the roofline fallback adds: a launch and a tail, about 5 us on every GPU NeuSight timed.
inline constexpr double fallback_launch_ms = 0.005;

/// The name every roofline-fallback prediction is tagged with.
inline constexpr std::string_view roofline_name = "roofline";

struct kernel_estimate {
  double time_ms = 0;
  std::string_view predictor;  ///< the embedded model's name, or "roofline"
  bool out_of_domain = false;  ///< a learned model extrapolating past its training shapes
  bool unseen_device = false;  ///< a learned model used on a device it has no training rows for
};

/// The embedded model for a family, or nullptr when only the roofline covers it.
[[nodiscard]] constexpr const kernel_model* model_for(kernel_family f) noexcept {
  for (const kernel_model* m : generated::all) {
    if (m->family == f) return m;
  }
  return nullptr;
}

/// Roofline fallback: max(FLOPs / peak, bytes / bandwidth) plus a launch.
[[nodiscard]] constexpr double roofline_ms(const kernel& kn, const device_spec& d) noexcept {
  return roofline_s(kn, d) * 1e3 + fallback_launch_ms;
}

/// Time of `kn` (run kn.repeat times) on `d`. Always finite and positive for kernels with work to do.
[[nodiscard]] constexpr kernel_estimate estimate(const kernel& kn, const device_spec& d) noexcept {
  const auto times = static_cast<double>(kn.repeat);
  // A loop rather than `if (model_for(...))`: g++ 12 with -fsanitize=undefined does not treat comparing the
  // address of a generated model with nullptr as a constant expression.
  // Kernel models learned on GPUs say nothing about a CPU: there the roofline of its own specs covers what the
  // CPU's measured layer models (layer_time.hpp) do not.
  if (!d.is_cpu) {
    for (const kernel_model* m : generated::all) {
      if (m->family != kn.family) continue;
      const auto x = kernel_model::inputs(kn, d);
      return {.time_ms = m->time_ms(x, kn, d) * times,
              .predictor = m->name,
              .out_of_domain = m->out_of_domain(x),
              .unseen_device = !m->trained_on(d.id)};
    }
  }
  return {.time_ms = roofline_ms(kn, d) * times, .predictor = roofline_name};
}

}  // namespace prenet::predictors
