// JsonValue: one value of a JSON document, with its path, for readers that
// must report where a bad value is (kubectl get -o json).
//
// Contract: documents are parsed by ParseYaml() (JSON is YAML 1.2 flow
// style), so every value has a line and column. A JsonValue knows the file,
// its node and its JSON path from the root (`items[3].spec.containers[0]
// .resources.requests["nvidia.com/gpu"]`). Member access never throws: a
// missing member is a value for which Missing() is true (and which reports
// errors at its parent's position). Typed accessors throw InputError
// "FILE:LINE:COL: PATH: expected ..., got ..." on a wrong type. Keys and
// values are read as the document has them; unknown members are ignored.
// A string read (String(), and the keys Members() lists) must not hold a
// control character once its escapes are decoded (`\u001b`, `\u0000`, `\n`;
// utf8.h): an InputError at the value. MultilineString() allows tab, LF
// and CR, for a text that is parsed and never written out (a CEL selector
// expression). Values never read (an annotation nobody asks for) are not
// checked.

#ifndef GPUSHARE_IO_JSON_VALUE_H_
#define GPUSHARE_IO_JSON_VALUE_H_

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gpushare {

class JsonValue {
 public:
  // The root of a parsed document.
  JsonValue(std::string file, YAML::Node root);

  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }
  // Absent (a member the object lacks) or JSON null.
  bool Missing() const { return !node_.IsDefined() || node_.IsNull(); }
  bool IsObject() const { return node_.IsDefined() && node_.IsMap(); }
  bool IsArray() const { return node_.IsDefined() && node_.IsSequence(); }
  // The 1-based line and column of the value (of its parent when absent);
  // 0 unknown.
  int Line() const;
  int Column() const;

  // A member of an object (Missing() when absent). Fails when this value is
  // present but not an object.
  JsonValue Get(const std::string& key) const;
  // The elements of an array; an absent value gives none. Fails on a
  // present non-array.
  std::vector<JsonValue> Items() const;
  // The members of an object in document order; an absent value gives none.
  std::vector<std::pair<std::string, JsonValue>> Members() const;

  // A string (fails on a non-string; `if_missing` when Missing()).
  std::string String(const std::string& if_missing = "") const;
  // A string that may hold tab, LF and CR but no other control character.
  std::string MultilineString() const;
  // The number of elements of an array (0 when absent), without reading
  // them. Fails on a present non-array.
  size_t Size() const;
  // An integer in [min, max].
  int64_t Int(int64_t min, int64_t max) const;
  // A finite number in [min, max].
  double Double(double min, double max) const;
  bool Bool() const;

  // Throws InputError at this value (or its parent when absent):
  // "PATH: MESSAGE".
  [[noreturn]] void Fail(const std::string& message) const;

 private:
  JsonValue(std::string file, YAML::Node node, YAML::Node located,
            std::string path);
  std::string Describe() const;

  std::string file_;
  YAML::Node node_;
  YAML::Node located_;  // node_ if defined, else the nearest defined parent
  std::string path_;
};

}  // namespace gpushare

#endif  // GPUSHARE_IO_JSON_VALUE_H_
