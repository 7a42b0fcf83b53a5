#pragma once
// The look of the panels (apart from the ImGui back-ends, so that tests without a
// window use the same style).

namespace ks {

// ImGui's dark style, rounded a little, with opaque panels, menus, combo lists and
// tooltips: the dark style's 94% let the text underneath show through.
void applyAppStyle();

}  // namespace ks
