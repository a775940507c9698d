// Comments wrapped at a width, kept on comment lines.

#include "gpushare/emit/comment_wrap.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace comment_wrap_test {
namespace {

TEST(WrappedCommentTest, WrapsAtSpacesAndKeepsLongWords) {
  EXPECT_EQ(WrappedComment("aa bb cc", "# ", "# ", 7), "# aa bb\n# cc\n");
  EXPECT_EQ(WrappedComment("a verylongword b", "# ", "#   ", 6),
            "# a\n#   verylongword\n#   b\n");
  EXPECT_EQ(WrappedComment(""), "");
  EXPECT_EQ(WrappedComment("   "), "");
}

TEST(WrappedCommentTest, ALineBreakCannotEndTheComment) {
  const std::string out = WrappedComment("a\nrm -rf / b\rc");
  EXPECT_EQ(out, "# a\\nrm -rf / b\\rc\n");
}

}  // namespace
}  // namespace comment_wrap_test
}  // namespace gpushare
