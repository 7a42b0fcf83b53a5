#pragma once
// What the image lab's scene publishes for the panels, the state dump and run
// records: the open image, the running kernels and their times, the histogram and
// statistics, messages. Only the scene writes it; panels get it as const.
#include <string>

#include "compute/image_histogram.h"
#include "compute/image_rotate.h"
#include "compute/image_transpose.h"

namespace ks {

class LabRenderer;

struct ImageLabReadings {
  // the open image
  std::string path;         // empty: the built-in test image
  std::string description;  // "PNG 8-bit RGBA 640x480"
  int width = 0, height = 0, channels = 0;
  std::string openMessage;  // what the last open request did, shown by the path field
  bool openFailed = false;
  std::string loadingPath;      // a file decoding off the frame loop; empty: none
  double loadingSeconds = 0.0;  // since it was asked for
  std::string loadingWaitsFor;  // a dropped decode still running, which loadingPath waits for; empty: none
  std::string savingPath;       // a result PNG being written off the frame loop; empty: none
  double savingSeconds = 0.0;
  // pictures to draw (a result needs a rotation that ran)
  bool hasOriginal = false, hasResult = false;
  LabRenderer* renderer = nullptr;  // draws them inside ImGui's draw lists; the scene's
  int resultWidth = 0, resultHeight = 0, resultChannels = 0;
  // the kernels that run, and those that run while no choice is made: the fastest
  // for this image on this device (a sweep's winner where there is one)
  std::string runningRotate, runningTranspose, runningHistogram;
  RotateConfig defaultRotate;
  TransposeConfig defaultTranspose;
  HistogramConfig defaultHistogram;
  double rotateMs = 0.0, transposeMs = 0.0, histogramMs = 0.0;
  unsigned long long pipelineRuns = 0;  // counts runs of the pipeline
  unsigned long long timedRuns = 0;     // counts runs whose times above arrived (a frame after the run at most)
  // A run of the pipeline on the scene's worker thread (CPU devices) not yet shown,
  // or one waiting to start when the last one has been.
  bool runInFlight = false;
  ImageHistogram histogram;
  ImageStatistics statistics;
  // Pixels of the result outside the rotated picture (the background fill), which
  // the histogram and statistics leave out.
  unsigned long long histogramLeftOut = 0;
  // the inspector's answer to the pixel the panel asked for (ImageLabState::inspectX/Y)
  bool inspectValid = false;
  unsigned char inspectValue[4] = {0, 0, 0, 0};
  std::string message;
  std::string building;  // "building kernel ... for <device>" while the next run's programs compile; else empty
};

}  // namespace ks
