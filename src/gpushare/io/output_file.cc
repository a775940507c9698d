#include "gpushare/io/output_file.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "gpushare/io/input_error.h"

namespace gpushare {

void WriteOutputFile(const std::string& path, const std::string& content) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(path, 0, 0, "cannot create output file");
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) {
      std::remove(temporary.c_str());
      throw InputError(path, 0, 0, "cannot write output file");
    }
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::remove(temporary.c_str());
    throw InputError(path, 0, 0, "cannot write output file: " + ec.message());
  }
}

void CreateOutputDirectory(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec || !std::filesystem::is_directory(path, ec)) {
    throw InputError(path, 0, 0, "cannot create output directory");
  }
}

}  // namespace gpushare
