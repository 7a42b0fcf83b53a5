#include "ui/column_folding.h"

#include <algorithm>

namespace ks {

std::set<std::string> panelsToFold(const std::vector<std::string_view>& column, const std::vector<float>& useful,
                                   float length, float titleLength, const ColumnFolding& folding,
                                   const std::vector<std::string_view>& priority) {
  std::set<std::string> folded;
  std::vector<std::string_view> candidates;
  for (std::string_view title : column) {
    if (folding.foldedByUser.count(std::string(title))) folded.insert(std::string(title));
    else candidates.push_back(title);
  }
  // Rank: unfolded by the user lately first, then by priority, then as in the column.
  auto rank = [&](std::string_view title) {
    const auto user = std::find(folding.unfoldedByUser.begin(), folding.unfoldedByUser.end(), title);
    if (user != folding.unfoldedByUser.end()) return int(user - folding.unfoldedByUser.begin());
    const auto listed = std::find(priority.begin(), priority.end(), title);
    return int(folding.unfoldedByUser.size()) + int(listed - priority.begin());
  };
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](std::string_view a, std::string_view b) { return rank(a) < rank(b); });
  // In that order, each that still gets its useful length with every panel after it
  // folded; the first always.
  auto usefulOf = [&](std::string_view title) {
    return useful[size_t(std::find(column.begin(), column.end(), title) - column.begin())];
  };
  float taken = titleLength * float(column.size());
  for (size_t i = 0; i < candidates.size(); ++i) {
    const float more = std::max(usefulOf(candidates[i]) - titleLength, 0.0f);
    if (i == 0 || taken + more <= length) taken += more;
    else folded.insert(std::string(candidates[i]));
  }
  return folded;
}

}  // namespace ks
