#include "gpushare/io/row_spool.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <system_error>
#include <utility>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

constexpr uint64_t kNoRow = ~uint64_t{0};
constexpr uint64_t kMaxLength = (uint64_t{1} << 24) - 1;
constexpr uint64_t kMaxOffset = (uint64_t{1} << 40) - 1;
constexpr size_t kBufferBytes = size_t{1} << 20;
constexpr size_t kReadBytes = size_t{1} << 20;

int OpenUnnamed(const std::string& folder) {
  const std::string dir = folder.empty() ? "." : folder;
  int fd = -1;
#ifdef O_TMPFILE
  fd = open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return fd;
#endif
  std::string name = dir + "/.gs-spool-XXXXXX";
  fd = mkstemp(name.data());
  if (fd >= 0) {
    unlink(name.c_str());
    return fd;
  }
  std::FILE* f = std::tmpfile();
  if (f == nullptr) return -1;
  fd = dup(fileno(f));
  std::fclose(f);
  return fd;
}

}  // namespace

RowSpool::RowSpool(const std::string& folder, std::string label)
    : label_(std::move(label)) {
  fd_ = OpenUnnamed(folder);
  if (fd_ < 0) Fail("cannot make a temporary file for its rows");
  buffer_.reserve(kBufferBytes);
}

RowSpool::~RowSpool() {
  if (fd_ >= 0) close(fd_);
}

void RowSpool::Fail(const std::string& what) const {
  throw InputError(label_, 0, 0,
                   what + ": " + std::generic_category().message(errno));
}

void RowSpool::Flush() const {
  const char* p = buffer_.data();
  size_t left = buffer_.size();
  while (left > 0) {
    const ssize_t n = pwrite(fd_, p, left, static_cast<off_t>(written_));
    if (n < 0) {
      if (errno == EINTR) continue;
      Fail("cannot write its rows to a temporary file");
    }
    p += n;
    left -= static_cast<size_t>(n);
    written_ += static_cast<uint64_t>(n);
  }
  buffer_.clear();
}

void RowSpool::Add(int64_t index, std::string_view row) {
  const uint64_t offset = written_ + buffer_.size();
  if (row.size() > kMaxLength || offset + row.size() > kMaxOffset) {
    errno = EFBIG;
    Fail("a row or the rows are too large to spool");
  }
  if (static_cast<size_t>(index) >= where_.size()) {
    where_.resize(static_cast<size_t>(index) + 1, kNoRow);
  }
  where_[static_cast<size_t>(index)] = offset << 24 | row.size();
  ++rows_;
  buffer_.append(row);
  if (buffer_.size() >= kBufferBytes) Flush();
}

void RowSpool::ReadAt(uint64_t offset, size_t length,
                      std::string* out) const {
  out->resize(length);
  size_t got = 0;
  while (got < out->size()) {
    const ssize_t n = pread(fd_, out->data() + got, out->size() - got,
                            static_cast<off_t>(offset + got));
    if (n < 0) {
      if (errno == EINTR) continue;
      Fail("cannot read its rows back");
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  out->resize(got);
}

bool RowSpool::Find(int64_t index, std::string* row) const {
  if (index < 0 || static_cast<size_t>(index) >= where_.size() ||
      where_[static_cast<size_t>(index)] == kNoRow) {
    return false;
  }
  Flush();
  const uint64_t w = where_[static_cast<size_t>(index)];
  const size_t length = static_cast<size_t>(w & kMaxLength);
  ReadAt(w >> 24, length, row);
  if (row->size() < length) {
    errno = EIO;
    Fail("cannot read its rows back");
  }
  return true;
}

void RowSpool::ForEachInOrder(
    const std::function<void(std::string_view row)>& row) const {
  Flush();
  // A window of the file. Rows mostly come in index order, so a row that
  // continues the last one read starts a large read serving the rows after
  // it; a row elsewhere (its pod ended out of order) is read alone, so no
  // row costs more than one read of its own size or of the window.
  std::string window;
  uint64_t window_start = 0;
  uint64_t last_end = kNoRow;
  for (const uint64_t w : where_) {
    if (w == kNoRow) continue;
    const uint64_t offset = w >> 24;
    const size_t length = static_cast<size_t>(w & kMaxLength);
    if (offset < window_start ||
        offset + length > window_start + window.size()) {
      ReadAt(offset,
             offset == last_end ? std::max(kReadBytes, length) : length,
             &window);
      window_start = offset;
      if (window.size() < length) {
        errno = EIO;
        Fail("cannot read its rows back");
      }
    }
    last_end = offset + length;
    row(std::string_view(window).substr(offset - window_start, length));
  }
}

}  // namespace gpushare
