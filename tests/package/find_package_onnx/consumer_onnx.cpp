// SPDX-License-Identifier: MIT
// An installed prenet::onnx: the header, the library and its protobuf/ONNX dependencies link and run.
#include <cstdio>
#include <string>

#include <prenet/onnx/load_onnx.hpp>

int main() {
  // Bytes that are not a protobuf message: the importer parses them and rejects them with one line.
  try {
    (void)prenet::load_onnx_bytes(std::string("\xff\xff\xff\xff not an onnx model", 24));
  } catch (const prenet::onnx_error& e) {
    const std::string what = e.what();
    if (what.find("not an ONNX model") == std::string::npos) {
      std::printf("unexpected error: %s\n", what.c_str());
      return 1;
    }
    std::printf("prenet::onnx ok: %s\n", what.c_str());
    return 0;
  }
  std::printf("garbage was accepted as an ONNX model\n");
  return 1;
}
