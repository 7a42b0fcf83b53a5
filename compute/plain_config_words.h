#pragma once
// A configuration as people read it. Run records name configurations the way
// files, build macros and the tuning cache do ("rotate bilinear wg=16x8 ppi=4",
// "blocked wg=256 unroll=8 B=2 S=1 fp32"); what the window and the Log show says
// the same in plain words ("rotate bilinear: work-group 16x8, 4 pixels per
// work-item"; "blocked kernel: 256 work-items per group, tiles of 256 bodies in
// local memory, ..."). The records keep their names. In ks_compute, beside the
// kernel descriptors, so that the app's messages use it as well as the panels.
#include <string>

namespace ks {

// Every key=value token and shorthand flag of a describe*Config name in words; the
// leading words (operation, variant) and anything not recognised stay as they are.
// An N-body name (it always names its precision) says what its work-group means.
// Several kernels joined by " + " (an image-lab recording) are each put in words.
std::string plainConfigurationWords(const std::string& name);

// The long form, for a tooltip: what the name's variant does and where its design
// comes from, in the words of its descriptor ("AMD's OpenCL University Kit
// nbody_sim: ..."), other variants named in it in words; empty for a name of no known variant.
std::string configurationVariantDescription(const std::string& name);

// A variant's name as people read it ("bilinear through the texture unit" for
// rotate's bilinear_image, "4x16 gray blocks" for transpose's block4x16_gray); the
// id itself where it is already plain words ("nearest", "tiled") or unknown. The
// ids stay in files, settings, the CLI and the records.
std::string plainVariantName(const std::string& operation, const std::string& variant);
// The same, for a variant id whose operation is not at hand (a run's name): the
// first image operation that has it (ids are plain words where two operations share one).
std::string plainVariantName(const std::string& variant);
// `text` (a refusal, a chart's label) with each variant id that is not a word
// ("bilinear_image", "block4x4") in words; the rest as it is.
std::string variantIdsInWords(const std::string& text);

// A chart's short label for the run `name` from the words of it that tell it apart from
// the other runs (`shown`, in their order): "1: blocked, 64 per group" for "1: blocked wg=64"
// of "recording 1: nbody blocked wg=64 unroll=8 fp32", shorter than plainConfigurationWords
// (a bar's name has a third of the chart); the whole name gives the words the same way.
std::string plainShortLabel(const std::string& name, const std::string& shown);

// One recorded parameter of a run (RunRecord::meta.parameters: "angle" = "30.000000",
// "vsync" = "1") as people read it: "angle 30°", "vsync on", "work group 256",
// "rotate bilinear through the texture unit". The records, CSV and JSON keep the raw values.
std::string plainParameterWords(const std::string& key, const std::string& value);

}  // namespace ks
