#pragma once
// What the user chooses in the image lab: kernels, rotation, histogram and view
// options (not the image, zoom or pan). Panels edit it, the scene runs it, and
// settings.json keeps it as it is (the "image_lab" section): one struct, no copy.
#include <array>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "compute/image_histogram.h"
#include "compute/image_transpose.h"

namespace ks {

struct ImageLabChoices {
  // pipeline: original -> rotate -> optional transpose -> display
  // Empty variants: no choice made, the scene runs the device's defaults (its
  // readings say which). A choice sticks.
  std::string rotateVariant;
  std::array<int, 2> rotateGroup{16, 16};
  // Output pixels per work-item: along a row, rows (the image variants take 2x2 etc.).
  std::array<int, 2> rotateBlock{4, 1};
  float angle = 0.0f;
  // Spin: the angle turns by spinDegreesPerSecond per second of frame time, so every
  // frame recomputes the pipeline: a demo, and a check of what a change costs.
  // Not kept in settings.json: a start with a spinning picture would surprise.
  bool spin = false;
  float spinDegreesPerSecond = 30.0f;
  bool expandCanvas = false;
  bool transparentBackground = false;
  std::array<float, 4> background{0.1f, 0.1f, 0.12f, 1.0f};
  bool transpose = false;
  std::string transposeVariant;
  std::optional<TransposeConfig> transposeChoice;  // a full configuration of transposeVariant
  std::string histogramVariant;
  std::optional<HistogramConfig> histogramChoice;  // a full configuration of histogramVariant
  bool histogramOfResult = true;
  std::array<bool, 5> showChannel{true, true, true, false, true};  // R G B A luminance
  bool countShownOnly = false;  // RGBA: the kernel counts only the channels shown (less work)
  bool logScale = false;
  enum class View { Original, Result, SideBySide };
  View view = View::Result;
  bool inspectResult = true;                        // the inspector reads the result's pixels, else the original's
  std::string savePath = "kernelscope-result.png";  // SaveImageResult

  void useDefaultKernels();  // forget the kernel choices: the device's defaults run
  // The histogram kernel's channel mask for an image of `imageChannels`: all of them,
  // or with countShownOnly the RGBA channels shown (all when none is).
  int countedHistogramChannels(int imageChannels) const;
  bool operator==(const ImageLabChoices&) const = default;
};

const char* imageLabViewName(ImageLabChoices::View view);  // as settings.json spells it

// The "image_lab" section of settings.json. Reading fills what the section has and
// leaves the rest at its defaults; a key of the wrong type, or a view this version
// does not know, throws naming the key. Numbers are brought into range: whether the
// device runs the sizes read is the image lab's question (it falls back to its
// defaults). Which variants exist is checked by the lab (app/image_lab_choices_check.h).
void to_json(nlohmann::json& j, const ImageLabChoices& choices);
void from_json(const nlohmann::json& j, ImageLabChoices& choices);

}  // namespace ks
