// GS_LIFETIMEBOUND marks a parameter whose object the function's returned
// reference (or view) points into, so that clang warns (-Wdangling, an error
// under GS_WERROR) when a call binds the result to a temporary argument:
//
//   const Choice& c = Pool(ResolvePlan(...), "a");  // the plan dies here
//
// Contract: expands to [[clang::lifetimebound]] where the compiler knows the
// attribute (clang: `make sanitize`, `make fuzz`) and to nothing elsewhere
// (g++ has no such check); it never changes the generated code.

#ifndef GPUSHARE_BASE_LIFETIMEBOUND_H_
#define GPUSHARE_BASE_LIFETIMEBOUND_H_

#if defined(__has_cpp_attribute)
#if __has_cpp_attribute(clang::lifetimebound)
#define GS_LIFETIMEBOUND [[clang::lifetimebound]]
#endif
#endif
#ifndef GS_LIFETIMEBOUND
#define GS_LIFETIMEBOUND
#endif

#endif  // GPUSHARE_BASE_LIFETIMEBOUND_H_
