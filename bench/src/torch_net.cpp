// SPDX-License-Identifier: MIT
// prenet layer_specs as LibTorch modules, and the timing of a training step. The only LibTorch translation unit.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <numbers>
#include <numeric>
#include <utility>
#include <vector>

#include <torch/torch.h>

#include "measure.hpp"

namespace prenet::bench {
namespace {

namespace nn = torch::nn;
using op = std::function<torch::Tensor(const torch::Tensor&)>;

/// Attention and dropout probability where the spec has none: BERT's and PyTorch transformer layers' 0.1.
constexpr double dropout_p = 0.1;

/// A prenet network as one torch module: a callable per node, skip connections by the same markers.
class net_module : public nn::Module {
 public:
  net_module(const runtime_network& net, const torch::Device& device) : nodes_(net.nodes().begin(), net.nodes().end()) {
    for (std::size_t i = 0; i < nodes_.size(); ++i) ops_.push_back(build(i, device));
  }

  torch::Tensor forward(torch::Tensor x) {
    struct frame {
      torch::Tensor input, main;
    };
    std::vector<frame> stack;
    for (std::size_t i = 1; i < nodes_.size(); ++i) {
      switch (nodes_[i].spec.kind) {
        case layer_kind::residual_begin: stack.push_back({x, {}}); break;
        case layer_kind::residual_shortcut:
          stack.back().main = x;
          x = stack.back().input;
          break;
        case layer_kind::residual_add:
          x = stack.back().main + x;
          stack.pop_back();
          break;
        default: x = ops_[i](x);
      }
    }
    return x;
  }

