// What an output path names, checked before anything is written.
//
// Contract: ClassifyOutputTarget() says how a path is written (output_file.h
// step 1) or throws InputError naming it: a folder, a socket, a block
// device, a dangling link, an empty path, a file whose folder neither
// exists nor is made by the batch (`made_folders`), and a path through a link
// that the kernel's fs.protected_symlinks would not follow (output_path.h)
// are refused. It records what the writer checks again when it writes: the
// resolved folder's device and inode, and a device's or FIFO's.
// CheckOutputFolder() refuses a folder path that exists as something else,
// lies under a non-folder or passes through a refused link. PlanOutputSet()
// says what a folder written as a set holds afterwards: the manifest to
// write, the earlier set's files to remove; it refuses a folder holding
// anything else, and any link in it (a set holds only the files gpushare-sim
// wrote; a link there would make a later set write outside the folder).
// None of them changes the file system.

#ifndef GPUSHARE_IO_OUTPUT_TARGET_H_
#define GPUSHARE_IO_OUTPUT_TARGET_H_

#include <sys/types.h>

#include <string>
#include <utility>
#include <vector>

namespace gpushare {

// The list of the files a folder written as a set holds.
inline constexpr char kOutputSetManifest[] = ".gpushare-sim-files";

enum class OutputKind {
  kNewFile,         // created by renaming a temporary into place
  kRegularFile,     // replaced by renaming a temporary over it
  kInPlace,         // a character device or FIFO, opened and written
  kStandardStream,  // this process's standard output or error
};

struct OutputTarget {
  std::string path;  // as given
  std::string file;  // what is written or renamed over (links resolved)
  std::string folder;  // file's folder, resolved; name its last component
  std::string name;
  // The folder as checked (when it existed then): the writer refuses a
  // folder that is no longer this one.
  bool folder_checked = false;
  dev_t folder_dev = 0;
  ino_t folder_ino = 0;
  // kInPlace: the device or FIFO as checked.
  dev_t dev = 0;
  ino_t ino = 0;
  OutputKind kind = OutputKind::kNewFile;
  mode_t mode = 0;     // kRegularFile: the permissions it keeps
  int stream_fd = -1;  // kStandardStream: 1 or 2
  // Names the file for the "two outputs on one path" check; empty for
  // devices, FIFOs and streams (writing /dev/null twice is fine).
  std::string identity;
};

OutputTarget ClassifyOutputTarget(const std::string& path,
                                  const std::vector<std::string>& made_folders);

void CheckOutputFolder(const std::string& folder);

struct OutputSetPlan {
  std::string manifest_path;
  std::string manifest;            // its new content
  std::vector<std::string> stale;  // paths of the earlier set to remove
};

// `files` are all the batch's files; those directly under `folder` form the
// set.
OutputSetPlan PlanOutputSet(
    const std::string& folder,
    const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace gpushare

#endif  // GPUSHARE_IO_OUTPUT_TARGET_H_
