#pragma once
// A column of panels too short for all of them (the left column at 1024x700 with Runs
// and Sweep open held six panels of 40 to 75 pixels each, none of them usable): the
// panels the user works in keep a useful height, the others fold to their title bars.
// The user unfolds a folded panel with its title bar's arrow (or a double click);
// the panel unfolded longest ago then folds in its place.
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ks {

struct ColumnFolding {
  std::set<std::string> foldedByUser;       // folded with the arrow: they stay folded
  std::vector<std::string> unfoldedByUser;  // unfolded with the arrow, the latest first
};

// Which of `column` (its panels' titles, in their order from the top, each with the
// least length it is useful at in `useful`) fold to their title bars: those the user
// folded, and where the column's `length` cannot give every other panel its useful
// length, the ones the user did not unfold lately and, after them, those last in
// `priority` (the titles that matter most first; titles not in it come after). At
// least one panel stays unfolded.
std::set<std::string> panelsToFold(const std::vector<std::string_view>& column, const std::vector<float>& useful,
                                   float length, float titleLength, const ColumnFolding& folding,
                                   const std::vector<std::string_view>& priority);

}  // namespace ks
