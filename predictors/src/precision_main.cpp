// SPDX-License-Identifier: MIT
// prenet-train precision: calibrates how much of the tensor-core and half-precision speed-up a kernel really gets
// (predictors/precision_model.hpp) on published whole-model training throughput in FP32, TF32, AMP and half
// (../shared/datasets/external), validates it leaving one GPU out, and writes generated/precision.hpp and a report.
// Usage: prenet-train precision --datasets DIR --header FILE --report FILE [--data DIR]
//
// The calibration is a small decision tree over precision_feature_names whose structure is fixed here (kernel class,
// then math mode, then the data-sheet ratio of the tensor peak to the FP32 peak) and whose leaves — ln(stretch of the
// own roofline) — are fitted to whole-model times: each run's predicted iteration is the part no leaf touches plus,
// per calibrated kernel, the library's own precision_time_ms at the leaf's value, so the fit and the library share
// one formula. Leaves are fitted by coordinate descent on the mean |ln(predicted / measured)|.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <boost/describe/enum_from_string.hpp>
#include <boost/describe/enum_to_string.hpp>

#include <prenet/models/zoo.hpp>
#include <prenet/prenet.hpp>

#include "codegen.hpp"
#include "csv.hpp"
#include "dataset.hpp"
#include "embedded_emit.hpp"
#include "experiments.hpp"
#include "intervals.hpp"
#include "runtime_predictors.hpp"
#include "subcommands.hpp"
#include "twins.hpp"
#include "trainer_cli.hpp"

namespace {

using namespace prenet;
using namespace prenet::trainer;
namespace fs = std::filesystem;
using predictors::precision_feature_count;
using feature_row = std::array<float, precision_feature_count>;

// --- the measured runs ----------------------------------------------------------------------------------------------

/// A published source whose rows we read: PyTorch training steps whose model and settings the zoo can express.
struct source_rule {
  std::string_view source;
  std::string_view label;  ///< short name in the report
  bool with_optimizer;     ///< false: the source timed forward + backward without the optimizer step
  bool calibrates;         ///< false: validation only (small batches timed with host copies on old stacks, where
                           ///< the FP32 baseline itself is off; fitting them would bend the calibration to that)
  /// Its whole-model-in-half runs keep BatchNorm in fp32 (train_config::keep_batchnorm_fp32): NVIDIA's ConvNets
  /// script runs `--fp16` through apex's network_to_half, which converts BatchNorm back to float.
  bool half_keeps_batchnorm_fp32 = false;
  /// Its language-model steps reduce the logits to a scalar (their sum or mean) where a script would compute a loss:
  /// predicted without one (loss_function::none). Our bench's; every published source trains with its loss.
  bool language_models_reduce_logits = false;
  /// Its language models train with Hugging Face's Trainer: the optimizer its notes name (`adamw_apex_fused`, else
  /// the Trainer's default AdamW), and `grad_accum=N` micro-batches per step where its notes say so.
  bool hf_trainer = false;
};
constexpr source_rule sources[] = {
    {"lambdal/deeplearning-benchmark", "Lambda (NGC, DLE scripts)", true, true, true},
    {"huggingface/pytorch-image-models", "timm (RTX 3090, AMP)", true, true},
    {"ryujaehun/pytorch-gpu-benchmark", "ryujaehun (batch 12, validation only)", false, false},
    {"u39kun/deep-learning-benchmark", "u39kun (batch 16, validation only)", false, false},
    // Two steps timed through the Trainer with its data loader, so host work the library does not model is in them:
    // validation only, and the one published AMP bf16 step on a GPU before Hopper.
    {.source = "mli/transformers-benchmarks", .label = "mli (HF Trainer, RTX 3090 Ti, validation only)",
     .with_optimizer = true, .calibrates = false, .hf_trainer = true},
};
/// The sources of ../shared/datasets/external the calibration does not read, and why: the report's ingestion table
/// names them with their training rows, so that no row goes unaccounted for.
constexpr std::array<std::pair<std::string_view, std::string_view>, 3> unread_sources{{
    {"NVIDIA/DeepLearningExamples",
     "not read: NVIDIA's README tables, epoch averages with the real data pipeline; the zoo's models among them "
     "(RN50 v1.5, BERT) have no batch or an accumulated one, and ConvNets AMP runs NHWC"},
    {"lambdal/lambda-tensorflow-benchmark", "not read: TensorFlow (tf_cnn_benchmarks, mostly XLA), not PyTorch"},
    {"jcjohnson/cnn-benchmarks", "not read: Torch7 (Lua) with cuDNN 4-5, not PyTorch"},
}};
/// Our own training steps on a GPU we were lent (data/<id>/e2e.csv, bench/gpu_measure.py): validation only, the
/// first Hopper rows, never fitted. An fp16 autocast row is compared without the optimizer unless its
/// `skipped_steps` says GradScaler ran every timed step: on the runs before that column the loss was the sum of the
/// logits, which overflows fp16, and GradScaler skipped the step, so their optimizer time is not one.
constexpr source_rule our_steps{"data/*/e2e.csv", "ours (data/<id>, validation only)", true, false, false, true};
constexpr source_rule our_steps_no_optimizer{"data/*/e2e.csv", "ours (data/<id>, validation only)", false, false,
                                             false, true};

/// The dataset's model names and the zoo's. timm's resnet50 is torchvision's architecture; its vit_base_patch16_224
/// and vit_large_patch16_224 are torchvision's ViT-B/16 and ViT-L/16 (86,567,656 and 304,326,632 parameters, the
/// counts timm's table gives as 86.57M and 304.33M), vit_base_patch16_384 the same ViT-B/16 built for 384 x 384
/// (86.86M: 577 position embeddings).
constexpr std::array<std::pair<std::string_view, std::string_view>, 14> model_names{{
    {"resnet18", "resnet18"},
    {"resnet50", "resnet50"},
    {"tv_resnet50", "resnet50"},
    {"resnet101", "resnet101"},
    {"tv_resnet101", "resnet101"},
    {"resnet152", "resnet152"},
    {"tv_resnet152", "resnet152"},
    {"vgg16", "vgg16"},
    {"vit_base_patch16_224", "vit-b-16"},
    {"vit_base_patch16_384", "vit-b-16"},
    {"vit_large_patch16_224", "vit-l-16"},
    {"bert_base_squad", "bert-base"},
    {"bert_large_squad", "bert-large"},
    {"gpt2-medium (HF run_clm)", "gpt2-medium"},
}};
/// Dataset models that train a head the zoo's model lacks, and the name of their twin (trainer::twin_of): Hugging
/// Face's run_mlm trains BertForMaskedLM, the encoder with the masked-LM head over the vocabulary.
constexpr std::array<std::pair<std::string_view, std::string_view>, 1> twin_names{{
    {"bert-large-uncased (HF run_mlm)", "bert_large"},
}};

constexpr std::array<std::pair<std::string_view, precision>, 5> precision_names{{
    {"fp32", precision::fp32},
    {"tf32", precision::tf32},
    {"fp16_amp", precision::amp_fp16},
    {"bf16_amp", precision::amp_bf16},
    {"fp16", precision::fp16},
}};

struct run_row {
  const source_rule* source = nullptr;
  std::string where{};  ///< file:line
  std::string dataset_model{};
  const models::zoo_entry* model = nullptr;
  const device_spec* device = nullptr;
  precision prec = precision::fp32;
  std::int64_t batch = 0, size = 0;
  std::int64_t grad_accum = 1;  ///< micro-batches of `batch` per optimizer step
  optimizer opt = optimizer::none;
  double measured_ms = 0;
  std::int64_t measured_peak_bytes = 0;  ///< our steps: torch.cuda.max_memory_allocated over the run (0: not measured)
  std::string group{};  ///< the held-out unit: every catalogue entry with the same chip (SMs and peaks)
  int framework_version = 0;  ///< PyTorch major x 100 + minor as the source states it ("PyTorch 1.13.0a0" -> 113)
  bool superseded = false;    ///< see mark_superseded
  /// Whether the calibration fits this run: a calibrating source's run not superseded by a newer stack.
  [[nodiscard]] bool calibrates() const { return source->calibrates && !superseded; }
};

struct ingest_count {
  std::size_t read = 0, kept = 0;
  std::size_t superseded = 0;  ///< kept for validation only (mark_superseded)
  std::map<std::string, std::size_t> dropped;  ///< why -> rows
};

/// The N of "grad_accum=N" in a row's notes; 1 where they name none, 0 where N is not a positive number.
std::int64_t grad_accum_of(std::string_view notes) {
  constexpr std::string_view key = "grad_accum=";
  const std::size_t at = notes.find(key);
  if (at == std::string_view::npos) return 1;
  std::int64_t n = 0;
  const char* first = notes.data() + at + key.size();
  const auto [end, ec] = std::from_chars(first, notes.data() + notes.size(), n);
  return ec == std::errc{} && end != first && n >= 1 ? n : 0;
}

/// "224x224 ..." -> 224, "seq_len=384 ..." -> 384, else 0.
std::int64_t input_size(const std::string& input) {
  const std::string_view s = input;
  const std::size_t at = s.rfind("seq_len=", 0) == 0 ? 8 : 0;
  std::int64_t v = 0;
  std::size_t i = at;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) v = v * 10 + (s[i] - '0');
  return i == at ? 0 : v;
}

