// The heap allocator's settings, linked into the executables (gpushare-sim,
// gs_bench) and not into the library or the unit tests.
//
// The executables allocate through jemalloc (Debian's libjemalloc2, linked
// when GS_JEMALLOC is on, the default). jemalloc reads this symbol at its
// start as its lowest-precedence options (jemalloc(3), "malloc_conf"); the
// environment's MALLOC_CONF overrides them, e.g. MALLOC_CONF=thp:default.
//
// thp:always backs the heap with transparent huge pages (madvise
// MADV_HUGEPAGE on jemalloc's extents; the kernel's
// /sys/kernel/mm/transparent_hugepage/enabled must be madvise or always, as
// Debian's default is): a 100,000-pod run touches ~190 MiB of pods, records
// and scheduler state once, and with 4 KiB pages ~60,000 first-touch page
// faults were 14 % of its time. metadata_thp:auto does the same for
// jemalloc's own metadata once it grows. docs/model.md §4 has the
// measurements.

// Declared as jemalloc.h declares it (`extern const char *malloc_conf;`).
extern "C" {
extern const char* malloc_conf;
const char* malloc_conf = "thp:always,metadata_thp:auto";
}
