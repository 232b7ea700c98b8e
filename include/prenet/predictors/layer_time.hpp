// SPDX-License-Identifier: MIT
// Forward and backward time of one layer on one device: a layer model measured on that device when there is one
// (prenet-bench), otherwise the sum of its kernels' estimates; tagged with the predictor behind it.
#pragma once

#include <cstdint>
#include <string_view>

#include <prenet/device_spec.hpp>
#include <prenet/layer_node.hpp>
#include <prenet/predictors/generated/layers.hpp>
#include <prenet/predictors/kernel_time.hpp>
#include <prenet/predictors/layer_kernels.hpp>
#include <prenet/predictors/layer_model.hpp>

namespace prenet::predictors {

struct layer_estimate {
  double forward_ms = 0;
  double backward_ms = 0;
  std::string_view predictor = "none";  ///< the predictor behind most of the time; "none" for views
  double roofline_ms = 0;               ///< part of forward + backward that came from the roofline fallback
  double extrapolated_ms = 0;           ///< part of forward + backward whose model extrapolates (out_of_domain)
  bool unseen_device = false;           ///< some learned model has no training rows from this device
  std::int64_t forward_launches = 0;    ///< kernels the forward pass launches (host_dispatch.hpp)
  std::int64_t backward_launches = 0;   ///< kernels the backward pass launches
};

/// Adds where `e`'s time came from to a sum of estimates (layer_estimate, network_estimate): its time to the
/// roofline part when no model was trained on its kernel (the roofline fallback, a fused attention kernel), to the
/// extrapolated part when its model extrapolates, and whether its model never saw the device. The one rule for
/// every level that adds kernels up.
template <class Sum>
constexpr void add_provenance(Sum& sum, const kernel_estimate& e) noexcept {
  if (e.predictor == roofline_name || e.predictor == fused_attention_name) sum.roofline_ms += e.time_ms;
  if (e.out_of_domain) sum.extrapolated_ms += e.time_ms;
  sum.unseen_device = sum.unseen_device || e.unseen_device;
}
/// The same for a sum of sums: `part` (a layer's or a block's estimate) counted `times` times.
template <class Sum, class Part>
constexpr void add_provenance(Sum& sum, const Part& part, double times = 1) noexcept {
  sum.roofline_ms += times * part.roofline_ms;
  sum.extrapolated_ms += times * part.extrapolated_ms;
  sum.unseen_device = sum.unseen_device || part.unseen_device;
}

/// Counts the launches of `k` in pass `p` of `e`: an RNN's kernels once per time step.
constexpr void count_launch(layer_estimate& e, pass p, const kernel& k) noexcept {
  (p == pass::forward ? e.forward_launches : e.backward_launches) += k.repeat;
}

/// How many kernels each pass of `n` launches, whichever predictor times them.
constexpr void count_launches(layer_estimate& e, const layer_node& n, const pass_context& c, bool with_backward) {
  for_each_kernel(n, c, with_backward, [&e](pass p, const kernel& k) { count_launch(e, p, k); });
}

/// Time of `n` on `d` from layer model `m` (which covers n's kind and was trained on `d`).
[[nodiscard]] constexpr layer_estimate estimate_layer(const layer_model& m, const layer_node& n, const device_spec& d,
                                                      const pass_context& c, bool with_backward) noexcept {
  layer_estimate out{.predictor = m.model.name};
  if (!c.training && n.spec.kind == layer_kind::dropout) return out;  // an identity in inference
  const layer_pass p{.batch = c.batch, .element_bytes = c.element_bytes, .input_grad = c.input_grad};
  const auto x = layer_model_features(n, d, p);
  out.forward_ms = m.time_ms(x, n, d, p, false);
  if (with_backward) out.backward_ms = m.time_ms(x, n, d, p, true);
  if (m.model.out_of_domain(x) || c.element_bytes != 4) {  // the bench measures FP32
    out.extrapolated_ms = out.forward_ms + out.backward_ms;
  }
  count_launches(out, n, c, with_backward);
  return out;
}

/// Time of `n` on `d`; `with_backward` = false predicts the forward pass only (inference). Kernels are estimated
/// with `kp` (see kernel_predictors).
[[nodiscard]] constexpr layer_estimate estimate_layer(const layer_node& n, const device_spec& d, const pass_context& c,
                                                      bool with_backward = true,
                                                      const kernel_predictors& kp = embedded_predictors) noexcept {
  // A loop rather than a pointer test (see kernel_time.hpp's estimate).
  // The bench measured attention eager (nn.MultiheadAttention): a fused core is estimated from its kernels.
  // So did it every layer fully trained: a frozen one or one with LoRA adapters is estimated from its kernels too.
  // And GELU in its erf form (nn.GELU): Hugging Face's gelu_new, eight ops, is estimated from its kernels.
  // And convolutions of one group: a grouped or depthwise one is estimated from its kernels.
  // And layers with parameters of their own: a module applied again (tied_all), whose parameters the layer models'
  // features would read as none, is estimated from its kernels.
  const bool as_benched = (n.spec.kind != layer_kind::multihead_attention || !fused(impl_of(n.spec))) &&
                          gelu_form_of(n.spec) == gelu_form::erf && n.role == training_role{} &&
                          (n.spec.kind != layer_kind::conv2d || n.spec.groups <= 1) && n.spec.tied != tied_all;
  for (const layer_model* m : generated::layer_models) {
    if (as_benched && m->covers(n.spec.kind) && m->model.trained_on(d.id))
      return estimate_layer(*m, n, d, c, with_backward);
  }
  layer_estimate out;
  double top_ms = -1;
  // A layer often launches one kernel more than once: a convolution's two gradients are its forward's shape, and so
  // are two of eager attention's backward products (dP = dC V^T is Q K^T's, dQ = dS K is P V's). Each distinct
  // kernel is estimated once (an estimate depends on the kernel and the device alone), which saves about 40% of a
  // convolutional network's prediction and 12% of BERT-large's (clang's constexpr steps: README.md, "Budgets").
  struct seen_kernel {
    kernel k;
    kernel_estimate e;
  };
  std::array<seen_kernel, 4> seen{};  // the last distinct kernels, oldest overwritten first
  std::size_t filled = 0, next = 0;
  for_each_kernel(n, c, with_backward, [&](pass p, const kernel& k) {
    const kernel_estimate* hit = nullptr;
    for (std::size_t j = 0; j < filled && hit == nullptr; ++j) {
      if (seen[j].k == k) hit = &seen[j].e;
    }
    const kernel_estimate e = hit != nullptr ? *hit : estimate(k, d, kp);
    if (hit == nullptr) {
      seen[next] = {k, e};
      next = (next + 1) % seen.size();
      if (filled < seen.size()) ++filled;
    }
    (p == pass::forward ? out.forward_ms : out.backward_ms) += e.time_ms;
    count_launch(out, p, k);
    add_provenance(out, e);
    if (e.time_ms > top_ms) {
      top_ms = e.time_ms;
      out.predictor = e.predictor;
    }
  });
  return out;
}

}  // namespace prenet::predictors
