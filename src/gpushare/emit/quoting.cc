#include "gpushare/emit/quoting.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "gpushare/io/utf8.h"

namespace gpushare {
namespace {

// Characters YAML 1.1 readers take as line breaks (U+0085 is a C1
// control) or as a byte-order mark, and the noncharacters YAML does not
// allow raw.
bool QuotingIsSpecialUnicode(int32_t c) {
  return c == 0x2028 || c == 0x2029 || c == 0xFEFF || c == 0xFFFE ||
         c == 0xFFFF;
}

bool QuotingIsPlainChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' ||
         c == '_' || c == '/' || c == '+' || c == '-';
}

// Null and the booleans of YAML 1.1 (yaml.org/type/bool.html, with y/n as
// Go's yaml.v2 reads them) and 1.2, compared without case.
bool QuotingIsYamlWord(std::string_view text) {
  static constexpr std::array<std::string_view, 9> kWords = {
      "null", "true", "false", "yes", "no", "on", "off", "y", "n"};
  if (text.size() > 5) return false;
  std::string lower(text);
  for (char& c : lower) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return std::find(kWords.begin(), kWords.end(), lower) != kWords.end();
}

bool QuotingIsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

bool YamlPlainIsNotString(std::string_view text) {
  if (text.empty() || text == "~" || text == "<<" || text == "=" ||
      QuotingIsYamlWord(text)) {
    return true;
  }
  std::string_view rest = text;
  if (rest[0] == '+' || rest[0] == '-') rest.remove_prefix(1);
  std::string lower(rest);
  for (char& c : lower) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (lower == ".inf" || lower == ".nan") return true;
  const bool number_start =
      !rest.empty() &&
      (QuotingIsDigit(rest[0]) ||
       (rest[0] == '.' && rest.size() > 1 && QuotingIsDigit(rest[1])));
  if (!number_start) return false;
  // Dates and timestamps: YYYY-...
  if (rest.size() >= 5 &&
      std::all_of(rest.begin(), rest.begin() + 4, QuotingIsDigit) &&
      rest[4] == '-') {
    return true;
  }
  // Integers and floats in any base, with exponents, '_' and sexagesimal
  // ':' parts (YAML 1.1).
  return std::all_of(rest.begin(), rest.end(), [](char c) {
    return std::isxdigit(static_cast<unsigned char>(c)) != 0 ||
           std::string_view("xXoObB._:+-").find(c) != std::string_view::npos;
  });
}

std::string ShellQuote(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string ShellWord(std::string_view text) {
  const bool bare =
      !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
               std::string_view("._/:=@%+,-").find(c) != std::string_view::npos;
      });
  return bare ? std::string(text) : ShellQuote(text);
}

bool YamlNeedsQuotes(std::string_view text) {
  if (text.empty() || std::isalnum(static_cast<unsigned char>(text[0])) == 0) {
    return true;
  }
  if (!std::all_of(text.begin(), text.end(), QuotingIsPlainChar)) return true;
  return YamlPlainIsNotString(text);
}

std::string YamlScalar(std::string_view text) {
  return YamlNeedsQuotes(text) ? YamlQuoted(text) : std::string(text);
}

std::string YamlQuoted(std::string_view text) {
  std::string out = "\"";
  for (size_t i = 0; i < text.size();) {
    const Utf8CodePoint cp = DecodeUtf8(text.substr(i));
    const int32_t c = cp.value;
    if (c == '"') {
      out += "\\\"";
    } else if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0) {
      out += "\\uFFFD";
    } else if (IsControlCodePoint(c)) {
      out += fmt::format("\\x{:02X}", c);
    } else if (QuotingIsSpecialUnicode(c)) {
      out += fmt::format("\\u{:04X}", c);
    } else {
      out.append(text.substr(i, cp.size));
    }
    i += cp.size;
  }
  return out + "\"";
}

bool YamlBlockPrintable(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const Utf8CodePoint cp = DecodeUtf8(text.substr(i));
    if (cp.value < 0 || (cp.value != '\n' && IsControlCodePoint(cp.value)) ||
        QuotingIsSpecialUnicode(cp.value)) {
      return false;
    }
    i += cp.size;
  }
  return true;
}

std::string JsonString(std::string_view text) {
  std::string out = "\"";
  for (size_t i = 0; i < text.size();) {
    const Utf8CodePoint cp = DecodeUtf8(text.substr(i));
    const int32_t c = cp.value;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (c < 0) {
          out += "\\ufffd";
        } else if (IsControlCodePoint(c) || QuotingIsSpecialUnicode(c)) {
          out += fmt::format("\\u{:04x}", c);
        } else {
          out.append(text.substr(i, cp.size));
        }
    }
    i += cp.size;
  }
  return out + "\"";
}

std::string CommentText(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    const Utf8CodePoint cp = DecodeUtf8(text.substr(i));
    const int32_t c = cp.value;
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0) {
      out += fmt::format("\\x{:02X}", static_cast<unsigned char>(text[i]));
    } else if (IsControlCodePoint(c)) {
      out += fmt::format("\\x{:02X}", c);
    } else if (QuotingIsSpecialUnicode(c)) {
      out += fmt::format("\\u{:04X}", c);
    } else {
      out.append(text.substr(i, cp.size));
    }
    i += cp.size;
  }
  return out;
}

}  // namespace gpushare
