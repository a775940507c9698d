// Writing output files with no partial output.
//
// Contract: WriteOutputFile() writes `content` to a temporary file beside
// `path` and renames it over `path`, so a reader never sees half a file and
// a failure leaves no file behind; errors are InputErrors naming the path.
// CreateOutputDirectory() makes a directory (and parents) or says why not.

#ifndef GPUSHARE_IO_OUTPUT_FILE_H_
#define GPUSHARE_IO_OUTPUT_FILE_H_

#include <string>
#include <utility>
#include <vector>

namespace gpushare {

void WriteOutputFile(const std::string& path, const std::string& content);
void CreateOutputDirectory(const std::string& path);

// Several output files written all or none: Commit() writes every file to a
// temporary beside it, and only when all of them are written renames them
// into place; on any failure it removes the temporaries (and directories it
// created) and throws InputError.
class OutputBatch {
 public:
  // A file to write; `directory_to_create` (optional) is made first.
  void Add(std::string path, std::string content);
  void AddDirectory(std::string directory);
  void Commit();

 private:
  std::vector<std::string> directories_;
  std::vector<std::pair<std::string, std::string>> files_;
};

}  // namespace gpushare

#endif  // GPUSHARE_IO_OUTPUT_FILE_H_
