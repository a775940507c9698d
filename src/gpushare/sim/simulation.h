// Simulation: one run of a scenario through the Kubernetes pipeline and the
// execution model.
//
// Contract: the constructor builds the cluster (node pools, device plugins),
// generates the workload and translates each pod's needs into the requests
// of the pool it targets (InputError on a bad scenario). Run() replays it as
// a discrete-event simulation (sim/event_queue.h): arrivals enter the
// scheduler's queue; every bind starts the pod on its execution domains (a
// GPU, or a MIG instance) where the pool's share model (exec/) sets its
// progress rate, recomputed whenever the domain's residents change (fluid
// model; stale completions skipped by version). Memory: a pod whose
// footprint exceeds its grant (HAMi gpumem, MPS replica limit, MIG instance,
// the GPU) or, without isolation (time-slicing), the memory left on the GPU
// fails with out-of-memory when it allocates. A GPU fault kills the pods of
// the GPU — of the MIG instance under MIG — which stays down for its
// recovery time: its device plugin reports the device (all its replicas; under
// MIG the instance's device only) Unhealthy, so the node's allocatable drops
// and nothing new is placed there until it recovers. A fault that needs a GPU
// reset takes the whole GPU (all its MIG instances) and, under MIG, destroys
// its instances: they stay unadvertised and the GPU drifts from its node's
// nvidia.com/mig.config until mig-manager recreates the layout; pods bound
// to a destroyed instance cannot restart and fail for good. A stalled device
// plugin zeroes its node's allocatable GPU resources while the GPUs stay
// healthy; running pods go on. Failed pods stay bound and restart in place
// after kubelet's back-off (CrashLoopBackOff), from the start of their work,
// until `max_restarts`; then they fail for good and free their devices.
// Services are deleted at the end of their lifetime. Samples of every domain
// are reported every `sample_interval_s`, with the p50/p99 latency of every
// running inference pod (exec/latency_model.h; an inference pod's GPU duty is
// its request rate x GPU time per request). Pods that name their node
// (Pod::node_name, kubectl imports of running pods) are bound to it on
// arrival without a scheduling cycle when the cluster has that node, or fail
// kubelet's admission if it cannot hold them. Deterministic for a given
// scenario. Without a horizon (horizon_s 0) a run whose pods are still
// running after 1,000,000 samples is an InputError, as a horizon of more
// samples is.
//
// Pods and their memory: the workload's pods are drawn (or taken from the
// trace) as they arrive (WorkloadStream), not all before the run, and each
// pod's state (its Pod, its run, its target pool, the scheduler's state) lives
// only from its arrival until it has ended for good; then its storage is
// recycled (PodSlots). A pod's PodIndex is its number in arrival order, as
// the workload's order gives it (BuildWorkload), whatever was released. So
// pod(i), target_pool(i) and allocation(i) are valid from the pod's
// OnArrival (or its OnNotArrived) until the return of the observer's OnEnd of
// its final end (PodEnd: succeeded, deleted, failed for good, admission
// failed, unschedulable); pods still alive at the end of the run stay valid
// through OnFinish. After that its memory may be released: an observer that
// needs anything of a pod after it ends copies it in its hooks. Pods of a
// gang (PodGroup) or of a Kueue / KAI workload are released together once
// every pod of their group has ended. Scenarios with gangs, queues or shared
// ResourceClaims are read once through at construction (their groups, the
// workloads' quotas and the claims' pools are built from every pod), the
// pods discarded as they are read.

#ifndef GPUSHARE_SIM_SIMULATION_H_
#define GPUSHARE_SIM_SIMULATION_H_

#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gpushare/base/rng.h"
#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/cluster/dra/mig_instance_lifecycle.h"
#include "gpushare/exec/share_model.h"
#include "gpushare/sched/queue_admission.h"
#include "gpushare/sched/scheduler.h"
#include "gpushare/sim/autoscaler.h"
#include "gpushare/sim/elastic_pool_stats.h"
#include "gpushare/sim/event_queue.h"
#include "gpushare/sim/llm_latency_memo.h"
#include "gpushare/sim/pod_slots.h"
#include "gpushare/scenario/scenario.h"
#include "gpushare/sim/simulation_observer.h"
#include "gpushare/workload/workload_stream.h"

