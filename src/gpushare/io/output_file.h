// Writing output files all or nothing, safely when run as root.
//
// Contract: an OutputBatch holds every output of one command (files, the
// folders to make for them, and the folders written as a whole set) and
// Commit() writes them together:
//
//  1. Every target is checked before anything is written. A path may name a
//     new file in an existing folder (or one the batch makes), a regular file
//     (or a link to one: the file it points to is replaced and the link
//     kept), a character device or FIFO (written in place: /dev/null, a
//     terminal, a pipe), or standard output or error (/dev/stdout,
//     /dev/stderr, /dev/fd/1, /dev/fd/2, /proc/self/fd/1, /proc/self/fd/2, or
//     the regular file that standard output is redirected to). A folder, a
//     socket, a block device, a dangling link, an empty path, a file in a
//     missing folder, two outputs that name the same file, and a path
//     through a link the kernel's fs.protected_symlinks would not follow (a
//     link in a sticky world-writable folder owned by neither the user nor
//     the folder's owner: output_path.h) are refused with an InputError
//     naming the path, before anything is written.
//  2. Regular files are written to fresh temporary files in the target's own
//     folder (".NAME.gs-tmp-XXXXXXXX", created with O_EXCL and O_NOFOLLOW,
//     mode 0666 less the umask, or the mode of the file it replaces). The
//     folder is opened once with O_NOFOLLOW|O_DIRECTORY and must still be
//     the folder checked in step 1; the temporary is made with openat() and
//     renamed with renameat() in it, so a link swapped in after the check
//     (for the file, its folder or a folder above) is never followed.
//  3. Devices, FIFOs and standard streams are written (write errors, such as
//     ENOSPC on /dev/full, are errors). A device or FIFO is written only
//     when what was opened is the one checked (same device and inode).
//  4. The temporaries are renamed over their targets, with SIGINT, SIGTERM
//     and SIGHUP held off; if one rename fails, those already done are undone
//     (each replaced file restored from a hard link kept until the end).
//
// On any failure everything the batch made (temporaries, new folders) is
// removed and an InputError is thrown: no target is left changed, except a
// device or stream already written. A signal while writing removes them too
// (signal_cleanup.h).
//
// A folder written as a set (ReplaceFolderContents(): `emit k8s --out`,
// `plan --out`) must then hold exactly the set: the names it holds from an
// earlier set (listed in its ".gpushare-sim-files") that the new set lacks
// are removed after the commit and reported by removed(); anything else in it
// that the new set does not write is refused before anything is written (it
// would be applied with `kubectl apply -f DIR`, and it is not ours to
// delete), and so is any link in it. Commit() locks each such folder
// (output_lock.h) from before it is checked again until the earlier set's
// files are removed: a second gpushare-sim writing it at the same time fails
// at once with "is being written by another gpushare-sim (pid N)".

#ifndef GPUSHARE_IO_OUTPUT_FILE_H_
#define GPUSHARE_IO_OUTPUT_FILE_H_

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpushare {

// One file written as a batch of one.
void WriteOutputFile(const std::string& path, const std::string& content);
// Makes a folder (and its parents), or says why not.
void CreateOutputDirectory(const std::string& path);

// Writes one piece of an output being produced.
using OutputWriter = std::function<void(std::string_view piece)>;
// Produces a file's content piece by piece while it is written.
using OutputProducer = std::function<void(const OutputWriter& write)>;

class OutputBatch {
 public:
  // A file to write.
  void Add(std::string path, std::string content);
  // A file too large to hold in memory: `produce` is called once, by
  // Commit(), and writes it piece by piece to the temporary (or the device
  // or stream), with every guarantee above. It may throw an InputError;
  // the batch then fails as for a write error.
  void AddProduced(std::string path, OutputProducer produce);
  // A folder to make (with its parents) when missing.
  void AddDirectory(std::string directory);
  // `directory` (also made when missing) holds exactly the files added
  // directly under it, and the set's manifest.
  void ReplaceFolderContents(std::string directory);
  // Step 1 alone, for the targets added so far (what a set folder holds is
  // checked by Commit()): lets a command refuse a bad path before it runs
  // for minutes.
  void CheckTargets() const;
  void Commit();

  // After Commit(): the files of an earlier set that were removed.
  const std::vector<std::string>& removed() const { return removed_; }

  // Called by Commit() between the last check and the first write (tests
  // change the file system there).
  void set_before_write_for_testing(std::function<void()> hook) {
    before_write_for_testing_ = std::move(hook);
  }

 private:
  std::function<void()> before_write_for_testing_;
  std::vector<std::string> directories_;
  std::vector<std::string> set_folders_;
  std::vector<std::pair<std::string, std::string>> files_;
  std::vector<OutputProducer> producers_;  // per file; empty: its content
  std::vector<std::string> removed_;
};

}  // namespace gpushare

#endif  // GPUSHARE_IO_OUTPUT_FILE_H_
