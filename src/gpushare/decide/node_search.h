// NodeSearch: the fewest nodes in [min, max] under which a pool meets its
// constraints, found by probing node counts one at a time.
//
// Contract: feasibility is assumed monotone in the node count (more nodes
// never hurt). A search from scratch probes `max` first (infeasible there:
// done, infeasible) and then bisects. A search from a guess (a pilot's
// answer) probes the guess first; when it is feasible it probes one node
// fewer before bisecting below, when it is not it probes `max` and bisects
// above. Next() is the count to probe while !done(); Report() gives its
// result. When done and feasible, nodes() is the answer; probes() counts
// the probes made.

#ifndef GPUSHARE_DECIDE_NODE_SEARCH_H_
#define GPUSHARE_DECIDE_NODE_SEARCH_H_

namespace gpushare {

class NodeSearch {
 public:
  // `guess` < 0: from scratch; otherwise clamped into [min, max].
  NodeSearch(int min_nodes, int max_nodes, int guess = -1);

  bool done() const { return done_; }
  bool feasible() const { return hi_ok_; }
  int nodes() const { return hi_; }
  int probes() const { return probes_; }

  int Next() const { return next_; }
  void Report(bool feasible);

 private:
  void Advance();

  int lo_;  // every count below lo_ is infeasible
  int hi_;  // the smallest count known feasible (if hi_ok_)
  const int max_;
  bool hi_ok_ = false;
  bool step_down_ = false;  // after a feasible guess: try one fewer
  bool done_ = false;
  int next_ = 0;
  int probes_ = 0;
};

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_NODE_SEARCH_H_
