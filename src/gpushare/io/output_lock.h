// An output folder locked against other gpushare-sim writers.
//
// Contract: OutputFolderLock(folder) resolves `folder` (output_path.h: a link
// the kernel's fs.protected_symlinks would refuse is refused), opens it with
// O_DIRECTORY|O_NOFOLLOW and takes an exclusive flock(2) on it without
// waiting. When another process holds the lock it throws, at once,
// InputError(folder, "is being written by another gpushare-sim (pid N); ...")
// — the pid read from /proc/locks, left out when it cannot be found. The lock
// is held until the object is destroyed (or the process ends: the kernel
// drops it, so a killed writer never leaves a stale lock, and no lock file is
// left in the folder). The folder must exist.
//
// Locks are advisory: they keep two gpushare-sim runs from writing one folder
// at once (`emit k8s --out`, `plan --out`, `sweep --out`, `merge --out`), not
// other programs. A flock belongs to an open file, so one process that locks
// a folder twice is refused by its own first lock: lock each folder once.

#ifndef GPUSHARE_IO_OUTPUT_LOCK_H_
#define GPUSHARE_IO_OUTPUT_LOCK_H_

#include <string>

namespace gpushare {

class OutputFolderLock {
 public:
  explicit OutputFolderLock(const std::string& folder);
  ~OutputFolderLock();
  OutputFolderLock(const OutputFolderLock&) = delete;
  OutputFolderLock& operator=(const OutputFolderLock&) = delete;

  // The locked folder, open (O_RDONLY|O_DIRECTORY), for *at() calls.
  int fd() const { return fd_; }
  // The folder's path with its links resolved.
  const std::string& resolved() const { return resolved_; }

 private:
  int fd_ = -1;
  std::string resolved_;
};

// The process that holds a flock on the file or folder open as `fd`, or 0
// when /proc/locks does not say.
long FlockHolder(int fd);

}  // namespace gpushare

#endif  // GPUSHARE_IO_OUTPUT_LOCK_H_
