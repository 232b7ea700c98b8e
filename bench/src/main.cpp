// SPDX-License-Identifier: MIT
// prenet-bench: measures layers and whole models with LibTorch on this machine (CPU, or a CUDA GPU) and appends the
// timings to CSVs that prenet-train reads. See docs/bench.md.
//   prenet-bench layers --kind dense --count 200 --seed 1 --out data/cpu/dense.csv [--shard k/n] [...]
//   prenet-bench model --model vgg16 --image 64 --batch 1,2,4 --out data/cpu/models.csv [...]
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe/enum_from_string.hpp>
#include <boost/describe/members.hpp>
#include <boost/mp11/algorithm.hpp>

#include <prenet/features.hpp>
#include <prenet/models/zoo.hpp>
#include <prenet/optimizer.hpp>

#include "configs.hpp"
#include "csv_log.hpp"
#include "measure.hpp"

namespace {

using namespace prenet;
using namespace prenet::bench;

[[noreturn]] void fail(const std::string& why) {
  std::cerr << "prenet-bench: " << why << '\n';
  std::exit(2);
}

struct options {
  std::string command;
  std::map<std::string, std::string> values;
  bool has(const std::string& k) const { return values.count(k) != 0; }
  std::string get(const std::string& k, const std::string& fallback = "") const {
    const auto it = values.find(k);
    return it == values.end() ? fallback : it->second;
  }
};

options parse(int argc, char** argv) {
  if (argc < 2) fail("missing command (layers, model)");
  options o;
  o.command = argv[1];
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (!a.starts_with("--")) fail("unexpected argument '" + a + "'");
    a = a.substr(2);
    if (a == "cuda") {
      o.values[a] = "1";
      continue;
    }
    if (i + 1 >= argc) fail("--" + a + " needs a value");
    if (o.values.count(a) != 0) fail("--" + a + " given twice");
    o.values[a] = argv[++i];
  }
  return o;
}

std::int64_t number(const options& o, const std::string& k, std::int64_t fallback, std::int64_t lo, std::int64_t hi) {
  if (!o.has(k)) return fallback;
  const std::string v = o.get(k);
  char* end = nullptr;
  errno = 0;
  const long long n = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || errno != 0 || n < lo || n > hi)
    fail("--" + k + " must be an integer in " + std::to_string(lo) + ".." + std::to_string(hi) + ", got '" + v + "'");
  return n;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("model name")) {
      std::string m = line.substr(line.find(':') + 2);
      std::replace(m.begin(), m.end(), ',', ' ');
      return m;
    }
  }
  return "unknown";
}

std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

std::string clock_text(double s) {
  const auto t = static_cast<long long>(s);
  char b[32];
  std::snprintf(b, sizeof b, "%lldh%02lldm%02llds", t / 3600, t / 60 % 60, t % 60);
  return b;
}

/// One line on stderr per configuration: done/total, elapsed and an ETA from the mean time per configuration.
class progress {
 public:
  progress(std::string label, std::int64_t total) : label_(std::move(label)), total_(total) {}
  void tick(std::int64_t done, std::int64_t measured) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double eta = measured > 0 ? elapsed / static_cast<double>(measured) * static_cast<double>(total_ - done) : 0;
    std::fprintf(stderr, "%s%s %lld/%lld (%.0f%%) elapsed %s ETA %s%s", tty_ ? "\r" : "", label_.c_str(),
                 static_cast<long long>(done), static_cast<long long>(total_),
                 total_ ? 100.0 * static_cast<double>(done) / static_cast<double>(total_) : 100.0,
                 clock_text(elapsed).c_str(), clock_text(eta).c_str(), tty_ ? "   " : "\n");
    std::fflush(stderr);
  }
  ~progress() {
    if (tty_) std::fprintf(stderr, "\n");
  }
  progress(const progress&) = delete;
  progress& operator=(const progress&) = delete;

 private:
  std::string label_;
  std::int64_t total_;
  bool tty_ = ::isatty(2) != 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

std::vector<std::string> stat_columns(const std::string& phase) {
  return {phase + "_median_ms", phase + "_min_ms", phase + "_max_ms", phase + "_std_ms"};
}
void add_stats(std::vector<std::string>& row, const timing_stats& t, bool ok) {
  for (const double v : {t.median_ms, t.min_ms, t.max_ms, t.std_ms}) row.push_back(ok ? fmt(v) : "");
}

