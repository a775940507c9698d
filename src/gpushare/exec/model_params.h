// ModelParams: every constant of the execution model, with its default.
//
// Contract: plain values; Validate() throws InputError naming the parameter
// and its valid range. Defaults and sources are in docs/model.md §6 (each
// line there names the field below). `Seed()` returns the source document's
// values (the `seed` model profile: 50 ms switch per 500 ms slice, 6 % vGPU
// overhead).

#ifndef GPUSHARE_EXEC_MODEL_PARAMS_H_
#define GPUSHARE_EXEC_MODEL_PARAMS_H_

#include <cstdint>
#include <string>

namespace gpushare {

struct ModelParams {
  // Time-slicing: the driver's default TSG timeslice is 1024 µs
  // (NVIDIA/open-gpu-kernel-modules kernel_fifo_gv100.c,
  // kfifoChannelGroupGetDefaultTimeslice_GV100).
  double time_slice_ms = 1.024;
  // Cost of one context switch between time slices. No datacenter
  // measurement exists; fitted so that 5 contending contexts take ≈ 1.2x
  // their serial time (T4 micro-test,
  // Oakwoo/seed-emulator examples/basic/A36_Nvidia_MPS/MPS_Tutorial.md):
  // efficiency t_slice / (t_slice + t_switch) = 1024 / (1024 + 200) ≈ 0.84.
  double context_switch_us = 200;
  // NVIDIA's DRA driver sets a GPU's timeslice from a claim's TimeSlicing
  // config with `nvidia-smi compute-policy --set-timeslice` 1, 2 or 3
  // (Short, Medium, Long; Default 0 leaves time_slice_ms) (kubernetes-sigs/
  // dra-driver-nvidia-gpu cmd/gpu-kubelet-plugin/nvlib.go setTimeSlice,
  // api/nvidia.com/resource/v1beta1/sharing.go TimeSliceInterval.Int). The
  // durations are not published: the open kernel modules only store the
  // level (NV2080_CTRL_GPU_COMPUTE_POLICY_CONFIG_DATA_TIMESLICE,
  // subdeviceCtrlCmdGpuSetComputePolicyConfig). A judgement: Short half the
  // default, Medium twice, Long eight times (docs/model.md §6.4).
  double dra_time_slice_short_ms = 0.512;
  double dra_time_slice_medium_ms = 2.048;
  double dra_time_slice_long_ms = 8.192;

  // MPS: throughput lost per co-running client through shared memory
  // bandwidth and caches (2 x vLLM on one A100 via MPS: −7.5 %, Pebble case
  // study, gopebble-com.pages.dev). A pod's speed is divided by
  // 1 + factor x (co-runners).
  double mps_interference_per_corunner = 0.075;

  // HAMi-core: interception overhead on the GPU phase ("< 1 %", maintainers,
  // Project-HAMi/HAMi issue #904; 0.3 µs per launch, BudEcosystem/
  // GPU-Virt-Bench BENCHMARK_ANALYSIS.md).
  double hami_interception_overhead = 0.01;
  // HAMi-core's core cap is loose: a pod capped at c gets up to
  // c + overshoot x (1 − c) of the GPU when others leave room (caps
  // 20/40/60/80 % delivered 40/65/84/95 %, midokura/HAMi-core
  // test/ablation/README.md: ≈ 0.25–0.75 of the headroom; 0.4 fits the
  // middle).
  double hami_core_cap_overshoot = 0.4;
  // HAMi's gpuCorePolicy `default`: the cap is enforced only while another
  // task is active on the GPU; a lone task may exceed it (Project-HAMi/HAMi
  // cmd/vGPUmonitor/feedback.go). Set true for `force`.
  bool hami_cap_when_alone = false;

  // MIG: seconds mig-manager takes to apply a GPU's layout once it starts
  // (create the GPU and compute instances, restart the device plugin) — as
  // after a GPU reset destroyed them. No hard number published (a change
  // drains the GPU's clients, then reconfigures: NVIDIA/mig-parted
  // pkg/mig/reconfigure/reconfigure.go).
  double mig_reconfigure_s = 30;

  // Dynamic MIG (NVIDIA's DRA driver, gate DynamicMIG): seconds to create
  // one GPU + compute instance at NodePrepareResources, to destroy it at
  // NodeUnprepareResources, and to enable (or disable) MIG mode on a GPU
  // that toggles it without a reset (Hopper and newer) before its first
  // instance (after its last). All three are judgements: no timing is
  // published (docs/model.md §11.2; cluster/dra/mig_instance_lifecycle.h).
  double mig_instance_create_s = 2;
  double mig_instance_destroy_s = 1;
  double mig_mode_enable_s = 5;

  // MIG: a pod holding several MIG instances (a multi-GPU job given
  // instances) cannot use CUDA peer-to-peer between them — no NVLink, no
  // PCIe P2P across instances (MIG User Guide, "Application
  // Considerations"); NCCL's traffic goes through host shared memory
  // (NVIDIA/nccl issue #1716: "all communication needs to go through shared
  // memory. That's going to be slow"). The job's communication share c (of
  // its time on whole GPUs with P2P) becomes k times slower: its rate is
  // divided by 1 + c x (k − 1). c: judgement for data-parallel training
  // with most of the all-reduce overlapped; k: host-staged copies against
  // P2P (tens of GB/s against hundreds over NVLink), a judgement.
  double multi_gpu_comm_share = 0.1;
  double mig_comm_slowdown = 10;

