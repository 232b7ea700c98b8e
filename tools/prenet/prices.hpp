// SPDX-License-Identifier: MIT
// GPU prices for `prenet compare`: the built-in table (one basis, source and date per entry), --prices FILE, --price.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace prenet::cli {

/// One built-in price: on-demand US dollars per GPU-hour.
struct device_price {
  std::string_view id;      ///< catalogue id
  double usd_per_hour;      ///< the instance's hourly price divided by its GPUs (host CPU, memory and disk included)
  std::string_view source;  ///< the offer the number is read from
  std::string_view as_of;   ///< when that list price was in effect
};

/// The basis of every built-in entry, printed with the table.
inline constexpr std::string_view price_basis =
    "AWS EC2 on-demand list price, Linux, us-east-1, of the instance named, divided by its number of GPUs";

/// Built-in prices, ONE basis (price_basis): list prices of the AWS instances that carry exactly the catalogue's GPU,
/// as published in 2024, written down here without network access (not fetched live, not re-checked since). AWS
/// lowered the P4d and P5 on-demand prices in June 2025: the a100-sxm4-40gb and h100 entries predate that. Every
/// other catalogue GPU (no AWS instance with that exact card, or a price we cannot source) has no entry: its cost is
/// unknown, never guessed. `prenet prices` prints this table (docs/prices.md); `--prices FILE` and `--price id=usd`
/// replace any entry.
inline constexpr std::array device_prices{
    device_price{"k80", 0.90, "p2.xlarge, 1 GPU (one GK210 of a K80 board: the catalogue's 12 GiB k80), $0.90/h", "2024"},
    device_price{"m60", 0.75, "g3s.xlarge, 1 GPU (one GM204 of an M60 board: the catalogue's 8 GiB m60), $0.75/h", "2024"},
    device_price{"v100-sxm2", 3.06, "p3.2xlarge, 1 x V100-SXM2-16GB, $3.06/h", "2024"},
    device_price{"v100-sxm2-32gb", 3.9015, "p3dn.24xlarge, 8 x V100-SXM2-32GB, $31.212/h / 8", "2024"},
    device_price{"t4", 0.526, "g4dn.xlarge, 1 x T4, $0.526/h", "2024"},
    device_price{"a10g", 1.006, "g5.xlarge, 1 x A10G, $1.006/h", "2024"},
    device_price{"l4", 0.8048, "g6.xlarge, 1 x L4, $0.8048/h", "2024"},
    device_price{"a100-sxm4-40gb", 4.0966, "p4d.24xlarge, 8 x A100-SXM4-40GB, $32.7726/h / 8", "2024 (before June 2025's cut)"},
    device_price{"h100", 12.29, "p5.48xlarge, 8 x H100-SXM5-80GB, $98.32/h / 8", "2024 (before June 2025's cut)"},
};

/// The built-in hourly price of `id`, or nullopt when the table has none.
[[nodiscard]] constexpr std::optional<double> built_in_price(std::string_view id) noexcept {
  for (const device_price& p : device_prices) {
    if (p.id == id) return p.usd_per_hour;
  }
  return std::nullopt;
}

/// Where a device's price comes from.
enum class price_source { none, built_in, file, flag };
[[nodiscard]] std::string_view name(price_source s) noexcept;

/// A device's price as `compare` uses it: nullopt = unknown.
struct device_price_choice {
  std::optional<double> usd_per_hour;
  price_source source = price_source::none;
};

/// Prices a user gives, over the built-in table: `--prices FILE` entries, then `--price id=usd` ones on top.
class price_list {
 public:
  /// `extra_ids`: devices beyond the catalogue that may be priced (compare's --device-file GPUs); the views must
  /// outlive the list.
  explicit price_list(std::vector<std::string_view> extra_ids = {}) : extra_ids_(std::move(extra_ids)) {}
  /// Reads FILE: a JSON object {"id": usd_per_hour | null, ...} or CSV lines `id,usd_per_hour` (an optional header
  /// `device,usd_per_hour`, blank lines and `#` comments allowed; an empty price = unknown). Throws usage_error
  /// naming the file (and the line for CSV) on anything else: unreadable, malformed, unknown id, a price outside
  /// 0..10,000, an id given twice.
  void read_file(std::string_view path);
  /// Reads --price's `id=usd[,id=usd...]`; an id given twice is an error.
  void read_flag(std::string_view list);
  /// The price of `id`: --price, else --prices, else the built-in table, else unknown.
  [[nodiscard]] device_price_choice of(std::string_view id) const;
  /// Ids given with --price (to check they are among the compared devices).
  [[nodiscard]] std::vector<std::string_view> flag_ids() const;

 private:
  struct entry {
    std::string_view id;  ///< points into the catalogue or extra_ids_
    std::optional<double> usd_per_hour;
    price_source source;
  };
  /// `id` as a known device id (the catalogue's, then extra_ids_), or a usage_error that starts with `where`.
  [[nodiscard]] std::string_view known_id(std::string_view id, const std::string& where) const;
  void add(std::string_view id, std::optional<double> usd, price_source source, const std::string& where);
  std::vector<entry> entries_;
  std::vector<std::string_view> extra_ids_;
};

/// Highest price accepted, in US dollars per GPU-hour.
inline constexpr double max_usd_per_hour = 10'000;

/// `prenet prices [--json | --markdown]`: the built-in table with basis, source and date per entry.
[[nodiscard]] std::string prices_command(std::span<const std::string> args);

}  // namespace prenet::cli
