#include "gpushare/io/output_target.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <set>
#include <system_error>

#include <fmt/format.h>

#include "gpushare/io/input_error.h"
#include "gpushare/io/output_path.h"

namespace gpushare {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void RefuseOutput(const std::string& path, const std::string& message) {
  throw InputError(path, 0, 0, message);
}

std::string SystemErrorText(int error) {
  return std::generic_category().message(error);
}

// 1 or 2 when `path` names this process's standard output or error by one of
// their names, else 0.
int StandardStreamNamed(const std::string& path) {
  for (int fd : {1, 2}) {
    const std::string names[] = {fd == 1 ? "/dev/stdout" : "/dev/stderr",
                                 fmt::format("/dev/fd/{}", fd),
                                 fmt::format("/proc/self/fd/{}", fd)};
    if (std::find(std::begin(names), std::end(names), path) !=
        std::end(names)) {
      return fd;
    }
  }
  return 0;
}

// 1 or 2 when `st` is the regular file standard output or error is
// redirected to (writing it by name would cut the stream off), else 0.
int StandardStreamFile(const struct stat& st) {
  for (int fd : {1, 2}) {
    struct stat stream;
    if (fstat(fd, &stream) == 0 && S_ISREG(stream.st_mode) &&
        stream.st_dev == st.st_dev && stream.st_ino == st.st_ino) {
      return fd;
    }
  }
  return 0;
}

std::string NormalPath(const std::string& path) {
  fs::path p = fs::path(path).lexically_normal();
  if (p.has_relative_path() && p.filename().empty()) p = p.parent_path();
  return p.empty() ? "." : p.string();
}

// Whether the batch makes `folder` (as one of `made_folders` or a parent of
// one).
bool MadeByBatch(const std::string& folder,
                 const std::vector<std::string>& made_folders) {
  const std::string f = NormalPath(folder);
  for (const std::string& m : made_folders) {
    for (fs::path p = NormalPath(m); !p.empty(); p = p.parent_path()) {
      if (p.string() == f) return true;
      if (p == p.parent_path()) break;
    }
  }
  return false;
}

// Names of our own temporaries and backups (".NAME.gs-tmp-XXXXXXXX"), left
// behind only by a process killed with SIGKILL.
bool IsLeftoverTemporary(const std::string& name) {
  if (name.size() < 17 || name[0] != '.') return false;
  const std::string tail = name.substr(name.size() - 16);
  if (tail.rfind(".gs-tmp-", 0) != 0 && tail.rfind(".gs-bak-", 0) != 0) {
    return false;
  }
  return std::all_of(tail.begin() + 8, tail.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  });
}

std::set<std::string> ReadManifest(const std::string& path) {
  std::set<std::string> names;
  struct stat st;
  if (lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return names;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    // Only plain names in the folder itself are ever removed.
    if (line.find('/') != std::string::npos || line == "." || line == "..") {
      continue;
    }
    names.insert(line);
  }
  return names;
}

}  // namespace

OutputTarget ClassifyOutputTarget(
    const std::string& path, const std::vector<std::string>& made_folders) {
  OutputTarget t;
  t.path = path;
  t.file = path;
  if (path.empty()) RefuseOutput("(empty path)", "an output path is empty; name a file");
  if (const int fd = StandardStreamNamed(path)) {
    t.kind = OutputKind::kStandardStream;
    t.stream_fd = fd;
    return t;
  }
  const fs::path p(path);
  const std::string name = p.filename().string();
  if (name.empty() || name == "." || name == "..") {
    RefuseOutput(path, "names a folder; expected a file path");
  }
  // Refuses a link planted by another user before anything follows one.
  const std::string resolved = ResolveOutputPath(path);
  const fs::path r(resolved);
  t.file = resolved;
  t.folder = r.parent_path().string();
  t.name = r.filename().string();
  struct stat folder_st;
  if (lstat(t.folder.c_str(), &folder_st) == 0 && S_ISDIR(folder_st.st_mode)) {
    t.folder_checked = true;
    t.folder_dev = folder_st.st_dev;
    t.folder_ino = folder_st.st_ino;
  }
  struct stat st;
  if (stat(path.c_str(), &st) == 0) {
    if (S_ISREG(st.st_mode)) {
      if (const int fd = StandardStreamFile(st)) {
        t.kind = OutputKind::kStandardStream;
        t.stream_fd = fd;
        return t;
      }
      t.kind = OutputKind::kRegularFile;
      t.mode = st.st_mode & 07777;
      t.identity = fmt::format("inode {}:{}", st.st_dev, st.st_ino);
      return t;
    }
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
      // Opened by the name given: /dev/fd/63 (a shell's `>(cmd)`) resolves
      // to "pipe:[N]", which no open() finds; the writer checks that what it
      // opened is this device or FIFO.
      t.file = path;
      t.kind = OutputKind::kInPlace;
      t.dev = st.st_dev;
      t.ino = st.st_ino;
      return t;
    }
    if (S_ISDIR(st.st_mode)) {
      RefuseOutput(path, "is a folder; expected a file path");
    }
    RefuseOutput(path,
           "is a socket or block device; outputs are written to regular "
           "files, character devices (such as /dev/null) and FIFOs");
  }
  const int error = errno;
  struct stat link;
  if (error == ENOENT && lstat(path.c_str(), &link) == 0) {
    RefuseOutput(path, "is a link to a missing file; remove it or name another path");
  }
  if (error != ENOENT) RefuseOutput(path, "cannot be written: " + SystemErrorText(error));
  const std::string folder = p.has_parent_path() ? p.parent_path().string() : ".";
  if (!MadeByBatch(folder, made_folders)) {
    struct stat f;
    if (stat(folder.c_str(), &f) != 0) {
      RefuseOutput(path, "its folder '" + folder + "' does not exist");
    }
    if (!S_ISDIR(f.st_mode)) RefuseOutput(path, "'" + folder + "' is not a folder");
  }
  t.kind = OutputKind::kNewFile;
  t.identity = "path " + resolved;
  return t;
}