  // Failures: kubelet's CrashLoopBackOff starts at 10 s, doubles, caps at
  // 300 s (Kubernetes pod lifecycle docs).
  double restart_backoff_initial_s = 10;
  double restart_backoff_max_s = 300;
  // Restarts of a failing pod before the simulator gives up on it (a Job's
  // backoffLimit defaults to 6).
  int max_restarts = 6;
  // Reports warn when a pod was evicted more than this many times: a pod
  // evicted again and again means preemption is thrashing (a judgement:
  // "a few" evictions of one pod are the price of sharing with higher
  // priorities; more is a livelock, docs/model.md §4.1).
  int eviction_warning_per_pod = 3;
  // LLM serving engines (docs/model.md §6.8), fitted on published figures
  // (§6.8's calibration): achieved fractions of the device's dense 16-bit
  // tensor peak in the matrix products of prefill and large batches, of its
  // dense FP8 peak for FP8 weights, and of its peak DRAM bandwidth in
  // decode.
  double llm_prefill_flops_efficiency = 0.73;
  double llm_fp8_flops_efficiency = 0.5;
  double llm_decode_bandwidth_efficiency = 0.75;
  // How much of a step's matrix products and attention overlap as one
  // roofline: 0 (they are separate kernels, each the longer of its compute
  // and its reads, the step their sum) to 1 (the step is the longer of all
  // compute and all reads), §6.8; 0 gives the least error on §6.8's fit
  // rows.
  double llm_kernel_overlap = 0;
  // Tensor-parallel engines: each all-reduce of a step costs this latency
  // plus a ring's 2(N − 1)/N of its bytes over the GPU's link bandwidth
  // times the efficiency (fitted on the fit rows of §6.8's table).
  double llm_allreduce_latency_us = 40;
  double llm_allreduce_bandwidth_efficiency = 1;
  // Percentiles of the outputs (waits, admission waits, metric errors):
  // exact over at most `quantile_exact_limit` values, past it a DDSketch
  // within `quantile_relative_accuracy` of the exact value
  // (base/quantile_summary.h; docs/model.md §4.5). Judgements: the limit
  // keeps every example and bench scenario exact, α = 0.001 is below the
  // reports' printed precision.
  int64_t quantile_exact_limit = 2'000'000;
  double quantile_relative_accuracy = 0.001;
  // LLM engines' CPU time (docs/model.md §6.8, "Overheads"): per scheduler
  // invocation by scheduling policy, per sequence of the batch per step,
  // and per request (tokenizer, HTTP, detokenizer) on its first token.
  // Fitted jointly (one o for every policy) on SGLang 0.3.0 (eager) and
  // vLLM 0.6.0 (multi_step, 10 steps) serving Llama-3.1-8B on one
  // A100-80GB at 4 and 8 requests/s (sgl-project/sglang
  // benchmark/benchmark_vllm_060/README.md), on the roofline step model:
  // mean absolute error 2.9 % over their 8 median TTFTs and TPOTs (a grid
  // of o by 0.1, o_s by 0.005, r by 0.25 ms). chunked_prefill takes the
  // same o (no vLLM V1 figure at a stated rate and lengths was found).
  double llm_step_overhead_chunked_prefill_ms = 0.5;
  double llm_step_overhead_multi_step_ms = 0.5;
  double llm_step_overhead_eager_ms = 0.5;
  double llm_step_overhead_per_seq_ms = 0.14;
  double llm_request_overhead_ms = 8.75;

  // Elastic node pools (docs/model.md, "Elastic node pools"): a node an
  // autoscaler launches is billed from its launch; kubelet reports it
  // Ready node_boot_s later (then it is in the cluster, with no GPU
  // allocatable), and its GPUs are allocatable gpu_stack_ready_s after
  // that (the GPU Operator's driver, container toolkit and device plugin),
  // plus mig_reconfigure_s on a MIG pool (mig-manager applies the layout)
  // and hami_register_s on a HAMi pool (HAMi's device plugin registers the
  // node's devices in the annotation its scheduler reads). A reclaimed
  // spot node gets spot_interruption_notice_s of notice. A node group
  // whose node was given up (not ready within the autoscaler's provision
  // time) launches nothing for node_group_backoff_s.
  double node_boot_s = 60;
  double gpu_stack_ready_s = 300;
  double hami_register_s = 30;
  double spot_interruption_notice_s = 120;
  double node_group_backoff_s = 300;

  // The source document's toy values: slice 500 ms, switch 50 ms, vGPU loss
  // 6 % (seed_demo.py), used by `--model seed`.
  static ModelParams Seed();

  // Throws InputError on a value outside its range.
  void Validate() const;
};

}  // namespace gpushare

#endif  // GPUSHARE_EXEC_MODEL_PARAMS_H_
