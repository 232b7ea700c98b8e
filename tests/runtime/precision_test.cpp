// SPDX-License-Identifier: MIT
// Precision as PyTorch runs it: which kernels use tensor cores on which device, what a device without them runs,
// and the time and memory consequences that a user ranking GPUs relies on.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <prenet/devices.hpp>
#include <prenet/dsl.hpp>
#include <prenet/memory.hpp>
#include <prenet/models/zoo.hpp>
#include <prenet/precision.hpp>
#include <prenet/predict.hpp>
#include <prenet/predictors/kernel_time.hpp>
#include <prenet/predictors/layer_kernels.hpp>

namespace {

using namespace prenet;
namespace dev = prenet::devices;

constexpr std::array all_precisions{precision::pytorch_default, precision::fp32, precision::tf32, precision::amp_fp16,
                                    precision::amp_bf16,        precision::fp16, precision::bf16};

TEST(Precision, PlansFollowTheHardware) {
  // Stock PyTorch: TF32 convolutions on Ampere, FP32 matmuls; nothing changes on Volta.
  EXPECT_EQ(plan(precision::pytorch_default, dev::a100_40gb).conv, math_mode::tf32);
  EXPECT_EQ(plan(precision::pytorch_default, dev::a100_40gb).matmul, math_mode::fp32);
  EXPECT_EQ(plan(precision::pytorch_default, dev::v100).conv, math_mode::fp32);
  // TF32 asked on Volta: silently FP32, and said so.
  EXPECT_EQ(plan(precision::tf32, dev::v100).matmul, math_mode::fp32);
  EXPECT_FALSE(plan(precision::tf32, dev::v100).note.empty());
  EXPECT_TRUE(plan(precision::tf32, dev::a100_40gb).note.empty());
  // Autocast to bf16 raises before Ampere; fp16 tensor cores exist from Volta on.
  EXPECT_FALSE(plan(precision::amp_bf16, dev::v100).runnable);
  EXPECT_FALSE(plan(precision::amp_bf16, dev::t4).runnable);
  EXPECT_TRUE(plan(precision::amp_bf16, dev::a100_80gb).runnable);
  // model.bfloat16() before sm80: bfloat16 GEMMs run emulated at the FP32 rate, but cuDNN has no bfloat16
  // convolution there, so a network that convolves is refused; predict() says so too.
  const runtime_network gpt2 = models::find_model("gpt2")->build(128);
  const runtime_network resnet = models::find_model("resnet50")->build(64);
  EXPECT_TRUE(plan(gpt2.nodes(), precision::bf16, dev::v100).runnable);
  EXPECT_FALSE(plan(resnet.nodes(), precision::bf16, dev::v100).runnable);
  EXPECT_TRUE(plan(resnet.nodes(), precision::bf16, dev::a100_80gb).runnable);
  EXPECT_TRUE(plan(resnet.nodes(), precision::amp_fp16, dev::v100).runnable);
  EXPECT_TRUE(plan(resnet.nodes(), precision::bf16, dev::cpu).runnable);
  EXPECT_FALSE(predict(resnet.nodes(), dev::t4, {.batch = 8, .precision = precision::bf16}).runnable);
  EXPECT_TRUE(predict(gpt2.nodes(), dev::t4, {.batch = 8, .precision = precision::bf16}).runnable);
  // A CPU runs every precision (bfloat16 is CPU autocast's own type), predicted at its FP32 rate and said so.
  for (const precision p : {precision::amp_bf16, precision::amp_fp16, precision::bf16, precision::fp16}) {
    const precision_plan cpu = plan(p, dev::cpu);
    EXPECT_TRUE(cpu.runnable) << name(p);
    EXPECT_EQ(cpu.matmul, math_mode::fp32) << name(p);
    EXPECT_NE(std::string(cpu.note).find("a CPU"), std::string::npos) << name(p);
  }
  EXPECT_EQ(plan(precision::amp_fp16, dev::v100).matmul, math_mode::fp16);
  EXPECT_EQ(plan(precision::amp_fp16, dev::p100).matmul, math_mode::fp32);
  EXPECT_FALSE(plan(precision::amp_fp16, dev::p100).note.empty());
  // AMP keeps fp32 parameters and norms; model.half() halves everything.
  const precision_plan amp = plan(precision::amp_fp16, dev::a100_40gb), half = plan(precision::fp16, dev::a100_40gb);
  EXPECT_EQ(amp.parameter_bytes, 4);
  EXPECT_EQ(amp.activation_bytes, 2);
  EXPECT_EQ(amp.reduction_bytes, 4);
  EXPECT_TRUE(amp.autocast && amp.grad_scaler);
  EXPECT_FALSE(plan(precision::amp_bf16, dev::a100_40gb).grad_scaler);
  EXPECT_EQ(half.parameter_bytes, 2);
  EXPECT_FALSE(half.autocast);
}

TEST(Precision, AmpBf16RanksHopperAmpereAndGeForceForBertLarge) {
  const train_config cfg{.batch = 8, .optimizer = optimizer::adam, .precision = precision::amp_bf16};
  const auto net = models::bert_large;
  const double h100 = predict(net, dev::h100, cfg).iteration.count();
  const double a100 = predict(net, dev::a100_80gb, cfg).iteration.count();
  const double rtx3090 = predict(net, dev::rtx3090, cfg).iteration.count();
  EXPECT_LT(h100, a100);
  EXPECT_LT(a100, rtx3090);
  // And tensor cores matter: AMP on an A100 is well faster than IEEE FP32 there.
  const double fp32 =
      predict(net, dev::a100_80gb, {.batch = 8, .optimizer = optimizer::adam, .precision = precision::fp32}).iteration.count();
  EXPECT_LT(a100 * 2, fp32);
}

TEST(Precision, Tf32DiffersFromFp32OnlyWhereTensorCoresRunIt) {
  const auto time = [](const device_spec& d, precision p) {
    return predict(models::bert_large, d, {.batch = 8, .optimizer = optimizer::adam, .precision = p}).iteration.count();
  };
  EXPECT_LT(time(dev::a100_40gb, precision::tf32), time(dev::a100_40gb, precision::fp32));
  EXPECT_DOUBLE_EQ(time(dev::v100, precision::tf32), time(dev::v100, precision::fp32));
  // BERT has no convolution: stock PyTorch is IEEE FP32 for it everywhere.
  EXPECT_DOUBLE_EQ(time(dev::a100_40gb, precision::pytorch_default), time(dev::a100_40gb, precision::fp32));
  // VGG16 is convolutions: stock PyTorch runs them on TF32 tensor cores on an A100.
  const train_config vgg_default{.batch = 32, .precision = precision::pytorch_default};
  const train_config vgg_fp32{.batch = 32, .precision = precision::fp32};
  EXPECT_LT(predict(models::vgg16, dev::a100_40gb, vgg_default).iteration.count(),
            predict(models::vgg16, dev::a100_40gb, vgg_fp32).iteration.count());
}

TEST(Precision, EveryDeviceAndPrecisionIsFinitePositiveAndPhysical) {
  const auto check = [](const auto& net, const char* model) {
    for (const device_spec& d : dev::catalogue) {
      for (const precision p : all_precisions) {
        const prediction r = predict(net, d, {.batch = 4, .optimizer = optimizer::adam, .precision = p});
        if (!r.runnable) {
          EXPECT_FALSE(r.precision_note.empty()) << model << ' ' << d.id << ' ' << name(p);
          continue;
        }
        EXPECT_TRUE(std::isfinite(r.iteration.count()) && r.iteration.count() > 0) << model << ' ' << d.id << ' ' << name(p);
        EXPECT_GT(r.forward.count(), 0) << model << ' ' << d.id << ' ' << name(p);
        EXPECT_GT(r.optimizer.count(), 0) << model << ' ' << d.id << ' ' << name(p);
      }
    }
  };
  check(models::bert_base, "bert-base");
  check(models::resnet50, "resnet50");
}

TEST(Precision, TensorCoreTimeNeverBeatsTheTensorPeak) {
  const auto net = models::bert_large;
  for (const device_spec* d : {&dev::a100_40gb, &dev::h100, &dev::v100, &dev::rtx3090}) {
    const prediction r = predict(net, *d, {.batch = 16, .optimizer = optimizer::adam, .precision = precision::amp_fp16});
    const double flops = static_cast<double>(net.forward_flops(16) + net.backward_flops(16));
    EXPECT_GT(r.iteration.count() / 1e3, flops / d->peak_fp16_tensor_flops_per_s) << d->id;
  }
}

TEST(Precision, HalfElementsAreNeverSlowerThanFp32) {
  // 2-byte elements move half the bytes and, on tensor cores, run at a higher peak: no kernel may be predicted slower
  // than its FP32 twin. The floor is the one FP32 has: a 3x3, stride-1 convolution on CUDA cores (a P100 has no
  // tensor cores) was once clamped at its direct-convolution roofline, above its Winograd FP32 time.
  for (const device_spec& d : dev::catalogue) {
    for (const kernel& fp32 : {conv2d_kernel(64, 512, 512, 3, 14, 1, 1),
                                           conv2d_kernel(4, 64, 64, 3, 16, 1, 1),
                                           gemm_kernel(1, 4096, 4096, 4096)}) {
      for (const math_mode m : {math_mode::fp32, math_mode::fp16}) {
        kernel half = fp32;
        half.element_bytes = 2;
        half.math = m;
        EXPECT_LE(predictors::estimate(half, d).time_ms, predictors::estimate(fp32, d).time_ms * (1 + 1e-9))
            << d.id << ' ' << name(fp32.family) << " math " << static_cast<int>(m);
      }
    }
  }
}

/// Launches of one pass of `n` under precision `p` on an H100: casts (memory kernels), and the element bytes of every
/// elementwise and softmax kernel as the pass runs it.
struct pass_kernels {
  std::int64_t casts = 0, cast_bytes = 0, launches = 0;
  std::vector<std::int64_t> element_bytes;
};
pass_kernels kernels_of(const layer_node& n, predictors::pass p, precision pr, std::int64_t batch) {
  const predictors::pass_context c = predictors::pass_of(plan(pr, dev::h100), batch, true);
  pass_kernels out;
  for (const kernel& k : predictors::layer_kernels(n, p, c)) {
    const kernel run = c.run(k);
    out.launches += k.repeat;
    if (k.family == kernel_family::memory) {
      out.casts += k.repeat;
      out.cast_bytes += k.repeat * k.bytes();
    } else if (k.family == kernel_family::elementwise || k.family == kernel_family::softmax) {
      out.element_bytes.push_back(run.element_bytes);
    }
  }
  return out;
}

TEST(Precision, AutocastRunsItsFloat32ListInFp32) {
  // The eager attention core's probabilities are fp32 under autocast (softmax is on its float32 list, dropout keeps
  // its input's type), as the memory side saves them (autocast_rule_of): a cast of the S x S scores each way.
  constexpr std::int64_t batch = 2, seq = 128, heads = 4;
  constexpr auto attention = Input<seq, 256>{} | MultiheadAttention<256, heads, attention_options{.dropout = true}>{};
  const layer_node& core = attention.layers[1];
  const std::int64_t scores = batch * heads * seq * seq;
  for (const predictors::pass p : {predictors::pass::forward, predictors::pass::backward}) {
    const pass_kernels amp = kernels_of(core, p, precision::amp_bf16, batch);
    EXPECT_EQ(amp.casts, 2);
    EXPECT_EQ(amp.cast_bytes, 2 * scores * (2 + 4));
    // The scaling runs in half, the softmax and the dropout in fp32.
    EXPECT_EQ(std::count(amp.element_bytes.begin(), amp.element_bytes.end(), 4), 2);
    for (const precision pr : {precision::fp32, precision::bf16}) {
      const pass_kernels plain = kernels_of(core, p, pr, batch);
      EXPECT_EQ(plain.casts, 0);
      EXPECT_EQ(plain.launches + 2, amp.launches);
    }
  }
  // Hugging Face's gelu_new: eight ops forward, eleven launches backward; under autocast pow casts x to fp32 and all
  // but 0.5 x run in fp32 from there, and backward casts x's two fp32 gradients back.
  constexpr auto mlp = Input<seq, 256>{} | Dense<1024>{} | NewGELU{};
  const layer_node& gelu = mlp.layers[2];
  ASSERT_EQ(gelu_form_of(gelu.spec), gelu_form::tanh_eager);
  const std::int64_t elements = batch * seq * 1024;
  const pass_kernels fw32 = kernels_of(gelu, predictors::pass::forward, precision::fp32, batch);
  const pass_kernels bw32 = kernels_of(gelu, predictors::pass::backward, precision::fp32, batch);
  EXPECT_EQ(fw32.launches, 8);
  EXPECT_EQ(bw32.launches, 11);
  EXPECT_EQ(fw32.casts + bw32.casts, 0);
  const pass_kernels fw = kernels_of(gelu, predictors::pass::forward, precision::amp_fp16, batch);
  const pass_kernels bw = kernels_of(gelu, predictors::pass::backward, precision::amp_fp16, batch);
  EXPECT_EQ(fw.launches, 9);
  EXPECT_EQ(bw.launches, 13);
  EXPECT_EQ(fw.cast_bytes, elements * (2 + 4));
  EXPECT_EQ(bw.cast_bytes, 2 * elements * (4 + 2));
  EXPECT_EQ(std::count(fw.element_bytes.begin(), fw.element_bytes.end(), 2), 1);  // 0.5 x
  // Its cost: 9 FLOPs an element forward, 13 backward; autograd keeps x and three tensors more.
  const layer_cost c = gelu.cost();
  EXPECT_EQ(c.forward_flops, 9 * seq * 1024);
  EXPECT_EQ(c.backward_flops, 13 * seq * 1024);
  EXPECT_EQ(c.saves_input, 1);
  EXPECT_EQ(c.saved_elements, 3 * seq * 1024);
}

TEST(Precision, BatchNormRunsCudnnOnlyOnFp32OrFp16InputsWithFp32Weights) {
  // ATen hands cuDNN a batch norm only with an fp32 input, or an fp16 one with fp32 weights
  // (_select_batch_norm_backend): autocast bf16 (a bf16 input) and model.half()/model.bfloat16() (half weights) run
  // ATen's own kernels, two each way over more bytes.
  for (const precision pr : all_precisions) {
    const bool aten = pr == precision::amp_bf16 || pr == precision::fp16 || pr == precision::bf16;
    EXPECT_EQ(plan(pr, dev::h100).native_batchnorm, aten) << name(pr);
  }
  EXPECT_TRUE(plan(precision::bf16, dev::v100).native_batchnorm);  // bf16 tensors on a GPU without BF16 math
  EXPECT_TRUE(plan(precision::fp16, dev::p100).native_batchnorm);
  // Batch norm kept in fp32 in a half model (apex's network_to_half, amp O2): cuDNN again for fp16 inputs, not bf16.
  EXPECT_FALSE(plan(precision::fp16, dev::h100, true).native_batchnorm);
  EXPECT_TRUE(plan(precision::bf16, dev::h100, true).native_batchnorm);
  EXPECT_TRUE(plan(precision::amp_bf16, dev::h100, true).native_batchnorm);
  const train_config half{.batch = 64, .precision = precision::fp16};
  const train_config half_bn32{.batch = 64, .precision = precision::fp16, .keep_batchnorm_fp32 = true};
  const runtime_network resnet = models::find_model("resnet50")->build(224);
  EXPECT_LT(predict(resnet.nodes(), dev::a100_40gb, half_bn32).iteration,
            predict(resnet.nodes(), dev::a100_40gb, half).iteration);
  constexpr std::int64_t batch = 8;
  constexpr auto net = Input<64, 28, 28>{} | BatchNorm2d<64>{};
  const layer_node& bn = net.layers[1];
  const std::int64_t elements = batch * 64 * 28 * 28;
  for (const predictors::pass p : {predictors::pass::forward, predictors::pass::backward}) {
    const bool fwd = p == predictors::pass::forward;
    // Batch norm's kernels are memory kernels: kernels_of counts their bytes with the casts'.
    const pass_kernels cudnn = kernels_of(bn, p, precision::amp_fp16, batch);
    const pass_kernels aten = kernels_of(bn, p, precision::amp_bf16, batch);
    EXPECT_EQ(cudnn.launches, 1);
    EXPECT_EQ(aten.launches, 2);
    EXPECT_EQ(cudnn.cast_bytes, (fwd ? 2 : 3) * elements * 2);  // x in, y out; x and dy in, dx out
    EXPECT_EQ(aten.cast_bytes, (fwd ? 3 : 5) * elements * 2);   // the statistics' pass reads x (and dy) once more
    EXPECT_EQ(kernels_of(bn, p, precision::fp16, batch).launches, 2);
    EXPECT_EQ(kernels_of(bn, p, precision::fp32, batch).launches, 1);
  }
}

TEST(Precision, TensorCoreAlignmentFollowsTheLeadingDimensions) {
  // GPT-2's vocabulary (50,257) is no multiple of 8 two-byte elements; 50,264 is. A GEMM's rows are never a leading
  // dimension: its inner size is one unless it reduces over rows (a weight gradient), where its rows m are.
  kernel head = gemm_kernel(1, 4096, 50257, 1280, 2);
  EXPECT_FALSE(tensor_core_aligned(head));
  head.n = 50264;
  EXPECT_TRUE(tensor_core_aligned(head));
  EXPECT_FALSE(tensor_core_aligned(gemm_kernel(1, 4096, 1280, 50257, 2)));  // d(input) of the head
  EXPECT_TRUE(tensor_core_aligned(gemm_kernel(1, 4095, 1280, 1280, 2)));    // odd rows
  kernel weight_grad = gemm_kernel(1, 1280, 50264, 4095, 2);
  weight_grad.reduces_rows = true;
  EXPECT_TRUE(tensor_core_aligned(weight_grad));
  weight_grad.m = 1283;
  EXPECT_FALSE(tensor_core_aligned(weight_grad));
  EXPECT_TRUE(tensor_core_aligned(gemm_kernel(1, 64, 50260, 64, 4)));   // TF32: 4-byte elements, multiples of 4
  EXPECT_FALSE(tensor_core_aligned(gemm_kernel(1, 64, 50258, 64, 4)));
}

TEST(Precision, UnalignedTensorCoreGemmsAreSlowerButNeverSlowerThanFp32) {
  // The embedded slowdowns come from our own GPU's kernels (docs/precision-calibration.md, "Alignment").
  for (const math_mode m : {math_mode::tf32, math_mode::fp16, math_mode::bf16})
    EXPECT_GT(predictors::embedded_predictors.precision->unaligned_slowdown[static_cast<std::size_t>(m)].compute, 1.5);
  for (const device_spec* d : {&dev::a100_40gb, &dev::h100, &dev::rtx3090}) {
    for (const math_mode m : {math_mode::tf32, math_mode::bf16}) {
      kernel unaligned = gemm_kernel(1, 8192, 50257, 1280, input_element_bytes(m));
      unaligned.math = m;
      kernel padded = unaligned;
      padded.n = 50304;
      const double unaligned_ms = predictors::estimate(unaligned, *d).time_ms;
      // Slower than the padded GEMM with more work; by far where the tensor peak is far above FP32's (an RTX 3090's
      // TF32 peak is its FP32 peak: there the unaligned GEMM is capped at its FP32 twin's time).
      const bool far_above = peak_flops_per_s(m, *d) >= 4 * d->peak_fp32_flops_per_s;
      EXPECT_GT(unaligned_ms, predictors::estimate(padded, *d).time_ms * (far_above ? 1.2 : 1.0))
          << d->id << ' ' << static_cast<int>(m);
      EXPECT_LE(unaligned_ms, predictors::estimate(predictors::as_fp32(unaligned), *d).time_ms * (1 + 1e-9)) << d->id;
    }
  }
  // On CUDA cores (IEEE FP32) no slowdown is added: the estimate is the FP32 model's own. (Its padded twin is no
  // reference: the learned trees are not monotone kernel by kernel, docs/monotonicity.md, "Kernel by kernel".)
  const kernel fp32 = gemm_kernel(1, 8192, 50257, 1280);
  ASSERT_FALSE(tensor_core_aligned(fp32));
  EXPECT_FALSE(predictors::alignment_factor(fp32, predictors::embedded_predictors.precision->unaligned_slowdown).any());
  kernel as_tf32 = fp32;
  as_tf32.math = math_mode::tf32;
  EXPECT_GT(predictors::alignment_factor(as_tf32, predictors::embedded_predictors.precision->unaligned_slowdown).compute,
            1.5);
}

TEST(Precision, AlignmentSlowsTheComputeFarMoreThanTheTraffic) {
  // precision_time_ms divides the tensor peak of an unaligned GEMM's compute term and the bandwidth of its memory
  // term each by its own slowdown: a bf16 GEMM with an inner size of 16 moves far more bytes than the A100's tensor
  // cores need time for, even at a fifth of their peak, so only the memory slowdown reaches it; one with an inner
  // size of 8,192 is compute bound and takes the compute slowdown whole.
  const board_power_law power = predictors::fp32_power_law(kernel_family::gemm);
  // FP32 times of the size the learned model gives (0.18 ms and 15 ms), above each kernel's bf16 roofline.
  const auto time_ms = [&](std::int64_t k, double fp32_ms, predictors::alignment_slowdown slowdown) {
    kernel kn = gemm_kernel(1, 8192, 2050, k, 2);
    kn.math = math_mode::bf16;
    return predictors::precision_time_ms(fp32_ms, kn, dev::a100_80gb, 1.0, power, slowdown);
  };
  EXPECT_DOUBLE_EQ(time_ms(16, 0.18, {.compute = 5.0}), time_ms(16, 0.18, {}));
  EXPECT_GT(time_ms(16, 0.18, {.compute = 5.0, .memory = 1.5}), time_ms(16, 0.18, {}) * 1.2);
  EXPECT_NEAR(time_ms(8192, 15.0, {.compute = 5.0, .memory = 1.5}) / time_ms(8192, 15.0, {}), 5.0, 0.25);
  // With the embedded slowdowns, measured on our GPUs' kernels: the unaligned memory-bound GEMM's learned time is at
  // most its memory slowdown above its aligned neighbour's with more work (within the learned FP32 model's own
  // scatter between the two sizes). Before, its whole stretch took the compute slowdown: 1.7x.
  const double memory_slowdown =
      predictors::embedded_predictors.precision->unaligned_slowdown[static_cast<std::size_t>(math_mode::bf16)].memory;
  EXPECT_GE(memory_slowdown, 1.0);
  EXPECT_LT(memory_slowdown, 2.0);
  kernel unaligned = gemm_kernel(1, 8192, 2050, 16, 2);
  unaligned.math = math_mode::bf16;
  ASSERT_FALSE(tensor_core_aligned(unaligned));
  kernel padded = unaligned;
  padded.n = 2056;
  ASSERT_TRUE(tensor_core_aligned(padded));
  EXPECT_LT(predictors::estimate_learned(unaligned, dev::a100_80gb).time_ms,
            predictors::estimate_learned(padded, dev::a100_80gb).time_ms * memory_slowdown * 1.05);
}

TEST(Precision, NarrowGemmsScaleThePaddedCompute) {
  // A row or column count below the narrowest tile costs the tile; wider ones and the inner size count as they are
  // (rounding them up too made the time a saw-tooth in size).
  const kernel adapter = gemm_kernel(1, 8192, 8, 2048, 2);
  EXPECT_EQ(predictors::executed_flops(adapter), 2.0 * 8192 * predictors::gemm_output_tile * 2048);
  EXPECT_EQ(predictors::executed_flops(gemm_kernel(1, 12, 4096, 25088)),
            2.0 * predictors::gemm_output_tile * 4096 * 25088);  // VGG16's first classifier layer at batch 12
  EXPECT_EQ(predictors::executed_flops(gemm_kernel(1, 8192, 2048, 8, 2)), 2.0 * 8192 * 2048 * 8);
  EXPECT_EQ(predictors::executed_flops(gemm_kernel(3, 65, 100, 7)), 2.0 * 3 * 65 * 100 * 7);
  // An 8-column bf16 GEMM on an A100 (tensor peak 16x the FP32 peak): its FP32 twin runs the padded compute, which
  // tensor cores shorten far more than half-size elements shorten its traffic. Read at its nominal FLOPs the twin
  // was memory-bound and the scale about one half.
  kernel bf16 = adapter;
  bf16.math = math_mode::bf16;
  const double scale = predictors::precision_time_ms(1.0, bf16, dev::a100_80gb, 1.0,
                                                     predictors::fp32_power_law(kernel_family::gemm));
  EXPECT_LT(scale, 0.3);
  EXPECT_GT(scale, 0.0);
}

TEST(Precision, MemoryKeepsFp32MasterWeightsUnderAmp) {
  const auto net = models::bert_base;
  const train_config fp32{.batch = 16, .optimizer = optimizer::adam, .precision = precision::fp32};
  train_config amp = fp32, half = fp32;
  amp.precision = precision::amp_bf16;
  half.precision = precision::bf16;
  const memory_breakdown m32 = analytic_training_memory(net, fp32), mamp = analytic_training_memory(net, amp),
                         mhalf = analytic_training_memory(net, half);
  EXPECT_EQ(mamp.optimizer_state, m32.optimizer_state);  // fp32 Adam moments
  EXPECT_EQ(mhalf.optimizer_state.value * 2, m32.optimizer_state.value);
  EXPECT_LT(mamp.activations, m32.activations);  // half activations
  if (mamp.phase == memory_phase::backward) {
    EXPECT_GT(mamp.weights, m32.weights);  // fp32 weights plus autocast's half copies
  }
  EXPECT_LT(mhalf.total(), m32.total());
}

}  // namespace