namespace gpushare {

namespace simulation_internal {
struct ElasticRun;
}  // namespace simulation_internal

class Simulation {
 public:
  Simulation(const Scenario& scenario, const Catalog& catalog);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // Runs the scenario once; `observer` may be null.
  void Run(SimulationObserver* observer);

  const Scenario& scenario() const { return scenario_; }
  const Cluster& cluster() const { return *cluster_; }
  // Pod `pod` as the run sees it (its requests translated for its target
  // pool). Valid from its OnArrival (or OnNotArrived) until the return of
  // the OnEnd of its final end, or through OnFinish for a pod alive at the
  // end of the run (see above); aborts on a pod not alive.
  const Pod& pod(PodIndex pod) const { return live_[pod].pod; }
  // Whether pod(pod) may be called now.
  bool pod_alive(PodIndex pod) const { return live_.live(pod); }
  // The pods of the workload: those that arrive in the run and those whose
  // arrival comes after its end (OnNotArrived); known at construction.
  int64_t pod_count() const { return pod_total_; }
  // Pods that have arrived so far (the next one gets this PodIndex).
  int64_t pods_arrived() const { return live_.size(); }
  // Pods whose state is held now (arrived, not yet released).
  int64_t pods_alive() const { return live_.live_count(); }
  // Reads the whole workload once more, pod by pod in PodIndex order, as
  // the run prepares each (its requests translated), through a stream of its
  // own; no pod is kept. For an observer that needs a fact over every pod
  // before the run (the cost: drawing the workload once more).
  void ScanPods(const std::function<void(PodIndex, const Pod&)>& f) const;
  const std::vector<DomainInfo>& domains() const { return domain_info_; }
  // The devices a bound pod holds (empty grants when it holds none). Valid
  // while the pod is (pod()).
  const DeviceAllocation& allocation(PodIndex pod) const {
    return scheduler_->AllocationOf(pod);
  }
  // Kueue or KAI-Scheduler when the scenario has queues, else null.
  const QueueAdmission* admission() const { return kueue_.get(); }
  // The target pool of a pod (-1: none admits it); valid as pod().
  int target_pool(PodIndex pod) const { return live_[pod].target_pool; }
  // How many pods of the workload reference ResourceClaim `claim` by name
  // (Pod::dra_claim, as the run translated it); 0 for an unknown claim.
  int64_t claim_pod_count(const std::string& claim) const {
    auto it = claim_pods_.find(claim);
    return it == claim_pods_.end() ? 0 : it->second;
  }
  // Dynamic MIG per pool (zero for other pools): the instance lifecycle's
  // counts over the pool's nodes and the sampled fragmentation.
  struct DynamicMigStats {
    MigLifecycleCounts lifecycle;
    int64_t samples = 0;
    // Sum over samples of the pending pods whose profile is stranded on a
    // GPU of the pool (free slices would hold it, no placement does), and
    // the most at one sample.
    int64_t stranded_pod_samples = 0;
    int64_t stranded_max = 0;
  };
  DynamicMigStats dynamic_mig_stats(int pool) const;
  // Autoscaled pools (sim/simulation_autoscaling.cc): what `pool` did over
  // the last Run(), or null for a pool of fixed size.
  const ElasticPoolStats* elastic_stats(int pool) const;
  // The autoscalers of the next Run(), one per provider that a pool names;
  // unset: the providers' models (MakeAutoscaler, sim/autoscaler.h).
  using AutoscalerFactory = std::function<std::unique_ptr<Autoscaler>(
      AutoscalerProvider, const Cluster&, const std::vector<int>&, Rng)>;
  void SetAutoscalerFactory(AutoscalerFactory factory);

