// An output path resolved the way the kernel follows it, with the kernel's
// rule against links planted by other users.
//
// Contract: ResolveOutputPath() walks `path` one component at a time, as the
// kernel's lookup does, and returns it absolute with every link resolved and
// no "." or ".." left; the part that does not exist yet (a file or folders
// still to make) is appended as given, lexically normalised. It follows only
// links that the kernel follows when fs.protected_symlinks is 1 (Debian's
// default), whatever the machine's setting: a link in a sticky folder that
// anyone may write (such as /tmp) is refused, with an InputError naming
// `path` and the link, unless it belongs to the effective user or to the
// folder's owner. Run as root, gpushare-sim resolves the path itself and
// renames a temporary over the file it finds, so the kernel's check would
// never run; this one does. More than 40 links (the kernel's ELOOP) are an
// error too. A component that cannot be examined (no permission, not a
// folder) ends the walk; the rest is appended and the caller's own checks
// report it. Nothing is changed on the file system.

#ifndef GPUSHARE_IO_OUTPUT_PATH_H_
#define GPUSHARE_IO_OUTPUT_PATH_H_

#include <sys/stat.h>

#include <string>

namespace gpushare {

inline constexpr int kMaxOutputPathLinks = 40;

std::string ResolveOutputPath(const std::string& path);

// Whether the kernel (fs.protected_symlinks=1) would follow `link`, a link
// found in a folder whose own status is `folder`, for effective user `uid`.
bool KernelWouldFollowLink(const struct stat& link, const struct stat& folder,
                           uid_t uid);

}  // namespace gpushare

#endif  // GPUSHARE_IO_OUTPUT_PATH_H_
