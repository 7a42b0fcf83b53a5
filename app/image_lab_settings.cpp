#include "app/image_lab_settings.h"

#include <algorithm>
#include <cstdio>

namespace ks {

const char* imageLabViewName(ImageLabState::View view) {
  switch (view) {
    case ImageLabState::View::Original:
      return "original";
    case ImageLabState::View::SideBySide:
      return "side_by_side";
    case ImageLabState::View::Result:
      break;
  }
  return "result";
}

namespace {

ImageLabState::View viewFromName(const std::string& name) {
  if (name == "original") return ImageLabState::View::Original;
  if (name == "side_by_side") return ImageLabState::View::SideBySide;
  return ImageLabState::View::Result;
}

}  // namespace

ImageLabSettings imageLabSettingsOf(const ImageLabState& lab) {
  ImageLabSettings s;
  s.rotateVariant = lab.rotateVariant;
  s.rotateGroup = {lab.rotateGroup[0], lab.rotateGroup[1]};
  s.rotateBlock = {lab.rotateBlock[0], lab.rotateBlock[1]};
  s.angle = lab.angle;
  s.expandCanvas = lab.expandCanvas;
  s.transparentBackground = lab.transparentBackground;
  std::copy(std::begin(lab.background), std::end(lab.background), s.background.begin());
  s.transpose = lab.transpose;
  s.transposeVariant = lab.transposeVariant;
  s.transposeChoice = lab.transposeChoice;
  s.histogramVariant = lab.histogramVariant;
  s.histogramChoice = lab.histogramChoice;
  if (s.histogramChoice) s.histogramChoice->countedChannels = kAllHistogramChannels;  // follows showChannel
  s.histogramOfResult = lab.histogramOfResult;
  std::copy(std::begin(lab.showChannel), std::end(lab.showChannel), s.showChannel.begin());
  s.countShownOnly = lab.countShownOnly;
  s.logScale = lab.logScale;
  s.view = imageLabViewName(lab.view);
  s.inspectResult = lab.inspectResult;
  s.savePath = lab.savePath;
  return s;
}

std::vector<std::string> restorePipelineChoices(const ImageLabSettings& saved, ImageLabState& lab) {
  std::vector<std::string> notes;
  auto known = [&notes](const std::string& variant, const char* kind, bool found) {
    if (variant.empty() || found) return true;
    notes.push_back("settings: the saved " + std::string(kind) + " variant '" + variant +
                    "' is not one this kernelscope has; using the device's default");
    return false;
  };
  if (known(saved.rotateVariant, "rotate", findImageRotateVariant(saved.rotateVariant))) {
    lab.rotateVariant = saved.rotateVariant;
    lab.rotateGroup[0] = saved.rotateGroup[0];
    lab.rotateGroup[1] = saved.rotateGroup[1];
    lab.rotateBlock[0] = saved.rotateBlock[0];
    lab.rotateBlock[1] = saved.rotateBlock[1];
  }
  lab.angle = saved.angle;
  lab.expandCanvas = saved.expandCanvas;
  lab.transparentBackground = saved.transparentBackground;
  std::copy(saved.background.begin(), saved.background.end(), lab.background);
  lab.transpose = saved.transpose;
  if (known(saved.transposeVariant, "transpose", findImageTransposeVariant(saved.transposeVariant))) {
    lab.transposeVariant = saved.transposeVariant;
    // A full configuration only goes with its own variant.
    lab.transposeChoice = saved.transposeChoice && saved.transposeChoice->variant == saved.transposeVariant
                              ? saved.transposeChoice
                              : std::nullopt;
  }
  if (known(saved.histogramVariant, "histogram", findImageHistogramVariant(saved.histogramVariant))) {
    lab.histogramVariant = saved.histogramVariant;
    lab.histogramChoice = saved.histogramChoice && saved.histogramChoice->variant == saved.histogramVariant
                              ? saved.histogramChoice
                              : std::nullopt;
  }
  return notes;
}

std::vector<std::string> restoreImageLab(const ImageLabSettings& saved, ImageLabState& lab) {
  std::vector<std::string> notes = restorePipelineChoices(saved, lab);
  lab.histogramOfResult = saved.histogramOfResult;
  std::copy(saved.showChannel.begin(), saved.showChannel.end(), lab.showChannel);
  lab.countShownOnly = saved.countShownOnly;
  lab.logScale = saved.logScale;
  lab.view = viewFromName(saved.view);
  lab.inspectResult = saved.inspectResult;
  if (saved.savePath.size() < sizeof lab.savePath)
    std::snprintf(lab.savePath, sizeof lab.savePath, "%s", saved.savePath.c_str());
  else
    notes.push_back("settings: the saved path for results is longer than the field holds; using the default");
  lab.choicesFromSettings =
      !lab.rotateVariant.empty() || !lab.transposeVariant.empty() || !lab.histogramVariant.empty();
  return notes;
}

}  // namespace ks
