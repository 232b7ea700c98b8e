// SPDX-License-Identifier: MIT
// The importer's view of an ONNX graph: tensors with shapes and roles, nodes in topological order.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <onnx/onnx_pb.h>

#include <prenet/onnx/load_onnx.hpp>
#include <prenet/shape.hpp>

namespace prenet::onnx_import_detail {

/// Largest dimension and largest tensor (elements) accepted; beyond them a file is "absurd" (docs/onnx.md).
inline constexpr std::int64_t max_dimension = std::int64_t{1} << 32;
inline constexpr std::int64_t max_tensor_elements = std::int64_t{1} << 36;
/// Most nodes in a graph (BERT-large exports ~2,800; GPT-3 175B ~9,000).
inline constexpr int max_nodes = 200'000;

enum class role : std::uint8_t {
  constant,  ///< an initializer, a weight passed as a graph input, a Constant, or computed from those and shapes
  main,      ///< computed from the main data input: the stream prenet's layers follow
  side,      ///< computed from another data input only (attention masks, token type ids)
};

struct tensor {
  std::string name;
  int producer = -1;           ///< node index, -1 for graph inputs and initializers
  std::vector<int> consumers;  ///< node indices (a node reading it twice appears twice)
  role kind = role::constant;
  bool has_shape = false;
  std::vector<std::int64_t> dims;  ///< full shape, batch included; valid when has_shape
  std::int32_t elem_type = 0;      ///< onnx::TensorProto::DataType
  bool is_weight = false;          ///< an initializer or a weight graph input (counts as parameters)
  int batch_axis = -1;             ///< the axis that is the batch, -1 when unknown or merged
  int tied_to = -1;                ///< a weight whose values are another weight's (transposed): that one
  const ::onnx::TensorProto* value = nullptr;  ///< initializer or Constant value, when known

  [[nodiscard]] std::int64_t numel() const noexcept;
  [[nodiscard]] bool is_integer() const noexcept;
  /// Whether torch.onnx generated the name ("onnx::Op_N"): what constant folding makes, where a module's parameters
  /// and buffers keep their module path.
  [[nodiscard]] bool generated_name() const noexcept;
};

struct node {
  const ::onnx::NodeProto* proto = nullptr;
  std::string_view op;
  std::vector<int> inputs;  ///< tensor ids; -1 for an omitted optional input
  std::vector<int> outputs;
  /// An Expand or Tile of a parameter to the batch, or a zeros_like of a stream, that a matrix product reads
  /// (promote_learned_queries): the root of a stream of its own, role::main.
  bool learned_stream = false;
  [[nodiscard]] int input(std::size_t i) const noexcept { return i < inputs.size() ? inputs[i] : -1; }
  [[nodiscard]] int output(std::size_t i) const noexcept { return i < outputs.size() ? outputs[i] : -1; }
};

class graph {
 public:
  /// Parses, fixes symbolic input dimensions, runs ONNX shape inference and classifies every tensor.
  graph(std::string_view bytes, const onnx_options& options);

  [[nodiscard]] const std::vector<node>& nodes() const noexcept { return nodes_; }  ///< topological order
  [[nodiscard]] const std::vector<tensor>& tensors() const noexcept { return tensors_; }
  [[nodiscard]] const tensor& at(int id) const { return tensors_.at(static_cast<std::size_t>(id)); }
  [[nodiscard]] int main_input() const noexcept { return main_input_; }
  /// Further data inputs predicted as streams of their own (promote_streams): role::main, read from the network's
  /// input node.
  [[nodiscard]] const std::vector<int>& streams() const noexcept { return streams_; }
  /// The axis of `n`'s output that is the batch if `n` can start a learned stream (node::learned_stream): an Expand
  /// or Tile of a parameter to the batch, a ConstantOfShape whose shape the data sized (sized_by_data); -1 when `n`
  /// is none.
  [[nodiscard]] int learned_batch_axis(const node& n) const;
  /// The graph output the prediction follows: the main-lineage output computed last.
  [[nodiscard]] int main_output() const noexcept { return main_output_; }
  [[nodiscard]] std::int64_t batch() const noexcept { return batch_; }
  [[nodiscard]] bool batch_from_file() const noexcept { return batch_from_file_; }
  /// Free dimensions of the data inputs (not the batch) that options.symbolic_dim sized (onnx_import's).
  [[nodiscard]] std::int64_t symbolic_dim_uses() const noexcept { return symbolic_dim_uses_; }
  [[nodiscard]] const std::string& producer() const noexcept { return producer_; }
  [[nodiscard]] std::int64_t file_nodes() const noexcept { return file_nodes_; }
  [[nodiscard]] const std::vector<std::string>& notes() const noexcept { return notes_; }

  /// Per-sample shape of `id` (batch axis removed, leading dimensions merged to rank <= 3).
  [[nodiscard]] shape sample_shape(int id) const;
  /// Elements per sample of `id`.
  [[nodiscard]] std::int64_t sample_numel(int id) const;
  /// Integer attribute of node `n`, or `fallback`.
  [[nodiscard]] static std::int64_t attr_int(const node& n, std::string_view name, std::int64_t fallback);
  [[nodiscard]] static std::vector<std::int64_t> attr_ints(const node& n, std::string_view name);
  [[nodiscard]] static std::optional<float> attr_float(const node& n, std::string_view name);
  /// String attribute of node `n`, or `fallback`.
  [[nodiscard]] static std::string attr_string(const node& n, std::string_view name, std::string_view fallback);
  /// The values of a constant int64 tensor (initializer or Constant); empty if unknown.
  [[nodiscard]] std::vector<std::int64_t> ints(int id) const;
  /// The scalar value of a constant tensor (initializer or Constant), if it holds one number.
  [[nodiscard]] std::optional<double> scalar(int id) const;