 private:
  // kPermit: a gang member bound and held at Coscheduling's Permit until
  // its PodGroup has minMember members bound.
  enum class Phase {
    kWaiting,
    kPending,
    kPermit,
    kRunning,
    kBackoff,
    kTerminating,
    kDone,
    // A gang member released at its PodGroup's timeout: it waits outside
    // the queue until another pod leaves or a device comes back (then it is
    // queued again), so that a gang that cannot fit does not loop.
    kGangDormant,
    // Managed by Kueue and not (or no longer) admitted: its workload waits
    // in its ClusterQueue; the pod is not in kube-scheduler's queue.
    kQueued,
    // Bound on a dynamic-MIG node: kubelet's NodePrepareResources is making
    // its MIG instance; it starts when the instance is ready.
    kPreparing
  };
  struct PodRun {
    Phase phase = Phase::kWaiting;
    double remaining = 0;  // reference-GPU work seconds left
    double rate = 0;
    double last_update = 0;
    uint64_t version = 0;  // of its completion / deletion event
    std::vector<int> domains;
    std::vector<double> domain_rates;
    // Its rate is the slowest domain's times this: 1, or the communication
    // penalty of a pod on several MIG instances (ModelParams).
    double comm_factor = 1;
    // Its memory footprint on each of its devices while resident: the
    // pod's own, or what its LLM engine pre-allocated (StartOrFail).
    int64_t fb_mib = 0;
    int node = -1;
    int restarts = 0;
    bool resident = false;  // executing on its domains (not in back-off)
    bool service = false;
    // An LLM engine that started: its EngineMemos in llm_memos_; -1: none.
    int32_t llm_memo = -1;
    // Work saved by its last checkpoint (Pod::checkpoint_interval_s).
    double checkpointed = 0;
    // Services: lifetime left, and when the running attempt started.
    double lifetime_left = 0;
    double started_at = 0;
    // Kueue evicted its workload: once terminated it waits for admission.
    bool kueue_evicted = false;
    // An LLM engine: the sequences it runs at once since its last start.
    int64_t llm_max_seqs = 0;
    // ... and its GPU duty u in the share models: what keeps it as busy on
    // its device alone as its steps do (LlmLatency::busy); -1: not an
    // engine (the duty comes from its needs).
    double llm_duty = -1;
    // Dynamic MIG: its instances were asked of the node's MIG queue (on its
    // first start after a bind), ready at mig_ready_s.
    bool mig_created = false;
    double mig_ready_s = 0;
  };
  // What an LLM engine pod computed last (sim/llm_latency_memo.h): its
  // latency at the samples, shared and as if alone, and alone at its start
  // (EngineDuty); and the sequences at once its last start's KV capacity
  // gave. Each is computed again only when its inputs change.
  struct EngineMemos {
    LlmLatencyMemo shared;
    LlmLatencyMemo alone;
    LlmLatencyMemo duty;
    int64_t kv_tokens = -1;
    int64_t max_seqs = 0;
  };
  // Which of them an EngineLatency goes through.
  enum class EngineMemo { kShared, kAlone, kDuty };
  struct DomainRun {
    DomainInfo info;
    const ShareModel* model = nullptr;
    // The model parameters of its pool: the scenario's, with a DRA pool's
    // TimeSlicing interval as time_slice_ms (PoolModelParams).
    const ModelParams* params = nullptr;
    Domain spec;
    // Peak DRAM bandwidth of the GPU or MIG instance, GB/s (catalog).
    double bandwidth_gb_s = 0;
    std::vector<PodIndex> residents;
    int holders = 0;  // pods holding a grant on it
    int64_t fb_used_mib = 0;
    DomainRates rates;
    double down_until = -1;
    // A GPU reset destroyed its MIG instance: not advertised, drifted from
    // the node's nvidia.com/mig.config until mig-manager recreates it
    // `mig_reapply_s` after the GPU is back (-1: never).
    bool layout_lost = false;
    double mig_reapply_s = -1;
  };

  // A PodGroup: its members and Coscheduling state. Its job's work is kept
  // here: it advances at the slowest running member's rate while at least
  // minMember members run, else not at all.
  struct GangRun {
    std::vector<PodIndex> members;
    int unended = 0;  // members not yet ended for good
    int min_member = 0;
    double timeout_s = 0;
    double work_s = 0;
    bool admitted = false;  // minMember were bound once: members start
    bool done = false;
    int waiting = 0;  // members held at Permit
    double remaining = 0;
    double checkpointed = 0;
    double rate = 0;
    double last_update = 0;
    uint64_t version = 0;  // of its timeout and completion events
  };

