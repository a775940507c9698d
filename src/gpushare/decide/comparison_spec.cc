#include "gpushare/decide/comparison_spec.h"

namespace gpushare {

const WeightProfile* SelectionSpec::FindProfile(const std::string& name) const {
  for (const WeightProfile& p : profiles) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

SchemeRatings SelectionSpec::RatingsOf(SharingScheme scheme) const {
  const auto it = ratings.find(scheme);
  return it != ratings.end() ? it->second : DefaultSchemeRatings(scheme);
}

}  // namespace gpushare
