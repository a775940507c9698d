// WorkloadStream: a workload's pods one at a time, in arrival order, drawn
// as they are taken rather than all at once.
//
// Contract: the stream yields exactly the pods BuildWorkload (generator.h)
// returns, in the same order, with the same draws, byte for byte: the
// generated classes merged by (arrival, class index, draw order), and the
// trace's pods merged with them by arrival (ties: the trace pod first; each
// side in its own order; explicit requests cleared unless the trace keeps
// them). Each class has its own cursor on its own Rng (forked as
// GenerateWorkload forks it); a class with a count needs the end of its
// window, which takes its last draw, so the constructor draws every class
// once (discarding the pods) to count its pods and find that end, and the
// cursors then draw them again as they are taken. Memory: one pod per class
// and the cursors' state, whatever the number of pods (the trace's pods are
// the trace's, shared). The constructor validates the spec (InputError) as
// GenerateWorkload does.

#ifndef GPUSHARE_WORKLOAD_WORKLOAD_STREAM_H_
#define GPUSHARE_WORKLOAD_WORKLOAD_STREAM_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpushare/base/rng.h"
#include "gpushare/workload/generator.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

class WorkloadStream {
 public:
  // `with_trace` false: the generated classes only (GenerateWorkload).
  WorkloadStream(const WorkloadSpec& spec, uint64_t seed,
                 bool with_trace = true);

  // Pods in the whole stream, and pods taken so far.
  int64_t total() const { return total_; }
  int64_t taken() const { return taken_; }
  bool done() const { return taken_ >= total_; }
  // The next pod's arrival. Precondition: !done().
  double next_arrival_s() const;
  // Overwrites *out with the next pod. Precondition: !done().
  void Next(Pod* out);

 private:
  // One generated class: its draws in order.
  struct Cursor {
    const WorkloadClassSpec* spec = nullptr;
    Rng rng{0};
    TemplateRequest template_request;
    double gap_rate = 1;
    double horizon_s = 0;  // the class's own (after arrival_start_s)
    double window = 0;     // count classes: the window and its scaling end
    double end = 0;
    int64_t arrivals = 0;  // arrivals (gangs) in all
    int64_t n = 0;         // arrivals drawn
    double t = 0;          // unscaled time of the last arrival drawn
    // The arrival drawn last (a gang's members are copies of it) and the
    // members of it still to give.
    Pod head;
    int members_left = 0;
    int member = 0;
  };
  // Draws cursor c's next arrival into its head.
  void Draw(Cursor& c);
  // The cursor with the earliest head (ties: class order); -1: none.
  int NextCursor() const;

  std::vector<Cursor> cursors_;
  const std::vector<Pod>* trace_ = nullptr;
  size_t trace_next_ = 0;
  bool keep_explicit_requests_ = true;
  int64_t total_ = 0;
  int64_t taken_ = 0;
};

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_WORKLOAD_STREAM_H_
