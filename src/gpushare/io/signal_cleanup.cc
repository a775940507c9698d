#include "gpushare/io/signal_cleanup.h"

#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>

namespace gpushare {
namespace {

// A slot's state: free, being filled (not to be read), or holding a path.
enum SlotState : int { kFree = 0, kFilling = 1, kHeld = 2 };

struct Slot {
  std::atomic<int> state{kFree};
  bool folder = false;
  char path[PATH_MAX];
};

Slot g_slots[kSignalCleanupSlots];

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void RemoveRegisteredPaths(int signal_number) {
  for (Slot& s : g_slots) {
    if (s.state.load(std::memory_order_acquire) == kHeld && !s.folder) {
      unlink(s.path);
    }
  }
  // Folders nest at most a few levels: a pass removes the deepest empty ones.
  for (int pass = 0; pass < 8; ++pass) {
    for (Slot& s : g_slots) {
      if (s.state.load(std::memory_order_acquire) == kHeld && s.folder) {
        rmdir(s.path);
      }
    }
  }
  struct sigaction default_action;
  std::memset(&default_action, 0, sizeof default_action);
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(signal_number, &default_action, nullptr);
  raise(signal_number);
}

void InstallHandlers() {
  for (int signal_number : kSignals) {
    struct sigaction current;
    if (sigaction(signal_number, nullptr, &current) != 0) continue;
    // An ignored signal (nohup) stays ignored; a handler someone else
    // installed stays theirs.
    if (current.sa_handler != SIG_DFL) continue;
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_handler = RemoveRegisteredPaths;
    sigemptyset(&action.sa_mask);
    for (int s : kSignals) sigaddset(&action.sa_mask, s);
    sigaction(signal_number, &action, nullptr);
  }
}

}  // namespace

int RegisterSignalCleanup(const std::string& path, bool folder) {
  static std::once_flag installed;
  std::call_once(installed, InstallHandlers);
  if (path.size() >= PATH_MAX) return -1;
  for (int i = 0; i < kSignalCleanupSlots; ++i) {
    int expected = kFree;
    if (!g_slots[i].state.compare_exchange_strong(expected, kFilling,
                                                  std::memory_order_acq_rel)) {
      continue;
    }
    g_slots[i].folder = folder;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].state.store(kHeld, std::memory_order_release);
    return i;
  }
  return -1;
}

void UnregisterSignalCleanup(int slot) {
  if (slot < 0 || slot >= kSignalCleanupSlots) return;
  g_slots[slot].state.store(kFree, std::memory_order_release);
}

}  // namespace gpushare
