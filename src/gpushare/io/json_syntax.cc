#include "gpushare/io/json_syntax.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

// Where the parser is: an iterator over the text that counts the bytes
// nlohmann has read (it reads one byte ahead of the token it reports).
class CountingIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CountingIterator() = default;
  CountingIterator(const char* at, const char* begin, size_t* read)
      : at_(at), begin_(begin), read_(read) {}
  reference operator*() const { return *at_; }
  CountingIterator& operator++() {
    ++at_;
    if (read_ != nullptr) *read_ = static_cast<size_t>(at_ - begin_);
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const CountingIterator& o) const { return at_ == o.at_; }
  bool operator!=(const CountingIterator& o) const { return at_ != o.at_; }

 private:
  const char* at_ = nullptr;
  const char* begin_ = nullptr;
  size_t* read_ = nullptr;
};

// A SAX handler that builds nothing: it tracks the depth and the path,
// counts the elements of bounded arrays, and keeps the first error.
class SyntaxOnly {
 public:
  using json = nlohmann::json;

  SyntaxOnly(std::span<const JsonArrayLimit> limits, const size_t* read)
      : limits_(limits), read_(read) {}

  bool null() { return Value(); }
  bool boolean(bool) { return Value(); }
  bool number_integer(json::number_integer_t) { return Value(); }
  bool number_unsigned(json::number_unsigned_t) { return Value(); }
  bool number_float(json::number_float_t, const json::string_t&) {
    return Value();
  }
  bool string(json::string_t&) { return Value(); }
  bool binary(json::binary_t&) { return Value(); }
  bool start_object(std::size_t) { return Value() && Enter(false); }
  bool key(json::string_t& k) {
    frames_.back().key = k;
    return true;
  }
  bool end_object() { return Leave(); }
  bool start_array(std::size_t) { return Value() && Enter(true); }
  bool end_array() { return Leave(); }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& e) {
    position_ = position;
    message_ = e.what();
    return false;
  }

  bool too_deep() const { return too_deep_; }
  bool over_limit() const { return !limit_message_.empty(); }
  size_t limit_at() const { return limit_at_; }
  const std::string& limit_message() const { return limit_message_; }
  std::size_t position() const { return position_; }
  const std::string& message() const { return message_; }

 private:
  struct Frame {
    bool array = false;
    std::string key;        // an object's current member
    size_t elements = 0;    // an array's so far
    const JsonArrayLimit* limit = nullptr;
    size_t opened_at = 0;   // the byte offset of its '[' or '{'
  };

  // A value starts: one more element of the enclosing array.
  bool Value() {
    if (frames_.empty() || !frames_.back().array) return true;
    Frame& f = frames_.back();
    ++f.elements;
    if (f.limit == nullptr || f.elements <= f.limit->max) return true;
    limit_at_ = f.opened_at;
    limit_message_ = fmt::format("{}: more than {} {}", Path(), f.limit->max,
                                 f.limit->what);
    return false;
  }

  bool Enter(bool array) {
    if (++depth_ > kMaxJsonDepth) {
      too_deep_ = true;
      return false;
    }
    Frame f;
    f.array = array;
    // nlohmann has read the bracket: it is the last byte read.
    f.opened_at = *read_ > 0 ? *read_ - 1 : 0;
    frames_.push_back(std::move(f));
    if (array) frames_.back().limit = MatchingLimit();
    return true;
  }

  bool Leave() {
    --depth_;
    frames_.pop_back();
    return true;
  }

  // The limit whose path the array just opened (the last frame) ends.
  const JsonArrayLimit* MatchingLimit() const {
    for (const JsonArrayLimit& limit : limits_) {
      // The names that lead to the new array, newest first: each enclosing
      // frame contributes its key (object) or "[]" (array).
      size_t frame = frames_.size() - 1;  // the new array
      bool ok = limit.path.size() <= frame;
      for (size_t i = limit.path.size(); ok && i-- > 0;) {
        const Frame& parent = frames_[--frame];
        ok = parent.array ? limit.path[i] == "[]"
                          : limit.path[i] == parent.key;
      }
      if (ok) return &limit;
    }
    return nullptr;
  }

  // The JSON path of the array over its limit (json_value.h's form).
  std::string Path() const {
    std::string path;
    for (size_t i = 0; i + 1 < frames_.size(); ++i) {
      const Frame& f = frames_[i];
      if (f.array) {
        path += "[" + std::to_string(f.elements - 1) + "]";
      } else {
        path += (path.empty() ? "" : ".") + f.key;
      }
    }
    return path.empty() ? "document" : path;
  }

  std::span<const JsonArrayLimit> limits_;
  const size_t* read_;
  std::vector<Frame> frames_;
  int depth_ = 0;
  bool too_deep_ = false;
  size_t limit_at_ = 0;
  std::string limit_message_;
  std::size_t position_ = 0;
  std::string message_;
};

// The 1-based line and column of byte `at` of `text`.
std::pair<int, int> LineAndColumn(const std::string& text, size_t at) {
  at = std::min(at, text.size());
  const std::string_view before(text.data(), at);
  const int line =
      1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
  const size_t line_start = before.rfind('\n');
  const int column = static_cast<int>(
      line_start == std::string_view::npos ? at + 1 : at - line_start);
  return {line, column};
}

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

void CheckJsonSyntax(const std::string& file, const std::string& text,
                     std::span<const JsonArrayLimit> limits) {
  size_t read = 0;
  SyntaxOnly handler(limits, &read);
  size_t at = 0;
  std::string message;
  const CountingIterator begin(text.data(), text.data(), &read);
  const CountingIterator end(text.data() + text.size(), text.data(), nullptr);
  if (nlohmann::json::sax_parse(begin, end, &handler)) return;
  if (handler.over_limit()) {
    at = handler.limit_at();
    message = handler.limit_message();
  } else if (handler.too_deep()) {
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
  const auto [line, column] = LineAndColumn(text, at);
  throw InputError(file, line, column, message);
}

}  // namespace gpushare
