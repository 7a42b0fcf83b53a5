#include "ui/run_labels.h"

#include <imgui.h>

#include <algorithm>
#include <map>

#include "compute/plain_config_words.h"
#include "ui/panels.h"

namespace ks {

std::string fitText(const std::string& text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
  // The longest start that fits with "...", found by halving (a sweep's labels are cut
  // every frame the panels are built).
  size_t fits = 0, tooLong = text.size();
  while (tooLong - fits > 1) {
    const size_t mid = (fits + tooLong) / 2;
    if (ImGui::CalcTextSize((text.substr(0, mid) + "...").c_str()).x <= width) fits = mid;
    else tooLong = mid;
  }
  while (fits > 0 && (static_cast<unsigned char>(text[fits]) & 0xC0) == 0x80) --fits;  // not inside a character
  std::string cut = text.substr(0, fits);
  if (const size_t space = cut.rfind(' '); space != std::string::npos && space > cut.size() / 2 && cut.size() < text.size() &&
                                           text[cut.size()] != ' ')
    cut.erase(space);
  while (!cut.empty() && (cut.back() == ' ' || cut.back() == ',' || cut.back() == ':' || cut.back() == ';')) cut.pop_back();
  return cut + "...";
}

std::string fitLines(const std::string& text, float width, int lines) {
  std::string out, rest = text;
  for (int line = 1; line < lines && ImGui::CalcTextSize(rest.c_str()).x > width; ++line) {
    // The longest start that ends at a space and fits; none: the line is cut instead.
    size_t end = std::string::npos;
    for (size_t space = rest.find(' '); space != std::string::npos; space = rest.find(' ', space + 1)) {
      if (ImGui::CalcTextSize(rest.c_str(), rest.c_str() + space).x > width) break;
      end = space;
    }
    if (end == std::string::npos) break;
    out += rest.substr(0, end) + "\n";
    rest.erase(0, end + 1);
  }
  return out + fitText(rest, width);
}

std::vector<std::string> wordsOf(const std::string& name) {
  std::vector<std::string> w;
  for (size_t at = 0; at < name.size();) {
    const size_t end = std::min(name.find(' ', at), name.size());
    if (end > at) w.push_back(name.substr(at, end - at));
    at = end + 1;
  }
  return w;
}

namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

// A setting ("B=1") whose key has that one value in every name that has it tells no
// run apart (a sweep's blocked runs all with one body per work-item, its tiled runs
// without the setting): left out of `shown`, unless nothing would be left; a lone run
// keeps them all.
std::vector<std::string> withoutSettingsAlike(const std::vector<std::string>& names, std::vector<std::string> shown) {
  if (names.size() < 2) return shown;  // one run: nothing to tell apart, its whole name
  auto keyOf = [](const std::string& word) {
    const size_t eq = word.find('=');
    return eq == std::string::npos || eq == 0 || word.front() == '(' || word.front() == '[' ? std::string()
                                                                                            : word.substr(0, eq);
  };
  std::map<std::string, std::string> value;  // key -> its one value, or "" when it has several
  for (const std::string& name : names)
    for (const std::string& w : wordsOf(name))
      if (const std::string key = keyOf(w); !key.empty()) {
        const auto [at, added] = value.emplace(key, w);
        if (!added && at->second != w) at->second.clear();
      }
  for (std::string& s : shown) {
    std::vector<std::string> kept;
    for (const std::string& w : wordsOf(s))
      if (const std::string key = keyOf(w); key.empty() || value[key] != w) kept.push_back(w);
    if (!kept.empty()) s = joined(kept);
  }
  return shown;
}

}  // namespace

std::vector<std::string> runLabels(const std::vector<std::string>& names, float width, int lines) {
  const std::vector<std::string> shown = withoutSettingsAlike(names, distinguishingNames(names));
  std::vector<std::string> whole, labels;
  for (size_t n = 0; n < names.size(); ++n) {
    whole.push_back(plainShortLabel(names[n], shown[n]));
    labels.push_back(fitLines(whole[n], width, lines));
  }
  // Runs whose labels read alike once cut, though their names differ: the words that
  // differ between them first, then the rest as far as it fits.
  std::map<std::string, std::vector<size_t>> alike;
  for (size_t n = 0; n < names.size(); ++n) alike[labels[n]].push_back(n);
  for (const auto& [label, group] : alike) {
    if (group.size() < 2) continue;
    std::vector<std::string> groupNames;
    for (size_t n : group) groupNames.push_back(shown[n]);
    const std::vector<std::string> differ = distinguishingNames(groupNames);
    for (size_t k = 0; k < group.size(); ++k) {
      const size_t n = group[k];
      if (differ[k] == groupNames[k]) continue;  // nothing shared to move behind
      const std::vector<std::string> first = wordsOf(differ[k]);
      std::vector<std::string> rest;
      for (const std::string& w : wordsOf(shown[n]))
        if (std::find(first.begin(), first.end(), w) == first.end()) rest.push_back(w);
      std::string text = plainShortLabel(names[n], differ[k]);
      if (!rest.empty()) text += "; " + plainShortLabel(names[n], joined(rest));
      labels[n] = fitLines(text, width, lines);
    }
  }
  return labels;
}

}  // namespace ks
