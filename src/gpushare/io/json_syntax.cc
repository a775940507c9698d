#include "gpushare/io/json_syntax.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

// A SAX handler that builds nothing: it tracks the depth and keeps the
// first error.
class SyntaxOnly {
 public:
  using json = nlohmann::json;
  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(json::number_integer_t) { return true; }
  bool number_unsigned(json::number_unsigned_t) { return true; }
  bool number_float(json::number_float_t, const json::string_t&) {
    return true;
  }
  bool string(json::string_t&) { return true; }
  bool binary(json::binary_t&) { return true; }
  bool start_object(std::size_t) { return Enter(); }
  bool key(json::string_t&) { return true; }
  bool end_object() { return Leave(); }
  bool start_array(std::size_t) { return Enter(); }
  bool end_array() { return Leave(); }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& e) {
    position_ = position;
    message_ = e.what();
    return false;
  }

  bool too_deep() const { return too_deep_; }
  std::size_t position() const { return position_; }
  const std::string& message() const { return message_; }

 private:
  bool Enter() {
    if (++depth_ > kMaxJsonDepth) {
      too_deep_ = true;
      return false;
    }
    return true;
  }
  bool Leave() {
    --depth_;
    return true;
  }

  int depth_ = 0;
  bool too_deep_ = false;
  std::size_t position_ = 0;
  std::string message_;
};

// "[json.exception.parse_error.101] parse error at line 1, column 2: syntax
// error while parsing value - ..." without what we say ourselves.
std::string Reason(const std::string& what) {
  const std::string_view view(what);
  const size_t column = view.find("column ");
  if (column != std::string_view::npos) {
    const size_t colon = view.find(": ", column);
    if (colon != std::string_view::npos) return what.substr(colon + 2);
  }
  const size_t bracket = view.find("] ");
  return bracket == std::string_view::npos ? what : what.substr(bracket + 2);
}

// The value of the 4 hex digits at text[at..at+4), or -1.
int HexQuad(const std::string& text, size_t at) {
  if (at + 4 > text.size()) return -1;
  int value = 0;
  for (size_t i = at; i < at + 4; ++i) {
    const char c = text[i];
    int digit = -1;
    if (c >= '0' && c <= '9') digit = c - '0';
    if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

// Whether the escape at text[at] (a backslash) is `\uD8xx`..`\uDBxx`.
bool IsHighSurrogateEscape(const std::string& text, size_t at) {
  if (at + 6 > text.size() || text[at + 1] != 'u') return false;
  const int value = HexQuad(text, at + 2);
  return value >= 0xD800 && value <= 0xDBFF;
}

}  // namespace

std::string JsonTextForYamlCpp(const std::string& text) {
  // Fast path: most documents have no escape above U+FFFF.
  bool any = false;
  for (size_t at = text.find("\\u"); at != std::string::npos && !any;
       at = text.find("\\u", at + 1)) {
    any = IsHighSurrogateEscape(text, at);
  }
  if (!any) return text;
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  size_t pad = 0;  // bytes the current string lost
  for (size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    if (!in_string) {
      out.push_back(c);
      if (c == '"') in_string = true;
      continue;
    }
    if (c == '"') {
      out.push_back(c);
      in_string = false;
      if (pad == 0) continue;
      // A key's padding goes after its ':' (YAML wants the ':' right after
      // an implicit key's whitespace, which a pad before it would still
      // allow, but this keeps the key's own column too).
      size_t next = at + 1;
      while (next < text.size() &&
             (text[next] == ' ' || text[next] == '\t' ||
              text[next] == '\n' || text[next] == '\r')) {
        ++next;
      }
      if (next < text.size() && text[next] == ':') {
        out.append(text, at + 1, next + 1 - (at + 1));
        at = next;
      }
      out.append(pad, ' ');
      pad = 0;
      continue;
    }
    if (c != '\\') {
      out.push_back(c);
      continue;
    }
    // CheckJsonSyntax accepted the text: a high surrogate escape is followed
    // by a low one (nlohmann refuses a lone surrogate).
    if (IsHighSurrogateEscape(text, at)) {
      const int high = HexQuad(text, at + 2);
      const int low = HexQuad(text, at + 8);
      const int code_point = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
      out += fmt::format("\\U{:08X}", code_point);
      pad += 2;  // 12 bytes became 10
      at += 11;
      continue;
    }
    out.push_back(c);
    if (at + 1 < text.size()) out.push_back(text[++at]);
  }
  return out;
}

void CheckJsonSyntax(const std::string& file, const std::string& text) {
  SyntaxOnly handler;
  size_t at = 0;
  std::string message;
  if (nlohmann::json::sax_parse(text, &handler)) return;
  if (handler.too_deep()) {
    // The parser stopped where the limit was passed; its position is not
    // kept, so find the opening bracket that went too deep.
    int depth = 0;
    bool in_string = false;
    for (at = 0; at < text.size(); ++at) {
      const char c = text[at];
      if (in_string) {
        if (c == '\\') ++at;
        else if (c == '"') in_string = false;
      } else if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        if (++depth > kMaxJsonDepth) break;
      } else if (c == '}' || c == ']') {
        --depth;
      }
    }
    message = fmt::format("invalid JSON: nested deeper than {} levels",
                          kMaxJsonDepth);
  } else {
    // nlohmann counts the position one past the byte it stopped at.
    at = handler.position() > 0 ? handler.position() - 1 : 0;
    message = "invalid JSON: " + Reason(handler.message());
  }
  at = std::min(at, text.size());
  const std::string_view before(text.data(), at);
  const int line =
      1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
  const size_t line_start = before.rfind('\n');
  const int column = static_cast<int>(
      line_start == std::string_view::npos ? at + 1 : at - line_start);
  throw InputError(file, line, column, message);
}

}  // namespace gpushare