  // A pod's state while it lives (PodSlots): the pod as translated, its run,
  // its target pool and why it never fits ("" when it may).
  struct LivePod {
    Pod pod;
    PodRun run;
    int target_pool = -1;
    std::string untranslatable;
    // Elastic pools: when it last entered the queue (sim/simulation_elastic.h).
    double elastic_queued_s = 0;
  };
  // Translates pod `pod` for its target pool (the constructor's part of a
  // pod, done as it arrives): fills target_pool and untranslatable.
  void PreparePod(LivePod* live) const;
  // Reads the whole workload once before the run (a stream of its own; the
  // pods are discarded as they are read): every pod is translated, as the
  // pods were all made before the run (resource names are interned in the
  // same order, construction errors come at construction), its PodGroup
  // joins its gang, its shared claim is counted; the pods of queues go to
  // `queued` for their Kueue / KAI workloads (built once the queueing system
  // is made).
  void ScanWorkload(std::vector<std::pair<PodIndex, LivePod>>* queued);
  // The pod numbered pods_arrived() arrives: taken from the stream and
  // prepared.
  PodIndex TakeArrival();
  // Pod p has ended for good: its storage is released at the next event
  // (with its gang's and workload's, once all of them have ended).
  void Ended(PodIndex p);
  void ReleaseEnded();
  void ReleaseIfDone(PodIndex p);
  int GangOf(PodIndex p) const {
    return gang_of_.empty() ? -1 : gang_of_[static_cast<size_t>(p)];
  }
  int KueueWorkloadOf(PodIndex p) const {
    return kueue_workload_of_.empty() ? -1
                                      : kueue_workload_of_[static_cast<size_t>(p)];
  }
  // The run of a gang's or workload's pod p, alive or not: a pod not yet
  // arrived is kWaiting, one released kDone (as their runs were).
  const PodRun& RunOrGone(PodIndex p) const {
    if (live_.live(p)) return live_[p].run;
    return p < live_.size() ? done_run_ : waiting_run_;
  }
  static PodRun DoneRun() {
    PodRun run;
    run.phase = Phase::kDone;
    return run;
  }
  Pod& PodOf(PodIndex p) { return live_[p].pod; }
  const Pod& PodOf(PodIndex p) const { return live_[p].pod; }
  PodRun& RunOf(PodIndex p) { return live_[p].run; }
  const PodRun& RunOf(PodIndex p) const { return live_[p].run; }

