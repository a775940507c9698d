// Writing output files with no partial output.
//
// Contract: WriteOutputFile() writes `content` to a temporary file beside
// `path` and renames it over `path`, so a reader never sees half a file and
// a failure leaves no file behind; errors are InputErrors naming the path.
// CreateOutputDirectory() makes a directory (and parents) or says why not.

#ifndef GPUSHARE_IO_OUTPUT_FILE_H_
#define GPUSHARE_IO_OUTPUT_FILE_H_

#include <string>

namespace gpushare {

void WriteOutputFile(const std::string& path, const std::string& content);
void CreateOutputDirectory(const std::string& path);

}  // namespace gpushare

#endif  // GPUSHARE_IO_OUTPUT_FILE_H_
