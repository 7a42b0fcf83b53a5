#pragma once
// The image lab: an image (dropped, opened or the built-in test picture) goes
// through rotate -> optional transpose on the device; the original and the result
// are written into SharedImages that GL draws straight from (through the interop
// layer); the histogram and statistics of either are computed on the device.
// Nothing in a frame waits for the device: kernel times, histogram and inspected
// pixels are read back without blocking and published when they arrive (the next
// frame at most). Driven by AppState::image; the panels place the pictures (zoom,
// pan, inspector) and LabRenderer draws them inside ImGui's draw lists.
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "io/image_file.h"
#include "io/image_loader.h"
#include "app/lab_renderer.h"
#include "io/result_saver.h"
#include "app/scene.h"
#include "io/settings.h"
#include "compute/background_runs.h"
#include "compute/rotate_fill_count.h"
#include "compute/image_histogram.h"
#include "compute/image_layout.h"
#include "compute/image_rotate.h"
#include "compute/image_transpose.h"
#include "compute/interop/histogram_display.h"
#include "compute/interop/picture_levels.h"

namespace ks {

class ImageLabState;

class ImageScene final : public Scene {
 public:
  // runsOnWorker: AppOptions::imageRunsOnWorker (unset: a worker on CPU devices).
  ImageScene(ComputeContext& compute, InteropBackend& interop, AppState& state,
             std::optional<bool> runsOnWorker = std::nullopt);
  ~ImageScene() override;
  void rebindInterop(InteropBackend& interop) override;
  void reloadKernels(AppState& state) override;
  std::vector<ProgramToBuild> programsInUse(const AppState& state) const override;
  void update(AppState& state, double seconds) override;
  void draw(AppState& state, int viewportW, int viewportH) override;
  bool finishing() override;

