// gs-calibrate-worker: the GPU side of the time-slicing calibration
// (calibrate/README.md). One process is one CUDA context; run_calibration.sh
// starts several at once so that the driver time-slices them.
//
// Modes (each prints only what is listed on stdout; errors go to stderr):
//
//   info
//       YAML: gpu, driver, cuda, sms, compute_capability.
//   iterations --blocks B [--kernel-us U]
//       Calibrates the spin kernel alone and prints the loop count that
//       makes one launch of B blocks last about U microseconds (default
//       2000). Run it with nothing else on the GPU.
//   throughput --blocks B --seconds S --start-at-ns T [--kernel-us U]
//              [--iterations K]
//       Waits until CLOCK_REALTIME reaches T ns, launches the spin kernel
//       back to back on one stream for S seconds of wall time, then prints
//       one line "kernels seconds": the launches completed and the exact
//       wall time they took, from T (or the moment the worker was ready, if
//       later) to the completion of the last one.
//   spin --blocks B --seconds S [--kernel-us U] [--iterations K]
//       A co-runner: prints "ready" once its context is set up, then runs
//       the same loop for S seconds, or until SIGTERM or SIGINT (then it
//       drains its stream and exits 0).
//   probe --samples M --interval-ms I --start-at-ns T
//       After T, launches a one-warp empty kernel M times, sleeping I ms
//       after each, and prints each launch-to-completion time (host steady
//       clock around the launch and cudaStreamSynchronize) in microseconds,
//       one a line.
//
// The spin kernel's duration is set by work, not by a clock: each thread runs
// a fixed number of dependent fused multiply-adds (K iterations of 4
// independent chains). `iterations` (or a throughput/spin worker given no
// --iterations) measures K alone with CUDA events. A clock would be wrong
// here: clock64() and %globaltimer keep counting while the driver has
// switched the context out, so a clock-bounded kernel would finish on time
// however little of the GPU it got.
//
// Occupancy: B blocks of 1024 threads, each asking for just over half of an
// SM's shared memory, so that at most one block is resident per SM and B <=
// SMs blocks land on B different SMs. 32 warps with 4 independent chains
// each keep every FMA pipe of the SM busy.
//
// Exit status: 0 on success, 1 on a CUDA error ("error: <call>: <message>"
// on stderr), 2 on a usage error. The worker never changes GPU settings
// (compute mode, clocks, MPS, MIG); it uses device 0 (select with
// CUDA_VISIBLE_DEVICES).

#include <cuda_runtime.h>
#include <signal.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

constexpr int kThreadsPerBlock = 1024;
constexpr double kDefaultKernelUs = 2000.0;
// Launches queued ahead on the stream: the GPU always has the next one.
constexpr int kInFlight = 2;

// ---------------------------------------------------------------- errors

void CheckCuda(cudaError_t status, const char* call) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "error: %s: %s\n", call, cudaGetErrorString(status));
    std::exit(1);
  }
}
#define CHECK_CUDA(call) CheckCuda((call), #call)

[[noreturn]] void UsageError(const std::string& message) {
  std::fprintf(stderr,
               "error: %s\n"
               "usage: gs-calibrate-worker info\n"
               "       gs-calibrate-worker iterations --blocks B"
               " [--kernel-us U]\n"
               "       gs-calibrate-worker throughput --blocks B --seconds S"
               " --start-at-ns T [--kernel-us U] [--iterations K]\n"
               "       gs-calibrate-worker spin --blocks B --seconds S"
               " [--kernel-us U] [--iterations K]\n"
               "       gs-calibrate-worker probe --samples M --interval-ms I"
               " --start-at-ns T\n",
               message.c_str());
  std::exit(2);
}

// --------------------------------------------------------------- options

// The flags of one command line, as text, each given at most once.
struct Options {
  std::string mode;
  std::map<std::string, std::string> flags;

  bool Has(const std::string& name) const { return flags.count(name) > 0; }

  double Number(const std::string& name, double fallback, double min) const {
    auto it = flags.find(name);
    if (it == flags.end()) {
      if (std::isnan(fallback)) UsageError(mode + " needs --" + name);
      return fallback;
    }
    char* end = nullptr;
    double value = std::strtod(it->second.c_str(), &end);
    if (it->second.empty() || *end != '\0' || !std::isfinite(value) ||
        value < min) {
      char bound[32];
      std::snprintf(bound, sizeof(bound), "%g", min);
      UsageError("--" + name + " " + it->second + ": not a number >= " +
                 bound);
    }
    return value;
  }
  double Required(const std::string& name, double min) const {
    return Number(name, std::nan(""), min);
  }
  int64_t Integer(const std::string& name, double fallback, double min,
                  double max) const {
    double value = Number(name, fallback, min);
    if (value != std::floor(value) || value > max) {
      UsageError("--" + name + ": not an integer in range");
    }
    return static_cast<int64_t>(value);
  }
};

