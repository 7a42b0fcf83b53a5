#pragma once
// The image lab's choices between the state the panels edit and settings.json.
#include <string>
#include <vector>

#include "app/app_state.h"
#include "io/settings.h"

namespace ks {

ImageLabSettings imageLabSettingsOf(const ImageLabState& lab);
const char* imageLabViewName(ImageLabState::View view);  // as settings.json spells it

// Puts saved choices into the lab. A variant this kernelscope does not know (a file
// from another version) is dropped for the device's default; each drop is returned
// as a message for the log. Whether the device runs the rest is for the scene to
// find out (ImageLabState::choicesFromSettings).
std::vector<std::string> restoreImageLab(const ImageLabSettings& saved, ImageLabState& lab);
// Only the pipeline's part: variants, configurations, rotation and transpose.
std::vector<std::string> restorePipelineChoices(const ImageLabSettings& saved, ImageLabState& lab);

}  // namespace ks
