#include "gpushare/sim/observer_fanout.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace gpushare {
namespace {

// Records "<name>:<hook>" for the hooks it sees.
class Recorder : public SimulationObserver {
 public:
  Recorder(std::string name, std::vector<std::string>* log)
      : name_(std::move(name)), log_(log) {}
  void OnArrival(double, PodIndex pod) override {
    log_->push_back(name_ + ":arrival " + std::to_string(pod));
  }
  void OnEnd(double, PodIndex pod, PodEnd, const std::string& msg) override {
    log_->push_back(name_ + ":end " + std::to_string(pod) + " " + msg);
  }
  void OnSample(double, const std::vector<DomainState>& d, int p) override {
    log_->push_back(name_ + ":sample " + std::to_string(d.size()) + " " +
                    std::to_string(p));
  }
  void OnPodShare(double, PodIndex pod, int domain, double ratio) override {
    log_->push_back(name_ + ":share " + std::to_string(pod) + "@" +
                    std::to_string(domain) + " " + std::to_string(ratio));
  }
  void OnPreempted(double, PodIndex pod, PodIndex by, double lost) override {
    log_->push_back(name_ + ":preempted " + std::to_string(pod) + " by " +
                    std::to_string(by) + " " + std::to_string(lost));
  }
  void OnRequeued(double, PodIndex pod) override {
    log_->push_back(name_ + ":requeued " + std::to_string(pod));
  }
  void OnGangTimeout(double, PodIndex pod) override {
    log_->push_back(name_ + ":gang-timeout " + std::to_string(pod));
  }
  void OnFinish(double, int64_t events, int64_t) override {
    log_->push_back(name_ + ":finish " + std::to_string(events));
  }

 private:
  std::string name_;
  std::vector<std::string>* log_;
};

TEST(ObserverFanoutTest, ForwardsEveryHookInOrder) {
  std::vector<std::string> log;
  Recorder a("a", &log);
  Recorder b("b", &log);
  ObserverFanout fanout({&a, &b});
  SimulationObserver* observer = &fanout;
  observer->OnArrival(1, 7);
  observer->OnEnd(2, 7, PodEnd::kSucceeded, "ok");
  observer->OnSample(3, std::vector<DomainState>(2), 4);
  observer->OnPodShare(3, 7, 1, 0.5);
  observer->OnRestart(4, 7);  // neither overrides it
  observer->OnPreempted(4, 7, 8, 1.5);
  observer->OnRequeued(4, 7);
  observer->OnGangTimeout(4, 7);
  observer->OnFinish(5, 9, 1);
  EXPECT_EQ(log, (std::vector<std::string>{
                     "a:arrival 7", "b:arrival 7", "a:end 7 ok", "b:end 7 ok",
                     "a:sample 2 4", "b:sample 2 4", "a:share 7@1 0.500000",
                     "b:share 7@1 0.500000", "a:preempted 7 by 8 1.500000",
                     "b:preempted 7 by 8 1.500000", "a:requeued 7",
                     "b:requeued 7", "a:gang-timeout 7", "b:gang-timeout 7",
                     "a:finish 9", "b:finish 9"}));
}

}  // namespace
}  // namespace gpushare
