// SPDX-License-Identifier: MIT
// A user's JSON file (--device-file, --prices) read strictly: one definition of what such a file may not be.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace prenet::cli {

/// `text` parsed as JSON; throws usage_error "<where><why>" when it is not valid JSON, holds a number beyond
/// double's range (1e999), or gives a key of its top-level object twice (nlohmann would keep the last one, so a file
/// that says a thing twice would be read as saying it once).
[[nodiscard]] nlohmann::json parse_json_file(std::string_view text, const std::string& where);

}  // namespace prenet::cli
