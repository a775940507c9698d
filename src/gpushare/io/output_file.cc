#include "gpushare/io/output_file.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <random>
#include <system_error>

#include <fmt/format.h>

#include "gpushare/io/input_error.h"
#include "gpushare/io/output_target.h"
#include "gpushare/io/signal_cleanup.h"

namespace gpushare {
namespace {

namespace fs = std::filesystem;

std::string ErrnoText(int error) {
  return std::generic_category().message(error);
}

// Writes all of `data` to `fd`; returns 0 or the errno of the failure.
int WriteAll(int fd, const std::string& data) {
  const char* p = data.data();
  size_t left = data.size();
  while (left > 0) {
    const ssize_t n = write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  return 0;
}

uint32_t RandomSuffix() {
  static std::atomic<uint32_t> counter{0};
  uint32_t value = counter.fetch_add(1) * 2654435761u ^
                   static_cast<uint32_t>(getpid());
  try {
    std::random_device device;
    value ^= device();
  } catch (const std::exception&) {
    // O_EXCL keeps names unique; the random part only makes them hard to
    // guess.
  }
  return value;
}

// ".NAME.gs-tmp-XXXXXXXX" (or gs-bak-) beside `file`, NAME cut to keep the
// whole under NAME_MAX.
std::string SiblingName(const std::string& file, const char* kind) {
  const fs::path path(file);
  std::string base = path.filename().string().substr(0, 200);
  const std::string name =
      fmt::format(".{}.gs-{}-{:08x}", base, kind, RandomSuffix());
  return (path.parent_path() / name).string();
}

// One output of the batch: what it is and how far its writing got.
struct PendingOutput {
  OutputTarget target;
  const std::string* content = nullptr;
  std::string temporary;  // a regular or new file's, once created
  int temporary_slot = -1;
  std::string backup;  // a hard link to the replaced file, while renaming
};

// Signals held off while temporaries are renamed into place.
class SignalsHeld {
 public:
  SignalsHeld() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, &previous_);
  }
  ~SignalsHeld() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

 private:
  sigset_t previous_;
};

// Creates the temporary of `out` (registered for removal on a signal) and
// writes its content.
void WriteTemporary(PendingOutput* out) {
  const OutputTarget& t = out->target;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    const std::string name = SiblingName(t.file, "tmp");
    const int slot = RegisterSignalCleanup(name, /*folder=*/false);
    fd = open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
              0666);
    if (fd < 0) {
      const int error = errno;
      UnregisterSignalCleanup(slot);
      if (error == EEXIST) continue;
      throw InputError(t.path, 0, 0,
                       "cannot create output file: " + ErrnoText(error));
    }
    out->temporary = name;
    out->temporary_slot = slot;
  }
  if (fd < 0) {
    throw InputError(t.path, 0, 0,
                     "cannot create a temporary file beside it (100 names "
                     "taken)");
  }
  int error = 0;
  if (t.kind == OutputKind::kRegularFile && fchmod(fd, t.mode) != 0) {
    error = errno;
  }
  if (error == 0) error = WriteAll(fd, *out->content);
  if (close(fd) != 0 && error == 0) error = errno;
  if (error != 0) {
    throw InputError(t.path, 0, 0,
                     "cannot write output file: " + ErrnoText(error));
  }
}

// Writes a device, FIFO or standard stream in place.
void WriteInPlace(const PendingOutput& out) {
  const OutputTarget& t = out.target;
  int error = 0;
  if (t.kind == OutputKind::kStandardStream) {
    std::cout.flush();
    std::fflush(stdout);
    std::cerr.flush();
    std::fflush(stderr);
    error = WriteAll(t.stream_fd, *out.content);
  } else {
    const int fd = open(t.file.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
      throw InputError(t.path, 0, 0,
                       "cannot open output: " + ErrnoText(errno));
    }
    error = WriteAll(fd, *out.content);
    if (close(fd) != 0 && error == 0) error = errno;
  }
  if (error != 0) {
    throw InputError(t.path, 0, 0, "cannot write output: " + ErrnoText(error));
  }
}

// The folders of `directory` that do not exist yet, outermost first.
std::vector<std::string> MissingFolders(const std::string& directory) {
  std::vector<std::string> missing;
  std::error_code ec;
  for (fs::path p = fs::path(directory).lexically_normal();
       !p.empty() && p != p.parent_path() && !fs::exists(fs::symlink_status(p, ec));
       p = p.parent_path()) {
    if (p.filename().empty()) continue;  // a trailing separator
    missing.push_back(p.string());
  }
  std::reverse(missing.begin(), missing.end());
  return missing;
}

// Removes the batch's temporaries and the folders it made.
void Undo(std::vector<PendingOutput>* outputs,
          const std::vector<std::pair<std::string, int>>& made_folders) {
  for (PendingOutput& out : *outputs) {
    if (!out.temporary.empty()) unlink(out.temporary.c_str());
    UnregisterSignalCleanup(out.temporary_slot);
    out.temporary.clear();
    out.temporary_slot = -1;
  }
  for (auto it = made_folders.rbegin(); it != made_folders.rend(); ++it) {
    rmdir(it->first.c_str());  // only when empty
    UnregisterSignalCleanup(it->second);
  }
}