  void BuildDomains();
  // Whether pod `pod`, routed to `pool`, keeps its shared claim: on a DRA
  // pool of whole GPUs (without extended_resource) it does, and the pool's
  // GPUs are then time-sliced (BuildDomains); elsewhere (a variant of
  // compare or plan changed the pool) the pod is left with a claim or device
  // of its own.
  bool KeepsSharedClaim(const Pod& pod, int pool) const;
  // Pod i of the scan joins its PodGroup's gang.
  void AddToGang(PodIndex i, const Pod& pod);
  // Kueue or KAI (sim/simulation_kueue.cc): one workload per PodGroup or
  // plain pod that names a queue.
  struct KueueWorkloadRun {
    std::vector<PodIndex> pods;
    int arrivals_left = 0;  // pods still to arrive before it is created
    int live = 0;           // pods not done
    int evicting = 0;       // pods of an eviction still terminating
    int id = -1;            // Kueue's id once created
    Labels base_selector;   // the pods' own node selector
    std::string reported;   // the last wait reason told the observer
    QueuedWorkloadSpec spec;
  };
  // Creates Kueue or KAI when the scenario has queues.
  void MakeQueueAdmission();
  // Pod i of the scan joins its Kueue workload; `first_class` keeps each
  // workload's first pod's class for CheckKueueWorkloads' message.
  void AddToKueueWorkload(PodIndex i, const LivePod& live,
                          std::vector<std::string>* first_class);
  void CheckKueueWorkloads(const std::vector<std::string>& first_class);
  // A pod of a Kueue workload arrived; its workload is created with its
  // last pod. False when the pod is not Kueue's.
  bool KueueArrival(double now, PodIndex p);
  // Runs Kueue's cycles and applies them: admitted pods enter the
  // scheduler's queue, victims' pods terminate.
  void RunKueue(double now);
  void EvictWorkload(double now, int w, int preemptor);
  // Tells the observer why Kueue workloads `ids` (Kueue's ids) still wait.
  void ReportKueueWaits(double now, const std::vector<int>& ids);
  // A pod of an evicted workload is gone; the last one frees its quota.
  void KueueEvictedPodGone(PodIndex p);
  void KueuePodDone(PodIndex p);
  // A bound pod starts (observer told, memory checked, domains joined); on
  // a dynamic-MIG node first its instances are made (kPreparing).
  void StartBound(double now, PodIndex p);
  // Dynamic MIG (sim/simulation_dynamic_mig.cc): the node's MIG queue
  // makes the pod's instances; returns when they are ready.
  double CreateMigInstances(double now, PodIndex p);
  // Its devices go back to the scheduler (holders, dynamic MIG instances
  // destroyed in the node's queue, utilisation weights).
  void ReleaseDevices(double now, PodIndex p);
  // The utilisation weights of a dynamic-MIG GPU's domains follow its held
  // placements: each held one its SM fraction, the whole-GPU domain the rest.
  void RefreshDynamicMigWeights(int node, int gpu);
  // Counts pending pods of dynamic-MIG pools whose profile is stranded.
  void SampleMigFragmentation();
  // Brings the gang's work up to `now` and sets its rate from its members.
  void SyncGang(double now, int gang);
  void GangTimeout(double now, int gang);
  // Something left or came back: dormant gangs' members are queued again.
  void WakeDormantGangs();
  // The gang's job succeeded (its running members succeed) or a member
  // failed for good (the others fail); members left are ended.
  void FinishGang(double now, int gang, bool succeeded,
                  const std::string& message);
  void Schedule(double now);
  // A pod was bound (by a cycle or as already running): it starts.
  void OnBound(double now, const ScheduleResult& r);
  void StartOrFail(double now, PodIndex p);
  void Stop(double now, PodIndex p);  // leaves its domains
  void Fail(double now, PodIndex p, PodFailure why, const std::string& msg);
  // Stops a running attempt and returns the work lost since the pod's last
  // checkpoint (which moves to the latest one reached).
  double Interrupt(double now, PodIndex p);
  // DefaultPreemption evicted `p` for `preemptor`: it terminates.
  void Preempted(double now, PodIndex p, PodIndex preemptor);
  // Its grace period is over: its devices go and it waits again.
  void Terminated(double now, PodIndex p);
  void Finish(double now, PodIndex p, PodEnd how, const std::string& msg);
  // 1, or 1 / (1 + c (k − 1)) for a pod on two or more MIG instances
  // (ModelParams::multi_gpu_comm_share, mig_comm_slowdown).
  double MigCommFactor(const std::vector<int>& domains) const;
  // "" or why pod p's ranks cannot start: it holds two grants on one
  // device (time-slicing or MPS replicas of one GPU, handed to one pod
  // with failRequestsGreaterThanOne false). The device plugin gives the
  // container each device once (uniqueDeviceIDsFromAnnotatedDeviceIDs), so
  // its ranks meet on one GPU and NCCL's init refuses them ("Duplicate GPU
  // detected", ncclInvalidUsage): the container exits, and restarts in place
  // on the same devices. A pod running in an imported dump is exempt.
  std::string RankCollision(PodIndex p) const;
  // "" or why pod p's tensor-parallel LLM engine cannot start: one of its
  // devices is a MIG instance (no P2P; docs/model.md §6.8), or it holds
  // other than tensor_parallel devices.
  std::string TensorParallelRefusal(PodIndex p) const;
  void Recompute(double now, int domain);
  void Advance(double now, PodIndex p);
  void Reschedule(double now, PodIndex p);
  void Fault(double now, int domain, int spec);
  // A fault with a GPU reset: every domain of the GPU of `domain`.
  void ResetGpu(double now, int domain, const FaultSpec& spec);
  void Recover(double now, int domain);
  // mig-manager recreates the layout of the GPU whose first domain is
  // `first`.
  void ReapplyMigLayout(double now, int first);
  // The domains of the GPU of `domain`: [first, end).
  std::pair<int, int> GpuDomains(int domain) const;
  // The domains fault spec `spec_index` targets (fault_domains_).
  const std::vector<int>& FaultDomains(int spec_index);
  void StallDevicePlugin(int node, bool stalled);
  // The device plugin's health of a domain's device (the GPU, or its MIG
  // instance), passed on to the scheduler.
  void SetHealthy(int domain, bool healthy);
  // Pushes the next fault of a rate-based fault spec after `now`.
  void ScheduleNextFault(double now, int spec_index);
  void Sample(double now);
  // Reports each running inference pod's p50/p99 for the interval.
  void SampleLatency(double now);
  // An LLM engine pod's latency on `domain` (its slowest) with the share
  // and contexts of `in` (kShared), or as if alone there (kAlone, kDuty),
  // through the pod's memo `memo` when it has memos.
  // The share-model duty of an LLM engine pod alone on `domain`.
  double EngineDuty(const Pod& pod, const PodRun& run,
                    const DomainRun& domain) const;
  // A resident's duty: its engine's, else from its needs.
  double ResidentDuty(PodIndex p) const;
  Latency EngineLatency(const Pod& pod, const PodRun& run,
                        const DomainRun& domain, const LatencyInputs& in,
                        EngineMemo memo) const;
  // The sequences at once of engine pod `p` with `kv_tokens` of KV cache
  // (LlmEngine::MaxConcurrentSeqs), from its memo when they are its last.
  int64_t EngineMaxSeqs(PodIndex p, int64_t kv_tokens);
  bool WorkLeft() const;
  // Autoscaled pools (sim/simulation_autoscaling.cc; docs/model.md,
  // "Elastic node pools"). BuildElastic (constructor) sets elastic_ when a
  // pool autoscales; StartElastic (Run) makes the autoscalers and queues
  // their first decisions.
  void BuildElastic();
  void StartElastic();
  // An autoscaler's decision at its time, carried out.
  void ElasticDecision(double now, int autoscaler);
  // A node lifecycle step (simulation_internal::ElasticStep) of `node`.
  void ElasticNodeStep(double now, int node, int step);
  bool ElasticStale(const Event& e) const;
  // Pods, pending or gone, that its autoscaler must see or that close a
  // drain: a failed cycle, a bind, a pod that left a draining node.
  void ElasticUnschedulable(double now, PodIndex p, const std::string& message,
                            bool unchanged);
  void ElasticBound(double now, PodIndex p);
  void ElasticQueued(double now, PodIndex p);
  void ElasticPodGone(double now, int node);
  // Nodes launching or draining, or pods waiting for a scale-up that may
  // still come.
  bool ElasticWorkLeft() const;
  AutoscalerSnapshot ElasticSnapshot(double now, int autoscaler) const;
  // Seconds from a launch in `pool` until its GPUs are allocatable.
  double ElasticBringUpS(int pool) const;
  // Launches a node in `pool` (false at max).
  bool LaunchNode(double now, int pool, const std::string& instance_type,
                  bool spot);
  // Cordons `node` and evicts its pods, each with its grace period at most
  // `cap_s`; the node goes when they are gone, at the latest after that.
  void DrainNode(double now, int node, double cap_s, const std::string& why);
  void EvictForDrain(double now, PodIndex p, double grace_s,
                     const std::string& reason);
  void RemoveNode(double now, int node);
  // Marks the domains of empty slots absent in a sample; records the node
  // counts; closes the books at the end of the run.
  void SampleElastic(double now, std::vector<DomainState>* states);
  void RecordElasticSample(double now);
  void FinishElastic(double now);
  // Whether a popped event was replaced by a later one and does nothing.
  bool Stale(const Event& e) const;

