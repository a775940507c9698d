#include "gpushare/io/output_path.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

namespace fs = std::filesystem;

class OutputPathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/gs-output-path-test-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = fs::canonical(pattern).string();
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

  std::string dir_;
};

TEST_F(OutputPathTest, ResolvesLinksDotsAndAMissingTail) {
  fs::create_directories(Path("a/b"));
  fs::create_symlink("a/b", Path("ab"));
  fs::create_symlink("../x.json", Path("a/b/up"));
  EXPECT_EQ(ResolveOutputPath(Path("ab/up")), Path("a/x.json"));
  EXPECT_EQ(ResolveOutputPath(Path("ab/../b/./new/c.json")),
            Path("a/b/new/c.json"));
  EXPECT_EQ(ResolveOutputPath(Path("a//b/")), Path("a/b"));
  fs::create_symlink("loop", Path("loop"));
  try {
    ResolveOutputPath(Path("loop"));
    FAIL() << "a link to itself resolved";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("more than 40 links"),
              std::string::npos);
  }
}

TEST_F(OutputPathTest, TheKernelsRuleForLinksInStickyFolders) {
  struct stat folder {};
  struct stat link {};
  folder.st_mode = S_IFDIR | 01777;
  folder.st_uid = 0;
  link.st_uid = 65534;
  // Another user's link in a sticky world-writable folder of root's.
  EXPECT_FALSE(KernelWouldFollowLink(link, folder, /*uid=*/0));
  // The follower's own link, the folder owner's link.
  EXPECT_TRUE(KernelWouldFollowLink(link, folder, /*uid=*/65534));
  folder.st_uid = 65534;
  EXPECT_TRUE(KernelWouldFollowLink(link, folder, /*uid=*/0));
  // Not sticky, or not world-writable: followed.
  folder.st_uid = 0;
  folder.st_mode = S_IFDIR | 0777;
  EXPECT_TRUE(KernelWouldFollowLink(link, folder, 0));
  folder.st_mode = S_IFDIR | 01775;
  EXPECT_TRUE(KernelWouldFollowLink(link, folder, 0));
}

TEST_F(OutputPathTest, RefusesALinkAnotherUserPlantedInAStickyFolder) {
  if (geteuid() != 0) GTEST_SKIP() << "planting another user's link needs root";
  fs::create_directory(Path("sticky"));
  ASSERT_EQ(chmod(Path("sticky").c_str(), 01777), 0);
  ASSERT_EQ(chmod(dir_.c_str(), 0755), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const bool ok = setgid(65534) == 0 && setuid(65534) == 0 &&
                    symlink("/etc/shadow", Path("sticky/r.json").c_str()) == 0;
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  try {
    ResolveOutputPath(Path("sticky/r.json"));
    FAIL() << "followed a planted link";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "is a link owned by user 65534 in the sticky world-writable "
                  "folder '" + Path("sticky") + "' (owned by user 0)"),
              std::string::npos)
        << e.what();
  }
  // Root's own link there is followed.
  fs::create_symlink(Path("mine"), Path("sticky/mine.json"));
  EXPECT_EQ(ResolveOutputPath(Path("sticky/mine.json")), Path("mine"));
}

}  // namespace
}  // namespace gpushare
