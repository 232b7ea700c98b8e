// SPDX-License-Identifier: MIT
// Reading and validating what predict and compare run: model, size, mode, optimizer, dtype, samples, device, batch.
#include "settings.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <prenet/devices.hpp>
#include <prenet/errors.hpp>
#include <prenet/printable_text.hpp>

namespace prenet::cli {

namespace {

constexpr std::array optimizers{optimizer::none,    optimizer::sgd,        optimizer::momentum,
                                optimizer::adam,    optimizer::adamw,      optimizer::rmsprop,
                                optimizer::adagrad, optimizer::adam_fused, optimizer::adamw_fused};
constexpr std::array precisions{precision::pytorch_default, precision::fp32, precision::tf32, precision::amp_fp16,
                                precision::amp_bf16, precision::fp16, precision::bf16};
constexpr std::array attention_impls{attention_impl::eager, attention_impl::sdpa_flash,
                                     attention_impl::sdpa_mem_efficient, attention_impl::sdpa_cudnn};
constexpr std::array checkpointings{checkpointing::none, checkpointing::blocks, checkpointing::selective};
constexpr std::array lora_target_sets{lora_targets::q_v, lora_targets::qkvo, lora_targets::all_linear};
constexpr std::array freezings{freezing::none, freezing::embeddings, freezing::all_but_head};
constexpr std::array loss_functions{loss_function::cross_entropy, loss_function::none};
/// --dtype, the older flag: the element type of every tensor, which --precision fp32, fp16 and bf16 mean.
constexpr std::array dtype_precisions{precision::fp32, precision::fp16, precision::bf16};
/// Largest --image size of an --onnx file's symbolic dimensions: the zoo's largest image side.
constexpr std::int64_t max_onnx_image = models::detail::zoo_max_image_side;
/// Largest --seq or --dim size of an --onnx file's symbolic dimensions: the longest context of a zoo model (131,072,
/// Llama-3.2's), so an exported LLM is predicted at the lengths its zoo twin is. The import refuses a layer whose
/// counts would not stay exact (an attention at 131,072 positions), and predict and memory a batch that would
/// overflow them, each saying so.
constexpr std::int64_t max_onnx_sequence = [] {
  std::int64_t longest = 0;
  for (const models::zoo_entry& e : models::detail::zoo_entries) {
    if (e.input == models::input_kind::tokens && e.max_size > longest) longest = e.max_size;
  }
  return longest;
}();

template <typename T, std::size_t N>
T read_choice(std::string_view flag, std::string_view text, const std::array<T, N>& choices) {
  std::string names;
  std::vector<std::string_view> ids;
  for (const T c : choices) {
    if (name(c) == text) return c;
    names += (names.empty() ? "" : "|") + std::string(name(c));
    ids.push_back(name(c));
  }
  const std::string near = did_you_mean(text, ids);
  throw usage_error("--" + std::string(flag) + " must be one of " + names + ", got " + quoted_text(text) +
                    (near.empty() ? "" : " (" + near + ")"));
}

}  // namespace

std::string_view name(run_mode m) noexcept { return m == run_mode::train ? "train" : "inference"; }

std::string_view name(prenet::dtype t) noexcept {
  switch (t) {
    case dtype::fp32: return "fp32";
    case dtype::fp16: return "fp16";
    case dtype::bf16: return "bf16";
  }
  return "fp32";
}

std::string setup_text(const model_settings& s) {
  std::string t;
  // Eager is what the measured runs did; a fused core, the model's default or asked, is said, and so is an eager
  // core where the model's own is fused (selective recomputation recomputes an eager core).
  const bool fused_default = s.model != nullptr && s.model->attention != attention_impl::eager;
  if (s.attention != attention_impl::eager || fused_default) t += ", attention " + std::string(name(s.attention));
  if (fused_default && s.attention == attention_impl::eager && !s.attention_asked)
    t += " (checkpoint selective recomputes an eager core; " + std::string(s.model->name) + "'s own is " +
         std::string(name(s.model->attention)) + ")";
  if (s.grad_accum > 1) t += ", grad-accum " + std::to_string(s.grad_accum);
  if (s.checkpoint != checkpointing::none) t += ", checkpoint " + std::string(name(s.checkpoint));
  if (s.lora_rank > 0) t += ", LoRA r " + std::to_string(s.lora_rank) + " (" + std::string(name(s.lora_targets)) + ")";
  if (s.freeze != freezing::none) t += ", frozen " + std::string(name(s.freeze));
  if (s.mode == run_mode::train && s.loss == loss_function::none) t += ", no loss";
  if (s.keep_batchnorm_fp32) t += ", batch norm in fp32";
  return t;
}

std::string_view size_flag(const models::zoo_entry& e) noexcept {
  return e.input == models::input_kind::image ? "image" : "seq";
}

namespace {

/// --precision (a comma-separated list, each once, where `many`) or its alias --dtype (one value).
std::vector<precision> read_precisions(const arguments& args, bool many) {
  const std::optional<std::string_view> pr = args.value("precision"), dt = args.value("dtype");
  if (pr && dt) throw usage_error("--dtype is an older name for --precision: give one of them");
  if (dt && many && dt->find(',') != std::string_view::npos)
    throw usage_error("--dtype takes one value, got " + quoted_text(*dt) + ": compare several with --precision " +
                      quoted_text(*dt));
  if (dt) return {read_choice("dtype", *dt, dtype_precisions)};
  if (!pr) return {precision::pytorch_default};
  std::vector<precision> out;
  for (const std::string_view item : split_list("precision", *pr)) {
    const precision p = read_choice("precision", item, precisions);
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  }
  if (!many && out.size() > 1) {
    throw usage_error("--precision takes one value here, got " + quoted_text(*pr) + " (compare takes a list)");
  }
  return out;
}

/// --keep-batchnorm-fp32, which only a model in half precision can keep. Of a list of precisions (compare's) it applies
/// to those that put the whole model in half, "model.half() with batch norm in fp32 against AMP" being one table; it
/// is refused when none of the list does.
void read_keep_batchnorm_fp32(const arguments& args, model_settings& s, std::span<const precision> list) {
  if (!args.has("keep-batchnorm-fp32")) return;
  const auto whole_half = [](precision p) { return parameter_dtype(p) != dtype::fp32; };
  if (std::none_of(list.begin(), list.end(), whole_half)) {
    throw usage_error("--keep-batchnorm-fp32 applies to --precision fp16 or bf16 (the whole model in half); under " +
                      std::string(name(s.precision)) + " batch norm weights are fp32 already");
  }
  s.keep_batchnorm_fp32 = whole_half(s.precision);
}

/// --dim NAME=N[,NAME=N...]: each name once, each size a whole number in 1..max_onnx_sequence. Whether the file has
/// a symbolic dimension of each name is the importer's check (onnx_options::named_dims), which names the file's.
dim_sizes read_dim_sizes(std::string_view list) {
  dim_sizes sizes;
  for (const std::string_view item : split_list("dim", list)) {
    // The last '=': a size has none, a name from an exporter might.
    const std::size_t eq = item.rfind('=');
    if (eq == std::string_view::npos || eq == 0) {
      throw usage_error("--dim expects NAME=N items, got " + quoted_text(item));
    }
    const std::string_view name = item.substr(0, eq);
    const std::int64_t size = parse_integer("dim " + quoted_text(name), item.substr(eq + 1), 1, max_onnx_sequence);
    if (!sizes.emplace(name, size).second) throw usage_error("--dim names " + quoted_text(name) + " more than once");
  }
  return sizes;
}

/// The settings with `prec` for the precision, every other flag read and checked; `list` is every precision asked for.
model_settings read_model_settings_as(const arguments& args, precision prec, std::span<const precision> list) {
  model_settings s;
  if (const std::optional<std::string_view> file = args.value("onnx")) {
    if (args.has("model")) throw usage_error("--model and --onnx exclude each other");
    if (args.has("seq") && args.has("image")) throw usage_error("--seq and --image exclude each other");
    const std::string_view dim_flag = args.has("seq") ? "seq" : "image";
    const std::optional<std::string_view> dim = args.value(dim_flag);
    const std::optional<std::int64_t> symbolic =
        dim ? std::optional(parse_integer(dim_flag, *dim, 1, dim_flag == "seq" ? max_onnx_sequence : max_onnx_image))
            : std::nullopt;
    const std::optional<std::string_view> dim_list = args.value("dim");
    const dim_sizes named = dim_list ? read_dim_sizes(*dim_list) : dim_sizes{};
    std::shared_ptr<const onnx_model> fixed;
    if (symbolic && named.empty()) {
      // --seq/--image only size symbolic dimensions: a file that imports without one fixes every size itself, and
      // the flag has no effect, which the report says (a note) rather than ignoring it silently.
      try {
        fixed = read_onnx_model(*file, std::nullopt);
      } catch (const usage_error&) {
        // symbolic (or unreadable: the import below says why)
      }
    }
    if (fixed) {
      s.onnx = with_note(*fixed, "--" + std::string(dim_flag) + " has no effect: the file fixes every input dimension " +
                                     "(its " + std::string(size_flag(entry_of(*fixed))) + " is " +
                                     std::to_string(input_size_of(*fixed)) + ")");
    } else {
      s.onnx = read_onnx_model(*file, symbolic, named);
      // With --dim, --seq/--image size only the symbolic dimensions it leaves: where it leaves none, the flag has no
      // effect, said as above. (A file without symbolic dimensions has none of --dim's names: the import refused it.)
      if (symbolic && !named.empty() && symbolic_dim_uses_of(*s.onnx) == 0) {
        s.onnx = with_note(*s.onnx, "--" + std::string(dim_flag) + " has no effect: --dim sizes every symbolic " +
                                        "input dimension");
      }
    }
    s.model = &entry_of(*s.onnx);
    s.size = input_size_of(*s.onnx);
  } else {
    if (args.has("dim")) {
      throw usage_error("--dim applies to --onnx FILE: it sizes the file's symbolic dimensions by name");
    }
    const std::string_view model = args.required("model");
    s.model = models::find_model(model);
    if (s.model == nullptr) {
      std::vector<std::string_view> names;
      for (const models::zoo_entry& e : models::zoo()) names.push_back(e.name);
      const std::string near = did_you_mean(model, names);
      throw usage_error("unknown model " + quoted_text(model) +
                        " (" + (near.empty() ? "" : near + " ") + "see `prenet models`)");
    }
  }

  const bool image = s.model->input == models::input_kind::image;
  const std::string_view own = image ? "image" : "seq", other = image ? "seq" : "image";
  if (!s.onnx && args.has(other)) {
    throw usage_error("--" + std::string(other) + " does not apply to " + std::string(s.model->name) + " (it reads " +
                      (image ? "images: use --image" : "tokens: use --seq") + ")");
  }
  const std::optional<std::string_view> size = args.value(own);
  if (!s.onnx) s.size = size ? parse_integer(own, *size, 1, s.model->max_size) : s.model->default_size;

  if (const std::optional<std::string_view> m = args.value("mode")) {
    if (*m == "train") {
      s.mode = run_mode::train;
    } else if (*m == "inference") {
      s.mode = run_mode::inference;
    } else {
      throw usage_error("--mode must be train or inference, got " + quoted_text(*m));
    }
  }
  if (const std::optional<std::string_view> o = args.value("optimizer")) {
    s.optimizer = read_choice("optimizer", *o, optimizers);
    if (s.mode == run_mode::inference && s.optimizer != optimizer::none) {
      throw usage_error("--optimizer " + std::string(*o) + " conflicts with --mode inference (no update step)");
    }
  } else {
    s.optimizer = s.mode == run_mode::train ? optimizer::sgd : optimizer::none;
  }
  s.precision = prec;
  if (const std::optional<std::string_view> a = args.value("attention")) {
    s.attention = read_choice("attention", *a, attention_impls);
    s.attention_asked = true;
  }

  const bool train = s.mode == run_mode::train;
  if (const std::optional<std::string_view> n = args.value("grad-accum")) {
    if (!train) throw usage_error("--grad-accum applies to training only (--mode inference has no optimizer step)");
    s.grad_accum = parse_integer("grad-accum", *n, 1, max_grad_accum);
  }
  if (const std::optional<std::string_view> c = args.value("checkpoint")) {
    s.checkpoint = read_choice("checkpoint", *c, checkpointings);
    if (!train && s.checkpoint != checkpointing::none)
      throw usage_error("--checkpoint applies to training only (--mode inference saves nothing for backward)");
  }
  // Without --attention, the model's own (what its reference code runs: zoo_entry::attention); selective
  // recomputation recomputes an eager core, so asking for it runs the core eager.
  if (!s.attention_asked)
    s.attention = s.checkpoint == checkpointing::selective ? attention_impl::eager : s.model->attention;
  const std::optional<std::string_view> lora = args.value("lora"), targets = args.value("lora-targets");
  if (targets && !lora) throw usage_error("--lora-targets needs --lora R (the adapters' rank)");
  if (lora) {
    if (!train) throw usage_error("--lora applies to training only (--mode inference trains no adapters)");
    s.lora_rank = parse_integer("lora", *lora, 1, max_lora_rank);
    if (targets) s.lora_targets = read_choice("lora-targets", *targets, lora_target_sets);
  }
  if (const std::optional<std::string_view> f = args.value("freeze")) {
    s.freeze = read_choice("freeze", *f, freezings);
    if (!train && s.freeze != freezing::none)
      throw usage_error("--freeze applies to training only (--mode inference trains nothing)");
  }
  if (const std::optional<std::string_view> l = args.value("loss")) {
    s.loss = read_choice("loss", *l, loss_functions);
    if (!train) throw usage_error("--loss applies to training only (--mode inference computes no loss)");
  }

  read_keep_batchnorm_fp32(args, s, list);

  if (const std::optional<std::string_view> n = args.value("samples")) {
    s.samples = parse_integer("samples", *n, 1, max_samples);
  } else {
    s.samples = image ? imagenet_train_images : (wikitext103_train_tokens + s.size - 1) / s.size;
  }
  return s;
}

}  // namespace

model_settings read_model_settings(const arguments& args) {
  const std::vector<precision> one = read_precisions(args, false);
  return read_model_settings_as(args, one.front(), one);
}

std::vector<model_settings> read_model_settings_per_precision(const arguments& args) {
  const std::vector<precision> list = read_precisions(args, true);
  std::vector<model_settings> out{read_model_settings_as(args, list.front(), list)};
  for (std::size_t i = 1; i < list.size(); ++i) {
    model_settings s = out.front();  // the model (an ONNX file imported once), its size and setup; only the precision
    s.precision = list[i];
    s.keep_batchnorm_fp32 = false;
    read_keep_batchnorm_fp32(args, s, list);
    out.push_back(std::move(s));
  }
  return out;
}

namespace {
/// Whether any of `nodes` is of kind `k`.
bool has_layer(std::span<const layer_node> nodes, layer_kind k) {
  return std::any_of(nodes.begin(), nodes.end(), [k](const layer_node& n) { return n.spec.kind == k; });
}

/// `net` after checking the settings' training setup against it (training_setup.hpp's rules) and refusing a flag
/// that cannot change its prediction, as those rules refuse LoRA without projections: --attention without an
/// attention layer, --keep-batchnorm-fp32 without a batch norm.
runtime_network checked(runtime_network net, const model_settings& s) {
  try {
    check_training_setup(net.nodes(), config_of(s, 1));
  } catch (const shape_error& e) {
    throw usage_error(std::string(e.what()) + " (" + std::string(s.model->name) + ")");
  }
  if (s.attention_asked && !has_layer(net.nodes(), layer_kind::multihead_attention))
    throw usage_error("--attention applies to a model with attention layers; " + std::string(s.model->name) +
                      " has none");
  if (s.keep_batchnorm_fp32 && !has_layer(net.nodes(), layer_kind::batchnorm2d))
    throw usage_error("--keep-batchnorm-fp32 applies to a model with batch norm; " + std::string(s.model->name) +
                      " has none");
  net.set_training_roles(config_of(s, 1));
  return net;
}
}  // namespace

train_config config_of(const model_settings& s, std::int64_t batch) noexcept {
  return {.batch = batch, .optimizer = s.optimizer, .precision = s.precision, .grad_accum = s.grad_accum,
          .checkpoint = s.checkpoint, .lora_rank = s.lora_rank, .lora_targets = s.lora_targets, .freeze = s.freeze,
          .loss = s.loss, .keep_batchnorm_fp32 = s.keep_batchnorm_fp32};
}

runtime_network build_network(const model_settings& s) {
  if (s.onnx) return checked(with_attention(network_of(*s.onnx), s.attention), s);
  const auto build = [&s] {
    try {
      return with_attention(s.model->build(s.size), s.attention);
    } catch (const shape_error& e) {
      throw usage_error(std::string(s.model->name) + " cannot take --" + std::string(size_flag(*s.model)) + " " +
                        std::to_string(s.size) + ": " + e.what());
    }
  };
  return checked(build(), s);
}

const device_spec& read_device(std::string_view id) {
  const device_spec* d = devices::find(id);
  if (d == nullptr) {
    std::vector<std::string_view> ids;
    for (const device_spec& c : devices::catalogue) ids.push_back(c.id);
    const std::string near = did_you_mean(id, ids);
    throw usage_error("unknown device " + quoted_text(id) +
                      " (" + (near.empty() ? "" : near + " ") + "see `prenet devices`)");
  }
  return *d;
}

chosen_device read_chosen_device(const arguments& args) {
  const std::optional<std::string_view> id = args.value("device"), file = args.value("device-file");
  if (id && file) throw usage_error("--device and --device-file exclude each other");
  if (file) {
    std::shared_ptr<const user_device> d = read_device_file(*file);
    return {&d->spec(), std::move(d)};
  }
  if (!id) throw usage_error("missing --device (or --device-file FILE)");
  return {&read_device(*id), nullptr};
}

std::int64_t default_batch(const model_settings& s) {
  if (!s.onnx) return 1;
  const std::int64_t b = batch_of(*s.onnx);
  if (b > max_batch) throw usage_error("the ONNX file's batch " + std::to_string(b) + " exceeds 65536: give --batch");
  return b;
}

std::int64_t read_batch(std::string_view text) { return parse_integer("batch", text, 1, max_batch); }

single_run read_single_run(const arguments& args) {
  model_settings s = read_model_settings(args);
  chosen_device d = read_chosen_device(args);
  const std::optional<std::string_view> batch = args.value("batch");
  const std::int64_t b = batch ? read_batch(*batch) : default_batch(s);
  runtime_network net = build_network(s);
  return single_run{std::move(s), d.spec, std::move(d.file), b, std::move(net)};
}

}  // namespace prenet::cli
