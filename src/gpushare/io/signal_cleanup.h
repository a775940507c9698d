// Files and folders to remove when the process is stopped by a signal.
//
// Contract: while an output is being written, its temporary file (and any
// folder made for it) is registered here. If SIGINT, SIGTERM or SIGHUP
// arrives in that time, the handler — installed on the first Register() for
// each of those signals that is not ignored — unlinks every registered file,
// removes every registered folder that is then empty, restores the signal's
// default action and raises it again, so the process still ends as the
// signal says. The handler does only async-signal-safe calls (unlink, rmdir,
// sigaction, raise). Register() and Unregister() may be called from any
// thread. At most kSignalCleanupSlots paths are held at once; a path that does
// not fit (or is longer than PATH_MAX) is not registered and Register()
// returns -1, which callers may ignore (the path is then left on a signal).

#ifndef GPUSHARE_IO_SIGNAL_CLEANUP_H_
#define GPUSHARE_IO_SIGNAL_CLEANUP_H_

#include <string>

namespace gpushare {

inline constexpr int kSignalCleanupSlots = 256;

// Registers `path` (a file, or a folder when `folder`) for removal on a
// signal; returns its slot, or -1 when it could not be held.
int RegisterSignalCleanup(const std::string& path, bool folder);

// Forgets a slot Register() returned (nothing happens for -1).
void UnregisterSignalCleanup(int slot);

}  // namespace gpushare

#endif  // GPUSHARE_IO_SIGNAL_CLEANUP_H_
