#include "gpushare/io/output_lock.h"

#include <unistd.h>

#include <filesystem>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "gpushare/io/input_error.h"
#include "gpushare/io/output_file.h"

namespace gpushare {
namespace {

namespace fs = std::filesystem;

class OutputLockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/gs-output-lock-test-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

  template <typename F>
  static std::string ErrorOf(F f) {
    try {
      f();
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }

  std::string dir_;
};

TEST_F(OutputLockTest, ASecondLockFailsAtOnceNamingTheHolder) {
  const std::string held = fmt::format(
      "{}: is being written by another gpushare-sim (pid {})", dir_, getpid());
  {
    const OutputFolderLock first(dir_);
    EXPECT_EQ(FlockHolder(first.fd()), getpid());
    EXPECT_NE(ErrorOf([&] { OutputFolderLock second(dir_); }).find(held),
              std::string::npos);
  }
  // Released with the first.
  EXPECT_EQ(ErrorOf([&] { OutputFolderLock again(dir_); }), "");
}

TEST_F(OutputLockTest, ASetFolderBeingWrittenIsRefusedAndLeftAlone) {
  fs::create_directory(Path("out"));
  const OutputFolderLock other(Path("out"));
  OutputBatch batch;
  batch.ReplaceFolderContents(Path("out"));
  batch.Add(Path("out/a.yaml"), "a");
  EXPECT_NE(ErrorOf([&] { batch.Commit(); })
                .find("is being written by another gpushare-sim"),
            std::string::npos);
  EXPECT_TRUE(fs::is_empty(Path("out")));
}

TEST_F(OutputLockTest, AFolderNamedThroughALinkLocksItsTarget) {
  fs::create_directory(Path("real"));
  fs::create_directory_symlink(Path("real"), Path("link"));
  const OutputFolderLock lock(Path("link"));
  EXPECT_EQ(lock.resolved(), fs::canonical(Path("real")).string());
  EXPECT_NE(ErrorOf([&] { OutputFolderLock second(Path("real")); })
                .find("is being written by another gpushare-sim"),
            std::string::npos);
}

}  // namespace
}  // namespace gpushare
