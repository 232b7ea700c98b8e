// SPDX-License-Identifier: MIT
// The bench's only door into LibTorch: time a prenet network's forward pass, backward pass and optimizer step.
// Everything else in the bench is plain C++, so only torch_net.cpp pays LibTorch's compile time.
#pragma once

#include <cstdint>
#include <string>

#include <prenet/optimizer.hpp>
#include <prenet/runtime_network.hpp>

namespace prenet::bench {

struct measure_options {
  int warmup = 2;        ///< untimed iterations first (allocator, lazy initialisation, caches)
  int reps = 5;          ///< timed iterations; each times forward, backward and step separately
  double min_total_ms = 0;  ///< keep repeating (up to max_reps) until the timed forward+backward reach this
  int max_reps = 50;
  bool cuda = false;     ///< run on the first CUDA device, synchronising around every timed phase
  std::uint64_t seed = 0;
  bool input_grad = true;  ///< the first layer computes d(input), as a layer inside a network does
};

struct timing_stats {
  double median_ms = 0, min_ms = 0, max_ms = 0, std_ms = 0;
};

struct measurement {
  timing_stats forward, backward, step;
  int reps = 0;
  bool ok = false;
  std::string reason;  ///< why it was skipped (out of memory, invalid shape, ...), one line
};

/// Builds `net` as torch modules (the same layers, shapes and parameter counts) and times it at `batch`.
/// Never throws: a configuration that cannot run comes back with ok == false and the reason.
[[nodiscard]] measurement measure_network(const runtime_network& net, std::int64_t batch, optimizer opt,
                                          const measure_options& o);

/// Parameters of the torch modules built for `net` (equal to net.params(); the bench checks it).
[[nodiscard]] std::int64_t torch_params(const runtime_network& net);

/// "cpu" or the CUDA device's name, and the number of threads LibTorch uses.
[[nodiscard]] std::string torch_device_name(bool cuda);
[[nodiscard]] int torch_threads();
void set_torch_threads(int n);
[[nodiscard]] bool torch_cuda_available();

}  // namespace prenet::bench
