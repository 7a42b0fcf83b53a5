#pragma once
// Short labels for runs, for the Runs panel's bars and table rows: what tells each
// run apart from the others, in short words, over at most a given number of lines
// of a given width. Names that still read alike once cut (a sweep's
// "blocked, 128 per group..." for runs that differ only in their unrolling) say
// first what differs between them ("unrolled 4 times; blocked, 128 per group, ...").
#include <string>
#include <vector>

namespace ks {

// `text` cut to `width` pixels (ImGui's current font) with "...", after a whole word
// where one ends in the second half of what fits ("bilinear through the...").
std::string fitText(const std::string& text, float width);
// `text` wrapped at its spaces over at most `lines` lines of `width` pixels ('\n'
// between them), the last cut with "..." when the rest does not fit.
std::string fitLines(const std::string& text, float width, int lines);

// The labels of runs named `names` (RunRecord::name, in their order), each within
// `lines` lines of `width` pixels: different names get different labels wherever
// words can tell them apart in that room.
std::vector<std::string> runLabels(const std::vector<std::string>& names, float width, int lines);

// The words of a run's name, split at its spaces (empty ones dropped).
std::vector<std::string> wordsOf(const std::string& name);

}  // namespace ks