/// Whether two runs time one setup: the same source, GPU, model and precision (batch and PyTorch may differ).
bool same_setup(const run_row& a, const run_row& b) {
  return a.source == b.source && a.device == b.device && a.model == b.model && a.prec == b.prec;
}

/// "PyTorch 1.13.0a0+d0d6b1f" -> 113; 0 where the framework names no PyTorch version.
int pytorch_version(std::string_view framework) {
  constexpr std::string_view prefix = "PyTorch ";
  if (!framework.starts_with(prefix)) return 0;
  framework.remove_prefix(prefix.size());
  int major = 0, minor = 0;
  const auto [dot, e1] = std::from_chars(framework.data(), framework.data() + framework.size(), major);
  if (e1 != std::errc{} || dot == framework.data() + framework.size() || *dot != '.') return 0;
  const std::errc e2 = std::from_chars(dot + 1, framework.data() + framework.size(), minor).ec;
  return e2 == std::errc{} && minor < 100 ? major * 100 + minor : 0;
}

/// Today's PyTorch is what the library predicts, so where a calibrating source measured the same model on the same
/// GPU in the same precision on more than one PyTorch, only the newest calibrates; the older runs stay in the report,
/// validation only. Lambda timed several GPUs twice, on PyTorch 1.4-1.10 (its v0 tables) and again on 1.13 (v1): the
/// same A100 runs BERT-large 1.2-1.4x faster in TF32 and AMP on the newer stack, so fitting both would pin the
/// tensor-core leaves to software years older than any GPU a user now asks about.
void mark_superseded(std::vector<run_row>& rows, std::map<std::string, ingest_count>& counts) {
  for (run_row& a : rows) {
    if (!a.source->calibrates) continue;
    for (const run_row& b : rows) {
      if (same_setup(a, b) && b.framework_version > a.framework_version) a.superseded = true;
    }
    if (a.superseded) ++counts[std::string(a.source->source)].superseded;
  }
}

/// Our own steps (data/<id>/e2e.csv rows of mode "step"), each predicted with its trainer::twin_of: ResNet-50, GPT-2
/// large and Llama-3.2-1B from the zoo, BERT-large with the pre-training heads it ran (as docs/validation.md predicts
/// it).
void load_bench_steps(const fs::path& data, std::vector<run_row>& out, std::map<std::string, ingest_count>& counts) {
  for (const auto& [device, file] : device_files(data, "e2e.csv")) {
    const csv_table t(file);
    ingest_count& n = counts[std::string(our_steps.source)];
    for (std::size_t i = 0; i < t.rows(); ++i) {
      if (t.at(i, t.column("mode")) != "step") continue;
      ++n.read;
      const std::string& model = t.at(i, t.column("model"));
      run_row r{.source = &our_steps, .where = t.where(i), .dataset_model = model, .device = device};
      r.model = trainer::twin_of(model, "train");  // a step trains
      if (r.model == nullptr) { ++n.dropped["model not in the zoo"]; continue; }
      if (!boost::describe::enum_from_string(t.at(i, t.column("precision")).c_str(), r.prec)) {
        ++n.dropped["precision " + t.at(i, t.column("precision"))];
        continue;
      }
      if (r.prec == precision::amp_fp16 && !(t.has("skipped_steps") && t.at(i, t.column("skipped_steps")) == "0"))
        r.source = &our_steps_no_optimizer;
      r.batch = static_cast<std::int64_t>(t.number(i, t.column("batch")));
      r.size = static_cast<std::int64_t>(t.number(i, t.column("seq")));
      r.measured_ms = t.number(i, t.column("fw_ms")) + t.number(i, t.column("bw_ms")) +
                      (r.source->with_optimizer ? t.number(i, t.column("opt_ms")) : 0.0);
      if (t.has("peak_mem_bytes"))
        r.measured_peak_bytes = static_cast<std::int64_t>(t.number(i, t.column("peak_mem_bytes")));
      if (!(r.measured_ms > 0) || !std::isfinite(r.measured_ms) || r.batch < 1 || r.size < 1)
        throw data_error(t.where(i) + ": bad time, batch or size");
      r.opt = !r.source->with_optimizer ? optimizer::none
              : r.model->input == models::input_kind::tokens ? optimizer::adamw : optimizer::momentum;
      r.group = chip_key(*r.device);
      ++n.kept;
      out.push_back(std::move(r));
    }
  }
}

std::vector<run_row> load_runs(const fs::path& datasets, std::map<std::string, ingest_count>& counts) {
  const fs::path file = datasets / "external" / "measurements.csv";
  const csv_table t(file);
  const std::size_t c_source = t.column("source"), c_model = t.column("model"), c_gpu = t.column("gpu"),
                    c_count = t.column("gpu_count"), c_prec = t.column("precision"), c_batch = t.column("batch"),
                    c_input = t.column("input"), c_metric = t.column("metric"), c_value = t.column("value"),
                    c_mode = t.column("mode"), c_framework = t.column("framework"), c_notes = t.column("notes");
  std::vector<run_row> out;
  for (std::size_t i = 0; i < t.rows(); ++i) {
    const source_rule* src = nullptr;
    for (const source_rule& s : sources) src = t.at(i, c_source) == s.source ? &s : src;
    if (src == nullptr) {
      const auto unread = std::find_if(unread_sources.begin(), unread_sources.end(),
                                       [&](const auto& u) { return u.first == t.at(i, c_source); });
      if (unread == unread_sources.end())
        throw data_error(t.where(i) + ": source '" + t.at(i, c_source) +
                         "' is neither read nor listed as unread (precision_main.cpp: sources, unread_sources)");
      if (t.at(i, c_mode) == "train") {
        ingest_count& n = counts[std::string(unread->first)];
        ++n.read, ++n.dropped[std::string(unread->second)];
      }
      continue;
    }
    if (t.at(i, c_mode) != "train") continue;
    ingest_count& n = counts[std::string(src->source)];
    ++n.read;
    const auto drop = [&n](const std::string& why) { ++n.dropped[why]; };
    run_row r{.source = src, .where = t.where(i), .dataset_model = t.at(i, c_model)};
    for (const auto& [name, zoo] : model_names) r.model = t.at(i, c_model) == name ? models::find_model(zoo) : r.model;
    for (const auto& [name, twin] : twin_names)
      r.model = t.at(i, c_model) == name ? trainer::twin_of(twin, "train") : r.model;
    if (r.model == nullptr) { drop("model not in the zoo"); continue; }
    if (t.at(i, c_framework).rfind("PyTorch", 0) != 0) { drop("not PyTorch"); continue; }
    if (t.at(i, c_count) != "1") { drop("more than one GPU"); continue; }
    // timm's channels_last rows run another layout than the NCHW the kernel models were measured in.
    if (src->source == "huggingface/pytorch-image-models" && t.at(i, c_notes).rfind("NCHW", 0) != 0) {
      drop("channels_last");
      continue;
    }
    bool known_precision = false;
    for (const auto& [name, p] : precision_names) {
      if (t.at(i, c_prec) == name) r.prec = p, known_precision = true;
    }
    if (!known_precision) { drop("precision " + t.at(i, c_prec)); continue; }
    r.device = devices::from_dataset_name(t.at(i, c_gpu));
    if (r.device == nullptr) { drop("GPU not in the catalogue"); continue; }
    const double batch = t.number_or_nan(i, c_batch), value = t.number_or_nan(i, c_value);
    r.size = input_size(t.at(i, c_input));
    if (!(batch >= 1) || !(value > 0) || r.size <= 0) { drop("unparsable batch, value or input"); continue; }
    r.batch = static_cast<std::int64_t>(batch);
    if (src->hf_trainer) r.grad_accum = grad_accum_of(t.at(i, c_notes));
    if (r.grad_accum < 1) { drop("unparsable grad_accum"); continue; }
    const std::string& metric = t.at(i, c_metric);
    if (metric == "ms_per_iter") {
      r.measured_ms = value;
    } else if (metric == "samples_per_s") {  // every micro-batch's samples: one step is grad_accum batches
      r.measured_ms = 1e3 * batch * static_cast<double>(r.grad_accum) / value;
    } else {
      drop("metric " + metric);
      continue;
    }
    if (!plan(r.prec, *r.device).runnable) { drop("precision the GPU cannot run"); continue; }
    r.opt = !src->with_optimizer ? optimizer::none
            : r.model->input != models::input_kind::tokens ? optimizer::momentum  // SGD with momentum
            : !src->hf_trainer ? optimizer::adam_fused                            // DLE's run_squad.py: apex FusedAdam
            : t.at(i, c_notes).find("adamw_apex_fused") != std::string::npos ? optimizer::adamw_fused
                                                                              : optimizer::adamw;
    r.group = chip_key(*r.device);
    r.framework_version = pytorch_version(t.at(i, c_framework));
    // One measurement published twice (ryujaehun's RTX 2080 Ti files sit in two folders) counts once. The PyTorch
    // version is part of the key: Lambda's throughputs are rounded, and two stacks can round to the same number.
    const auto same = [&r](const run_row& o) {
      return same_setup(o, r) && o.batch == r.batch && o.size == r.size &&
             o.framework_version == r.framework_version && o.measured_ms == r.measured_ms;
    };
    if (std::any_of(out.begin(), out.end(), same)) { drop("published twice"); continue; }
    ++n.kept;
    out.push_back(std::move(r));
  }
  return out;
}

