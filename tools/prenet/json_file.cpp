// SPDX-License-Identifier: MIT
#include "json_file.hpp"

#include <optional>
#include <set>

#include "arguments.hpp"

namespace prenet::cli {

nlohmann::json parse_json_file(std::string_view text, const std::string& where) {
  std::optional<std::string> repeated;
  std::set<std::string> seen;
  const nlohmann::json::parser_callback_t check_repeats = [&](int depth, nlohmann::json::parse_event_t event,
                                                              nlohmann::json& parsed) {
    if (depth == 1 && event == nlohmann::json::parse_event_t::key && parsed.is_string() && !repeated &&
        !seen.insert(parsed.get<std::string>()).second) {
      repeated = parsed.get<std::string>();
    }
    return true;
  };
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text, check_repeats);
  } catch (const nlohmann::json::parse_error& e) {
    throw usage_error(where + "not valid JSON (byte " + std::to_string(e.byte) + ")");
  } catch (const nlohmann::json::out_of_range&) {
    throw usage_error(where + "a number is out of range (not finite)");
  }
  if (repeated) throw usage_error(where + "gives " + quoted_text(*repeated) + " twice");
  return j;
}

}  // namespace prenet::cli