/// Columns shared by every CSV after the configuration: the measurement and where it was taken.
std::vector<std::string> measurement_header() {
  std::vector<std::string> h{"optimizer", "device", "device_name", "threads", "reps"};
  for (const char* p : {"forward", "backward", "step"}) {
    const auto c = stat_columns(p);
    h.insert(h.end(), c.begin(), c.end());
  }
  h.insert(h.end(), {"status", "reason"});
  return h;
}
void add_measurement(std::vector<std::string>& row, optimizer opt, const measure_options& mo, const measurement& m) {
  row.insert(row.end(), {std::string(name(opt)), mo.cuda ? "cuda" : "cpu", mo.cuda ? torch_device_name(true) : cpu_model(),
                         std::to_string(torch_threads()), std::to_string(m.reps)});
  add_stats(row, m.forward, m.ok);
  add_stats(row, m.backward, m.ok);
  add_stats(row, m.step, m.ok);
  row.push_back(m.ok ? "ok" : "skipped");
  row.push_back(m.reason);
}

measure_options read_measure_options(const options& o) {
  measure_options mo;
  mo.warmup = static_cast<int>(number(o, "warmup", 2, 0, 1000));
  mo.reps = static_cast<int>(number(o, "reps", 5, 1, 10000));
  mo.min_total_ms = static_cast<double>(number(o, "min-ms", 50, 0, 3'600'000));
  mo.max_reps = std::max(mo.reps, static_cast<int>(number(o, "max-reps", 30, 1, 100000)));
  mo.cuda = o.has("cuda");
  if (mo.cuda && !torch_cuda_available()) fail("--cuda given but LibTorch finds no CUDA device");
  if (o.has("threads")) set_torch_threads(static_cast<int>(number(o, "threads", 1, 1, 1024)));
  return mo;
}

optimizer read_optimizer(const options& o) {
  const std::string v = o.get("optimizer", "sgd");
  optimizer out{};
  if (!boost::describe::enum_from_string(v.c_str(), out)) fail("unknown --optimizer '" + v + "'");
  return out;
}

std::pair<std::int64_t, std::int64_t> read_shard(const options& o) {
  if (!o.has("shard")) return {0, 1};
  const std::string v = o.get("shard");
  const std::size_t slash = v.find('/');
  if (slash == std::string::npos) fail("--shard must be k/n, got '" + v + "'");
  options parts;
  parts.values["k"] = v.substr(0, slash);
  parts.values["n"] = v.substr(slash + 1);
  const std::int64_t n = number(parts, "n", 1, 1, 1'000'000);
  return {number(parts, "k", 0, 0, n - 1), n};
}

// --- layers ------------------------------------------------------------------------------------------------------

std::vector<std::string> layers_header() {
  std::vector<std::string> h{"config_id", "seed", "kind", "batch", "input_rank", "input_d0", "input_d1", "input_d2",
                             "input_tokens"};
  boost::mp11::mp_for_each<boost::describe::describe_members<layer_spec, boost::describe::mod_public>>(
      [&](auto m) { h.push_back(std::string("spec_") + m.name); });
  h.insert(h.end(), {"params", "forward_flops", "backward_flops", "input_grad"});
  const auto m = measurement_header();
  h.insert(h.end(), m.begin(), m.end());
  return h;
}