// --- the tree's fixed structure -------------------------------------------------------------------------------------

/// One node of the calibration tree: a split (feature >= 0) or a leaf (the index of its fitted value).
struct tree_node {
  int feature = -1;
  float threshold = 0;
  int left = -1, right = -1;  ///< children (indices into the node list): x[feature] < threshold goes left
  int leaf = -1;
  std::string label{};  ///< the leaf's meaning, for the report
};

/// A parameter of the calibration's first stage; every leaf's ln(stretch) is a linear combination of them.
struct parameter {
  std::string label;
  double lo, hi, step;  ///< the grid the descent searches
};

/// One term of a leaf's first-stage value: `coefficient` x the parameter's value.
struct term {
  int parameter;
  double coefficient;
};

constexpr double ln_step = 0.02;  ///< the grid of ln(stretch) the fit searches
/// The least ln(stretch) a tensor-core leaf may take: the grid point (the grid runs through 0, "the data sheet is
/// right") nearest above ln(precision_model::least_stretch), the least stretch the library reads back. The double
/// counted FP32 peak that allows a stretch below 1 concerns tensor-core kernels only; CUDA-core and memory-bound
/// leaves keep off_tensor_core_min_ln_stretch.
const double min_ln_stretch = std::ceil(std::log(predictors::precision_model::least_stretch) / ln_step) * ln_step;
/// The least ln(stretch) of a CUDA-core or memory-bound leaf: off the tensor cores no kernel beats the data sheet's
/// speed-up over its FP32 twin (stretch 1), in the first stage's range and the second stage's alike.
constexpr double off_tensor_core_min_ln_stretch = 0.0;
constexpr double max_ln_stretch = 3.0;  ///< e^3 = 20: past any tensor-core shortfall in the data

struct tree_shape {
  std::vector<tree_node> nodes;  ///< nodes[0] is the root
  int leaves = 0;

  std::vector<parameter> parameters;
  std::vector<std::vector<term>> basis;  ///< leaf -> its first-stage value as terms of the parameters
  std::vector<double> least_ln;          ///< leaf -> the least ln(stretch) it may take

  int param(std::string label, double lo, double hi, double step) {
    parameters.push_back({std::move(label), lo, hi, step});
    return static_cast<int>(parameters.size()) - 1;
  }
  int leaf(std::string label, std::vector<term> terms, double least) {
    nodes.push_back({.leaf = leaves++, .label = std::move(label)});
    basis.push_back(std::move(terms));
    least_ln.push_back(least);
    return static_cast<int>(nodes.size()) - 1;
  }
  int split(int feature, float threshold, int left, int right) {
    nodes.push_back({.feature = feature, .threshold = threshold, .left = left, .right = right});
    return static_cast<int>(nodes.size()) - 1;
  }
  [[nodiscard]] int leaf_of(const feature_row& x) const {
    int i = root;
    while (nodes[static_cast<std::size_t>(i)].feature >= 0) {
      const tree_node& n = nodes[static_cast<std::size_t>(i)];
      i = x[static_cast<std::size_t>(n.feature)] < n.threshold ? n.left : n.right;
    }
    return nodes[static_cast<std::size_t>(i)].leaf;
  }
  /// The tree in XGBoost's flat layout (children adjacent, left first) with `values` in its leaves.
  [[nodiscard]] flat_trees flatten(const std::vector<double>& values) const {
    flat_trees t;
    t.roots = {0};
    std::vector<int> order{root};  // spec node of each flat slot
    for (std::size_t slot = 0; slot < order.size(); ++slot) {
      const tree_node& n = nodes[static_cast<std::size_t>(order[slot])];
      if (n.feature < 0) {
        t.feature.push_back(-1);
        t.value.push_back(static_cast<float>(values[static_cast<std::size_t>(n.leaf)]));
        t.left.push_back(0);
        continue;
      }
      t.feature.push_back(static_cast<std::int8_t>(n.feature));
      t.value.push_back(n.threshold);
      t.left.push_back(static_cast<std::int32_t>(order.size()));
      order.push_back(n.left);
      order.push_back(n.right);
    }
    return t;
  }
  int root = 0;
};

enum feature_index : int { f_family = 0, f_math = 1, f_peak_ratio = 2, f_element_ratio = 3 };

/// Powers of two of the tensor peak over the FP32 peak the tree tells apart: 1x (GeForce Ampere and newer in TF32),
/// 2x, 4x (Turing GeForce, professional Ampere and Ada in FP16), 8x (V100, T4, A100 and Hopper in TF32), 16x (A100,
/// Hopper in FP16) and 32x (Blackwell in FP16).
constexpr int ratio_buckets = 6;

/// Kernel class (GEMM, convolution, the memory-bound rest), then where its multiply-adds run (CUDA cores at half
/// storage, TF32, FP16/BF16 tensor cores), then for tensor cores the data-sheet ratio of their peak to the FP32 peak,
/// by powers of two. BF16 shares FP16's leaves: the public runs hold no BF16 rows, and the two run on the same units
/// at the same peak.
///
/// The fit's first stage gives a tensor-core leaf the value a(class, math mode) + b(class) x log2(peak ratio): the
/// further the tensor peak outstrips the FP32 peak, the less of it a kernel of that class reaches, at one rate for
/// TF32 and FP16 alike. That slope is what lets a ratio no calibration GPU of that math mode has — the A100's TF32
/// when the A100 is held out, Blackwell's 30x FP16 — be predicted from the ratios FP16 runs span (2x to 16x); the
/// second stage lets each leaf the data reach move off the line.
tree_shape calibration_shape() {
  tree_shape s;
  // A leaf off the tensor cores: one first-stage parameter of its own, both stages bounded below by stretch 1.
  const auto off_tensor_cores = [&](const std::string& label) {
    const int p = s.param(label, off_tensor_core_min_ln_stretch, max_ln_stretch, ln_step);
    return s.leaf(label, {{p, 1}}, off_tensor_core_min_ln_stretch);
  };
  const auto tensor = [&](const std::string& cls) {
    const int slope = s.param(cls + ": slope per doubling of the peak ratio", -0.5, 1.0, 0.01);
    const int cuda = off_tensor_cores(cls + ", CUDA cores, 2-byte tensors");
    const auto by_ratio = [&](const std::string& what) {
      const int offset = s.param(what + ": offset", -1.5, 3.0, 0.02);
      // A chain of splits at log2 ratio 0.5, 1.5, ...: bucket k holds ratios within a factor sqrt(2) of 2^k.
      int node = s.leaf(what + ", tensor peak " + std::to_string(1 << (ratio_buckets - 1)) + "x FP32",
                        {{offset, 1}, {slope, ratio_buckets - 1}}, min_ln_stretch);
      for (int k = ratio_buckets - 2; k >= 0; --k) {
        const int here = s.leaf(what + ", tensor peak " + std::to_string(1 << k) + "x FP32",
                                {{offset, 1}, {slope, static_cast<double>(k)}}, min_ln_stretch);
        node = s.split(f_peak_ratio, static_cast<float>(k) + 0.5f, here, node);
      }
      return node;
    };
    const int tf32 = by_ratio(cls + ", TF32");
    const int half = by_ratio(cls + ", FP16/BF16");
    return s.split(f_math, 0.5f, cuda, s.split(f_math, 1.5f, tf32, half));
  };
  const int gemm = tensor("GEMM");
  const int conv = tensor("convolution");
  const int rest = off_tensor_cores("memory-bound kernels, 2-byte tensors");
  const int not_gemm = s.split(f_family, 1.5f, conv, rest);
  s.root = s.split(f_family, 0.5f, gemm, not_gemm);
  return s;
}

