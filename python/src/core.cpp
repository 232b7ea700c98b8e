// SPDX-License-Identifier: MIT
// prenet._core: the `prenet` CLI's commands as one Python function; bad input raises ValueError with the CLI's line.
#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "arguments.hpp"
#include "cli.hpp"
#include "onnx_model.hpp"

namespace py = pybind11;

namespace {

/// `prenet <command> <args...>`'s standard output. With `onnx_bytes`, `--onnx <onnx_name>` reads those bytes.
std::string run(const std::string& command, const std::vector<std::string>& args, const std::string& onnx_name,
                const std::optional<py::bytes>& onnx_bytes) {
  std::optional<std::string> bytes;
  if (onnx_bytes) bytes.emplace(static_cast<std::string>(*onnx_bytes));
  std::optional<std::string> error;
  bool usage = false;
  bool output = false;  // a file the command writes (compare's svg=) could not be written: OSError
  std::string out;
  {
    // Predictions take milliseconds to seconds (an ONNX import, a max-batch search): let other threads run.
    const py::gil_scoped_release release;
    try {
      std::optional<prenet::cli::in_memory_onnx> in_memory;
      if (bytes) in_memory.emplace(onnx_name, std::move(*bytes));
      out = prenet::cli::run_command(command, args);
    } catch (const prenet::cli::usage_error& e) {
      usage = true;
      error = prenet::cli::one_line(e.what());
    } catch (const prenet::cli::output_error& e) {
      output = true;
      error = prenet::cli::one_line(e.what());
    } catch (const std::exception& e) {
      error = "internal error: " + prenet::cli::one_line(e.what());
    } catch (...) {
      error = "internal error";
    }
  }
  if (error && usage) throw py::value_error(*error);
  if (error && output) {
    PyErr_SetString(PyExc_OSError, error->c_str());
    throw py::error_already_set();
  }
  if (error) throw std::runtime_error(*error);  // pybind11 raises RuntimeError
  return out;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "prenet's C++ core: the `prenet` command line's commands (use the `prenet` package, not this module)";
  m.attr("__version__") = PRENET_VERSION;
  m.attr("has_onnx_importer") = static_cast<bool>(PRENET_WITH_ONNX);
  m.def("run", &run, py::arg("command"), py::arg("args"), py::arg("onnx_name") = std::string(),
        py::arg("onnx_bytes") = std::nullopt,
        "What `prenet COMMAND ARGS...` prints; ValueError with its one-line message where it would exit 2.");
}
