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
#include <memory>
#include <random>
#include <system_error>

#include <fmt/format.h>

#include "gpushare/io/input_error.h"
#include "gpushare/io/output_lock.h"
#include "gpushare/io/output_target.h"
#include "gpushare/io/signal_cleanup.h"

namespace gpushare {
namespace {

namespace fs = std::filesystem;

std::string ErrnoText(int error) {
  return std::generic_category().message(error);
}

// Writes all of `data` to `fd`; returns 0 or the errno of the failure.
int WriteAll(int fd, std::string_view data) {
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

// ".NAME.gs-tmp-XXXXXXXX" (or gs-bak-), the name of a file beside `name`,
// NAME cut to keep the whole under NAME_MAX.
std::string SiblingName(const std::string& name, const char* kind) {
  return fmt::format(".{}.gs-{}-{:08x}", name.substr(0, 200), kind,
                     RandomSuffix());
}

// One output of the batch: what it is and how far its writing got. Files are
// made and renamed in `folder_fd`, the target's folder opened with
// O_NOFOLLOW and checked to be the folder classified, so a link swapped in
// for the folder (or one of its parents) after the check is not followed.
struct PendingOutput {
  OutputTarget target;
  const std::string* content = nullptr;
  // Produces the rest of the content, when set (OutputBatch::AddProduced).
  const OutputProducer* producer = nullptr;
  int folder_fd = -1;     // borrowed from FolderHandles
  std::string temporary;  // a regular or new file's name, once created
  int temporary_slot = -1;
  std::string backup;  // a hard link to the replaced file, while renaming
};

// The target folders of a batch, each opened once (O_PATH|O_DIRECTORY|
// O_NOFOLLOW) and checked against what ClassifyOutputTarget() saw.
class FolderHandles {
 public:
  FolderHandles() = default;
  ~FolderHandles() {
    for (const auto& [folder, fd] : fds_) close(fd);
  }
  FolderHandles(const FolderHandles&) = delete;
  FolderHandles& operator=(const FolderHandles&) = delete;

  int Open(const OutputTarget& t) {
    auto it = fds_.find(t.folder);
    if (it == fds_.end()) {
      const int fd =
          open(t.folder.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (fd < 0) {
        const std::string why = ErrnoText(errno);
        // ELOOP: the folder checked is now a link.
        throw InputError(
            t.path, 0, 0,
            t.folder_checked
                ? fmt::format("its folder '{}' was replaced after it was "
                              "checked ({}); nothing was written",
                              t.folder, why)
                : fmt::format("cannot open its folder '{}': {}", t.folder,
                              why));
      }
      it = fds_.emplace(t.folder, fd).first;
    }
    struct stat st;
    if (t.folder_checked &&
        (fstat(it->second, &st) != 0 || st.st_dev != t.folder_dev ||
         st.st_ino != t.folder_ino)) {
      throw InputError(t.path, 0, 0,
                       fmt::format("its folder '{}' was replaced after it was "
                                   "checked; nothing was written",
                                   t.folder));
    }
    return it->second;
  }

 private:
  std::map<std::string, int> fds_;
};

std::string InFolder(const OutputTarget& t, const std::string& name) {
  return t.folder + "/" + name;
}

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

// Writes `out`'s content (then what its producer writes) to `fd`; returns
// 0 or the errno of the first failure.
int WriteContent(int fd, const PendingOutput& out) {
  int error = WriteAll(fd, *out.content);
  if (error != 0 || out.producer == nullptr || !*out.producer) return error;
  (*out.producer)([&](std::string_view piece) {
    if (error == 0) error = WriteAll(fd, piece);
  });
  return error;
}

// Creates the temporary of `out` (registered for removal on a signal) and
// writes its content.
void WriteTemporary(PendingOutput* out) {
  const OutputTarget& t = out->target;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    const std::string name = SiblingName(t.name, "tmp");
    const int slot = RegisterSignalCleanup(InFolder(t, name), /*folder=*/false);
    fd = openat(out->folder_fd, name.c_str(),
                O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
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
  if (error == 0) {
    try {
      error = WriteContent(fd, *out);
    } catch (const InputError&) {
      close(fd);
      throw;
    }
  }
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
    error = WriteContent(t.stream_fd, out);
  } else {
    // Opening a regular file without O_TRUNC changes nothing; whatever was
    // opened (a link swapped in since included) is written only when it is
    // the device or FIFO checked.
    const int fd = open(t.file.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
      throw InputError(t.path, 0, 0,
                       "cannot open output: " + ErrnoText(errno));
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) ||
        st.st_dev != t.dev || st.st_ino != t.ino) {
      close(fd);
      throw InputError(t.path, 0, 0,
                       "was replaced after it was checked; nothing was "
                       "written to it");
    }
    try {
      error = WriteContent(fd, out);
    } catch (const InputError&) {
      close(fd);
      throw;
    }
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
    if (!out.temporary.empty()) {
      unlinkat(out.folder_fd, out.temporary.c_str(), 0);
    }
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
      const char* name = out->target.name.c_str();
      if (!out->backup.empty()) {
        renameat(out->folder_fd, out->backup.c_str(), out->folder_fd, name);
      } else if (out->target.kind == OutputKind::kNewFile) {
        unlinkat(out->folder_fd, name, 0);
      }
    }
  };
  for (PendingOutput& out : *outputs) {
    if (out.temporary.empty()) continue;
    if (out.target.kind == OutputKind::kRegularFile) {
      for (int attempt = 0; attempt < 100; ++attempt) {
        const std::string name = SiblingName(out.target.name, "bak");
        // No AT_SYMLINK_FOLLOW: links whatever the name holds now.
        if (linkat(out.folder_fd, out.target.name.c_str(), out.folder_fd,
                   name.c_str(), 0) == 0) {
          out.backup = name;
          break;
        }
        if (errno != EEXIST) break;  // no way back for this one
      }
    }
    // renameat() replaces a name and never follows a link it holds.
    if (renameat(out.folder_fd, out.temporary.c_str(), out.folder_fd,
                 out.target.name.c_str()) != 0) {
      const int error = errno;
      if (!out.backup.empty()) unlinkat(out.folder_fd, out.backup.c_str(), 0);
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
    if (!out->backup.empty()) {
      unlinkat(out->folder_fd, out->backup.c_str(), 0);
    }
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
  producers_.emplace_back();
}

void OutputBatch::AddProduced(std::string path, OutputProducer produce) {
  files_.emplace_back(std::move(path), std::string());
  producers_.push_back(std::move(produce));
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

namespace {

// Step 1 of a commit: every target classified, the set folders' manifests
// and the earlier sets' files to remove.
struct CommitPlan {
  std::vector<NamedContent> manifests;  // outputs point at these
  std::vector<std::string> stale;       // names in the set folder of...
  std::vector<size_t> stale_folder;     // ...set_folders[i]
  std::vector<PendingOutput> outputs;
};

std::unique_ptr<CommitPlan> PlanCommit(
    const std::vector<NamedContent>& files,
    const std::vector<std::string>& directories,
    const std::vector<std::string>& set_folders) {
  auto plan = std::make_unique<CommitPlan>();
  for (size_t i = 0; i < set_folders.size(); ++i) {
    const OutputSetPlan set = PlanOutputSet(set_folders[i], files);
    plan->manifests.emplace_back(set.manifest_path, set.manifest);
    for (const std::string& path : set.stale) {
      plan->stale.push_back(fs::path(path).filename().string());
      plan->stale_folder.push_back(i);
    }
  }
  plan->outputs = ClassifyAll(files, plan->manifests, directories);
  return plan;
}

// Makes the missing levels of `directories`, each recorded (with its
// signal-cleanup slot) in `made`.
void MakeFolders(const std::vector<std::string>& directories,
                 std::vector<std::pair<std::string, int>>* made) {
  for (const std::string& d : directories) {
    for (const std::string& level : MissingFolders(d)) {
      const int slot = RegisterSignalCleanup(level, /*folder=*/true);
      if (mkdir(level.c_str(), 0777) != 0) {
        const int error = errno;
        UnregisterSignalCleanup(slot);
        if (error == EEXIST) continue;  // made meanwhile by someone else
        throw InputError(level, 0, 0,
                         "cannot create output folder: " + ErrnoText(error));
      }
      made->emplace_back(level, slot);
    }
  }
}

// Locks every set folder. A folder this batch made that another writer
// locked first is left to it (not removed on failure), with its parents.
std::vector<std::unique_ptr<OutputFolderLock>> LockSetFolders(
    const std::vector<std::string>& set_folders,
    std::vector<std::pair<std::string, int>>* made) {
  std::vector<std::unique_ptr<OutputFolderLock>> locks;
  for (const std::string& folder : set_folders) {
    try {
      locks.push_back(std::make_unique<OutputFolderLock>(folder));
    } catch (const InputError&) {
      const fs::path held = fs::path(folder).lexically_normal();
      std::erase_if(*made, [&held](const std::pair<std::string, int>& m) {
        const std::string level = fs::path(m.first).lexically_normal().string();
        const std::string h = held.string();
        const bool above_or_same =
            h == level || (h.starts_with(level) && h[level.size()] == '/');
        if (above_or_same) UnregisterSignalCleanup(m.second);
        return above_or_same;
      });
      throw;
    }
  }
  return locks;
}

}  // namespace

void OutputBatch::Commit() {
  removed_.clear();
  // 1. Check every target before anything is written.
  std::unique_ptr<CommitPlan> plan =
      PlanCommit(files_, directories_, set_folders_);
  // 2-4. Folders, locks, temporaries, in-place outputs, renames.
  std::vector<std::pair<std::string, int>> made_folders;
  std::vector<std::unique_ptr<OutputFolderLock>> locks;
  FolderHandles folders;
  try {
    MakeFolders(directories_, &made_folders);
    if (!set_folders_.empty()) {
      locks = LockSetFolders(set_folders_, &made_folders);
      // Checked again, now that no other gpushare-sim writes the folders.
      plan = PlanCommit(files_, directories_, set_folders_);
    }
    for (size_t i = 0; i < files_.size(); ++i) {
      plan->outputs[i].producer = &producers_[i];
    }
    if (before_write_for_testing_) before_write_for_testing_();
    for (PendingOutput& out : plan->outputs) {
      if (out.target.kind == OutputKind::kNewFile ||
          out.target.kind == OutputKind::kRegularFile) {
        out.folder_fd = folders.Open(out.target);
        WriteTemporary(&out);
      }
    }
    for (const PendingOutput& out : plan->outputs) {
      if (out.target.kind == OutputKind::kInPlace ||
          out.target.kind == OutputKind::kStandardStream) {
        WriteInPlace(out);
      }
    }
    RenameIntoPlace(&plan->outputs);
  } catch (const InputError&) {
    Undo(&plan->outputs, made_folders);
    throw;
  }
  for (const auto& [folder, slot] : made_folders) UnregisterSignalCleanup(slot);
  // 5. What an earlier set held and this one does not, removed in the
  // locked folder.
  for (size_t i = 0; i < plan->stale.size(); ++i) {
    const std::string& name = plan->stale[i];
    const std::string path =
        (fs::path(set_folders_[plan->stale_folder[i]]) / name).string();
    if (unlinkat(locks[plan->stale_folder[i]]->fd(), name.c_str(), 0) != 0 &&
        errno != ENOENT) {
      throw InputError(path, 0, 0,
                       "wrote the new files, but cannot remove this one of "
                       "the earlier set: " +
                           ErrnoText(errno));
    }
    removed_.push_back(path);
  }
}

}  // namespace gpushare
