// SchemeVariant: a scenario rewritten so that its whole cluster runs one
// sharing scheme, or kept as written (the scenario's own mixed plan).
//
// Contract: MakeSchemeVariant() converts every pool with GPUs to `scheme`:
// a pool that already uses the scheme keeps its settings; others get the
// CompareSpec's (time-slicing / MPS replicas, HAMi split count, the vGPU
// licence; MIG with the mixed strategy and the pool model's named config of
// its entry in `mig_families`, one per pool, "balanced" when not given). A pool whose GPU has no MIG stays exclusive in a MIG
// variant, and one whose GPU cannot run MPS clients with the replicas asked
// stays exclusive in an MPS variant; each such fallback is a note. The
// vGPU licence applies only to pools under HAMi. Requests written by hand
// in workload classes (`requests:`) are dropped in converted variants — they
// name one scheme's resources — and the pods' requests are translated from
// their needs instead (a note says so). Node labels, taints, selectors,
// faults, the scheduler profile, model and seed stay the same, so every
// variant replays the same pods on the same hardware.

#ifndef GPUSHARE_DECIDE_SCHEME_VARIANT_H_
#define GPUSHARE_DECIDE_SCHEME_VARIANT_H_

#include <optional>
#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/decide/comparison_spec.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

struct SchemeVariant {
  std::string name;        // "exclusive", "time-slicing", "mps", "mig",
                           // "hami", "plan" or "pool-plan"
  bool plan = false;       // the scenario's own plan, unchanged
  bool pool_plan = false;  // the selection's pool plan (decide/pool_plan.h)
  SharingScheme scheme = SharingScheme::kExclusive;  // uniform variants
  // MIG variants: the layout family of each pool ("" for pools that
  // stay exclusive or have no GPUs).
  std::vector<std::string> mig_families;
  Scenario scenario;
  std::vector<std::string> notes;
};

SchemeVariant MakeSchemeVariant(const Scenario& scenario, SharingScheme scheme,
                                const CompareSpec& spec,
                                const Catalog& catalog,
                                const std::vector<std::string>& mig_families = {});

// The scenario with each pool converted to its own scheme, as
// MakeSchemeVariant() converts every pool to one: `schemes[i]` is pool i's
// (nullopt, or past the end: the pool stays as written). Named "mixed",
// `scheme` exclusive; the caller names it.
SchemeVariant MakeMixedVariant(
    const Scenario& scenario,
    const std::vector<std::optional<SharingScheme>>& schemes,
    const CompareSpec& spec, const Catalog& catalog,
    const std::vector<std::string>& mig_families = {});

SchemeVariant MakePlanVariant(const Scenario& scenario);

// The name of the dynamic-MIG variant ("MIG (dynamic)" in reports).
inline constexpr const char* kDynamicMigVariant = "mig-dynamic";

// Whether `compare` and `plan` offer the dynamic-MIG variant: some pool of
// the scenario uses dynamic MIG, or the compare spec asks for it
// (CompareSpec::mig_dynamic), so other scenarios compare as before.
bool OffersDynamicMigVariant(const Scenario& scenario,
                             const CompareSpec& spec);

// The MIG variant (MakeSchemeVariant) with every pool of a MIG-capable GPU
// on NVIDIA's DRA driver with dynamic MIG instead of a static layout
// (devices: dra, no driver settings; a note for each pool moved off the
// device plugin). Named kDynamicMigVariant, scheme kMig.
SchemeVariant MakeDynamicMigVariant(const Scenario& scenario,
                                    const CompareSpec& spec,
                                    const Catalog& catalog);

// The licence per GPU-hour a pool converted to vGPU (HAMi) pays:
// CompareSpec::vgpu_licence_per_gpu_hour when set, else the highest licence
// of the scenario's HAMi pools (0 when it has none).
double VgpuLicencePerGpuHour(const Scenario& scenario, const CompareSpec& spec);

// A DRA pool (`devices: dra`) given a scheme DRA does not serve yet
// (PoolDevicesProblem: time-slicing, MPS, HAMi) runs it through its
// device plugin instead, as a cluster would: `pool.devices` is set back and
// the note saying so returned; "" (and nothing changed) otherwise.
std::string UseDevicePluginWhereDraCannot(NodePoolSpec& pool);

// Whether the scenario's GPU pools use more than one scheme (then its plan
// is compared too).
bool HasMixedPlan(const Scenario& scenario);

// How reports name a variant: a uniform variant by the name users know its
// scheme by (SharingSchemeDisplayName: "vGPU (HAMi)", "MIG", ...),
// "pool-plan" as "pool plan", any other ("plan") as it is.
std::string VariantDisplayName(const std::string& variant);

// The named MIG config of `family` for `model` ("balanced" → all-balanced;
// "3g" → all-3g.<memory> without media extension, the smallest memory if
// several), or "" when the model has none.
std::string MigConfigOfFamily(const GpuModel& model, const std::string& family);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_SCHEME_VARIANT_H_
