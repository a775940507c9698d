#include "gpushare/cluster/labels.h"

namespace gpushare {

bool ParseTaintEffect(std::string_view text, TaintEffect* effect) {
  if (text == "NoSchedule") {
    *effect = TaintEffect::kNoSchedule;
  } else if (text == "PreferNoSchedule") {
    *effect = TaintEffect::kPreferNoSchedule;
  } else if (text == "NoExecute") {
    *effect = TaintEffect::kNoExecute;
  } else {
    return false;
  }
  return true;
}

std::string_view TaintEffectName(TaintEffect effect) {
  switch (effect) {
    case TaintEffect::kNoSchedule:
      return "NoSchedule";
    case TaintEffect::kPreferNoSchedule:
      return "PreferNoSchedule";
    case TaintEffect::kNoExecute:
      return "NoExecute";
  }
  return "";
}

}  // namespace gpushare
