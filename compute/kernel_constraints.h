#pragma once
// The constraints more than one operation has (compute/kernel_op.h), written once:
// the descriptors (kernel_ops.cpp) list them and the shared checks
// (image_op_checks.cpp) fill in their reasons, so a refusal has one text.
#include <string>

#include "compute/kernel_op.h"

namespace ks {

const KernelConstraint& channelsConstraint();             // {channels}
const KernelConstraint& workGroupWidthConstraint();       // {x} {offered}
const KernelConstraint& workGroupHeightConstraint();      // {y} {offered}
const KernelConstraint& workGroup2dItemsConstraint();     // {x} {y} {items} {max}
const KernelConstraint& workGroup2dSizesConstraint();     // {x} {y} {max_x} {max_y}
const KernelConstraint& workGroupItemsConstraint();       // {items} {max}
const KernelConstraint& workGroupItemSizeConstraint();    // {items} {max}
const KernelConstraint& workGroupOfferedConstraint();     // {items} {variant} {offered}
const KernelConstraint& pixelsPerItemOfferedConstraint(); // {pixels} {variant} {offered}
const KernelConstraint& rowsPerItemOfferedConstraint();   // {rows} {variant} {offered}
// The compiled kernel allows fewer work-items per group than asked (registers):
// {kernel} {max} {items}. Known only once the kernel is built.
const KernelConstraint& kernelWorkGroupConstraint();
// `what` needs more local memory than the device has: {bytes} {max}. `what` is
// what the kernel keeps there ("the tile"); its words are part of the reason.
KernelConstraint localMemoryConstraint(const std::string& what, const std::string& id = "local_memory");

}  // namespace ks