 private:
  op build(std::size_t i, const torch::Device& device) {
    const layer_node& n = nodes_[i];
    const layer_spec& s = n.spec;
    const std::string name = "l" + std::to_string(i);
    switch (s.kind) {
      case layer_kind::input:
      case layer_kind::residual_begin:
      case layer_kind::residual_shortcut:
      case layer_kind::residual_add: return {};
      case layer_kind::dense: {
        const std::int64_t in = n.input.last();
        if (s.tied != 0) {
          const auto e = embeddings_.find({s.out_features, in});
          if (e != embeddings_.end()) {
            nn::Embedding emb = e->second;
            return [emb](const torch::Tensor& x) { return torch::matmul(x, emb->weight.t()); };
          }
        }
        auto m = register_module(name, nn::Linear(nn::LinearOptions(in, s.out_features).bias(s.bias != 0)));
        return [m](const torch::Tensor& x) { return m->forward(x); };
      }
      case layer_kind::conv2d: {
        auto m = register_module(name, nn::Conv2d(nn::Conv2dOptions(n.input[0], s.out_features, s.kernel)
                                                      .stride(s.stride)
                                                      .padding(s.padding)
                                                      .dilation(s.dilation)
                                                      .groups(s.groups)
                                                      .bias(s.bias != 0)));
        return [m](const torch::Tensor& x) { return m->forward(x); };
      }
      case layer_kind::conv_transpose2d: {
        auto m = register_module(
            name, nn::ConvTranspose2d(nn::ConvTranspose2dOptions(n.input[0], s.out_features, s.kernel)
                                          .stride(s.stride)
                                          .padding(s.padding)
                                          .output_padding(std::vector<std::int64_t>{s.output_h, s.output_w})
                                          .dilation(s.dilation)
                                          .groups(s.groups)
                                          .bias(s.bias != 0)));
        return [m](const torch::Tensor& x) { return m->forward(x); };
      }
      case layer_kind::maxpool2d: {
        auto m = register_module(name, nn::MaxPool2d(nn::MaxPool2dOptions(s.kernel)
                                                         .stride(s.stride > 0 ? s.stride : s.kernel)
                                                         .padding(s.padding)
                                                         .dilation(s.dilation)
                                                         .ceil_mode(s.ceil_mode != 0)));
        return [m](const torch::Tensor& x) { return m->forward(x); };
      }
      case layer_kind::avgpool2d: {
        auto m = register_module(name, nn::AvgPool2d(nn::AvgPool2dOptions(s.kernel)
                                                         .stride(s.stride > 0 ? s.stride : s.kernel)
                                                         .padding(s.padding)
                                                         .ceil_mode(s.ceil_mode != 0)));
        return [m](const torch::Tensor& x) { return m->forward(x); };
      }
      case layer_kind::adaptive_avgpool2d: {
        auto m = register_module(name, nn::AdaptiveAvgPool2d(nn::AdaptiveAvgPool2dOptions({s.output_h, s.output_w})));
        return [m](const torch::Tensor& x) { return m->forward(x); };
      }
      case layer_kind::batchnorm2d: {
        auto m = register_module(name, nn::BatchNorm2d(n.input[0]));
        return [m](const torch::Tensor& x) { return m->forward(x); };
      }
      case layer_kind::layernorm: {
        auto m = register_module(name, nn::LayerNorm(nn::LayerNormOptions({n.input.last()})));
        return [m](const torch::Tensor& x) { return m->forward(x); };
      }
      case layer_kind::upsample: {
        const bool bilinear = upsample_mode_of(s) == upsample_mode::bilinear;
        auto options = nn::UpsampleOptions().scale_factor(
            std::vector<double>{static_cast<double>(s.stride), static_cast<double>(s.stride)});
        if (bilinear) {
          options.mode(torch::kBilinear).align_corners(false);
        } else {
          options.mode(torch::kNearest);
        }
        auto m = register_module(name, nn::Upsample(options));
        return [m](const torch::Tensor& x) { return m->forward(x); };
      }
      case layer_kind::groupnorm: {
        auto m = register_module(name, nn::GroupNorm(nn::GroupNormOptions(s.groups, n.input[0]).affine(s.bias != 0)));
        return [m](const torch::Tensor& x) { return m->forward(x); };
      }
      case layer_kind::embedding: {
        auto m = register_module(name, nn::Embedding(s.num_embeddings, s.out_features));
        embeddings_.emplace(std::pair{s.num_embeddings, s.out_features}, m);
        if (s.additive == 0) return [m](const torch::Tensor& x) { return m->forward(x); };
        if (s.positional != 0) {
          const torch::Tensor positions = torch::arange(n.input[0], torch::dtype(torch::kLong).device(device));
          return [m, positions](const torch::Tensor& x) { return x + m->forward(positions); };
        }
        const torch::Tensor types = torch::zeros({n.input[0]}, torch::dtype(torch::kLong).device(device));
        return [m, types](const torch::Tensor& x) { return x + m->forward(types); };
      }
      case layer_kind::multihead_attention: {
        const std::int64_t e = s.in_features, kd = s.kdim > 0 ? s.kdim : e, vd = s.vdim > 0 ? s.vdim : e;
        auto m = register_module(
            name, nn::MultiheadAttention(nn::MultiheadAttentionOptions(e, s.heads).dropout(dropout_p).kdim(kd).vdim(vd)));
        const std::int64_t seq = n.input[0];
        torch::Tensor mask;
        if (s.causal != 0) mask = torch::ones({seq, seq}, torch::dtype(torch::kBool).device(device)).triu(1);
        const std::int64_t kv = s.kv_seq;
        auto memory = std::make_shared<std::pair<torch::Tensor, torch::Tensor>>();
        return [m, mask, kv, kd, vd, memory, device](const torch::Tensor& x) {
          const torch::Tensor q = x.transpose(0, 1);  // (seq, batch, embed): LibTorch's layout
          if (kv == 0) return std::get<0>(m->forward(q, q, q, {}, false, mask)).transpose(0, 1);
          if (!memory->first.defined() || memory->first.size(1) != q.size(1)) {  // an encoder's output, constant
            memory->first = torch::randn({kv, q.size(1), kd}, torch::device(device));
            memory->second = torch::randn({kv, q.size(1), vd}, torch::device(device));
          }
          return std::get<0>(m->forward(q, memory->first, memory->second, {}, false, mask)).transpose(0, 1);
        };
      }
      case layer_kind::rnn:
      case layer_kind::lstm:
      case layer_kind::gru: {
        const std::int64_t in = n.input[1];
        if (s.kind == layer_kind::lstm) {
          auto m = register_module(name, nn::LSTM(nn::LSTMOptions(in, s.out_features)
                                                      .num_layers(s.num_layers)
                                                      .bidirectional(s.bidirectional != 0)
                                                      .bias(s.bias != 0)
                                                      .batch_first(true)));
          return [m](const torch::Tensor& x) { return std::get<0>(m->forward(x)); };
        }
        if (s.kind == layer_kind::gru) {
          auto m = register_module(name, nn::GRU(nn::GRUOptions(in, s.out_features)
                                                     .num_layers(s.num_layers)
                                                     .bidirectional(s.bidirectional != 0)
                                                     .bias(s.bias != 0)
                                                     .batch_first(true)));
          return [m](const torch::Tensor& x) { return std::get<0>(m->forward(x)); };
        }
        auto m = register_module(name, nn::RNN(nn::RNNOptions(in, s.out_features)
                                                   .num_layers(s.num_layers)
                                                   .bidirectional(s.bidirectional != 0)
                                                   .bias(s.bias != 0)
                                                   .batch_first(true)));
        return [m](const torch::Tensor& x) { return std::get<0>(m->forward(x)); };
      }
      case layer_kind::relu:
        if (s.inplace != 0) {  // torchvision's inplace=True; a leaf that needs its gradient cannot be overwritten
          return [](const torch::Tensor& x) {
            if (x.is_leaf() && x.requires_grad()) return torch::relu(x);
            torch::Tensor t = x;
            return torch::relu_(t);
          };
        }
        return [](const torch::Tensor& x) { return torch::relu(x); };
      case layer_kind::gelu:
        if (gelu_form_of(s) == gelu_form::tanh_eager) {  // Hugging Face's NewGELUActivation, op by op
          return [](const torch::Tensor& x) {
            const double c = std::sqrt(2.0 / std::numbers::pi);
            return 0.5 * x * (1.0 + torch::tanh(c * (x + 0.044715 * torch::pow(x, 3.0))));
          };
        }
        return [](const torch::Tensor& x) { return torch::gelu(x); };
      case layer_kind::tanh: return [](const torch::Tensor& x) { return torch::tanh(x); };
      case layer_kind::sigmoid: return [](const torch::Tensor& x) { return torch::sigmoid(x); };
      case layer_kind::softmax: return [](const torch::Tensor& x) { return torch::softmax(x, -1); };
      case layer_kind::dropout: {
        auto m = register_module(name, nn::Dropout(nn::DropoutOptions(dropout_p)));
        return [m](const torch::Tensor& x) { return m->forward(x); };
      }
      case layer_kind::flatten: return [](const torch::Tensor& x) { return x.flatten(1); };
      case layer_kind::reshape: {
        std::vector<std::int64_t> dims{-1};
        for (std::int64_t d = 0; d < n.output.rank; ++d) dims.push_back(n.output.dims[static_cast<std::size_t>(d)]);
        return [dims](const torch::Tensor& x) { return x.reshape(dims); };
      }
      case layer_kind::opaque:
        throw std::runtime_error("an opaque layer (an ONNX operator prenet does not map) has no torch module");
      case layer_kind::silu: return [](const torch::Tensor& x) { return torch::silu(x); };
      case layer_kind::rmsnorm:
      case layer_kind::gated_mlp:
      case layer_kind::patch_embedding:
        throw std::runtime_error("rmsnorm, gated_mlp and patch_embedding have no bench module yet");
      case layer_kind::select_token: {
        const std::int64_t idx = s.token_index;
        return [idx](const torch::Tensor& x) { return x.select(1, idx); };
      }
    }
    throw std::runtime_error("layer kind without a torch module");
  }