 private:
  // The pipeline's settings as last applied; a change recomputes.
  struct Applied {
    RotateConfig rotate;
    RotateParams params;
    bool transpose = false;
    TransposeConfig transposeConfig;
    HistogramConfig histogram;
    bool histogramOfResult = true;
    bool operator==(const Applied&) const = default;
  };
  ImageLimits limits() const;
  // Starts building the programs `wanted` needs off the frame (app/image_kernel_builds);
  // true once all have finished, else the lab's readings say which kernel builds.
  bool kernelsBuilt(AppState& state, const Applied& wanted);
  // Open requests start decodes on the loader; a finished decode is put on the device.
  // `canReplaceImage`: false while a background run reads the current image; a
  // finished decode (or the test image) then waits for the run to end.
  void openRequested(AppState& state, bool canReplaceImage);
  void finishOpening(DecodedImage decoded, AppState& state);
  void publishLoading(ImageLabState& lab) const;
  // All or nothing: an image that cannot be put on the device leaves the previous one.
  void setImage(HostImage image, const std::string& path, AppState& state);
  // The image, its device buffer and its picture (made and filled) become the lab's.
  void useImage(HostImage image, Buffer buffer, std::unique_ptr<SharedImage> picture, const std::string& path,
                AppState& state);
  // An image opened from a file is shown: the message and the recent files.
  void opened(AppState& state);
  // Background runs: a decoded file is put on the device (upload, its picture made)
  // by the worker; the previous image stays shown and in use until finishUpload.
  void startUpload(HostImage image, const std::string& path, double decodeSeconds);
  void finishUpload(AppState& state);
  void abandonUpload() noexcept;
  void runPipeline(AppState& state, const Applied& wanted);
  // What a run still needs from the frame loop once its kernels are enqueued
  // (inline) or finished (background): the result picture released to GL, the
  // histogram's copy for the plot, the times.
  void finishRun(AppState& state);
  // A failed run: the message, and the panel put back on what last ran.
  void pipelineFailed(AppState& state, const std::exception& e);
  // Background runs: the run in flight, once finished, shown (never waits).
  void pollBackgroundRun(AppState& state);
  // Waits for a background run in flight and drops its result (what it used is
  // about to change or go: kernels reloaded, another interop path, the scene closing).
  // `decodeAgain`: a file on its way to the device is asked for again (the scene
  // stays; a scene that goes leaves it to the next one, through loadingPath).
  void discardBackgroundRun(bool decodeAgain = true) noexcept;
  // A run that failed or was dropped: its picture handed back to GL unchanged.
  void abandonRun() noexcept;
  bool backgroundRunBusy() const { return runs_ && runs_->busy(); }
  // A picture made for the lab. Making one of a large image is slow (llvmpipe
  // clears a 74 MB buffer in about 100 ms), and so are dropping one and handing a
  // finished one to GL (a copy of it, inside the call on PoCL's basic device):
  // background runs do at most one of them a frame.
  std::unique_ptr<SharedImage> makePicture(int width, int height);
  bool resultNeedsNewPicture(const Applied& wanted) const;
  // What the lab no longer uses (a picture, a device buffer, an image's pixels):
  // with background runs, freed later, one a frame (see update).
  template <typename T>
  void retire(T unused) {
    if (runs_) retired_.push_back(std::make_shared<T>(std::move(unused)));
  }
  // Whether a new run may start now: background runs go one at a time, each once
  // the last one's picture and histogram have been handed to GL.
  bool canStartRun() const;
  // The picture `image` shows of `pixels`, into `rgba` (its buffer being updated):
  // the levels its beginUpdate was given, level 0 included or not.
  void enqueueToRgba(Queue& queue, cl_mem pixels, const ImageLayout& layout, const SharedImage& image,
                     SharedBuffer& rgba);
  size_t displayGroupSize(const Kernel& toRgba) const;
  void showOnImage(cl_mem pixels, const ImageLayout& layout, std::unique_ptr<SharedImage>& image,
                   PictureLevelMask levels = allPictureLevels);
  // Publishes the kernel times and histogram of the last run once they arrived;
  // `wait`: waits for them (before the next run replaces them).
  void collectResults(AppState& state, bool wait);
  // The histogram plot from the last run's bins, its fill left out (waits for the fill count).
  void plotHistogram(int channels);
  // Whether the frame loop's run waits for its fill count (never on a CPU device's worker).
  bool fillCountPending() const { return !runs_ && running_ && !running_->fill.ready(); }
  Applied wantedFrom(AppState& state) const;
  void fitRotationToImage(AppState& state);
  void inspect(AppState& state);
  void save(AppState& state);
  void publish(AppState& state);

  // The device's default configurations for gray [0] and RGBA [1] images, worked
  // out once here instead of in every frame's wantedFrom.
  struct DeviceDefaults {
    HistogramConfig histogram;
  };
  static DeviceDefaults defaultsFor(const DeviceDescriptor& device, int channels);
  const DeviceDefaults& defaults(int channels) const { return defaults_[channels == 4 ? 1 : 0]; }

