// SPDX-License-Identifier: MIT
// The CLI's subcommands: each parses its own flags and returns everything it prints, or throws usage_error.
#pragma once

#include <span>
#include <string>

namespace prenet::cli {

/// `prenet predict --model NAME --device ID [...]`: one model on one device (text or --json).
[[nodiscard]] std::string predict_command(std::span<const std::string> args);
/// `prenet compare --model NAME [--batch 8,16] [--devices a,b] [--price id=usd,...] [...]`: one table of devices.
[[nodiscard]] std::string compare_command(std::span<const std::string> args);
/// `prenet memory --model NAME|--onnx FILE --device ID [--batch N] [--max-batch] [...]`: peak memory by part, fits or by how much not.
[[nodiscard]] std::string memory_command(std::span<const std::string> args);
/// `prenet devices [--json | --markdown]`: the device catalogue and whether the predictors were trained on each;
/// `--markdown` is docs/devices.md's table (every field and its source document).
[[nodiscard]] std::string devices_command(std::span<const std::string> args);
/// `prenet models [--json]`: the model zoo.
[[nodiscard]] std::string models_command(std::span<const std::string> args);

}  // namespace prenet::cli
