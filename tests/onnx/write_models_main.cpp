// SPDX-License-Identifier: MIT
// Writes the test models to a directory: the CLI tests' inputs and the fuzzer's seed corpus.
#include <fstream>
#include <iostream>
#include <string>

#include "model_writer.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: prenet_onnx_write_models DIR\n";
    return 2;
  }
  using namespace prenet::onnx_test;
  const std::string dir = argv[1];
  const auto write = [&](const std::string& name, const std::string& bytes) {
    std::ofstream out(dir + "/" + name, std::ios::binary);
    out << bytes;
    return static_cast<bool>(out);
  };
  const bool ok = write("vgg16.onnx", vgg16_onnx({.batch = 32})) && write("resnet50.onnx", resnet50_onnx()) &&
                  write("bert_small.onnx", bert_onnx(64, 2, 4)) && write("lstm.onnx", lstm_onnx()) &&
                  write("custom_ops.onnx", custom_ops_onnx()) && write("tied_lm.onnx", tied_lm_onnx(false)) &&
                  write("side_branch.onnx", side_branch_onnx()) &&
                  write("crossing_skips.onnx", crossing_skips_onnx()) &&
                  write("parameter_free.onnx", parameter_free_onnx()) &&
                  write("encoder_decoder.onnx", encoder_decoder_onnx()) &&
                  write("matrix_products.onnx", matrix_products_onnx()) &&
                  write("dynamo_block.onnx", dynamo_block_onnx({.constants = constant_form::value_attribute},
                                                                sdpa_form::torchlib_unoptimized)) &&
                  write("attention_operator.onnx", dynamo_block_onnx({.batch = 2}, sdpa_form::attention_operator)) &&
                  write("dynamo_llama_block.onnx",
                        dynamo_llama_block_onnx({.constants = constant_form::named_initializer})) &&
                  write("weight_norm_conv1d.onnx", weight_norm_conv1d_onnx({.weights_as_inputs = true})) &&
                  write("graph_convolution.onnx", graph_convolution_onnx()) &&
                  write("spectral_norm_conv.onnx", spectral_norm_conv_onnx({.weights_as_inputs = true}));
  if (!ok) std::cerr << "cannot write to " << dir << "\n";
  return ok ? 0 : 1;
}