int run_layers(const options& o) {
  const std::string kind = o.get("kind");
  if (kind.empty()) fail("missing --kind (" + [] {
         std::string k;
         for (const auto s : bench_kinds()) k += (k.empty() ? "" : ", ") + std::string(s);
         return k;
       }() + ")");
  if (!o.has("out")) fail("missing --out");
  const std::int64_t count = number(o, "count", 100, 1, 10'000'000);
  const auto seed = static_cast<std::uint64_t>(number(o, "seed", 1, 0, 1'000'000'000));
  const double max_flops = static_cast<double>(number(o, "max-gflop", 30, 1, 1'000'000)) * 1e9;
  const auto [shard, shards] = read_shard(o);
  const optimizer opt = read_optimizer(o);
  measure_options mo = read_measure_options(o);
  if (!draw_config(kind, seed, 0, max_flops)) fail("unknown --kind '" + kind + "'");
  csv_log log(o.get("out"), layers_header(), 2);

  std::vector<std::int64_t> todo;
  for (std::int64_t i = shard; i < count; i += shards) {
    if (!log.has(std::to_string(i) + "," + std::to_string(seed))) todo.push_back(i);
  }
  std::fprintf(stderr, "prenet-bench: %s: %zu configurations to measure (%zu already in %s)\n", kind.c_str(),
               todo.size(), log.rows(), o.get("out").c_str());
  progress bar(kind, static_cast<std::int64_t>(todo.size()));
  std::int64_t done = 0;
  for (const std::int64_t i : todo) {
    const layer_config c = *draw_config(kind, seed, i, max_flops);
    std::vector<std::string> row{std::to_string(i),       std::to_string(seed),      kind,
                                 std::to_string(c.batch), std::to_string(c.input.rank)};
    for (const std::int64_t d : c.input.dims) row.push_back(std::to_string(d));
    row.push_back(c.input.tokens ? "1" : "0");
    boost::mp11::mp_for_each<boost::describe::describe_members<layer_spec, boost::describe::mod_public>>([&](auto m) {
      if constexpr (std::is_same_v<std::remove_cvref_t<decltype(c.spec.*m.pointer)>, layer_kind>) {
        row.push_back(std::string(name(c.spec.*m.pointer)));
      } else {
        row.push_back(std::to_string(c.spec.*m.pointer));
      }
    });
    measurement m;
    std::int64_t params = 0, fwd = 0, bwd = 0;
    try {
      runtime_network net(c.input);
      net.append(c.spec);
      net.finish();
      params = net.params();
      fwd = net.forward_flops(c.batch);
      bwd = features(net.nodes(), 1, c.batch).backward_flops;
      mo.seed = seed ^ static_cast<std::uint64_t>(i);
      mo.input_grad = !c.input.tokens;
      if (torch_params(net) != params) {
        m.reason = "torch module has " + std::to_string(torch_params(net)) + " parameters, prenet " +
                   std::to_string(params);
      } else {
        m = measure_network(net, c.batch, opt, mo);
      }
    } catch (const std::exception& e) {
      m.reason = std::string("invalid shape: ") + e.what();
      std::replace_if(m.reason.begin(), m.reason.end(), [](char ch) { return ch == ',' || ch == '\n' || ch == '"'; }, ' ');
    }
    row.insert(row.end(), {std::to_string(params), std::to_string(fwd), std::to_string(bwd), mo.input_grad ? "1" : "0"});
    add_measurement(row, opt, mo, m);
    log.append(row);
    ++done;
    bar.tick(done, done);
  }
  return 0;
}

// --- model -------------------------------------------------------------------------------------------------------

int run_model(const options& o) {
  const std::string model = o.get("model");
  const models::zoo_entry* e = models::find_model(model);
  if (e == nullptr) fail("unknown --model '" + model + "' (see `prenet models`)");
  if (!o.has("out")) fail("missing --out");
  const bool image = e->input == models::input_kind::image;
  const std::int64_t size = number(o, image ? "image" : "seq", e->default_size, 1, e->max_size);
  const optimizer opt = read_optimizer(o);
  measure_options mo = read_measure_options(o);
  std::vector<std::int64_t> batches;
  {
    std::string list = o.get("batch", "1");
    for (std::size_t pos = 0; pos <= list.size();) {
      const std::size_t comma = std::min(list.find(',', pos), list.size());
      options one;
      one.values["batch"] = list.substr(pos, comma - pos);
      batches.push_back(number(one, "batch", 1, 1, 1'000'000));
      pos = comma + 1;
    }
  }
  runtime_network net = e->build(size);
  std::vector<std::string> header{"model", "size", "batch", "params", "forward_flops", "backward_flops"};
  const auto mh = measurement_header();
  header.insert(header.end(), mh.begin(), mh.end());
  csv_log log(o.get("out"), header, 3);
  progress bar(model, static_cast<std::int64_t>(batches.size()));
  std::int64_t done = 0;
  for (const std::int64_t b : batches) {
    std::vector<std::string> row{model, std::to_string(size), std::to_string(b)};
    if (log.has(log.key_of(row))) {
      ++done;
      bar.tick(done, done);
      continue;
    }
    row.insert(row.end(), {std::to_string(net.params()), std::to_string(net.forward_flops(b)),
                           std::to_string(net.backward_flops(b))});
    mo.input_grad = false;  // a model's input needs no gradient
    mo.seed = static_cast<std::uint64_t>(b);
    const measurement m = measure_network(net, b, opt, mo);
    add_measurement(row, opt, mo, m);
    log.append(row);
    ++done;
    bar.tick(done, done);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const options o = parse(argc, argv);
    if (o.command == "layers") return run_layers(o);
    if (o.command == "model") return run_model(o);
    fail("unknown command '" + o.command + "' (layers, model)");
  } catch (const std::exception& e) {
    std::cerr << "prenet-bench: " << e.what() << '\n';
    return 2;
  }
}
