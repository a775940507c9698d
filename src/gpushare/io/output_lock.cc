// Output folders locked with flock(2) (output_lock.h).

#include "gpushare/io/output_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "gpushare/io/input_error.h"
#include "gpushare/io/output_path.h"

namespace gpushare {

long FlockHolder(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0) return 0;
  // "1: FLOCK  ADVISORY  WRITE 8476 fe:00:247066 0 EOF"; a waiter's line
  // has "->" after the number.
  const std::string file = fmt::format("{:02x}:{:02x}:{}", major(st.st_dev),
                                       minor(st.st_dev), st.st_ino);
  std::ifstream locks("/proc/locks");
  std::string line;
  while (std::getline(locks, line)) {
    std::istringstream fields(line);
    std::string number, type, advisory, mode, device;
    long pid = 0;
    if (!(fields >> number >> type) || type != "FLOCK") continue;
    if (!(fields >> advisory >> mode >> pid >> device)) continue;
    if (device == file) return pid;
  }
  return 0;
}

OutputFolderLock::OutputFolderLock(const std::string& folder)
    : resolved_(ResolveOutputPath(folder)) {
  fd_ = open(resolved_.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd_ < 0) {
    throw InputError(folder, 0, 0,
                     "cannot open the output folder to lock it: " +
                         std::generic_category().message(errno));
  }
  int result;
  do {
    result = flock(fd_, LOCK_EX | LOCK_NB);
  } while (result != 0 && errno == EINTR);
  if (result != 0) {
    const int error = errno;
    const long holder = error == EWOULDBLOCK ? FlockHolder(fd_) : 0;
    close(fd_);
    fd_ = -1;
    if (error != EWOULDBLOCK) {
      throw InputError(folder, 0, 0,
                       "cannot lock the output folder: " +
                           std::generic_category().message(error));
    }
    throw InputError(
        folder, 0, 0,
        fmt::format("is being written by another gpushare-sim{}; wait for it "
                    "to finish, or write elsewhere",
                    holder > 0 ? fmt::format(" (pid {})", holder) : ""));
  }
  // The path still names the folder locked (it was not replaced meanwhile).
  struct stat locked, named;
  if (fstat(fd_, &locked) != 0 || lstat(resolved_.c_str(), &named) != 0 ||
      locked.st_dev != named.st_dev || locked.st_ino != named.st_ino) {
    close(fd_);
    fd_ = -1;
    throw InputError(folder, 0, 0,
                     "was replaced while gpushare-sim locked it; try again");
  }
}

OutputFolderLock::~OutputFolderLock() {
  if (fd_ >= 0) close(fd_);  // releases the lock
}

}  // namespace gpushare
