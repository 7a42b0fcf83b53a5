#pragma once
// The image lab's choices as settings.json gave them, checked against the kernels
// this kernelscope has; and the scene's way back to choices that ran.
#include <string>
#include <vector>

#include "app/app_state.h"

namespace ks {

// Puts saved choices into the lab. A variant this kernelscope does not know (a file
// from another version) is dropped for the device's default, and a full
// configuration that is not of its variant is dropped; each drop is returned as a
// message for the log. Whether the device runs the rest is for the scene to find
// out (ImageLabState::choicesFromSettings).
std::vector<std::string> restoreImageLab(const ImageLabChoices& saved, ImageLabState& lab);

// After a failed run: the pipeline's choices (variants, configurations, rotation and
// transpose) go back to `ran`, those of the last run that worked; the histogram's
// display, the view and the save path stay as the user has them.
void restorePipelineChoices(const ImageLabChoices& ran, ImageLabChoices& choices);

}  // namespace ks
