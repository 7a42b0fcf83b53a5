#pragma once
// The exit codes moved to core/ with ks::Error, which carries one; this name stays
// so that code written against compute/exit_code.h keeps building.
#include "core/exit_code.h"
