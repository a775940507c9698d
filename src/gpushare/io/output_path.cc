// Resolving output paths with the kernel's protected_symlinks rule
// (output_path.h).

#include "gpushare/io/output_path.h"

#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

namespace fs = std::filesystem;

// The components of `path`, last first (so that the next is at the back).
void PushComponents(const std::string& path, std::vector<std::string>* stack) {
  std::vector<std::string> parts;
  size_t begin = 0;
  while (begin <= path.size()) {
    size_t end = path.find('/', begin);
    if (end == std::string::npos) end = path.size();
    if (end > begin) parts.push_back(path.substr(begin, end - begin));
    begin = end + 1;
  }
  stack->insert(stack->end(), parts.rbegin(), parts.rend());
}

std::string Join(const std::string& folder, const std::string& name) {
  return folder == "/" ? "/" + name : folder + "/" + name;
}

std::string Parent(const std::string& folder) {
  const size_t slash = folder.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/"
                                                  : folder.substr(0, slash);
}

std::string CurrentFolder(const std::string& path) {
  std::string buffer(4096, '\0');
  while (getcwd(buffer.data(), buffer.size()) == nullptr) {
    if (errno != ERANGE || buffer.size() > (1u << 20)) {
      throw InputError(path, 0, 0,
                       "cannot resolve the path: the current folder is "
                       "unknown");
    }
    buffer.resize(buffer.size() * 2);
  }
  return buffer.c_str();
}

std::string ReadLink(const std::string& link, const std::string& path) {
  std::string buffer(256, '\0');
  for (;;) {
    const ssize_t n = readlink(link.c_str(), buffer.data(), buffer.size());
    if (n < 0) {
      throw InputError(path, 0, 0,
                       fmt::format("cannot read the link '{}'", link));
    }
    if (static_cast<size_t>(n) < buffer.size()) {
      buffer.resize(static_cast<size_t>(n));
      return buffer;
    }
    buffer.resize(buffer.size() * 2);
  }
}

}  // namespace

bool KernelWouldFollowLink(const struct stat& link, const struct stat& folder,
                           uid_t uid) {
  const bool sticky_and_open =
      (folder.st_mode & S_ISVTX) != 0 && (folder.st_mode & S_IWOTH) != 0;
  return !sticky_and_open || link.st_uid == uid ||
         link.st_uid == folder.st_uid;
}

std::string ResolveOutputPath(const std::string& path) {
  std::vector<std::string> pending;
  PushComponents(path, &pending);
  std::string resolved = path.starts_with("/") ? "/" : CurrentFolder(path);
  std::string rest;  // the part past the last existing component
  int links = 0;
  while (!pending.empty()) {
    const std::string name = std::move(pending.back());
    pending.pop_back();
    if (!rest.empty()) {
      rest += "/" + name;
      continue;
    }
    if (name == ".") continue;
    if (name == "..") {
      resolved = Parent(resolved);
      continue;
    }
    const std::string next = Join(resolved, name);
    struct stat st;
    if (lstat(next.c_str(), &st) != 0) {
      rest = name;
      continue;
    }
    if (!S_ISLNK(st.st_mode)) {
      resolved = next;
      continue;
    }
    struct stat folder;
    if (lstat(resolved.c_str(), &folder) != 0) {
      throw InputError(path, 0, 0,
                       fmt::format("cannot examine the folder '{}'", resolved));
    }
    if (!KernelWouldFollowLink(st, folder, geteuid())) {
      throw InputError(
          path, 0, 0,
          fmt::format("'{}' is a link owned by user {} in the sticky "
                      "world-writable folder '{}' (owned by user {}); "
                      "gpushare-sim follows no such link, as the kernel's "
                      "fs.protected_symlinks would not: remove it or name "
                      "another path",
                      next, st.st_uid, resolved, folder.st_uid));
    }
    if (++links > kMaxOutputPathLinks) {
      throw InputError(path, 0, 0,
                       fmt::format("more than {} links to follow",
                                   kMaxOutputPathLinks));
    }
    const std::string target = ReadLink(next, path);
    if (target.starts_with("/")) resolved = "/";
    PushComponents(target, &pending);
  }
  if (rest.empty()) return resolved;
  return fs::path(Join(resolved, rest)).lexically_normal().string();
}

}  // namespace gpushare
