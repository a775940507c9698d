#include "gpushare/cluster/dra/semver.h"

#include <charconv>
#include <vector>

#include "gpushare/io/quote.h"

namespace gpushare {
namespace {

// The dot-separated fields of `text` as integers; false if a field is empty,
// not all digits, has a leading zero or overflows.
bool SplitSemverFields(std::string_view text, std::vector<int64_t>& fields) {
  fields.clear();
  size_t start = 0;
  while (true) {
    const size_t dot = text.find('.', start);
    const std::string_view field = text.substr(
        start, dot == std::string_view::npos ? text.npos : dot - start);
    if (field.empty() || (field.size() > 1 && field[0] == '0')) return false;
    int64_t value = 0;
    const auto [end, ec] =
        std::from_chars(field.data(), field.data() + field.size(), value);
    if (ec != std::errc() || end != field.data() + field.size() || value < 0) {
      return false;
    }
    fields.push_back(value);
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

}  // namespace

std::string Semver::ToString() const {
  return std::to_string(major) + "." + std::to_string(minor) + "." +
         std::to_string(patch);
}

std::optional<Semver> ParseSemver(std::string_view text, std::string* why_not) {
  std::vector<int64_t> fields;
  if (!SplitSemverFields(text, fields) || fields.size() != 3) {
    if (why_not != nullptr) {
      *why_not = QuoteValue(text) +
                 " is not a version MAJOR.MINOR.PATCH (three integers "
                 "without leading zeros, no pre-release or build suffix)";
    }
    return std::nullopt;
  }
  return Semver{fields[0], fields[1], fields[2]};
}

std::optional<Semver> NormalizeSemver(std::string_view text) {
  std::vector<int64_t> fields;
  if (!SplitSemverFields(text, fields) || fields.size() > 3) {
    return std::nullopt;
  }
  fields.resize(3, 0);
  return Semver{fields[0], fields[1], fields[2]};
}

}  // namespace gpushare
