#include "gpushare/io/output_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "gpushare/io/input_error.h"
#include "gpushare/io/output_target.h"

namespace gpushare {
namespace {

namespace fs = std::filesystem;

class OutputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/gs-output-test-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

  static std::string Read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static void Write(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
  }
  // Every entry of the test folder, recursively, as relative paths.
  std::vector<std::string> Entries() const {
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir_)) {
      out.push_back(fs::relative(e.path(), dir_).string());
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  // The message of the InputError `f` throws, or "" when it throws none.
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

TEST_F(OutputFileTest, WritesANewFileAndLeavesNoTemporary) {
  WriteOutputFile(Path("r.json"), "{}\n");
  EXPECT_EQ(Read(Path("r.json")), "{}\n");
  EXPECT_EQ(Entries(), std::vector<std::string>{"r.json"});
}

TEST_F(OutputFileTest, ReplacesARegularFileKeepingItsMode) {
  Write(Path("r.json"), "old");
  ASSERT_EQ(chmod(Path("r.json").c_str(), 0640), 0);
  WriteOutputFile(Path("r.json"), "new");
  EXPECT_EQ(Read(Path("r.json")), "new");
  struct stat st;
  ASSERT_EQ(stat(Path("r.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_EQ(Entries(), std::vector<std::string>{"r.json"});
}

TEST_F(OutputFileTest, ALinkToAFileKeepsTheLinkAndReplacesTheFile) {
  Write(Path("real.json"), "old");
  fs::create_symlink("real.json", Path("link.json"));
  WriteOutputFile(Path("link.json"), "new");
  EXPECT_TRUE(fs::is_symlink(Path("link.json")));
  EXPECT_EQ(Read(Path("real.json")), "new");
}

TEST_F(OutputFileTest, APlantedTemporaryLinkIsNeverFollowed) {
  Write(Path("victim"), "precious");
  fs::create_symlink(Path("victim"), Path("r.json.tmp"));
  WriteOutputFile(Path("r.json"), "out");
  EXPECT_EQ(Read(Path("victim")), "precious");
  EXPECT_EQ(Read(Path("r.json")), "out");
  EXPECT_TRUE(fs::is_symlink(Path("r.json.tmp")));
}

TEST_F(OutputFileTest, RefusesWhatIsNotAFile) {
  fs::create_directory(Path("folder"));
  EXPECT_NE(ErrorOf([&] { WriteOutputFile(Path("folder"), "x"); })
                .find("is a folder; expected a file path"),
            std::string::npos);
  fs::create_symlink(Path("missing"), Path("dangling"));
  EXPECT_NE(ErrorOf([&] { WriteOutputFile(Path("dangling"), "x"); })
                .find("is a link to a missing file"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] { WriteOutputFile(Path("no/such/r.json"), "x"); })
                .find("does not exist"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] { WriteOutputFile("", "x"); })
                .find("an output path is empty"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] { WriteOutputFile(Path("folder") + "/", "x"); })
                .find("names a folder"),
            std::string::npos);
  // A socket.
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, Path("socket").c_str(),
               sizeof address.sun_path - 1);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  EXPECT_NE(ErrorOf([&] { WriteOutputFile(Path("socket"), "x"); })
                .find("is a socket or block device"),
            std::string::npos);
  close(fd);
  EXPECT_TRUE(fs::is_socket(Path("socket")));
  EXPECT_TRUE(fs::is_directory(Path("folder")));
}

TEST_F(OutputFileTest, CharacterDevicesAreWrittenInPlace) {
  WriteOutputFile("/dev/null", "nothing");
  struct stat st;
  ASSERT_EQ(stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST_F(OutputFileTest, AFullDeviceFailsTheWholeBatch) {
  if (access("/dev/full", W_OK) != 0) GTEST_SKIP() << "no /dev/full";
  OutputBatch batch;
  batch.Add(Path("r.json"), "{}");
  batch.AddDirectory(Path("csv"));
  batch.Add(Path("csv/pods.csv"), "a,b\n");
  batch.Add("/dev/full", "report");
  EXPECT_NE(ErrorOf([&] { batch.Commit(); }).find("No space left on device"),
            std::string::npos);
  EXPECT_EQ(Entries(), std::vector<std::string>{});
}

TEST_F(OutputFileTest, AFifoIsWrittenInPlace) {
  ASSERT_EQ(mkfifo(Path("fifo").c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = Read(Path("fifo")); });
  WriteOutputFile(Path("fifo"), "through the pipe");
  reader.join();
  EXPECT_EQ(received, "through the pipe");
  struct stat st;
  ASSERT_EQ(stat(Path("fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST_F(OutputFileTest, TwoOutputsOnOnePathAreRefusedBeforeWriting) {
  OutputBatch batch;
  batch.Add(Path("x.json"), "json");
  batch.Add(dir_ + "/sub/../x.json", "html");
  batch.AddDirectory(Path("sub"));
  EXPECT_NE(ErrorOf([&] { batch.Commit(); }).find("two outputs name this file"),
            std::string::npos);
  EXPECT_EQ(Entries(), std::vector<std::string>{});
  // An existing file named through a link counts as the same file.
  Write(Path("y.json"), "old");
  fs::create_symlink("y.json", Path("y-link.json"));
  OutputBatch linked;
  linked.Add(Path("y.json"), "a");
  linked.Add(Path("y-link.json"), "b");
  EXPECT_NE(ErrorOf([&] { linked.Commit(); }).find("two outputs"),
            std::string::npos);
  EXPECT_EQ(Read(Path("y.json")), "old");
}

TEST_F(OutputFileTest, OneBadTargetLeavesEveryOtherUntouched) {
  Write(Path("r.json"), "earlier run");
  fs::create_directories(Path("csv/pods.csv"));
  OutputBatch batch;
  batch.Add(Path("r.json"), "this run");
  batch.AddDirectory(Path("csv"));
  batch.Add(Path("csv/pods.csv"), "pods");
  batch.Add(Path("csv/pools.csv"), "pools");
  EXPECT_NE(ErrorOf([&] { batch.Commit(); }).find("pods.csv: is a folder"),
            std::string::npos);
  EXPECT_EQ(Read(Path("r.json")), "earlier run");
  EXPECT_EQ(Entries(),
            (std::vector<std::string>{"csv", "csv/pods.csv", "r.json"}));
}

TEST_F(OutputFileTest, FoldersMadeForAFailedBatchAreRemoved) {
  OutputBatch batch;
  batch.AddDirectory(Path("a/b/c"));
  batch.Add(Path("a/b/c/x.csv"), "x");
  if (access("/dev/full", W_OK) != 0) GTEST_SKIP() << "no /dev/full";
  batch.Add("/dev/full", "y");
  EXPECT_FALSE(ErrorOf([&] { batch.Commit(); }).empty());
  EXPECT_EQ(Entries(), std::vector<std::string>{});
}

TEST_F(OutputFileTest, AFolderWrittenAsASetLosesTheEarlierSetsExtraFiles) {
  OutputBatch first;
  first.ReplaceFolderContents(Path("out"));
  first.Add(Path("out/a.yaml"), "a1");
  first.Add(Path("out/b.yaml"), "b1");
  first.Commit();
  EXPECT_TRUE(first.removed().empty());
  OutputBatch second;
  second.ReplaceFolderContents(Path("out"));
  second.Add(Path("out/a.yaml"), "a2");
  second.Add(Path("out/c.yaml"), "c2");
  second.Commit();
  EXPECT_EQ(second.removed(), std::vector<std::string>{Path("out/b.yaml")});
  EXPECT_EQ(Entries(),
            (std::vector<std::string>{"out", "out/" + std::string(kOutputSetManifest),
                                      "out/a.yaml", "out/c.yaml"}));
  EXPECT_EQ(Read(Path("out/a.yaml")), "a2");
  EXPECT_NE(Read(Path("out/") + kOutputSetManifest).find("a.yaml\nc.yaml\n"),
            std::string::npos);
}

TEST_F(OutputFileTest, AFolderWithFilesNotOursIsRefused) {
  fs::create_directory(Path("out"));
  Write(Path("out/mine.yaml"), "the user's");
  Write(Path("out/a.yaml"), "earlier, no manifest");
  OutputBatch batch;
  batch.ReplaceFolderContents(Path("out"));
  batch.Add(Path("out/a.yaml"), "a");
  const std::string error = ErrorOf([&] { batch.Commit(); });
  EXPECT_NE(error.find("holds a file that gpushare-sim did not write there "
                       "(mine.yaml)"),
            std::string::npos)
      << error;
  EXPECT_EQ(Read(Path("out/a.yaml")), "earlier, no manifest");
  EXPECT_EQ(Read(Path("out/mine.yaml")), "the user's");
}

TEST_F(OutputFileTest, AManifestNeverReachesOutsideItsFolder) {
  fs::create_directory(Path("out"));
  Write(Path("victim"), "precious");
  Write(Path("out/") + kOutputSetManifest, "../victim\n/etc/passwd\n");
  OutputBatch batch;
  batch.ReplaceFolderContents(Path("out"));
  batch.Add(Path("out/a.yaml"), "a");
  batch.Commit();
  EXPECT_TRUE(batch.removed().empty());
  EXPECT_EQ(Read(Path("victim")), "precious");
}

TEST_F(OutputFileTest, ASignalWhileWritingRemovesWhatTheBatchMade) {
  ASSERT_EQ(mkfifo(Path("fifo").c_str(), 0600), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The temporaries are written first; opening the FIFO, which has no
    // reader, then blocks until the signal.
    OutputBatch batch;
    batch.AddDirectory(Path("csv"));
    batch.Add(Path("csv/pods.csv"), std::string(1 << 20, 'x'));
    batch.Add(Path("fifo"), "never read");
    try {
      batch.Commit();
    } catch (...) {
    }
    _exit(0);
  }
  // Wait until the child's temporary exists.
  bool started = false;
  for (int i = 0; i < 500 && !started; ++i) {
    std::error_code ec;
    if (fs::is_directory(Path("csv"), ec)) {
      for (const auto& e : fs::directory_iterator(Path("csv"), ec)) {
        started = started || e.path().filename().string().find(".gs-tmp-") !=
                                 std::string::npos;
      }
    }
    if (!started) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(started);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_EQ(kill(child, SIGTERM), 0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_EQ(Entries(), std::vector<std::string>{"fifo"});
}

// A link swapped in between the check and the write (the hook runs there)
// is never followed: the folder is opened with O_NOFOLLOW and must be the one
// checked, files are made and renamed with openat() and renameat() in it.
TEST_F(OutputFileTest, AFolderSwappedForALinkAfterTheCheckIsRefused) {
  fs::create_directory(Path("out"));
  fs::create_directory(Path("victim"));
  Write(Path("victim/r.json"), "precious");
  OutputBatch batch;
  batch.Add(Path("out/r.json"), "new");
  batch.set_before_write_for_testing([&] {
    fs::rename(Path("out"), Path("out-checked"));
    fs::create_directory_symlink(Path("victim"), Path("out"));
  });
  EXPECT_NE(ErrorOf([&] { batch.Commit(); }).find("was replaced after it was "
                                                   "checked"),
            std::string::npos);
  EXPECT_EQ(Read(Path("victim/r.json")), "precious");
  EXPECT_EQ(fs::directory_iterator(Path("victim"))->path().filename(),
            "r.json");
  EXPECT_TRUE(fs::is_empty(Path("out-checked")));
}

TEST_F(OutputFileTest, AFileSwappedForALinkAfterTheCheckIsReplacedNotFollowed) {
  Write(Path("r.json"), "old");
  Write(Path("victim"), "precious");
  OutputBatch batch;
  batch.Add(Path("r.json"), "new");
  batch.set_before_write_for_testing([&] {
    fs::remove(Path("r.json"));
    fs::create_symlink(Path("victim"), Path("r.json"));
  });
  batch.Commit();
  EXPECT_EQ(Read(Path("victim")), "precious");
  EXPECT_FALSE(fs::is_symlink(Path("r.json")));
  EXPECT_EQ(Read(Path("r.json")), "new");
}

TEST_F(OutputFileTest, AFifoSwappedForALinkAfterTheCheckIsNotWritten) {
  ASSERT_EQ(mkfifo(Path("fifo").c_str(), 0600), 0);
  Write(Path("victim"), "precious");
  OutputBatch batch;
  batch.Add(Path("fifo"), "new");
  batch.set_before_write_for_testing([&] {
    fs::remove(Path("fifo"));
    fs::create_symlink(Path("victim"), Path("fifo"));
  });
  EXPECT_NE(ErrorOf([&] { batch.Commit(); })
                .find("was replaced after it was checked; nothing was written"),
            std::string::npos);
  EXPECT_EQ(Read(Path("victim")), "precious");
}

TEST_F(OutputFileTest, ASetFolderHoldingALinkIsRefused) {
  fs::create_directory(Path("out"));
  Write(Path("victim"), "precious");
  fs::create_symlink(Path("victim"), Path("out/a.yaml"));
  OutputBatch batch;
  batch.ReplaceFolderContents(Path("out"));
  batch.Add(Path("out/a.yaml"), "a");
  EXPECT_NE(ErrorOf([&] { batch.Commit(); })
                .find("holds a link (a.yaml); a folder written as a set "
                      "holds only the files gpushare-sim wrote"),
            std::string::npos);
  EXPECT_EQ(Read(Path("victim")), "precious");
}

TEST_F(OutputFileTest, ClassifiesStandardStreamsByName) {
  EXPECT_EQ(ClassifyOutputTarget("/dev/stdout", {}).kind,
            OutputKind::kStandardStream);
  EXPECT_EQ(ClassifyOutputTarget("/dev/fd/1", {}).stream_fd, 1);
  EXPECT_EQ(ClassifyOutputTarget("/proc/self/fd/2", {}).stream_fd, 2);
  EXPECT_EQ(ClassifyOutputTarget(Path("new.json"), {}).kind,
            OutputKind::kNewFile);
  EXPECT_EQ(ClassifyOutputTarget(Path("made/new.json"), {Path("made")}).kind,
            OutputKind::kNewFile);
}

}  // namespace
}  // namespace gpushare