  std::vector<layer_node> nodes_;
  std::vector<op> ops_;
  std::map<std::pair<std::int64_t, std::int64_t>, nn::Embedding> embeddings_;
};

std::unique_ptr<torch::optim::Optimizer> make_optimizer(optimizer o, const std::vector<torch::Tensor>& params) {
  using namespace torch::optim;
  switch (o) {
    case optimizer::none: return nullptr;
    case optimizer::sgd: return std::make_unique<SGD>(params, SGDOptions(1e-3));
    case optimizer::momentum: return std::make_unique<SGD>(params, SGDOptions(1e-3).momentum(0.9));
    case optimizer::adam:
    case optimizer::adam_fused:  // LibTorch has no fused Adam: the bench times its own
      return std::make_unique<Adam>(params, AdamOptions(1e-3));
    case optimizer::adamw:
    case optimizer::adamw_fused: return std::make_unique<AdamW>(params, AdamWOptions(1e-3));
    case optimizer::rmsprop: return std::make_unique<RMSprop>(params, RMSpropOptions(1e-3));
    case optimizer::adagrad: return std::make_unique<Adagrad>(params, AdagradOptions(1e-3));
  }
  return nullptr;
}

timing_stats stats(std::vector<double> v) {
  timing_stats t;
  if (v.empty()) return t;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  t.median_ms = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  t.min_ms = v.front();
  t.max_ms = v.back();
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(n);
  double ss = 0;
  for (const double x : v) ss += (x - mean) * (x - mean);
  t.std_ms = n > 1 ? std::sqrt(ss / static_cast<double>(n - 1)) : 0;
  return t;
}

torch::Tensor make_input(const runtime_network& net, std::int64_t batch, const torch::Device& device, bool grad) {
  const shape& in = net.input_shape();
  std::vector<std::int64_t> dims{batch};
  for (std::int64_t i = 0; i < in.rank; ++i) dims.push_back(in.dims[static_cast<std::size_t>(i)]);
  if (in.tokens) {
    std::int64_t vocab = 2;
    for (const layer_node& n : net.nodes()) {
      if (n.spec.kind == layer_kind::embedding && n.spec.additive == 0) {
        vocab = n.spec.num_embeddings;
        break;
      }
    }
    return torch::randint(0, vocab, dims, torch::dtype(torch::kLong).device(device));
  }
  return torch::randn(dims, torch::device(device)).requires_grad_(grad);
}

std::string one_line(std::string s) {
  std::replace_if(s.begin(), s.end(), [](char c) { return c == '\n' || c == '\r' || c == ',' || c == '"'; }, ' ');
  if (s.size() > 160) s.resize(160);
  return s;
}

}  // namespace

measurement measure_network(const runtime_network& net, std::int64_t batch, optimizer opt, const measure_options& o) {
  measurement m;
  try {
    torch::manual_seed(o.seed);
    const torch::Device device = o.cuda ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
    auto model = std::make_shared<net_module>(net, device);
    model->to(device);
    model->train();
    const auto optim = make_optimizer(opt, model->parameters());
    torch::Tensor x = make_input(net, batch, device, o.input_grad);
    const auto sync = [&] {
      if (o.cuda) torch::cuda::synchronize();
    };
    using clock = std::chrono::steady_clock;
    const auto ms = [](clock::time_point a, clock::time_point b) {
      return std::chrono::duration<double, std::milli>(b - a).count();
    };
    std::vector<double> fwd, bwd, step;
    double total = 0;
    for (int i = 0;; ++i) {
      const bool timed = i >= o.warmup;
      const int done = i - o.warmup;
      if (timed && done >= o.reps && (total >= o.min_total_ms || done >= o.max_reps)) break;
      sync();
      const auto t0 = clock::now();
      const torch::Tensor y = model->forward(x);
      sync();
      const auto t1 = clock::now();
      y.sum().backward();
      sync();
      const auto t2 = clock::now();
      if (optim) optim->step();
      sync();
      const auto t3 = clock::now();
      if (optim) optim->zero_grad();
      if (x.requires_grad()) x.mutable_grad().reset();
      if (timed) {
        fwd.push_back(ms(t0, t1));
        bwd.push_back(ms(t1, t2));
        step.push_back(ms(t2, t3));
        total += ms(t0, t2);
      }
    }
    m.forward = stats(fwd);
    m.backward = stats(bwd);
    m.step = stats(step);
    m.reps = static_cast<int>(fwd.size());
    m.ok = true;
  } catch (const std::exception& e) {
    m.ok = false;
    m.reason = one_line(e.what());
  }
  return m;
}

std::int64_t torch_params(const runtime_network& net) {
  net_module m(net, torch::Device(torch::kCPU));
  std::int64_t n = 0;
  for (const torch::Tensor& p : m.parameters()) n += p.numel();
  return n;
}

std::string torch_device_name(bool cuda) {
  if (cuda && torch::cuda::is_available()) return "cuda";
  return "cpu";
}
int torch_threads() { return torch::get_num_threads(); }
void set_torch_threads(int n) { torch::set_num_threads(n); }
bool torch_cuda_available() { return torch::cuda::is_available(); }

}  // namespace prenet::bench