void CheckOutputFolder(const std::string& folder) {
  if (folder.empty()) RefuseOutput("(empty path)", "an output folder is empty; name a folder");
  ResolveOutputPath(folder);  // refuses a link planted by another user
  struct stat st;
  if (stat(folder.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) RefuseOutput(folder, "exists and is not a folder");
    return;
  }
  // Missing: the nearest existing level must be a folder.
  for (fs::path p = fs::path(NormalPath(folder)).parent_path(); !p.empty();
       p = p.parent_path()) {
    if (stat(p.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) {
        RefuseOutput(folder, "cannot be made: '" + p.string() + "' is not a folder");
      }
      return;
    }
    if (p == p.parent_path()) break;
  }
}

OutputSetPlan PlanOutputSet(
    const std::string& folder,
    const std::vector<std::pair<std::string, std::string>>& files) {
  ResolveOutputPath(folder);  // refuses a link planted by another user
  OutputSetPlan plan;
  plan.manifest_path = (fs::path(folder) / kOutputSetManifest).string();
  const std::string normal = NormalPath(folder);
  std::set<std::string> names;
  for (const auto& [path, content] : files) {
    const fs::path p(path);
    if (NormalPath(p.has_parent_path() ? p.parent_path().string() : ".") == normal) {
      names.insert(p.filename().string());
    }
  }
  plan.manifest =
      "# The files gpushare-sim wrote in this folder as one set. Writing a new\n"
      "# set here removes those of this list that it no longer holds.\n";
  for (const std::string& n : names) plan.manifest += n + "\n";
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return plan;
  const std::set<std::string> earlier = ReadManifest(plan.manifest_path);
  std::vector<std::string> foreign;
  std::vector<std::string> links;
  for (const fs::directory_entry& e : fs::directory_iterator(folder, ec)) {
    const std::string n = e.path().filename().string();
    if (e.is_symlink(ec)) links.push_back(n);
    if (n == kOutputSetManifest || names.count(n) > 0) continue;
    const bool folder_entry = e.is_directory(ec) && !e.is_symlink(ec);
    if (!folder_entry && (earlier.count(n) > 0 || IsLeftoverTemporary(n))) {
      plan.stale.push_back(e.path().string());
    } else {
      foreign.push_back(n + (folder_entry ? "/" : ""));
    }
  }
  if (ec) RefuseOutput(folder, "cannot list the folder: " + ec.message());
  if (!links.empty()) {
    std::sort(links.begin(), links.end());
    RefuseOutput(folder,
                 fmt::format("holds {} link{} ({}{}); a folder written as a "
                             "set holds only the files gpushare-sim wrote, "
                             "never links (writing through one would replace "
                             "a file outside the folder): remove {}",
                             links.size() == 1 ? "a" : fmt::format("{}", links.size()),
                             links.size() == 1 ? "" : "s", links.front(),
                             links.size() == 1 ? "" : ", ...",
                             links.size() == 1 ? "it" : "them"));
  }
  if (!foreign.empty()) {
    std::sort(foreign.begin(), foreign.end());
    std::string list;
    for (size_t i = 0; i < foreign.size() && i < 5; ++i) {
      list += (i > 0 ? ", " : "") + foreign[i];
    }
    if (foreign.size() > 5) list += fmt::format(", and {} more", foreign.size() - 5);
    RefuseOutput(folder,
           fmt::format("holds {} that gpushare-sim did not write there ({}); "
                       "`kubectl apply -f` on the folder would apply {} with "
                       "the new files: write into a new or empty folder, or "
                       "move {} away",
                       foreign.size() == 1 ? "a file" : "files", list,
                       foreign.size() == 1 ? "it" : "them",
                       foreign.size() == 1 ? "it" : "them"));
  }
  std::sort(plan.stale.begin(), plan.stale.end());
  return plan;
}

}  // namespace gpushare
