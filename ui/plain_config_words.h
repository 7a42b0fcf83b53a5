#pragma once
// A configuration as people read it. Run records name configurations the way
// files, build macros and the tuning cache do ("rotate bilinear wg=16x8 ppi=4");
// tables in the window show the same configuration in plain words ("rotate
// bilinear: work-group 16x8, 4 pixels per work-item"). The records keep their names.
#include <string>

namespace ks {

// Every key=value token and shorthand flag of a describe*Config name in words; the
// leading words (operation, variant) and anything not recognised stay as they are.
std::string plainConfigurationWords(const std::string& name);

}  // namespace ks