Options ParseOptions(int argc, char** argv) {
  static const std::map<std::string, std::set<std::string>> kModeFlags = {
      {"info", {}},
      {"iterations", {"blocks", "kernel-us"}},
      {"throughput",
       {"blocks", "seconds", "start-at-ns", "kernel-us", "iterations"}},
      {"spin", {"blocks", "seconds", "kernel-us", "iterations"}},
      {"probe", {"samples", "interval-ms", "start-at-ns"}},
  };
  if (argc < 2) UsageError("no mode");
  Options options;
  options.mode = argv[1];
  auto mode = kModeFlags.find(options.mode);
  if (mode == kModeFlags.end()) UsageError("unknown mode " + options.mode);
  for (int i = 2; i < argc; i += 2) {
    std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0 || mode->second.count(arg.substr(2)) == 0) {
      UsageError(options.mode + ": unknown argument " + arg);
    }
    if (i + 1 >= argc) UsageError(arg + " needs a value");
    if (!options.flags.emplace(arg.substr(2), argv[i + 1]).second) {
      UsageError(arg + " given twice");
    }
  }
  return options;
}

// ------------------------------------------------------------------ time

using SteadyClock = std::chrono::steady_clock;

double SecondsSince(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

// Sleeps until CLOCK_REALTIME reaches `ns`; warns when it is already past,
// since the processes of one run then do not start together.
void SleepUntilRealtime(int64_t ns) {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  int64_t now_ns = static_cast<int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
  if (now_ns > ns) {
    std::fprintf(stderr,
                 "warning: ready %.3f s after --start-at-ns; start later"
                 " (CAL_START_DELAY)\n",
                 (now_ns - ns) / 1e9);
    return;
  }
  timespec target{};
  target.tv_sec = static_cast<time_t>(ns / 1000000000);
  target.tv_nsec = static_cast<long>(ns % 1000000000);
  while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &target, nullptr) ==
         EINTR) {
  }
}

void SleepMs(double ms) {
  if (ms <= 0) return;
  timespec pause{};
  pause.tv_sec = static_cast<time_t>(ms / 1000);
  pause.tv_nsec = static_cast<long>(std::fmod(ms, 1000.0) * 1e6);
  while (nanosleep(&pause, &pause) != 0 && errno == EINTR) {
  }
}

volatile sig_atomic_t g_stop = 0;
void OnStopSignal(int) { g_stop = 1; }

// --------------------------------------------------------------- kernels

// Each thread runs `iterations` rounds of 4 independent fused multiply-adds.
// `a` and `b` come from the host so the loop cannot be folded; the store
// never happens (|x| stays below 2) but keeps every chain live.
__global__ void __launch_bounds__(kThreadsPerBlock)
    SpinKernel(uint32_t iterations, float a, float b, float* sink) {
  float x0 = threadIdx.x * 1e-4f;
  float x1 = x0 + 0.25f;
  float x2 = x0 + 0.5f;
  float x3 = x0 + 0.75f;
  for (uint32_t i = 0; i < iterations; ++i) {
    x0 = fmaf(x0, a, b);
    x1 = fmaf(x1, a, b);
    x2 = fmaf(x2, a, b);
    x3 = fmaf(x3, a, b);
  }
  float sum = x0 + x1 + x2 + x3;
  if (sum == 1234.5f) sink[blockIdx.x] = sum;
}

__global__ void ProbeKernel() {}

