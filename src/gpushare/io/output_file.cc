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

void OutputBatch::Add(std::string path, std::string content) {
  files_.emplace_back(std::move(path), std::move(content));
}

void OutputBatch::AddDirectory(std::string directory) {
  directories_.push_back(std::move(directory));
}

void OutputBatch::Commit() {
  std::vector<std::string> created;
  std::vector<std::string> temporaries;
  auto undo = [&] {
    for (const std::string& t : temporaries) std::remove(t.c_str());
    for (auto it = created.rbegin(); it != created.rend(); ++it) {
      std::error_code ec;
      std::filesystem::remove(*it, ec);  // only removes it if empty
    }
  };
  try {
    for (const std::string& d : directories_) {
      // Remember every missing level, deepest first, to undo it.
      std::vector<std::string> missing;
      std::error_code ec;
      for (std::filesystem::path p = d;
           !p.empty() && !std::filesystem::exists(p, ec);
           p = p.parent_path()) {
        missing.push_back(p.string());
        if (p == p.parent_path()) break;
      }
      created.insert(created.end(), missing.rbegin(), missing.rend());
      CreateOutputDirectory(d);
    }
    for (const auto& [path, content] : files_) {
      const std::string temporary = path + ".tmp";
      temporaries.push_back(temporary);
      std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
      if (!out) throw InputError(path, 0, 0, "cannot create output file");
      out.write(content.data(), static_cast<std::streamsize>(content.size()));
      out.flush();
      if (!out) throw InputError(path, 0, 0, "cannot write output file");
    }
  } catch (const InputError&) {
    undo();
    throw;
  }
  for (const auto& [path, content] : files_) {
    std::error_code ec;
    std::filesystem::rename(path + ".tmp", path, ec);
    if (ec) {
      undo();
      throw InputError(path, 0, 0, "cannot write output file: " + ec.message());
    }
  }
}

}  // namespace gpushare