// --- alignment ------------------------------------------------------------------------------------------------------

/// The alignment slowdowns (predictors::precision_model::unaligned_slowdown) and what they came from.
struct alignment_fit {
  predictors::alignment_slowdowns slowdown = predictors::no_alignment_slowdown;
  struct side {
    int kernels = 0;
    double log_share = 0;  ///< sum of ln(achieved share of the tensor peak, or of the bandwidth)
    [[nodiscard]] double share() const { return kernels ? std::exp(log_share / kernels) : 0.0; }
  };
  /// By math_mode: compute-bound GEMMs' shares of the tensor peak, memory-bound ones' shares of the bandwidth.
  std::array<side, math_mode_count> compute_aligned{}, compute_unaligned{}, memory_aligned{}, memory_unaligned{};
};

/// One tensor-core GEMM our bench timed, as fit_alignment reads it.
struct timed_gemm {
  const device_spec* device;
  kernel kn;
  bool compute_bound;  ///< else memory-bound
  double share;        ///< achieved FLOP/s over the tensor peak of its math mode, or bytes/s over the bandwidth
};

/// Tensor-core GEMMs (linear, bmm) that our bench timed (dataset::tensor_core, from data/<id>/ops.csv) on a GPU that
/// runs their math mode, far from the device's ridge in that math mode (tensor peak / bandwidth): compute-bound
/// ones of 10 GFLOP or more with at least twice its FLOPs per byte, and memory-bound ones with at most a quarter of
/// them. Misalignment costs the tensor cores far more than the traffic (on our H100 and H200, bf16: 0.70 of the
/// peak aligned against 0.13, 0.13 of the bandwidth against 0.09), and precision_time_ms slows each term by its
/// own ratio. Collected once; each fit_alignment (every GPU, then every held-out die) filters them.
std::vector<timed_gemm> timed_tensor_core_gemms(const dataset& kernels) {
  constexpr double least_flops = 1e10, least_intensity_over_ridge = 2.0, most_intensity_over_ridge = 0.25;
  std::vector<timed_gemm> out;
  for (const tensor_core_row& k : kernels.tensor_core) {
    if ((k.op != "linear" && k.op != "bmm") || !supports(*k.device, k.kn.math)) continue;
    if (!(k.time_ms > 0) || !std::isfinite(k.time_ms)) throw data_error(k.where + ": bad latency_ms");
    const double flops = static_cast<double>(k.kn.flops()), bytes = static_cast<double>(k.kn.bytes());
    const double peak = peak_flops_per_s(k.kn.math, *k.device), bandwidth = k.device->memory_bandwidth_bytes_per_s;
    const double over_ridge = flops / bytes / (peak / bandwidth), seconds = k.time_ms * 1e-3;
    if (flops >= least_flops && over_ridge >= least_intensity_over_ridge)
      out.push_back({k.device, k.kn, true, flops / seconds / peak});
    else if (over_ridge <= most_intensity_over_ridge)
      out.push_back({k.device, k.kn, false, bytes / seconds / bandwidth});
  }
  return out;
}

/// The GEMMs of timed_tensor_core_gemms on GPUs `use` accepts: per math mode, the geometric mean share of aligned
/// kernels (tensor_core_aligned) over that of unaligned ones, compute-bound and memory-bound apart. A side with
/// fewer than 5 kernels keeps 1 (no slowdown).
template <class Use>
alignment_fit fit_alignment(const std::vector<timed_gemm>& gemms, Use use) {
  constexpr int least_kernels = 5;
  alignment_fit out;
  for (const timed_gemm& g : gemms) {
    if (!use(*g.device)) continue;
    const bool aligned = tensor_core_aligned(g.kn);
    auto& sides = g.compute_bound ? (aligned ? out.compute_aligned : out.compute_unaligned)
                                  : (aligned ? out.memory_aligned : out.memory_unaligned);
    alignment_fit::side& s = sides[static_cast<std::size_t>(g.kn.math)];
    ++s.kernels;
    s.log_share += std::log(g.share);
  }
  const auto ratio = [&](const alignment_fit::side& aligned, const alignment_fit::side& unaligned) {
    if (aligned.kernels < least_kernels || unaligned.kernels < least_kernels) return 1.0;
    return std::max(1.0, aligned.share() / unaligned.share());
  };
  for (std::size_t m = 1; m < out.slowdown.size(); ++m) {
    out.slowdown[m] = {.compute = ratio(out.compute_aligned[m], out.compute_unaligned[m]),
                       .memory = ratio(out.memory_aligned[m], out.memory_unaligned[m])};
  }
  return out;
}

/// The report's account of the alignment slowdowns.
std::string alignment_section(const alignment_fit& a) {
  std::ostringstream o;
  o << "\n## Alignment\n\nTensor-core GEMMs (linear, bmm) timed by our bench (data/<id>/ops.csv), far from the "
       "device's ridge at the math mode's dense peak (peak / bandwidth): compute-bound ones (10 GFLOP or more, at "
       "least twice the ridge's FLOPs per byte) by the share of the peak they reach, memory-bound ones (at most a "
       "quarter of it) by the share of the bandwidth. *Aligned*: their stored matrices' leading dimensions are "
       "multiples of 16 bytes (prenet::tensor_core_aligned). The ratio of the geometric mean shares, aligned over "
       "unaligned, is the slowdown by which the library divides an unaligned GEMM's tensor peak (compute) and "
       "bandwidth (memory) in its own roofline; 1 where either side has fewer than 5 kernels.\n\n"
    << "| math mode | term | aligned kernels | aligned: share | unaligned kernels | unaligned: share | slowdown |\n"
    << "|---|---|---|---|---|---|---|\n";
  for (std::size_t m = 1; m < a.slowdown.size(); ++m) {
    const auto row = [&](std::string_view term, const alignment_fit::side& al, const alignment_fit::side& un,
                         double slowdown) {
      o << "| " << boost::describe::enum_to_string(static_cast<math_mode>(m), "?") << " | " << term << " | "
        << al.kernels << " | " << fixed(al.share(), 2) << " | " << un.kernels << " | " << fixed(un.share(), 2)
        << " | " << fixed(slowdown, 2) << "× |\n";
    };
    row("compute", a.compute_aligned[m], a.compute_unaligned[m], a.slowdown[m].compute);
    row("memory", a.memory_aligned[m], a.memory_unaligned[m], a.slowdown[m].memory);
  }
  return o.str();
}

// --- one run as the fit sees it -------------------------------------------------------------------------------------

struct calibrated_kernel {
  kernel own;        ///< as the device runs it (predictors::as_run_on)
  double fp32_ms;    ///< the learned time of its FP32 twin
  int leaf;
  double count = 1;  ///< identical kernels merged
  predictors::alignment_slowdown alignment{};  ///< predictors::alignment_factor at the measured slowdowns
  board_power_law power{};  ///< the law fp32_ms was computed with (predictors::fp32_power_law)
};