  Scenario scenario_;
  std::unique_ptr<Cluster> cluster_;
  std::unique_ptr<Scheduler> scheduler_;
  std::vector<std::unique_ptr<ShareModel>> share_models_;  // by scheme
  std::vector<ModelParams> pool_params_;                   // by pool
  // The pods alive, by PodIndex; the stream the next arrivals come from.
  PodSlots<LivePod> live_;
  std::unique_ptr<WorkloadStream> stream_;
  // The runs RunOrGone gives for pods not alive.
  PodRun waiting_run_;
  PodRun done_run_ = DoneRun();
  int64_t pod_total_ = 0;
  // Pods ended for good since the last event; released by ReleaseEnded().
  std::vector<PodIndex> ended_;
  // Pods per shared ResourceClaim (the scan's count).
  std::unordered_map<std::string, int64_t> claim_pods_;
  // By pool: pods sharing ResourceClaims (Pod::dra_claim) run there, so
  // its GPUs are time-sliced among a claim's pods (BuildDomains).
  std::vector<uint8_t> shared_claim_pools_;
  std::unordered_map<std::string, int> node_index_;  // node name → index
  // One per engine pod alive that started (PodRun::llm_memo), recycled
  // through llm_memos_free_ when the pod is released. Mutable: EngineLatency
  // is a const query that fills them.
  mutable std::vector<EngineMemos> llm_memos_;
  std::vector<int32_t> llm_memos_free_;
  std::vector<DomainRun> domains_;
  std::vector<DomainInfo> domain_info_;
  // Per fault spec: the domains it may strike (its pool, node and GPU), in
  // index order, built at its first fault; and how many domains lost their
  // MIG layout to a reset (then those are left out of a draw).
  std::vector<std::vector<int>> fault_domains_;
  std::vector<uint8_t> fault_domains_built_;
  int layout_lost_domains_ = 0;
  // node → gpu → first domain; MIG instances follow in layout order.
  std::vector<std::vector<int>> gpu_domain_;
  // Dynamic MIG: per node its MIG operation queue (null elsewhere), and per
  // pool the sampled fragmentation.
  std::vector<std::unique_ptr<MigInstanceLifecycle>> mig_lifecycles_;
  std::vector<DynamicMigStats> mig_fragmentation_;
  bool has_dynamic_mig_ = false;
  std::vector<Resident> scratch_residents_;
  EventQueue events_;
  Rng rng_;
  SimulationObserver* observer_ = nullptr;
  int64_t event_count_ = 0;
  int64_t active_pods_ = 0;  // arrived and not done
  // Pushed recoveries, MIG re-applies and stall ends not yet handled: while
  // any is due, pending pods may still start, so sampling goes on.
  int64_t changes_due_ = 0;
  // Per node: device-plugin stalls in progress (node from the spec's pool).
  std::vector<int> stalls_;
  std::vector<int> stall_nodes_;  // per device_plugin_stalls entry
  std::vector<GangRun> gangs_;
  // Per pod: its gang, or -1 (empty when the workload has no gangs).
  std::vector<int> gang_of_;
  std::unordered_map<std::string, int> gang_index_;  // PodGroup → gang
  // A gang member's last FitError message from the scheduler (Schedule()).
  std::unordered_map<PodIndex, std::string> gang_messages_;
  std::vector<int> dirty_gangs_;  // gangs whose members' rates changed
  std::vector<int> dormant_gangs_;
  std::unique_ptr<QueueAdmission> kueue_;
  std::vector<KueueWorkloadRun> kueue_workloads_;
  // Per pod: its workload, or -1 (empty without queues).
  std::vector<int> kueue_workload_of_;
  std::vector<int> kueue_workload_of_gang_;  // the scan's: gang → workload
  std::vector<int> kueue_run_of_;       // Kueue id → kueue_workloads_ index
  bool kueue_dirty_ = false;            // a cycle may admit or evict
  double clock_ = 0;                    // the time of the event handled
  // The earliest pending kBackoffExpiry event (infinity: none).
  double backoff_event_s_ = std::numeric_limits<double>::infinity();
  // Autoscaled pools: null when no pool autoscales.
  std::unique_ptr<simulation_internal::ElasticRun> elastic_;
  AutoscalerFactory autoscaler_factory_;
};

}  // namespace gpushare

#endif  // GPUSHARE_SIM_SIMULATION_H_
