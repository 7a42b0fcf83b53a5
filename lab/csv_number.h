#pragma once
// Numbers in the run files (CSV cells, and JSON fields read from those cells).
#include <string>

namespace ks {

// The shortest text that reads back as the same double (std::to_chars), so that a
// CSV round trip is exact.
std::string csvNumber(double v);
// The number in a cell: 0 for an empty one (not measured); throws
// std::invalid_argument naming the text when it is not a number.
double parseCsvNumber(const std::string& text);

}  // namespace ks