struct prepared_run {
  const run_row* row = nullptr;
  std::vector<calibrated_kernel> kernels{};  ///< every kernel the calibration touches
  double rest_ms = 0;                      ///< the rest of the predicted iteration, which no leaf changes
};

double kernel_ms(const calibrated_kernel& k, const device_spec& d, double ln_stretch) {
  const double stretch = predictors::precision_model::stretch_of(static_cast<float>(ln_stretch));
  return predictors::precision_time_ms(k.fp32_ms, k.own, d, stretch, k.power, k.alignment) * k.count;
}

/// The training step a run measured: its batch, optimizer and precision, its loss, and batch norm as its source's
/// script keeps it. Our bench's language-model steps (data/<id>/e2e.csv) reduce the logits to their sum (mean since
/// the GradScaler fix), which keeps no tensor and costs a pass over them: they are predicted without a loss.
train_config step_config(const run_row& r) {
  const bool reduces_logits =
      r.source->language_models_reduce_logits && r.model->input != models::input_kind::image;
  return {.batch = r.batch, .optimizer = r.opt, .precision = r.prec, .grad_accum = r.grad_accum,
          .loss = reduces_logits ? loss_function::none : loss_function::cross_entropy,
          .keep_batchnorm_fp32 = r.source->half_keeps_batchnorm_fp32};
}

/// The network a run ran: the zoo model at the run's size, its attention as the model's reference code runs it
/// (zoo_entry::attention: Hugging Face's LLaMA and torchvision's ViT, through nn.MultiheadAttention, call
/// scaled_dot_product_attention; BERT and GPT-2, as NVIDIA's scripts and our bench run them, are eager), but eager
/// on a PyTorch before 2.0, which has no scaled_dot_product_attention: timm's ViTs on 1.10-1.12 run the attention
/// core by hand (q k^T, softmax, the product with v).
runtime_network network_of(const run_row& r) {
  const bool before_sdpa = r.framework_version > 0 && r.framework_version < 200;
  return with_attention(r.model->build(r.size), before_sdpa ? attention_impl::eager : r.model->attention);
}

/// `r` as the calibration sees it, with the kernel models of `kp` (the embedded ones, or refits that held a die out).
prepared_run prepare(const run_row& r, const tree_shape& shape, const predictors::alignment_slowdowns& slowdown,
                     const predictors::kernel_predictors& kp = predictors::embedded_predictors) {
  prepared_run out{.row = &r};
  const runtime_network net = network_of(r);
  const device_spec& d = *r.device;
  const train_config cfg = step_config(r);
  const predictors::pass_context c = predictors::pass_of(plan(cfg, d), r.batch, true);
  double touched_ms = 0;
  predictors::for_each_layer_pass(net.nodes(), true, [&](std::size_t, const layer_node& n, bool input_grad, bool backward) {
    predictors::pass_context lc = c;
    lc.input_grad = input_grad;
    predictors::for_each_kernel(n, lc, backward, [&](predictors::pass, const kernel& run) {
      if (run.math == math_mode::fp32 && run.element_bytes == 4) return;
      // Each micro-batch runs the passes' kernels once.
      const double runs = static_cast<double>(r.grad_accum);
      touched_ms += runs * predictors::estimate(run, d, kp).time_ms;
      const kernel own = predictors::as_run_on(run, d);
      // Identical kernels (BERT repeats its layers) are merged.
      const auto same = std::find_if(out.kernels.begin(), out.kernels.end(),
                                     [&own](const calibrated_kernel& k) { return k.own == own; });
      if (same != out.kernels.end()) {
        same->count += runs;
        return;
      }
      out.kernels.push_back({.own = own,
                             .fp32_ms = predictors::estimate_fp32(predictors::as_fp32(own), d, kp).time_ms,
                             .leaf = shape.leaf_of(predictors::precision_features(own, d)),
                             .count = runs,
                             .alignment = predictors::alignment_factor(own, slowdown),
                             .power = predictors::fp32_power_law(own.family, kp)});
    });
  });
  const prediction p = predict(net.nodes(), d, cfg, run_mode::train, kp);
  out.rest_ms = p.iteration.count() - touched_ms;
  if (!(out.rest_ms > -1e-6 * p.iteration.count()))
    throw std::runtime_error(r.where + ": the calibrated kernels take more than the whole prediction");
  return out;
}

double predicted_ms(const prepared_run& run, const std::vector<double>& leaves) {
  double ms = run.rest_ms;
  for (const calibrated_kernel& k : run.kernels)
    ms += kernel_ms(k, *run.row->device, leaves[static_cast<std::size_t>(k.leaf)]);
  return ms;
}

// --- the fit --------------------------------------------------------------------------------------------------------

constexpr double coarse_ridge = 1e-3;  ///< per run touched: pulls the first stage towards "the data sheet is right"
constexpr double fine_ridge = 2e-2;    ///< per run touched: pulls a leaf towards its first-stage value

/// ln(stretch) of a leaf whose terms are `terms`, with parameter `j` at `v` and the others at `params`.
double ln_of(const std::vector<term>& terms, const std::vector<double>& params, std::size_t j, double v) {
  double x = 0;
  for (const term& t : terms) x += t.coefficient * (static_cast<std::size_t>(t.parameter) == j ? v : params[static_cast<std::size_t>(t.parameter)]);
  return std::clamp(x, min_ln_stretch, max_ln_stretch);
}

/// Parameters minimising the mean |ln(predicted / measured)| over `runs` plus a ridge towards `prior`, by coordinate
/// descent over each parameter's grid; leaf l's ln(stretch) is the sum of `basis[l]`'s terms. A parameter no run
/// touches keeps its prior.
std::vector<double> descend(const std::vector<const prepared_run*>& runs, const std::vector<std::vector<term>>& basis,
                            const std::vector<parameter>& space, std::vector<double> params,
                            const std::vector<double>& prior, double ridge) {
  const std::size_t n = params.size(), none = n;
  // Each kernel's time at the current values, each run's total, and per parameter the (run, kernel) pairs it moves.
  std::vector<std::vector<double>> now(runs.size());
  std::vector<double> total(runs.size());
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> uses(n);
  const auto ms_at = [&](std::size_t r, std::size_t k, std::size_t j, double v) {
    const calibrated_kernel& kn = runs[r]->kernels[k];
    return kernel_ms(kn, *runs[r]->row->device, ln_of(basis[static_cast<std::size_t>(kn.leaf)], params, j, v));
  };
  for (std::size_t r = 0; r < runs.size(); ++r) {
    total[r] = runs[r]->rest_ms;
    for (std::size_t k = 0; k < runs[r]->kernels.size(); ++k) {
      now[r].push_back(ms_at(r, k, none, 0));
      total[r] += now[r].back();
      for (const term& t : basis[static_cast<std::size_t>(runs[r]->kernels[k].leaf)])
        uses[static_cast<std::size_t>(t.parameter)].emplace_back(r, k);
    }
  }
  for (int sweep = 0; sweep < 6; ++sweep) {
    for (std::size_t j = 0; j < n; ++j) {
      if (uses[j].empty()) continue;
      // The runs parameter j touches (uses[j] is ordered by run), each with its time without j's kernels.
      std::vector<std::pair<std::size_t, std::size_t>> spans;  // [begin, end) into uses[j] per run
      std::vector<double> others_ms;
      for (std::size_t i = 0; i < uses[j].size();) {
        const std::size_t r = uses[j][i].first, begin = i;
        double ms = total[r];
        for (; i < uses[j].size() && uses[j][i].first == r; ++i) ms -= now[r][uses[j][i].second];
        spans.emplace_back(begin, i);
        others_ms.push_back(ms);
      }
      const parameter& g = space[j];
      double best = params[j], best_loss = 1e300;
      for (int step = 0; g.lo + step * g.step <= g.hi + 1e-9; ++step) {
        const double v = g.lo + step * g.step;
        double loss = ridge * (v - prior[j]) * (v - prior[j]) * static_cast<double>(spans.size());
        for (std::size_t t = 0; t < spans.size(); ++t) {
          double ms = others_ms[t];
          for (std::size_t i = spans[t].first; i < spans[t].second; ++i) ms += ms_at(uses[j][i].first, uses[j][i].second, j, v);
          loss += std::abs(std::log(ms / runs[uses[j][spans[t].first].first]->row->measured_ms));
        }
        if (loss < best_loss - 1e-12) best_loss = loss, best = v;
      }
      params[j] = best;
      for (const auto& [r, k] : uses[j]) {
        const double ms = ms_at(r, k, none, 0);
        total[r] += ms - now[r][k];
        now[r][k] = ms;
      }
    }
  }
  return params;
}

