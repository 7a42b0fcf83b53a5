#include "app/image_lab_choices_check.h"

namespace ks {

std::vector<std::string> restoreImageLab(const ImageLabChoices& saved, ImageLabState& lab) {
  std::vector<std::string> notes;
  auto known = [&notes](const std::string& variant, const char* kind, bool found) {
    if (variant.empty() || found) return true;
    notes.push_back("settings: the saved " + std::string(kind) + " variant '" + variant +
                    "' is not one this kernelscope has; using the device's default");
    return false;
  };
  ImageLabChoices& c = lab.choices;
  c = saved;
  const ImageLabChoices defaults;
  if (!known(c.rotateVariant, "rotate", findImageRotateVariant(c.rotateVariant))) {
    c.rotateVariant.clear();
    c.rotateGroup = defaults.rotateGroup;
    c.rotateBlock = defaults.rotateBlock;
  }
  if (!known(c.transposeVariant, "transpose", findImageTransposeVariant(c.transposeVariant)))
    c.transposeVariant.clear();
  if (!known(c.histogramVariant, "histogram", findImageHistogramVariant(c.histogramVariant)))
    c.histogramVariant.clear();
  // A full configuration only goes with its own variant.
  if (c.transposeChoice && c.transposeChoice->variant != c.transposeVariant) c.transposeChoice.reset();
  if (c.histogramChoice && c.histogramChoice->variant != c.histogramVariant) c.histogramChoice.reset();
  lab.choicesFromSettings = !c.rotateVariant.empty() || !c.transposeVariant.empty() || !c.histogramVariant.empty();
  return notes;
}

void restorePipelineChoices(const ImageLabChoices& ran, ImageLabChoices& choices) {
  choices.rotateVariant = ran.rotateVariant;
  choices.rotateGroup = ran.rotateGroup;
  choices.rotateBlock = ran.rotateBlock;
  choices.angle = ran.angle;
  choices.expandCanvas = ran.expandCanvas;
  choices.transparentBackground = ran.transparentBackground;
  choices.background = ran.background;
  choices.transpose = ran.transpose;
  choices.transposeVariant = ran.transposeVariant;
  choices.transposeChoice = ran.transposeChoice;
  choices.histogramVariant = ran.histogramVariant;
  choices.histogramChoice = ran.histogramChoice;
}

}  // namespace ks
