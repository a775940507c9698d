// GS_CHECK(condition, message): internal invariant check.
//
// Contract: for conditions that can only fail through a bug in gpushare-sim,
// never through user input (use InputError for that). On failure it prints
// the file, line, condition and message to stderr and aborts. Always on: the
// checks guard correctness of results and are kept out of inner loops.

#ifndef GPUSHARE_IO_CHECK_H_
#define GPUSHARE_IO_CHECK_H_

#include <cstdio>
#include <cstdlib>

#define GS_CHECK(condition, message)                                        \
  do {                                                                      \
    if (!(condition)) {                                                     \
      std::fprintf(stderr, "%s:%d: internal error: check failed: %s: %s\n", \
                   __FILE__, __LINE__, #condition, (message));              \
      std::abort();                                                         \
    }                                                                       \
  } while (false)

#endif  // GPUSHARE_IO_CHECK_H_