/// Each leaf's ln(stretch) at the first stage's parameter values.
std::vector<double> leaf_values(const tree_shape& shape, const std::vector<double>& params) {
  std::vector<double> out;
  for (const std::vector<term>& terms : shape.basis) out.push_back(ln_of(terms, params, params.size(), 0));
  return out;
}

struct calibration {
  std::vector<double> parameters;  ///< the first stage: offsets and slopes
  std::vector<double> leaves;      ///< ln(stretch) per leaf, the second stage
};

/// The leaves for `runs`, in two stages: first the parameters (an offset per kernel class and math mode, a slope
/// per class over log2 of the peak ratio), pulled towards 0 ("the data sheet is right"); then each leaf pulled
/// towards its first-stage value, so that a bucket no run reaches — the A100's TF32 when the A100 is held out —
/// takes the value the other ratios' line gives it.
calibration fit(const std::vector<const prepared_run*>& runs, const tree_shape& shape) {
  const std::size_t np = shape.parameters.size();
  const std::vector<double> params =
      descend(runs, shape.basis, shape.parameters, std::vector<double>(np, 0.0), std::vector<double>(np, 0.0), coarse_ridge);
  const std::vector<double> prior = leaf_values(shape, params);
  std::vector<std::vector<term>> identity;
  std::vector<parameter> per_leaf;
  for (int l = 0; l < shape.leaves; ++l) {
    identity.push_back({{l, 1.0}});
    per_leaf.push_back({"", shape.least_ln[static_cast<std::size_t>(l)], max_ln_stretch, ln_step});
  }
  return {params, descend(runs, identity, per_leaf, prior, prior, fine_ridge)};
}

// --- the report -----------------------------------------------------------------------------------------------------

std::string interval_section(const predictors::interval_spread& s, const coverage& c) {
  return "## The interval stated for calibrated predictions\n\nEvery prediction that runs a calibrated kernel "
         "(TF32, AMP, half) states the 80% interval [p × " + fixed(std::exp(s.low_log), 2) + ", p × " +
         fixed(std::exp(s.high_log), 2) + "] from the " + std::to_string(s.runs) + " held-out non-FP32 runs above, "
         "for a run on a GPU other than theirs: each GPU weighs the same, the centre is the mean over GPUs of their "
         "mean ln(measured / predicted), the half-width Student's t (GPUs - 1 degrees of freedom) times the spread "
         "between GPUs and within one (predictors/src/intervals.hpp). Coverage, each GPU's runs against the interval "
         "fitted on the other GPUs' residuals only: " + std::to_string(c.inside) + " of " + std::to_string(c.runs) +
         " runs inside (" + fixed(100 * c.share(), 0) + "%; 80% stated).\n";
}

struct scored_run {
  const prepared_run* run;
  double today_ms, held_out_ms, fitted_ms;
  double die_held_out_ms = 0;  ///< kernel models and calibration both without the run's die; 0 = no kernel row of it
};

struct error_summary {
  std::size_t n = 0;
  double abs_sum = 0, ratios_log_sum = 0, worst = 0;
  void add(double predicted, double measured) {
    const double e = predicted / measured - 1;
    ++n;
    abs_sum += std::abs(e);
    ratios_log_sum += std::log(predicted / measured);
    worst = std::max(worst, std::abs(e));
  }
  [[nodiscard]] std::string mape() const { return n ? fixed(100 * abs_sum / static_cast<double>(n), 1) + "%" : "—"; }
  [[nodiscard]] std::string bias() const {
    return n ? fixed(std::exp(ratios_log_sum / static_cast<double>(n)), 2) + "×" : "—";
  }
};

/// A run's source as the report names it: a superseded run (mark_superseded) apart from its source's fitted runs,
/// "Lambda (NGC, DLE scripts)" -> "Lambda (NGC, DLE scripts; older PyTorch, validation only)".
std::string source_label(const run_row& r) {
  std::string label(r.source->label);
  if (!r.superseded) return label;
  constexpr std::string_view older = "older PyTorch, validation only";
  return label.ends_with(')') ? label.insert(label.size() - 1, "; " + std::string(older))
                              : label + " (" + std::string(older) + ")";
}

/// Every run with its predictions, one CSV line each (`--rows`): what the report's tables aggregate, for looking
/// behind a mean.
std::string rows_csv(const std::vector<scored_run>& scored) {
  std::string out = "where,source,pytorch,model,device,precision,batch,grad_accum,size,measured_ms,before_ms,"
                    "held_out_ms,in_sample_ms,die_held_out_ms\n";
  for (const scored_run& s : scored) {
    const run_row& r = *s.run->row;
    out += "\"" + r.where + "\",\"" + source_label(r) + "\"," + std::to_string(r.framework_version) + ",\"" +
           r.dataset_model + "\"," + std::string(r.device->id) + "," + std::string(name(r.prec)) + "," +
           std::to_string(r.batch) + "," + std::to_string(r.grad_accum) + "," +
           std::to_string(r.size) + "," + fixed(r.measured_ms, 3) + "," + fixed(s.today_ms, 3) + "," +
           fixed(s.held_out_ms, 3) + "," + fixed(s.fitted_ms, 3) + "," + fixed(s.die_held_out_ms, 3) + "\n";
  }
  return out;
}

/// Issue 15's protocol where it applies to these runs: each run on a die whose kernels NeuSight measured (the
/// kernel models' training GPUs: GV100, GA100, ...) predicted with every kernel model refitted without any kernel row
/// of that die, and the calibration fitted, on runs prepared with those refits, without any run of that die. Sets
/// scored[i].die_held_out_ms for rows[i]; returns a log line per die.
std::string predict_die_held_out(const dataset& kernels, const std::vector<timed_gemm>& gemms,
                                 const std::vector<run_row>& rows, const tree_shape& shape,
                                 std::vector<scored_run>& scored) {
  // The alignment slowdowns too are measured without the die's kernels.
  std::set<std::string> measured;
  for (const sample& k : kernels.samples) measured.insert(die_key(*k.device));
  std::string log;
  for (const std::string& die : measured) {
    const auto on_die = [&die](const run_row& r) { return die_key(*r.device) == die; };
    const auto held = static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), on_die));
    if (held == 0) continue;
    const std::vector<family_model> fitted =
        fit_kernel_models(kernels, [&die](const device_spec& d) { return die_key(d) != die; }, {});
    const runtime_predictors refit(fitted);
    const predictors::alignment_slowdowns slowdown =
        fit_alignment(gemms, [&die](const device_spec& d) { return die_key(d) != die; }).slowdown;
    std::vector<prepared_run> runs;
    runs.reserve(rows.size());
    for (const run_row& r : rows) runs.push_back(prepare(r, shape, slowdown, refit.set()));
    std::vector<const prepared_run*> train;
    for (const prepared_run& r : runs)
      if (r.row->calibrates() && !on_die(*r.row)) train.push_back(&r);
    const std::vector<double> leaves = fit(train, shape).leaves;
    for (std::size_t i = 0; i < runs.size(); ++i)
      if (on_die(rows[i])) scored[i].die_held_out_ms = predicted_ms(runs[i], leaves);
    log += "die " + die + " held out of the kernel models and the calibration: " + std::to_string(held) + " runs\n";
  }
  return log;
}