// The spin kernel on one stream, one block per SM.
class Spinner {
 public:
  explicit Spinner(int blocks) : blocks_(blocks) {
    CHECK_CUDA(cudaSetDevice(0));
    cudaDeviceProp prop{};
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    // Just over half an SM's shared memory: two blocks never fit on one SM.
    shared_bytes_ = std::min(prop.sharedMemPerMultiprocessor / 2 + 1,
                             prop.sharedMemPerBlockOptin);
    CHECK_CUDA(cudaFuncSetAttribute(
        SpinKernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
        static_cast<int>(shared_bytes_)));
    int per_sm = 0;
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, SpinKernel, kThreadsPerBlock, shared_bytes_));
    if (per_sm != 1) {
      std::fprintf(stderr, "warning: %d spin blocks fit on one SM, not 1\n",
                   per_sm);
    }
    if (blocks > prop.multiProcessorCount) {
      std::fprintf(stderr, "warning: %d blocks on %d SMs\n", blocks,
                   prop.multiProcessorCount);
    }
    CHECK_CUDA(cudaMalloc(&sink_, sizeof(float) * blocks));
    CHECK_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  Spinner(const Spinner&) = delete;
  Spinner& operator=(const Spinner&) = delete;
  ~Spinner() {
    cudaStreamDestroy(stream_);
    cudaFree(sink_);
  }

  cudaStream_t stream() const { return stream_; }

  void Launch(uint32_t iterations) {
    SpinKernel<<<blocks_, kThreadsPerBlock, shared_bytes_, stream_>>>(
        iterations, 0.5f, 0.5f, sink_);
    CheckCuda(cudaGetLastError(), "SpinKernel<<<>>>");
  }

  // Microseconds one launch of `iterations` takes alone: the least of 3.
  double TimeUs(uint32_t iterations) {
    cudaEvent_t begin, end;
    CHECK_CUDA(cudaEventCreate(&begin));
    CHECK_CUDA(cudaEventCreate(&end));
    float best_ms = 0;
    for (int i = 0; i < 3; ++i) {
      CHECK_CUDA(cudaEventRecord(begin, stream_));
      Launch(iterations);
      CHECK_CUDA(cudaEventRecord(end, stream_));
      CHECK_CUDA(cudaEventSynchronize(end));
      float ms = 0;
      CHECK_CUDA(cudaEventElapsedTime(&ms, begin, end));
      if (i == 0 || ms < best_ms) best_ms = ms;
    }
    CHECK_CUDA(cudaEventDestroy(begin));
    CHECK_CUDA(cudaEventDestroy(end));
    return best_ms * 1000.0;
  }

  // The loop count for one launch of about `kernel_us`: grown by 4 until a
  // launch takes a quarter of the target, then scaled linearly.
  uint32_t Calibrate(double kernel_us) {
    constexpr double kMaxIterations = 4294967295.0;
    Launch(1);  // loads the module, warms the clocks up
    CHECK_CUDA(cudaStreamSynchronize(stream_));
    double iterations = 1024;
    double us = TimeUs(static_cast<uint32_t>(iterations));
    while (us < kernel_us / 4 && iterations * 4 <= kMaxIterations) {
      iterations *= 4;
      us = TimeUs(static_cast<uint32_t>(iterations));
    }
    iterations = std::clamp(std::round(iterations * kernel_us / us), 1.0,
                            kMaxIterations);
    uint32_t result = static_cast<uint32_t>(iterations);
    std::fprintf(stderr, "spin kernel: %" PRIu32 " iterations, %.1f us alone"
                 " (target %.1f us)\n", result, TimeUs(result), kernel_us);
    return result;
  }

 private:
  int blocks_;
  size_t shared_bytes_ = 0;
  float* sink_ = nullptr;
  cudaStream_t stream_ = nullptr;
};