// Renames every temporary over its target; on a failure restores what was
// replaced so far and throws.
void RenameIntoPlace(std::vector<PendingOutput>* outputs) {
  SignalsHeld held;
  std::vector<PendingOutput*> done;
  auto restore = [&done] {
    for (auto it = done.rbegin(); it != done.rend(); ++it) {
      PendingOutput* out = *it;
      if (!out->backup.empty()) {
        rename(out->backup.c_str(), out->target.file.c_str());
      } else if (out->target.kind == OutputKind::kNewFile) {
        unlink(out->target.file.c_str());
      }
    }
  };
  for (PendingOutput& out : *outputs) {
    if (out.temporary.empty()) continue;
    if (out.target.kind == OutputKind::kRegularFile) {
      for (int attempt = 0; attempt < 100; ++attempt) {
        const std::string name = SiblingName(out.target.file, "bak");
        if (link(out.target.file.c_str(), name.c_str()) == 0) {
          out.backup = name;
          break;
        }
        if (errno != EEXIST) break;  // no way back for this one
      }
    }
    if (rename(out.temporary.c_str(), out.target.file.c_str()) != 0) {
      const int error = errno;
      if (!out.backup.empty()) unlink(out.backup.c_str());
      out.backup.clear();
      restore();
      throw InputError(out.target.path, 0, 0,
                       "cannot write output file: " + ErrnoText(error));
    }
    UnregisterSignalCleanup(out.temporary_slot);
    out.temporary.clear();
    out.temporary_slot = -1;
    done.push_back(&out);
  }
  for (PendingOutput* out : done) {
    if (!out->backup.empty()) unlink(out->backup.c_str());
  }
}

}  // namespace

void WriteOutputFile(const std::string& path, const std::string& content) {
  OutputBatch batch;
  batch.Add(path, content);
  batch.Commit();
}

void CreateOutputDirectory(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec || !std::filesystem::is_directory(path, ec)) {
    throw InputError(path, 0, 0, "cannot create output directory");
  }
}

void OutputBatch::Add(std::string path, std::string content) {
  files_.emplace_back(std::move(path), std::move(content));
}

void OutputBatch::AddDirectory(std::string directory) {
  directories_.push_back(std::move(directory));
}

void OutputBatch::ReplaceFolderContents(std::string directory) {
  directories_.push_back(directory);
  set_folders_.push_back(std::move(directory));
}

namespace {

using NamedContent = std::pair<std::string, std::string>;

// Step 1 for `files` and `more_files`: each classified, two on one file
// refused.
std::vector<PendingOutput> ClassifyAll(
    const std::vector<NamedContent>& files,
    const std::vector<NamedContent>& more_files,
    const std::vector<std::string>& directories) {
  for (const std::string& d : directories) CheckOutputFolder(d);
  std::vector<const NamedContent*> all;
  for (const NamedContent& f : files) all.push_back(&f);
  for (const NamedContent& f : more_files) all.push_back(&f);
  std::vector<PendingOutput> outputs;
  std::map<std::string, std::string> seen;  // identity → path
  for (const NamedContent* file : all) {
    const auto& [path, content] = *file;
    PendingOutput out;
    out.target = ClassifyOutputTarget(path, directories);
    out.content = &content;
    if (!out.target.identity.empty()) {
      auto [it, inserted] = seen.emplace(out.target.identity, path);
      if (!inserted) {
        throw InputError(path, 0, 0,
                         "two outputs name this file (also '" + it->second +
                             "'); give each output its own path");
      }
    }
    outputs.push_back(std::move(out));
  }
  return outputs;
}

}  // namespace

void OutputBatch::CheckTargets() const {
  ClassifyAll(files_, {}, directories_);
}

void OutputBatch::Commit() {
  removed_.clear();
  // 1. Check every target before anything is written.
  std::vector<NamedContent> manifests;
  std::vector<std::string> stale;
  for (const std::string& folder : set_folders_) {
    const OutputSetPlan plan = PlanOutputSet(folder, files_);
    manifests.emplace_back(plan.manifest_path, plan.manifest);
    stale.insert(stale.end(), plan.stale.begin(), plan.stale.end());
  }
  std::vector<PendingOutput> outputs =
      ClassifyAll(files_, manifests, directories_);
  // 2-4. Folders, temporaries, in-place outputs, renames.
  std::vector<std::pair<std::string, int>> made_folders;
  try {
    for (const std::string& d : directories_) {
      for (const std::string& level : MissingFolders(d)) {
        const int slot = RegisterSignalCleanup(level, /*folder=*/true);
        if (mkdir(level.c_str(), 0777) != 0) {
          const int error = errno;
          UnregisterSignalCleanup(slot);
          if (error == EEXIST) continue;  // made meanwhile by someone else
          throw InputError(level, 0, 0,
                           "cannot create output folder: " + ErrnoText(error));
        }
        made_folders.emplace_back(level, slot);
      }
    }
    for (PendingOutput& out : outputs) {
      if (out.target.kind == OutputKind::kNewFile ||
          out.target.kind == OutputKind::kRegularFile) {
        WriteTemporary(&out);
      }
    }
    for (const PendingOutput& out : outputs) {
      if (out.target.kind == OutputKind::kInPlace ||
          out.target.kind == OutputKind::kStandardStream) {
        WriteInPlace(out);
      }
    }
    RenameIntoPlace(&outputs);
  } catch (const InputError&) {
    Undo(&outputs, made_folders);
    throw;
  }
  for (const auto& [folder, slot] : made_folders) UnregisterSignalCleanup(slot);
  // 5. What an earlier set held and this one does not.
  for (const std::string& path : stale) {
    if (unlink(path.c_str()) != 0 && errno != ENOENT) {
      throw InputError(path, 0, 0,
                       "wrote the new files, but cannot remove this one of "
                       "the earlier set: " +
                           ErrnoText(errno));
    }
    removed_.push_back(path);
  }
}

}  // namespace gpushare