/// The report's table of predict_die_held_out: by precision and die, the calibration alone held out against the
/// kernel models held out too.
std::string die_section(const std::vector<scored_run>& scored) {
  std::map<std::string, std::array<error_summary, 2>> by;
  std::map<std::string, std::set<std::string>> gpus;
  for (const scored_run& s : scored) {
    if (s.die_held_out_ms <= 0) continue;
    const std::string k = std::string(name(s.run->row->prec)) + ", die " + die_key(*s.run->row->device);
    by[k][0].add(s.held_out_ms, s.run->row->measured_ms);
    by[k][1].add(s.die_held_out_ms, s.run->row->measured_ms);
    gpus[k].insert(std::string(s.run->row->device->id));
  }
  std::ostringstream md;
  md << "\n## Kernel models held out too\n\nThe tables above hold each GPU out of the calibration only; the FP32 kernel "
        "models under it were trained on NeuSight's kernels, which include the dies of some of these GPUs (a V100 "
        "SXM2 or a Titan V is the GV100 of NeuSight's V100 PCIe; die = SMs x FP32 lanes per SM and the tensor-core "
        "generation). Here every run on such a die is predicted with every kernel model refitted without any kernel "
        "row of the die and the calibration fitted without any run of it: what a user gets for a GPU whose silicon "
        "nobody measured (docs/validation.md does the same on NeuSight's own end-to-end runs).\n\n"
        "| precision, die | rows | GPUs | calibration held out: mean abs. error | bias | kernel models and calibration "
        "held out: mean abs. error | bias | worst |\n|---|---|---|---|---|---|---|---|\n";
  for (const auto& [k, e] : by)
    md << "| " << k << " | " << e[1].n << " | " << gpus[k].size() << " | " << e[0].mape() << " | " << e[0].bias()
       << " | " << e[1].mape() << " | " << e[1].bias() << " | " << fixed(100 * e[1].worst, 0) << "% |\n";
  if (by.empty()) md << "| no run on a die of the kernel models' data | | | | | | | |\n";
  return md.str() + '\n';
}

/// Our own steps' peak device memory, as PyTorch's allocator counted it, against the training-memory estimate's
/// tensors (everything but the framework allowance, which max_memory_allocated does not see; the analytical
/// estimate, since the learned correction is fitted on nvidia-smi totals). A step whose optimizer GradScaler skipped
/// never created the optimizer's state, and is predicted without one, as its time is.
std::string memory_section(const std::vector<run_row>& rows) {
  std::ostringstream md;
  std::map<std::string, error_summary> by_precision;
  std::string table;
  for (const run_row& r : rows) {
    if (r.measured_peak_bytes <= 0) continue;
    const runtime_network net = network_of(r);
    const memory_breakdown m = analytic_training_memory(net, step_config(r));
    const double predicted = static_cast<double>(m.total().value - m.framework.value);
    const double measured = static_cast<double>(r.measured_peak_bytes);
    if (!(predicted > 0)) throw std::runtime_error(r.where + ": no tensor memory predicted");
    by_precision[std::string(name(r.prec))].add(predicted, measured);
    by_precision["all"].add(predicted, measured);
    constexpr double gib = 1024.0 * 1024.0 * 1024.0;
    table += "| " + std::string(r.device->id) + " | " + r.dataset_model + " | " + std::string(name(r.prec)) + " | " +
             std::to_string(r.batch) + " | " + std::string(name(r.opt)) + " | " + fixed(measured / gib, 2) + " | " +
             fixed(predicted / gib, 2) + " | " + fixed(100 * (predicted / measured - 1), 1) + "% |\n";
  }
  if (table.empty()) return "";
  md << "\n## Memory of our own steps\n\nOur steps above (data/<id>/e2e.csv; validation only, nothing is fitted to "
        "them): the peak of `torch.cuda.max_memory_allocated` over the timed iterations against the training-memory "
        "estimate's tensors (weights, gradients, optimizer state, saved activations, workspace and the caching "
        "allocator's rounding; not the framework allowance, which that counter does not see, nor the learned "
        "correction, fitted on nvidia-smi totals). An fp16 step whose every optimizer step GradScaler skipped has no "
        "optimizer state and is predicted without one. Error = predicted / measured - 1.\n\n"
        "| GPU | model | precision | batch | optimizer | measured (GiB) | predicted (GiB) | error |\n"
        "|---|---|---|---|---|---|---|---|\n"
     << table << "\n| precision | rows | mean abs. error | bias |\n|---|---|---|---|\n";
  for (const auto& [k, e] : by_precision)
    md << "| " << k << " | " << e.n << " | " << e.mape() << " | " << e.bias() << " |\n";
  return md.str();
}

std::string report(const std::vector<scored_run>& scored, const std::map<std::string, ingest_count>& counts,
                   const tree_shape& shape, const calibration& fitted, const std::string& hash) {
  const std::vector<double>& theta = fitted.leaves;
  std::ostringstream md;
  md << "# Precision calibration report\n\nGENERATED by prenet-train precision (cmake --build build --target "
        "regen-precision); inputs FNV-1a 64 "
     << hash
     << ". Do not edit; docs/precision.md describes the model.\n\n"
        "Published single-GPU training steps (`../shared/datasets/external`, see its README for every source's "
        "conditions) predicted by `predict()` with the zoo's twin of each model, against the measured time per "
        "step. **Held out** is the headline: every GPU's rows predicted by a calibration fitted without any row of "
        "that GPU (entries with the same chip — SMs and peaks — are left out together). **Before** is the "
        "prediction without this calibration (the data-sheet roofline ratio alone); **in sample** fits every row. "
        "Error = predicted / measured - 1; bias is the geometric mean of predicted / measured. FP32 rows run no "
        "calibrated kernel: they show the FP32 baseline every other precision is scaled from.\n\n";

  const auto table = [&](const std::string& title, auto key_of) {
    std::map<std::string, std::array<error_summary, 3>> by;
    std::map<std::string, std::set<std::string>> gpus;
    for (const scored_run& s : scored) {
      const std::string k = key_of(s);
      auto& e = by[k];
      const double m = s.run->row->measured_ms;
      e[0].add(s.held_out_ms, m);
      e[1].add(s.today_ms, m);
      e[2].add(s.fitted_ms, m);
      gpus[k].insert(std::string(s.run->row->device->id));
    }
    md << "## " << title << "\n\n| " << title.substr(title.rfind(' ') + 1)
       << " | rows | GPUs | held out: mean abs. error | held out: bias | worst | before: mean abs. error | before: "
          "bias | in sample |\n|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& [k, e] : by)
      md << "| " << k << " | " << e[0].n << " | " << gpus[k].size() << " | " << e[0].mape() << " | " << e[0].bias()
         << " | " << fixed(100 * e[0].worst, 0) << "% | " << e[1].mape() << " | " << e[1].bias() << " | "
         << e[2].mape() << " |\n";
    md << '\n';
  };
  table("By precision", [](const scored_run& s) { return std::string(name(s.run->row->prec)); });
  table("By source and precision", [](const scored_run& s) {
    return source_label(*s.run->row) + ", " + std::string(name(s.run->row->prec));
  });
  table("By precision and GPU", [](const scored_run& s) {
    return std::string(name(s.run->row->prec)) + " " + std::string(s.run->row->device->id);
  });
  table("By precision and model", [](const scored_run& s) {
    return std::string(name(s.run->row->prec)) + " " + std::string(s.run->row->model->name);
  });

  md << "## The calibration fitted on every row\n\nFirst stage: ln(stretch) of a tensor-core leaf = offset(class, "
        "math mode) + slope(class) x log2(tensor peak / FP32 peak); the other leaves have one value each.\n\n"
        "| parameter | value |\n|---|---|\n";
  for (std::size_t j = 0; j < shape.parameters.size(); ++j)
    md << "| " << shape.parameters[j].label << " | " << fixed(fitted.parameters[j], 2) << " |\n";
  md << "\nSecond stage: each leaf's stretch of the kernel's own roofline (1 = the data sheet's tensor-core or "
        "bandwidth speed-up over the FP32 learned time is achieved exactly; below 1, the kernel gets more of its own "
        "peak than its FP32 twin got of the FP32 rate the board sustains, down to "
     << fixed(predictors::precision_model::least_stretch, 1)
     << "; the FP32 learned time is then scaled by the ratio of the rooflines, docs/precision.md), pulled towards its "
        "first-stage value; a leaf no row reaches keeps that value.\n\n"
        "| leaf | stretch | kernels (runs) |\n|---|---|---|\n";
  std::vector<std::size_t> kernels_in(theta.size(), 0), runs_in(theta.size(), 0);
  for (const scored_run& s : scored) {
    std::vector<bool> touched(theta.size(), false);
    for (const calibrated_kernel& k : s.run->kernels) {
      ++kernels_in[static_cast<std::size_t>(k.leaf)];
      touched[static_cast<std::size_t>(k.leaf)] = true;
    }
    for (std::size_t j = 0; j < theta.size(); ++j) runs_in[j] += touched[j] ? 1 : 0;
  }
  for (const tree_node& n : shape.nodes) {
    if (n.leaf < 0) continue;
    const auto j = static_cast<std::size_t>(n.leaf);
    md << "| " << n.label << " | " << fixed(std::exp(theta[j]), 2) << " | " << kernels_in[j] << " (" << runs_in[j]
       << ") |\n";
  }
  md << "\n## Ingestion\n\nA kept row is *superseded* where its source measured the same model on the same GPU in "
        "the same precision on a newer PyTorch: the library predicts today's PyTorch, so only the newest stack "
        "calibrates and the older rows are validated (the tables above, \"older PyTorch\").\n\n"
        "| source | training rows read | kept | of which superseded | dropped |\n|---|---|---|---|---|\n";
  for (const auto& [src, n] : counts) {
    std::string why;
    for (const auto& [w, k] : n.dropped) why += (why.empty() ? "" : "; ") + w + " " + std::to_string(k);
    md << "| " << src << " | " << n.read << " | " << n.kept << " | "
       << (n.superseded ? std::to_string(n.superseded) : "—") << " | " << (why.empty() ? "—" : why) << " |\n";
  }
  return md.str();
}

