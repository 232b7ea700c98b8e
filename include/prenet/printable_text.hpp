// SPDX-License-Identifier: MIT
// Text from outside prenet (a file, a command line) made printable: one rule for the names the CLI and the ONNX
// importer put in errors, notes, JSON, tables and SVG.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace prenet {

namespace printable_detail {

/// Bytes of the printable UTF-8 character starting at `s[i]`, or 0 if that byte is not the start of one: not valid
/// UTF-8 (a stray continuation byte, an overlong form, a surrogate, above U+10FFFF, cut short: Unicode's table 3-7,
/// which nlohmann::json's dump() also enforces) or a control character (C0, DEL, C1).
[[nodiscard]] constexpr std::size_t printable_at(std::string_view s, std::size_t i) noexcept {
  const auto b = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0U; };
  const auto in = [](unsigned v, unsigned lo, unsigned hi) { return v >= lo && v <= hi; };
  const unsigned c = b(0);
  if (c < 0x80) return c >= 0x20 && c != 0x7f ? 1 : 0;
  if (in(c, 0xc2, 0xdf)) return in(b(1), 0x80, 0xbf) && !(c == 0xc2 && b(1) < 0xa0) ? 2 : 0;  // C1: U+0080..U+009F
  if (in(c, 0xe0, 0xef)) {
    const unsigned lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
    return in(b(1), lo, hi) && in(b(2), 0x80, 0xbf) ? 3 : 0;
  }
  if (in(c, 0xf0, 0xf4)) {
    const unsigned lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
    return in(b(1), lo, hi) && in(b(2), 0x80, 0xbf) && in(b(3), 0x80, 0xbf) ? 4 : 0;
  }
  return 0;
}

}  // namespace printable_detail

/// Where printable_text would first change `s`, or npos: `s` is printable text already.
[[nodiscard]] constexpr std::size_t first_unprintable(std::string_view s) noexcept {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = printable_detail::printable_at(s, i);
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

/// Bytes from outside as prenet reports them: valid UTF-8 without control characters, so that text, JSON and SVG
/// output all carry the same safe string. Each byte that is not part of a printable UTF-8 character (invalid UTF-8:
/// a stray or missing continuation byte, an overlong form, a surrogate; a control character: C0 including tab and
/// newline, DEL, C1) is written as the four characters `\xNN` (lower-case hex); every other character, non-ASCII
/// ones included ("модель.onnx"), is kept. Not reversible: a name holding a literal `\xff` reads the same as one
/// holding the byte.
[[nodiscard]] inline std::string printable_text(std::string_view bytes) {
  static constexpr char hex[] = "0123456789abcdef";
  std::size_t i = first_unprintable(bytes);
  std::string out(bytes.substr(0, i));
  if (i == std::string_view::npos) return out;
  out.reserve(bytes.size() + 16);
  while (i < bytes.size()) {
    if (const std::size_t n = printable_detail::printable_at(bytes, i); n > 0) {
      out.append(bytes.substr(i, n));
      i += n;
      continue;
    }
    // Not printable: this byte as \xNN, and the next ones each in turn (a C1 character's two bytes are two escapes).
    const auto c = static_cast<unsigned char>(bytes[i]);
    out += {'\\', 'x', hex[c >> 4], hex[c & 0xf]};
    ++i;
  }
  return out;
}

/// The first `max_bytes` of `s`, or fewer: never a part of a UTF-8 character.
[[nodiscard]] inline std::string cut_text(std::string_view s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return std::string(s);
  std::size_t n = max_bytes;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xc0) == 0x80) --n;  // not inside a UTF-8 character
  return std::string(s.substr(0, n));
}

/// The bytes of a file's path an error shows (quoted_text's max_bytes for paths): enough for a deep path, not a
/// screenful of a pathological one.
inline constexpr std::size_t path_bytes_shown = 200;

/// A name fit for a one-line message: printable_text in single quotes, cut to `max_bytes` with "..." inside the
/// closing quote when longer ('resnet5...').
[[nodiscard]] inline std::string quoted_text(std::string_view s, std::size_t max_bytes = 60) {
  const std::string text = printable_text(s);
  return "'" + cut_text(text, max_bytes) + (text.size() > max_bytes ? "...'" : "'");
}

}  // namespace prenet
