// RowSpool: text rows keyed by a dense index, kept on disk as they come and
// read back in index order.
//
// Contract: Add() appends a row to an unnamed temporary file (O_TMPFILE in
// `folder`, else a file made there and unlinked at once, else tmpfile()):
// it has no name, so nothing is left behind whatever happens to the
// process. In memory it keeps 8 bytes per index up to the largest added
// (where its row lies; rows up to 16 MiB, the file up to 1 TiB), and a
// write buffer of 1 MiB. ForEachInOrder() calls `row` with every added
// row, in index order (an index added twice: its last row; never added:
// skipped). Failures (a full disk) throw an InputError naming `label`.

#ifndef GPUSHARE_IO_ROW_SPOOL_H_
#define GPUSHARE_IO_ROW_SPOOL_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gpushare {

class RowSpool {
 public:
  RowSpool(const std::string& folder, std::string label);
  ~RowSpool();
  RowSpool(const RowSpool&) = delete;
  RowSpool& operator=(const RowSpool&) = delete;

  void Add(int64_t index, std::string_view row);
  // Rows added.
  int64_t rows() const { return rows_; }
  void ForEachInOrder(
      const std::function<void(std::string_view row)>& row) const;
  // Index `index`'s row (its last) into *row; false when never added.
  bool Find(int64_t index, std::string* row) const;

 private:
  void Flush() const;
  // Reads `length` bytes at `offset` into *out (resized to what was read).
  void ReadAt(uint64_t offset, size_t length, std::string* out) const;
  [[noreturn]] void Fail(const std::string& what) const;

  std::string label_;
  int fd_ = -1;
  int64_t rows_ = 0;
  // Per index: offset << 24 | length; kNone when never added.
  std::vector<uint64_t> where_;
  mutable std::string buffer_;  // not yet written, from offset written_
  mutable uint64_t written_ = 0;
};

}  // namespace gpushare

#endif  // GPUSHARE_IO_ROW_SPOOL_H_