// --- the header -----------------------------------------------------------------------------------------------------

std::string header_text(const tree_shape& shape, const std::vector<double>& theta,
                        const std::vector<prepared_run>& runs, const predictors::interval_spread& held_out,
                        const predictors::alignment_slowdowns& slowdown, const std::string& hash) {
  header_parts h{.from = {.trainer = trainer_banner_name("precision"),
                          .inputs = "published whole-model training steps in FP32, TF32, AMP and half "
                                    "(../shared/datasets/external/measurements.csv); ours (data/*/e2e.csv) validate",
                          .inputs_hash = hash,
                          .regenerate = "cmake --build build --target regen-precision"},
                 .includes = {"array", "prenet/predictors/precision_model.hpp"}};
  std::set<std::string> devices_seen;
  std::vector<feature_row> rows;
  std::size_t fitted_runs = 0;
  for (const prepared_run& r : runs) {
    if (!r.row->calibrates()) continue;  // validation only (ours, ryujaehun, u39kun, superseded stacks): fit nothing
    ++fitted_runs;
    devices_seen.insert(std::string(r.row->device->id));
    for (const calibrated_kernel& k : r.kernels) rows.push_back(predictors::precision_features(k.own, *r.row->device));
  }
  h.model = {.data_namespace = "precision_data",
             .name = "precision.tree.log_roofline_stretch",
             .target = predictors::target_transform::log_roofline_ratio,
             .heads = {{"stretch", shape.flatten(theta)}},
             .features = predictors::precision_feature_names,
             .features_expression = "::prenet::predictors::precision_feature_names",
             .trained_devices = {devices_seen.begin(), devices_seen.end()}};
  domain_of(rows, 4, [](const feature_row& x) { return x; }, h.model.domain_min, h.model.domain_max);
  h.description = "Model: one tree of fixed shape, " + std::to_string(shape.leaves) + " fitted leaves (ln stretch), " +
                  std::to_string(fitted_runs) + " runs.";
  // Probes: one kernel per leaf with the stretch the fit gave it; the embedded-model test re-evaluates them.
  std::ostringstream o;
  o << "/// A kernel's feature row per reached leaf with its fitted stretch; the embedded-model test re-evaluates them.\n"
    << "inline constexpr precision_probe probes[] = {\n";
  std::set<int> probed;
  for (const prepared_run& r : runs) {
    for (const calibrated_kernel& k : r.kernels) {
      if (!probed.insert(k.leaf).second) continue;
      const feature_row x = predictors::precision_features(k.own, *r.row->device);
      o << "    {{";
      for (std::size_t j = 0; j < x.size(); ++j) o << (j ? ", " : "") << float_literal(x[j]);
      o << "}, " << float_literal(static_cast<float>(std::exp(static_cast<float>(theta[static_cast<std::size_t>(k.leaf)]))))
        << "},\n";
    }
  }
  o << "};\n\n";
  h.extra_data = o.str();
  h.wrapper_type = "precision_model";
  h.wrapper_name = "precision";
  std::string slowdowns;
  for (const predictors::alignment_slowdown& v : slowdown) {
    slowdowns += std::string(slowdowns.empty() ? "" : ", ") + "{.compute = " + double_literal(v.compute) +
                 ", .memory = " + double_literal(v.memory) + "}";
  }
  h.fields_after = "    .probes = precision_data::probes,\n    .held_out = " + spread_literal(held_out) +
                   ",\n    .unaligned_slowdown = {{" + slowdowns + "}},\n";
  return render(h);
}

}  // namespace

int prenet::trainer::train_precision(int argc, char** argv) {
  const parsed_flags flags =
      read_flags(argc, argv, "prenet-train precision",
                 {.required = {"--datasets", "--header", "--report"}, .optional = {"--data", "--rows"}},
                 "prenet-train precision --datasets DIR --header FILE --report FILE [--data DIR] [--rows FILE]");
  const fs::path datasets = flags.path("--datasets"), header = flags.path("--header"),
                 report_path = flags.path("--report"), data = flags.path("--data"),
                 rows_path = flags.path("--rows");
  return run_trainer("prenet-train precision", [&] {
    std::map<std::string, ingest_count> counts;
    std::vector<run_row> rows = load_runs(datasets, counts);
    mark_superseded(rows, counts);
    if (!data.empty()) load_bench_steps(data, rows, counts);
    if (rows.size() < 50) throw data_error("only " + std::to_string(rows.size()) + " usable external rows");
    const tree_shape shape = calibration_shape();
    dataset kernels;
    ingest_per_op_kernels(datasets, data, kernels);
    const std::vector<timed_gemm> gemms = timed_tensor_core_gemms(kernels);
    const alignment_fit alignment = fit_alignment(gemms, [](const device_spec&) { return true; });
    std::vector<prepared_run> runs;
    runs.reserve(rows.size());
    for (const run_row& r : rows) runs.push_back(prepare(r, shape, alignment.slowdown));

    std::vector<const prepared_run*> all;
    std::set<std::string> groups;
    for (const prepared_run& r : runs) {
      if (r.row->calibrates()) all.push_back(&r);
      groups.insert(r.row->group);
    }
    const std::vector<double> identity(static_cast<std::size_t>(shape.leaves), 0.0);
    const calibration fitted = fit(all, shape);
    const std::vector<double>& theta = fitted.leaves;
    std::vector<scored_run> scored;
    for (const prepared_run& r : runs) scored.push_back({&r, predicted_ms(r, identity), 0, predicted_ms(r, theta)});
    for (const std::string& g : groups) {
      std::vector<const prepared_run*> train;
      for (const prepared_run* r : all)
        if (r->row->group != g) train.push_back(r);
      const std::vector<double> held = fit(train, shape).leaves;
      for (scored_run& s : scored)
        if (s.run->row->group == g) s.held_out_ms = predicted_ms(*s.run, held);
    }
    // The interval stated for calibrated predictions: held-out residuals of every run the calibration scales.
    std::map<std::string, std::vector<double>> residuals;
    for (const scored_run& s : scored) {
      if (plan(s.run->row->prec, *s.run->row->device).calibrated()) {
        residuals[s.run->row->group].push_back(std::log(s.run->row->measured_ms / s.held_out_ms));
      }
    }
    const predictors::interval_spread spread = spread_of(residuals);
    const coverage covered = nested_coverage(residuals);
    std::cerr << predict_die_held_out(kernels, gemms, rows, shape, scored);
    std::vector<hashed_file> inputs{{datasets, "external/measurements.csv"}};
    if (!data.empty()) {
      for (hashed_file& f : repository_files(data, "e2e.csv")) inputs.push_back(std::move(f));
    }
    const std::string hash = fnv1a_files(inputs);
    const std::uintmax_t n = write_if_changed(header, header_text(shape, theta, runs, spread, alignment.slowdown, hash));
    write_if_changed(report_path,
                     report(scored, counts, shape, fitted, hash) + die_section(scored) + interval_section(spread, covered) +
                         alignment_section(alignment) + memory_section(rows));
    if (!rows_path.empty()) write_if_changed(rows_path, rows_csv(scored));
    std::cerr << "prenet-train precision: " << runs.size() << " runs on " << groups.size() << " GPUs; wrote " << n
              << " bytes to " << header.string() << " and " << report_path.string() << '\n';
  });
}