  ComputeContext& compute_;
  DeviceDefaults defaults_[2];
  std::array<size_t, 2> maxImage2d_;  // the device's largest image2d_t: larger images need the buffer kernels
  RotateConfig rotateDefault_;        // the fastest rotation this device runs on this image, set with the image
  InteropBackend* interop_;
  HostImage original_;
  ImageLayout originalLayout_, resultLayout_;
  Buffer originalBuffer_, rotatedBuffer_, transposedBuffer_;
  cl_mem result_ = nullptr;  // rotatedBuffer_ or transposedBuffer_
  std::unique_ptr<ImageRotator> rotator_;
  std::unique_ptr<ImageTransposer> transposer_;
  std::unique_ptr<ImageHistogrammer> histogrammer_;
  std::unique_ptr<SharedImage> originalImage_, resultImage_;
  std::vector<std::shared_ptr<void>> retired_;  // no longer used: freed one a frame
  bool slowGlWorkThisFrame_ = false;
  bool fitWhenShown_ = false;  // a new image: the view is fitted to its first result
  // Run the kernels again though the choices are those applied (reloaded kernels, or
  // RunImagePipeline): kept until a run can start.
  bool runAgain_ = false;
  LabRenderer renderer_;
  ImageLabState* lab_;  // where the pictures are published; cleared when the scene goes
  // The last run's kernel events, read when they have finished.
  struct RunEvents {
    ImageOpEvents rotate, transpose, histogram;
    // The histogram of the result leaves out the rotation's fill (compute/rotate_coverage.h):
    // how many pixels, of which value. Counted where the run is enqueued (the worker, on CPUs),
    // the forward mapping's on a thread of its own on the frame loop (compute/rotate_fill_count.h).
    // No default member initializers: clang 14 then cannot default-construct the struct
    // for std::optional inside this class; running_.emplace() value-initializes (zeros).
    RotateFillCount fill;
    std::array<uint8_t, 4> background;
  };
  std::optional<RunEvents> running_;  // background: the worker writes it until the run finished
  // The channels of a plot put off until the run's fill count arrives (collectResults); 0: none.
  int plotAwaitingFill_ = 0;
  // The run in flight: whether it writes the result picture (a rotation that could
  // not be prepared leaves only the original's histogram to run), and the result
  // it makes, which becomes result_ once it is finished (background) or at once.
  struct InFlight {
    bool picture;
    cl_mem result;
    ImageLayout layout;
    ImageLabChoices choices;  // the panel's choices it ran with: lastGoodChoices_ once it worked
    // A result of another size is written into a new picture, which replaces the one
    // shown once the run is done: until then the last result stays in view (a new
    // picture is blank until its run ends, a second or more on a CPU device).
    std::unique_ptr<SharedImage> newPicture;
    SharedImage* target = nullptr;  // the picture the run writes: newPicture or resultImage_
  };
  std::optional<InFlight> inFlight_;
  // A decoded file on its way to the device (background runs only): the worker's
  // run writes `buffer` and the picture; nothing here is the lab's until it finished.
  struct Upload {
    std::string path;
    HostImage image;
    ImageLayout layout;
    Buffer buffer;
    std::unique_ptr<SharedImage> picture;
    double decodeSeconds = 0.0;
    std::chrono::steady_clock::time_point since;
    bool stopped = false;  // the user stopped opening it: dropped when the worker is done
  };
  std::unique_ptr<Upload> upload_;  // a fixed address: the worker's run uses it
  // A pixel of the result asked for by the inspector, read without blocking.
  struct InspectRead {
    Event done;
    int x = -1, y = -1;
    unsigned long long run = 0;  // the pipeline run it reads the result of
    unsigned char value[4] = {0, 0, 0, 0};
  };
  std::unique_ptr<InspectRead> inspectRead_;  // a fixed address: the device writes into it
  unsigned char resultPixel_[4] = {0, 0, 0, 0};  // the last pixel read, at resultPixelAt_
  std::pair<int, int> resultPixelAt_{-1, -1};
  unsigned long long resultPixelRun_ = 0;  // the pipeline run resultPixel_ comes from
  Kernel toRgba_;
  std::unique_ptr<PictureLevels> pictureLevels_;  // the pictures' smaller levels, after to_rgba
  std::unique_ptr<HistogramDisplay> histogramDisplay_;  // the bins where GL draws the plot from
  // What the plot leaves out of the last bins (the rotation's fill): how many, in which bin per channel.
  uint64_t shownLeftOut_ = 0;
  std::array<uint8_t, 5> shownLeftOutBins_{};
  size_t displayGroup_ = 64;  // to_rgba's work-group size on this device
  ImageLoader loader_;
  ResultSaver saver_;
  std::string loadNote_;             // about files dropped with the one being decoded
  std::optional<Applied> applied_;   // what the last run asked for, whether or not it ran
  // The panel's pipeline choices when the pipeline last ran: where a failure goes back to.
  std::optional<ImageLabChoices> lastGoodChoices_;
  // Where the device runs kernels on the host (CPU devices), the pipeline's runs
  // are enqueued from this worker thread, and frames only poll (see the constructor).
  // Null elsewhere: runs are enqueued from the frame loop. Last: destroyed first,
  // waiting for a run in flight before what it uses goes.
  std::unique_ptr<BackgroundRuns> runs_;
};

}  // namespace ks
