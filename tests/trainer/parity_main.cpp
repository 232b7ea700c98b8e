// SPDX-License-Identifier: MIT
// Checks that the C++ evaluation of every generated predictor reproduces the trainer's outputs on the embedded
// probes to 1e-6 relative. Built against whichever generated headers come first on the include path: the ctest
// smoke run compiles it against the headers the trainer just wrote.
#include <cmath>
#include <cstdio>

#include <prenet/devices.hpp>
#include <prenet/predictors/kernel_time.hpp>

int main() {
  int failures = 0, checked = 0;
  for (const prenet::predictors::kernel_model* m : prenet::predictors::generated::all) {
    for (const auto& p : m->probes) {
      const prenet::device_spec* d = prenet::devices::find(p.device);
      if (d == nullptr) {
        std::printf("%.*s: probe device '%.*s' is not in the catalogue\n", static_cast<int>(m->model.name.size()),
                    m->model.name.data(), static_cast<int>(p.device.size()), p.device.data());
        ++failures;
        continue;
      }
      const double t = m->time_ms(p.kn, *d);
      ++checked;
      if (!(std::abs(t - p.time_ms) <= 1e-6 * p.time_ms)) {
        std::printf("%.*s on %.*s: C++ %.17g ms, trainer %.17g ms\n", static_cast<int>(m->model.name.size()),
                    m->model.name.data(), static_cast<int>(p.device.size()), p.device.data(), t, p.time_ms);
        ++failures;
      }
    }
  }
  std::printf("%d probes checked, %d mismatches\n", checked, failures);
  return failures == 0 && checked > 0 ? 0 : 1;
}