  /// The weight `id` is a view of (through Transpose, Cast, Reshape, Unsqueeze, Squeeze, Expand, Tile; a weight tied
  /// by value to another is that one), or -1: the tensor whose elements are the parameters.
  [[nodiscard]] int parameter_root(int id) const;
  /// The root whose Identity the weight `root` is (torch.onnx writes a weight equal in value to an earlier one so), or
  /// -1.
  [[nodiscard]] int identity_copy_of(int root) const;
  /// Parameters a root holds: its elements if it is a float tensor of more than one element, or of one that a layer
  /// reads as its weight, bias or affine parameter (find_one_element_parameters); else 0 (scalar constants, integer
  /// tables, shapes).
  [[nodiscard]] std::int64_t parameter_elements(int root) const;
  /// Whether tensor `id` is a weight holding parameters, or a view of one (parameter_root, parameter_elements): not a
  /// value the exporter wrote, such as InstanceNormalization's constant unit scale.
  [[nodiscard]] bool holds_parameters(int id) const;
  /// Whether input `slot` of `n` reads a parameter's values: not BatchNorm's running statistics, a recurrent layer's
  /// sequence lengths or initial state, Resize's scales, a shape (Shape, Size), a view (which passes it on), an
  /// operand of a comparison or Where's condition (no gradient flows there: masks), nor an attention mask or a rotary
  /// embedding's tables (below).
  [[nodiscard]] bool reads_parameter(const node& n, std::size_t slot) const;
  /// Whether input `slot` of `n` is a constant attention mask: a weight (through views) of trailing dimensions
  /// (S, S), added to a tensor computed from the data input whose sum goes into a Softmax, directly or through one
  /// more element-wise node (a registered `mask` buffer; a trainable bias added to the scores is gathered from a
  /// table, not read directly).
  [[nodiscard]] bool is_attention_mask(const node& n, std::size_t slot) const;
  /// A rotary position embedding `t * cos + rotate_half(t) * sin` (LLaMA's apply_rotary_pos_emb) whose last node is
  /// the Add `a`: two Muls of tensors from the data input by constant tables, the second over Concat(-t2, t1), t1 and
  /// t2 halves of t (two Slices or a Split of it). The nodes it is made of, by index; t, the rotated tensor.
  struct rotary {
    int t = -1;
    int add = -1, cos_mul = -1, sin_mul = -1, cat = -1, neg = -1, half1 = -1, half2 = -1;
  };
  [[nodiscard]] std::optional<rotary> rotary_embedding(int a) const;
  /// Whether input `slot` of `n` is a rotary embedding's cos or sin table (rotary_embedding's tables). Constant
  /// folding (or an exporter's optimizer) evaluates them from the positions; they are no parameters, though ONNX
  /// cannot tell them from weights.
  [[nodiscard]] bool is_rotary_table(const node& n, std::size_t slot) const;
  /// Views that pass a tensor on unchanged in value (Identity, Cast, Transpose, Reshape, ... , Expand, Tile).
  [[nodiscard]] static bool is_view_of_input(std::string_view op);

 private:
  void index(const ::onnx::GraphProto& g);
  void sort_topologically(const ::onnx::GraphProto& g);
  void read_shapes(const ::onnx::GraphProto& g);
  void classify(const ::onnx::GraphProto& g, const onnx_options& options);
  void assign_roles();
  void promote_streams();
  void promote_learned_queries();
  [[nodiscard]] bool sized_by_data(int t) const;
  void tie_by_value();
  [[nodiscard]] bool seq_first_attention() const;
  void track_batch_axes();
  void note_per_head_score_constants();
  void find_one_element_parameters();
  int tensor_id(const std::string& name);

  ::onnx::ModelProto model_;
  std::vector<node> nodes_;
  std::deque<std::string> qualified_ops_;  ///< what node::op views for operators of other domains (index())
  std::vector<tensor> tensors_;
  std::unordered_map<std::string, int> ids_;
  int main_input_ = -1;
  std::vector<int> streams_;  ///< further data inputs promoted to role::main, in id order
  int input_batch_axis_ = 0;  ///< the data input's batch axis (1 for a seq-first recurrent input or attention)
  int main_output_ = -1;
  std::int64_t batch_ = 1;
  bool batch_from_file_ = false;
  bool input_shape_from_file_ = false;  ///< the file gives every dimension of the data input
  std::int64_t symbolic_dim_uses_ = 0;
  std::string producer_;
  std::int64_t file_nodes_ = 0;
  std::vector<std::string> notes_;
  std::vector<bool> one_element_parameter_;  ///< by tensor id: a weight of one element that is a layer's parameter
  std::unordered_set<std::string> weight_inputs_;  ///< the graph inputs that pass weights (weight_inputs)
  std::unordered_set<std::string> from_data_;  ///< tensors the data inputs reach before folding (sized_by_data)
};

}  // namespace prenet::onnx_import_detail