// Launches back to back from `start` until `seconds` have passed (or
// g_stop), keeping kInFlight launches queued; waits for the last. Returns
// the launches, all completed; `elapsed` gets the wall seconds from `start`.
int64_t SpinFor(Spinner& spinner, uint32_t iterations, double seconds,
                SteadyClock::time_point start, double* elapsed) {
  std::vector<cudaEvent_t> done(kInFlight + 1);
  for (cudaEvent_t& event : done) {
    CHECK_CUDA(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  }
  int64_t launched = 0;
  while (SecondsSince(start) < seconds && !g_stop) {
    spinner.Launch(iterations);
    CHECK_CUDA(cudaEventRecord(done[launched % done.size()], spinner.stream()));
    ++launched;
    if (launched > kInFlight) {
      CHECK_CUDA(cudaEventSynchronize(done[(launched - 1 - kInFlight) %
                                           done.size()]));
    }
  }
  CHECK_CUDA(cudaStreamSynchronize(spinner.stream()));
  *elapsed = SecondsSince(start);
  for (cudaEvent_t event : done) CHECK_CUDA(cudaEventDestroy(event));
  return launched;
}

// ----------------------------------------------------------------- modes

std::string DottedVersion(int version) {  // 12080 -> "12.8"
  return std::to_string(version / 1000) + "." +
         std::to_string(version % 1000 / 10);
}

std::string YamlQuoted(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

int RunInfo() {
  int count = 0;
  CHECK_CUDA(cudaGetDeviceCount(&count));
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  int driver = 0;
  int runtime = 0;
  CHECK_CUDA(cudaDriverGetVersion(&driver));
  CHECK_CUDA(cudaRuntimeGetVersion(&runtime));
  std::printf("gpu: %s\n", YamlQuoted(prop.name).c_str());
  std::printf("driver: \"%s\"\n", DottedVersion(driver).c_str());
  std::printf("cuda: \"%s\"\n", DottedVersion(runtime).c_str());
  std::printf("sms: %d\n", prop.multiProcessorCount);
  std::printf("compute_capability: \"%d.%d\"\n", prop.major, prop.minor);
  return 0;
}

int64_t Blocks(const Options& options) {
  return options.Integer("blocks", std::nan(""), 1, 1 << 20);
}

// --iterations if given, else calibrated alone now.
uint32_t Iterations(const Options& options, Spinner& spinner) {
  double kernel_us = options.Number("kernel-us", kDefaultKernelUs, 1);
  if (options.Has("iterations")) {
    return static_cast<uint32_t>(
        options.Integer("iterations", 0, 1, 4294967295.0));
  }
  return spinner.Calibrate(kernel_us);
}

int RunIterations(const Options& options) {
  Spinner spinner(static_cast<int>(Blocks(options)));
  std::printf("%" PRIu32 "\n", Iterations(options, spinner));
  return 0;
}

int RunThroughput(const Options& options) {
  double seconds = options.Required("seconds", 0);
  int64_t start_ns = options.Integer("start-at-ns", std::nan(""), 0, 9e18);
  Spinner spinner(static_cast<int>(Blocks(options)));
  uint32_t iterations = Iterations(options, spinner);
  spinner.Launch(1);  // module loaded before the start
  CHECK_CUDA(cudaStreamSynchronize(spinner.stream()));
  SleepUntilRealtime(start_ns);
  double elapsed = 0;
  int64_t kernels =
      SpinFor(spinner, iterations, seconds, SteadyClock::now(), &elapsed);
  std::printf("%" PRId64 " %.6f\n", kernels, elapsed);
  return 0;
}

int RunSpin(const Options& options) {
  signal(SIGTERM, OnStopSignal);
  signal(SIGINT, OnStopSignal);
  double seconds = options.Required("seconds", 0);
  Spinner spinner(static_cast<int>(Blocks(options)));
  uint32_t iterations = Iterations(options, spinner);
  spinner.Launch(1);  // module loaded, context ready
  CHECK_CUDA(cudaStreamSynchronize(spinner.stream()));
  std::printf("ready\n");
  std::fflush(stdout);
  double elapsed = 0;
  SpinFor(spinner, iterations, seconds, SteadyClock::now(), &elapsed);
  return 0;
}

int RunProbe(const Options& options) {
  int64_t samples = options.Integer("samples", std::nan(""), 1, 1e7);
  double interval_ms = options.Required("interval-ms", 0);
  int64_t start_ns = options.Integer("start-at-ns", std::nan(""), 0, 9e18);
  CHECK_CUDA(cudaSetDevice(0));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  ProbeKernel<<<1, 32, 0, stream>>>();  // loads the module before the start
  CheckCuda(cudaGetLastError(), "ProbeKernel<<<>>>");
  CHECK_CUDA(cudaStreamSynchronize(stream));
  SleepUntilRealtime(start_ns);
  std::vector<double> latencies_us;
  latencies_us.reserve(samples);
  for (int64_t i = 0; i < samples; ++i) {
    auto begin = SteadyClock::now();
    ProbeKernel<<<1, 32, 0, stream>>>();
    CheckCuda(cudaGetLastError(), "ProbeKernel<<<>>>");
    CHECK_CUDA(cudaStreamSynchronize(stream));
    latencies_us.push_back(SecondsSince(begin) * 1e6);
    SleepMs(interval_ms);
  }
  for (double us : latencies_us) std::printf("%.3f\n", us);
  CHECK_CUDA(cudaStreamDestroy(stream));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options = ParseOptions(argc, argv);
  if (options.mode == "info") return RunInfo();
  if (options.mode == "iterations") return RunIterations(options);
  if (options.mode == "throughput") return RunThroughput(options);
  if (options.mode == "spin") return RunSpin(options);
  return RunProbe(options);
}
