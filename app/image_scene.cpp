#include "app/image_scene.h"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>

#include "app/app_state.h"
#include "app/image_angle.h"
#include "app/image_kernel_builds.h"
#include "app/image_lab_choices_check.h"
#include "compute/plain_config_words.h"
#include "compute/rotate_coverage.h"
#include "compute/interop/rgba_conversion.h"
#include "io/image_paths.h"
#include "io/png_writer.h"
#include "io/test_image.h"
#include "lab/tuning_cache.h"

namespace ks {
namespace {

constexpr int kTestImageWidth = 640, kTestImageHeight = 480;
constexpr size_t kMaxRecentImages = 10;  // as many as settings.json keeps
constexpr uint64_t kHostBudgetBytes = uint64_t{1} << 30;  // one 8-bit copy of the image on the host

// The first runnable configuration of `variant`; the table is only enumerated
// when the variant is not the default's (this runs every frame).
template <typename Config, typename AllConfigs>
Config firstValid(AllConfigs all, const std::string& variant, const Config& fallback) {
  if (variant.empty() || variant == fallback.variant) return fallback;
  for (const auto& c : all())
    if (c.variant == variant) return c;
  return fallback;
}

// The rule for several files at once (a drop, `kernelscope *.jpg`): the first is
// opened, and the message says how many were left out.
// Where the open file is in a set of several opened at once, and how to step.
std::string fileSetNote(const ImageLabState& lab) {
  if (lab.fileSet.size() < 2) return {};
  return "; file " + std::to_string(lab.fileIndex + 1) + " of " + std::to_string(lab.fileSet.size()) +
         " (Page Down / Page Up, or the arrows in the Image lab, step through them)";
}

std::string errorText(const std::exception& e) {
  if (const auto* build = dynamic_cast<const ProgramBuildError*>(&e))
    return std::string(build->what()) + "\n" + build->build().log;
  return e.what();
}

// Why the pipeline's result cannot be shown, or empty. An expanded canvas grows
// each side by up to 1.41x (45 degrees) and a transpose swaps the sides, so a
// result can exceed what an opened image was checked against: OpenGL's texture
// size, and the device's largest buffer.
std::string resultSizeProblem(const ImageLayout& result, const ImageLimits& limits, uint64_t maxBufferBytes) {
  const std::string size = std::to_string(result.width) + "x" + std::to_string(result.height);
  if (result.width > limits.maxDimension || result.height > limits.maxDimension)
    return "the result would be " + size + " pixels; OpenGL takes at most " + std::to_string(limits.maxDimension) +
           " pixels per side (expanding the canvas makes it larger); the previous result stays";
  if (result.pixels() > limits.maxPixels)
    return "the result would be " + size + " pixels; OpenGL here draws at most " + std::to_string(limits.maxPixels) +
           " pixels of one picture (expanding the canvas makes it larger); the previous result stays";
  if (result.bytes() > maxBufferBytes)
    return "the result would be " + size + " pixels, " + std::to_string(result.bytes() >> 20) +
           " MiB; this device's largest buffer is " + std::to_string(maxBufferBytes >> 20) +
           " MiB; the previous result stays";
  return {};
}

}  // namespace

ImageScene::ImageScene(ComputeContext& compute, InteropBackend& interop, AppState& state,
                       std::optional<bool> runsOnWorker)
    : compute_(compute),
      defaults_{defaultsFor(compute.device(), 1), defaultsFor(compute.device(), 4)},
      maxImage2d_(deviceMaxImage2d(compute.device())),
      interop_(&interop),
      lab_(&state.image) {
  auto build = compute.buildKernelFile("display.cl");
  if (!build->ok()) throw ProgramBuildError(build);
  toRgba_ = Kernel(build->program.get(), "to_rgba");
  displayGroup_ = displayGroupSize(toRgba_);
  pictureLevels_ = std::make_unique<PictureLevels>(compute);
  histogramDisplay_ = std::make_unique<HistogramDisplay>(compute, interop);
  // A CPU device runs kernels on the host's cores, and a run of a large picture
  // takes far longer than a frame (a 3000x2000 rotation: about a second on PoCL).
  // PoCL's pthread device runs commands on threads of its own, but its basic device
  // runs a kernel inside clEnqueueNDRangeKernel, on the caller's thread: either way
  // only enqueueing and waiting on another thread keeps the frames going, the
  // frame showing the newest finished run. A GPU finishes a run in milliseconds;
  // there the runs stay in the frame loop, queued in order with the interop
  // hand-overs (gl-sharing and external memory acquire and release on the same
  // queue), double-buffered as before, so nothing changes in their order or speed.
  if (runsOnWorker.value_or(compute.device().kind == DeviceKind::Cpu))
    runs_ = std::make_unique<BackgroundRuns>(compute.context(), compute.device().id);
  ImageLabState& lab = state.image;
  // An image that is open, or was being opened, carries over a device switch: it is
  // decoded again (off the frame loop) over the test image.
  const std::string reopen = lab.readings_.loadingPath.empty() ? lab.readings_.path : lab.readings_.loadingPath;
  setImage(makeTestImage(kTestImageWidth, kTestImageHeight), "", state);
  if (!reopen.empty()) {
    loader_.request(reopen, limits());
    publishLoading(lab);
  }
}

ImageScene::~ImageScene() {
  discardBackgroundRun(false);  // before the pictures and buffers the run writes go
  lab_->readings_.runInFlight = false;
  lab_->readings_.building.clear();
  try {
    if (inspectRead_) inspectRead_->done.wait();  // the device writes into it
  } catch (const std::exception&) {
    // Going anyway; the read's failure matters to no one now.
  }
  // Panels must not draw pictures that go with the scene.
  lab_->readings_.hasOriginal = lab_->readings_.hasResult = false;
  lab_->readings_.renderer = nullptr;
}

ImageLimits ImageScene::limits() const {
  GLint maxTexture = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxTexture);
  const DeviceDescriptor& d = compute_.device();
  // The RGBA texture and the device buffers (result up to ~2x the pixels when the
  // rotation expands the canvas) must fit.
  const uint64_t deviceBytes = d.maxAllocBytes / 2;
  return {std::max(1, static_cast<int>(maxTexture)), std::min<uint64_t>(deviceBytes, kHostBudgetBytes),
          // A picture's smaller levels take up to a third of its size again.
          static_cast<uint64_t>(std::max<int64_t>(maxSharedImagePixels() / 4 * 3, 1))};
}

void ImageScene::setImage(HostImage image, const std::string& path, AppState& state) {
  // Device buffer and texture first, into new objects: if either fails (out of
  // memory), everything the scene had stays as it was, the previous image included.
  const ImageLayout layout{image.width, image.height, image.channels};
  Buffer buffer(compute_.context(), CL_MEM_READ_ONLY, layout.bytes());
  compute_.queue().writeBuffer(buffer, 0, layout.bytes(), image.pixels.data());
  std::unique_ptr<SharedImage> picture;
  showOnImage(buffer.get(), layout, picture);
  useImage(std::move(image), std::move(buffer), std::move(picture), path, state);
}

void ImageScene::useImage(HostImage image, Buffer buffer, std::unique_ptr<SharedImage> picture,
                          const std::string& path, AppState& state) {
  const ImageLayout layout{image.width, image.height, image.channels};
  retire(std::exchange(original_, std::move(image)));
  originalLayout_ = layout;
  retire(std::exchange(originalBuffer_, std::move(buffer)));
  retire(std::exchange(originalImage_, std::move(picture)));
  if (rotator_) rotator_->sourceChanged();
  rotateDefault_ = defaultRotateConfig(originalLayout_, compute_.device(), maxImage2d_);
  ImageLabState& lab = state.image;
  lab.readings_.path = path;
  lab.readings_.description =
      path.empty() ? "built-in test image " + describeImageLayout(originalLayout_) : original_.description;
  lab.readings_.width = original_.width;
  lab.readings_.height = original_.height;
  lab.readings_.channels = original_.channels;
  lab.readings_.defaultRotate = rotateDefault_;
  lab.readings_.defaultHistogram = defaults(originalLayout_.channels).histogram;
  fitWhenShown_ = true;  // fitted to its first result (until then the last result stays shown)
  applied_.reset();  // recompute everything for the new image
}

void ImageScene::showOnImage(cl_mem pixels, const ImageLayout& layout, std::unique_ptr<SharedImage>& image,
                             PictureLevelMask levels) {
  if (!image || image->width() != layout.width || image->height() != layout.height)
    image = interop_->createImage(layout.width, layout.height, TextureView::Pixels);
  SharedBuffer& rgba = image->beginUpdate(compute_.queue(), levels);
  try {
    enqueueToRgba(compute_.queue(), pixels, layout, *image, rgba);
  } catch (...) {
    // Hand the buffer back to GL whatever failed (a reloaded display.cl with other
    // arguments, a launch error): acquiring it again next time needs it released.
    try {
      image->abandonUpdate(compute_.queue());
    } catch (const std::exception&) {
      // The first error is the one to report.
    }
    throw;
  }
  image->endUpdate(compute_.queue());  // shown when the device is done: a frame later at most
}

void ImageScene::enqueueToRgba(Queue& queue, cl_mem pixels, const ImageLayout& layout, const SharedImage& image,
                               SharedBuffer& rgba) {
  // Level 0 only where it is drawn (a picture shrunk on screen is drawn from a
  // smaller level, made from the kernels' output directly).
  if (image.levelsBeingWritten() & 1u) {
    toRgba_.setArg(0, pixels);
    toRgba_.setArg(1, static_cast<cl_int>(layout.channels));
    toRgba_.setArg(2, rgba.clMem());
    toRgba_.setArg(3, static_cast<cl_int>(layout.pixels()));
    const size_t local = displayGroup_;
    const size_t items = toRgbaWorkItems(layout.pixels());
    queue.enqueueKernel(toRgba_, {(items + local - 1) / local * local}, {local});
  }
  pictureLevels_->enqueue(queue, image, rgba, {pixels, layout.channels});
}

size_t ImageScene::displayGroupSize(const Kernel& toRgba) const {
  // 64 where the compiled kernel allows it (it may allow fewer: registers, a small device).
  return std::clamp<size_t>(toRgba.workGroupSize(compute_.device().id), 1, 64);
}

void ImageScene::reloadKernels(AppState& state) {
  // The kernels about to be replaced may be the ones a background run is setting up.
  discardBackgroundRun();
  state.image.readings_.runInFlight = false;
  // Build every program the pipeline runs before replacing any of them.
  const int channels = originalLayout_.channels;
  auto display = compute_.buildKernelFile("display.cl");
  if (!display->ok()) throw ProgramBuildError(display);
  Kernel toRgba(display->program.get(), "to_rgba");
  auto pictureLevels = std::make_unique<PictureLevels>(compute_);
  auto histogramDisplay = std::make_unique<HistogramDisplay>(compute_, *interop_);
  // Each runner's configuration, or where none runs (its kernel did not build at
  // the start) the one last asked for: a fixed file then builds here and says so.
  auto rebuilt = [&](const auto& running, const auto* asked) {
    using Runner = typename std::decay_t<decltype(running)>::element_type;
    std::unique_ptr<Runner> runner;
    if (running) runner = std::make_unique<Runner>(compute_, running->config());
    else if (asked) runner = std::make_unique<Runner>(compute_, *asked);
    if (runner) runner->prepare(channels);
    return runner;
  };
  std::unique_ptr<ImageRotator> rotator = rebuilt(rotator_, applied_ ? &applied_->rotate : nullptr);
  // The transposer only while the transpose is on (else it is built when switched on).
  const bool transposing = applied_ && applied_->transpose;
  std::unique_ptr<ImageTransposer> transposer =
      transposing ? rebuilt(transposer_, &applied_->transposeConfig) : std::unique_ptr<ImageTransposer>();
  std::unique_ptr<ImageHistogrammer> histogrammer = rebuilt(histogrammer_, applied_ ? &applied_->histogram : nullptr);
  displayGroup_ = displayGroupSize(toRgba);
  toRgba_ = std::move(toRgba);
  pictureLevels_ = std::move(pictureLevels);
  histogramDisplay_ = std::move(histogramDisplay);
  if (rotator) rotator_ = std::move(rotator);
  if (transposer || !transposing) transposer_ = std::move(transposer);
  if (histogrammer) histogrammer_ = std::move(histogrammer);
  runAgain_ = true;  // show what the new kernels compute
}

std::vector<ProgramToBuild> ImageScene::programsInUse(const AppState&) const {
  // As reloadKernels rebuilds them: each runner's configuration, else the one last asked for.
  const RotateConfig* rotate = rotator_ ? &rotator_->config() : applied_ ? &applied_->rotate : nullptr;
  const bool transposing = applied_ && applied_->transpose;
  const TransposeConfig* transpose =
      !transposing ? nullptr : transposer_ ? &transposer_->config() : &applied_->transposeConfig;
  const HistogramConfig* histogram =
      histogrammer_ ? &histogrammer_->config() : applied_ ? &applied_->histogram : nullptr;
  std::vector<ProgramToBuild> builds = {{"display.cl", "", "display"}};
  for (ProgramToBuild& b :
       imagePipelineBuilds(rotate, transpose, histogram, originalLayout_.channels, compute_.device()))
    builds.push_back(std::move(b));
  return builds;
}

void ImageScene::rebindInterop(InteropBackend& interop) {
  discardBackgroundRun();  // its picture belongs to the old backend
  lab_->readings_.runInFlight = false;
  interop_ = &interop;
  originalImage_.reset();
  resultImage_.reset();
  histogramDisplay_.reset();  // its buffers belong to the old backend
  histogramDisplay_ = std::make_unique<HistogramDisplay>(compute_, interop);
  showOnImage(originalBuffer_.get(), originalLayout_, originalImage_);
  if (result_) showOnImage(result_, resultLayout_, resultImage_);
  // The last histogram's bins are still on the device: on the new path too.
  if (histogrammer_ && histogrammer_->binsBuffer() && applied_) {
    const ImageLayout& counted = applied_->histogramOfResult && result_ ? resultLayout_ : originalLayout_;
    histogramDisplay_->update(compute_.queue(), histogrammer_->binsBuffer(), histogramChannelCount(counted.channels),
                              shownLeftOut_, shownLeftOutBins_);
  }
}

void ImageScene::openRequested(AppState& state, bool canReplaceImage) {
  ImageLabState& lab = state.image;
  if (state.commands.takeAny<CancelImageOpen>()) {
    if (loader_.busy()) {
      lab.readings_.message = "stopped opening " + loader_.busyPath() + "; the previous image stays";
      state.report(lab.readings_.message);
      lab.readings_.openMessage = lab.readings_.message;
      lab.readings_.openFailed = false;
      loader_.cancel();
    } else if (upload_ && !upload_->stopped) {  // decoded: the worker finishes the upload, which is then dropped
      upload_->stopped = true;
      lab.readings_.message = "stopped opening " + upload_->path + "; the previous image stays";
      state.report(lab.readings_.message);
      lab.readings_.openMessage = lab.readings_.message;
      lab.readings_.openFailed = false;
    }
  }
  // The newest request wins. The test image replaces the image at once: not while a run reads it.
  const OpenImages* newest = state.commands.newest<OpenImages>();
  if (newest && (canReplaceImage || !newest->paths().front().empty())) {
    const std::vector<std::string> requests = state.commands.take<OpenImages>().back().paths();
    const std::string& file = requests.front();
    if (file.empty()) {  // the built-in test image, at once; it replaces a file still decoding
      loader_.cancel();
      setImage(makeTestImage(kTestImageWidth, kTestImageHeight), "", state);
      lab.fileSet.clear();
      lab.readings_.message = "showing the built-in test image";
      lab.readings_.openMessage.clear();
    } else {
      // Several at once become the set to step through; a single file outside the set ends it.
      if (requests.size() > 1) {
        lab.fileSet = requests;
        lab.fileIndex = 0;
      } else if (lab.fileIndex >= lab.fileSet.size() || lab.fileSet[lab.fileIndex] != file) {
        lab.fileSet.clear();
        lab.fileIndex = 0;
      }
      // Decoded on the loader's thread; the frames go on meanwhile.
      loader_.request(file, limits());
      loadNote_ = fileSetNote(lab);
    }
  }
  if (canReplaceImage)
    if (std::optional<DecodedImage> decoded = loader_.poll()) finishOpening(std::move(*decoded), state);
  publishLoading(lab);
}

void ImageScene::finishOpening(DecodedImage decoded, AppState& state) {
  ImageLabState& lab = state.image;
  const std::string& file = decoded.path;
  try {
    if (!decoded.image) throw ImageFileError(decoded.error);
    if (runs_) {  // put on the device by the worker; opened() once it is there
      startUpload(std::move(*decoded.image), file, decoded.seconds);
      return;
    }
    setImage(std::move(*decoded.image), file, state);
    opened(state);
    return;
  } catch (const ImageFileError& e) {
    lab.readings_.message = std::string("cannot open: ") + e.what() + loadNote_;  // the message names the file
  } catch (const std::exception& e) {
    // The previous image stays (setImage changes nothing when it fails).
    lab.readings_.message = "cannot open '" + file + "': " + e.what() + loadNote_;
  }
  // The request this one superseded (the start image still decoding) goes on.
  if (loader_.busy()) lab.readings_.message += "; opening " + loader_.busyPath() + " instead";
  lab.readings_.openFailed = true;
  state.report(lab.readings_.message);
  lab.readings_.openMessage = lab.readings_.message;
}

void ImageScene::opened(AppState& state) {
  ImageLabState& lab = state.image;
  lab.readings_.message = "opened " + lab.readings_.path + " (" + lab.readings_.description + ")" + loadNote_;
  addRecentImage(lab.recent, lab.readings_.path, kMaxRecentImages);
  lab.readings_.openFailed = false;
  state.report(lab.readings_.message);
  lab.readings_.openMessage = lab.readings_.message;
}

void ImageScene::startUpload(HostImage image, const std::string& path, double decodeSeconds) {
  // New objects: until the worker is done with them the scene's own stay as they are.
  auto upload = std::make_unique<Upload>();
  upload->path = path;
  upload->layout = {image.width, image.height, image.channels};
  upload->buffer = Buffer(compute_.context(), CL_MEM_READ_ONLY, upload->layout.bytes());
  upload->picture = makePicture(image.width, image.height);
  upload->image = std::move(image);
  upload->decodeSeconds = decodeSeconds;
  upload->since = std::chrono::steady_clock::now();
  // Handed to GL's side here, on the frame loop's thread; released in finishUpload.
  SharedBuffer& rgba = upload->picture->beginUpdate(compute_.queue());
  Upload* u = upload.get();
  upload_ = std::move(upload);
  runs_->start([this, u, &rgba](Queue& queue) {
    queue.writeBuffer(u->buffer, 0, u->layout.bytes(), u->image.pixels.data());
    enqueueToRgba(queue, u->buffer.get(), u->layout, *u->picture, rgba);
  });
}

void ImageScene::finishUpload(AppState& state) {
  const std::unique_ptr<Upload> upload = std::move(upload_);
  slowGlWorkThisFrame_ = true;  // the picture's copy to GL: inside this call on PoCL's basic device
  upload->picture->endUpdate(compute_.queue());  // shown when the copy to GL is done: a frame later at most
  compute_.queue().flush();
  if (upload->stopped) return;  // its picture goes; the previous one stays
  useImage(std::move(upload->image), std::move(upload->buffer), std::move(upload->picture), upload->path, state);
  opened(state);
}

void ImageScene::abandonUpload() noexcept {
  if (!upload_) return;
  try {
    upload_->picture->abandonUpdate(compute_.queue());
  } catch (const std::exception&) {
    // The picture goes with the upload.
  }
  upload_.reset();
}

void ImageScene::publishLoading(ImageLabState& lab) const {
  if (loader_.busy() || !upload_ || upload_->stopped) {
    lab.readings_.loadingPath = loader_.busy() ? loader_.busyPath() : std::string();
    lab.readings_.loadingSeconds = loader_.busySeconds();
  } else {  // decoded, and on its way to the device
    lab.readings_.loadingPath = upload_->path;
    lab.readings_.loadingSeconds =
        upload_->decodeSeconds +
        std::chrono::duration<double>(std::chrono::steady_clock::now() - upload_->since).count();
  }
  lab.readings_.loadingWaitsFor = loader_.waitingFor();
}

ImageScene::DeviceDefaults ImageScene::defaultsFor(const DeviceDescriptor& device, int channels) {
  return {defaultHistogramConfig(channels, device)};
}

ImageScene::Applied ImageScene::wantedFrom(AppState& state) const {
  const ImageLabState& lab = state.image;
  const DeviceDescriptor& device = compute_.device();
  const int channels = originalLayout_.channels;
  Applied a;
  // Nothing chosen yet: a sweep's winner, else the fastest this device runs on this image.
  if (lab.choices.rotateVariant.empty()) {
    a.rotate = lab.readings_.defaultRotate;
  } else {
    a.rotate.variant = lab.choices.rotateVariant;
    a.rotate.workGroupX = lab.choices.rotateGroup[0];
    a.rotate.workGroupY = lab.choices.rotateGroup[1];
    a.rotate.pixelsPerItem = lab.choices.rotateBlock[0];
    a.rotate.rowsPerItem = lab.choices.rotateBlock[1];
    if (const ImageRotateVariant* v = findImageRotateVariant(a.rotate.variant))
      fitRotateBlock(*v, a.rotate.pixelsPerItem, a.rotate.rowsPerItem);
  }
  a.params.degrees = lab.choices.angle;
  a.params.canvas = lab.choices.expandCanvas ? RotateCanvas::Expand : RotateCanvas::Crop;
  a.params.transparent = lab.choices.transparentBackground;
  for (int i = 0; i < 4; ++i)
    a.params.background[i] =
        static_cast<uint8_t>(std::lround(std::clamp(lab.choices.background[i], 0.0f, 1.0f) * 255.0f));
  a.transpose = lab.choices.transpose;
  a.transposeConfig =
      lab.choices.transposeVariant.empty() ? lab.readings_.defaultTranspose
      : lab.choices.transposeChoice && lab.choices.transposeChoice->variant == lab.choices.transposeVariant
          ? *lab.choices.transposeChoice
          : firstValid([&] { return allTransposeConfigs(device, channels); }, lab.choices.transposeVariant,
                       defaultTransposeConfig(channels));
  // Counting fewer channels needs less local memory: the list offers more copies. A
  // choice made for fewer channels that no longer fits falls back to the first that does.
  const int counted = lab.choices.countedHistogramChannels(channels);
  std::optional<HistogramConfig> choice = lab.choices.histogramChoice;
  if (choice) choice->countedChannels = counted;
  a.histogram = choice && choice->variant == lab.choices.histogramVariant &&
                        imageHistogramConfigProblem(*choice, device, channels).empty()
                    ? *choice
                    : firstValid([&] { return allHistogramConfigs(device, channels, counted); },
                                 lab.choices.histogramVariant, lab.readings_.defaultHistogram);
  a.histogram.countedChannels = counted;
  a.histogramOfResult = lab.choices.histogramOfResult;
  return a;
}

void ImageScene::runPipeline(AppState& state, const Applied& wanted) {
  ImageLabState& lab = state.image;
  const int channels = originalLayout_.channels;
  // Runners are rebuilt only when their configuration changes. Each one the pipeline
  // needs is built for this image's channel count before it replaces the running
  // one and before anything runs: a failure (a problem, a kernel that does not
  // compile) leaves the previous pipeline and its picture in place, or none at all,
  // and never a runner that publish() would try to build again every frame.
  auto use = [channels](auto& running, const auto& config, bool needed, auto make) {
    if (running && running->config() == config) {
      if (needed) running->prepare(channels);
      return;
    }
    // Not built while unused (the transpose switched off): a configuration this
    // device refuses, or a transpose.cl that does not compile, must not stop the rest.
    if (!needed) return;
    auto replacement = make();
    replacement->prepare(channels);
    running = std::move(replacement);
  };
  use(histogrammer_, wanted.histogram, true,
      [&] { return std::make_unique<ImageHistogrammer>(compute_, wanted.histogram); });
  // The previous run's results first: this run's replace them (a background run's
  // were collected when it finished).
  if (!runs_) collectResults(state, true);

  // The rotation's side, checked and built before anything runs, so that a refusal
  // leaves the previous result whole. The original's histogram needs none of it: a
  // rotation or transpose that cannot run (a kernel that does not build) does not
  // leave that histogram stale; it runs, and the failure is reported after.
  std::exception_ptr pictureFailure;
  std::unique_ptr<SharedImage> newPicture;
  const ImageLayout rotated = rotatedLayout(originalLayout_, wanted.params);
  const ImageLayout result = wanted.transpose ? transposedLayout(rotated) : rotated;
  try {
    if (std::string p = imageRotateConfigProblem(wanted.rotate, compute_.device(), channels); !p.empty())
      throw ImageConfigError(describeRotateConfig(wanted.rotate) + ": " + p);
    use(rotator_, wanted.rotate, true, [&] { return std::make_unique<ImageRotator>(compute_, wanted.rotate); });
    use(transposer_, wanted.transposeConfig, wanted.transpose,
        [&] { return std::make_unique<ImageTransposer>(compute_, wanted.transposeConfig); });
    if (std::string p = resultSizeProblem(result, limits(), compute_.device().maxAllocBytes); !p.empty())
      throw ImageConfigError(p);
    // A buffer replaced here is released at once: the result must not point at it if
    // anything after this fails (inspect, save and an interop switch read it).
    if (rotatedBuffer_.bytes() < rotated.bytes()) {
      if (result_ == rotatedBuffer_.get()) result_ = nullptr;
      retire(std::exchange(rotatedBuffer_, Buffer(compute_.context(), CL_MEM_READ_WRITE, rotated.bytes())));
    }
    if (wanted.transpose && transposedBuffer_.bytes() < result.bytes()) {
      if (result_ == transposedBuffer_.get()) result_ = nullptr;
      retire(std::exchange(transposedBuffer_, Buffer(compute_.context(), CL_MEM_READ_WRITE, result.bytes())));
    }
    if (resultNeedsNewPicture(wanted)) newPicture = makePicture(result.width, result.height);
  } catch (...) {
    if (wanted.histogramOfResult) throw;
    pictureFailure = std::current_exception();
  }

  InFlight& run = inFlight_.emplace(InFlight{
      !pictureFailure, wanted.transpose ? transposedBuffer_.get() : rotatedBuffer_.get(), result, lab.choices});
  // Handed to GL's side here, on the frame loop's thread (interop acquires wait for
  // GL fences and are GL calls); released in finishRun.
  if (run.picture) {
    run.newPicture = std::move(newPicture);
    run.target = run.newPicture ? run.newPicture.get() : resultImage_.get();
  }
  // Of the picture's levels, those drawn lately: a spinning picture writes the one
  // it is drawn from, level 0 only where that is it (update() fills in the rest
  // when it stands still).
  const PictureLevelMask levels = run.picture ? run.target->takeLevelsToWrite() : allPictureLevels;
  SharedBuffer* rgba = run.picture ? &run.target->beginUpdate(compute_.queue(), levels) : nullptr;
  RunEvents& events = running_.emplace();
  // The commands, in order. Everything they use is captured by value or belongs to
  // the run until it has finished (the frame loop leaves it alone meanwhile).
  auto enqueue = [this, wanted, rotated, result, rgba, &events, picture = run.picture,
                  original = originalBuffer_.get(), originalLayout = originalLayout_,
                  rotatedBuffer = rotatedBuffer_.get(), transposedBuffer = transposedBuffer_.get(),
                  rotator = rotator_.get(), transposer = transposer_.get(), histogrammer = histogrammer_.get(),
                  image = run.target, onFrameLoop = !runs_](Queue& queue) {
    if (!wanted.histogramOfResult) histogrammer->enqueueCompute(queue, original, originalLayout, &events.histogram);
    if (!picture) return;
    // The image variants include an upload only after a new source.
    rotator->run(queue, original, originalLayout, rotatedBuffer, rotated, wanted.params, &events.rotate);
    if (wanted.transpose) transposer->run(queue, rotatedBuffer, rotated, transposedBuffer, result, &events.transpose);
    const cl_mem out = wanted.transpose ? transposedBuffer : rotatedBuffer;
    enqueueToRgba(queue, out, result, *image, *rgba);
    if (wanted.histogramOfResult) {
      // The pixels outside the rotated picture hold the background: left out of the
      // histogram (a transpose moves them, it does not change how many).
      const ImageRotateVariant* variant = findImageRotateVariant(wanted.rotate.variant);
      if (variant) events.fill = RotateFillCount::start(originalLayout, wanted.params, variant->sampling, onFrameLoop);
      events.background = rotateBackgroundPixel(wanted.params, originalLayout.channels);
      histogrammer->enqueueCompute(queue, out, result, &events.histogram);
    }
  };
  if (runs_) {
    runs_->start(std::move(enqueue));
    lab.readings_.runInFlight = true;
  } else {
    try {
      enqueue(compute_.queue());
    } catch (...) {
      abandonRun();
      throw;
    }
    finishRun(state);
  }
  if (pictureFailure) std::rethrow_exception(pictureFailure);
}

void ImageScene::abandonRun() noexcept {
  // Hand the picture back to GL whatever failed (a reloaded display.cl with other
  // arguments, a launch error): acquiring it again next time needs it released.
  if (inFlight_ && inFlight_->picture && inFlight_->target) {
    try {
      inFlight_->target->abandonUpdate(compute_.queue());
    } catch (const std::exception&) {
      // The first error is the one to report.
    }
  }
  if (inFlight_) retire(std::move(inFlight_->newPicture));
  inFlight_.reset();
  running_.reset();
  plotAwaitingFill_ = 0;
}

void ImageScene::finishRun(AppState& state) {
  ImageLabState& lab = state.image;
  InFlight run = std::move(*inFlight_);
  inFlight_.reset();
  if (run.picture) {
    slowGlWorkThisFrame_ = true;  // as in finishUpload
    run.target->endUpdate(compute_.queue());
    if (run.newPicture) retire(std::exchange(resultImage_, std::move(run.newPicture)));
    if (std::exchange(fitWhenShown_, false)) state.commands.push(FitPictures{});  // shown when the device is done: a frame later at most
    result_ = run.result;
    resultLayout_ = run.layout;
    const InteropTimings& t = resultImage_->timings();
    state.breakdown.acquireMs = t.acquireMs;
    state.breakdown.releaseMs = t.releaseMs;
  }
  // The plot leaves out what the statistics do (collectResults): the rotation's fill,
  // plotted once counted (the forward mapping's count may still run on its thread).
  const int plotChannels = histogramChannelCount(run.layout.channels);
  if (fillCountPending())
    plotAwaitingFill_ = plotChannels;
  else
    plotHistogram(plotChannels);
  compute_.queue().flush();
  if (!run.picture) return;  // the rotation's failure is reported by runPipeline
  lastGoodChoices_ = run.choices;
  ++lab.readings_.pipelineRuns;
}

void ImageScene::plotHistogram(int channels) {
  plotAwaitingFill_ = 0;
  shownLeftOut_ = running_ ? running_->fill.get() : 0;
  shownLeftOutBins_ = backgroundBins(running_ ? running_->background : std::array<uint8_t, 4>{});
  histogramDisplay_->update(compute_.queue(), histogrammer_->binsBuffer(), channels, shownLeftOut_, shownLeftOutBins_);
}

std::unique_ptr<SharedImage> ImageScene::makePicture(int width, int height) {
  slowGlWorkThisFrame_ = true;
  return interop_->createImage(width, height, TextureView::Pixels);
}

bool ImageScene::resultNeedsNewPicture(const Applied& wanted) const {
  const ImageLayout rotated = rotatedLayout(originalLayout_, wanted.params);
  const ImageLayout result = wanted.transpose ? transposedLayout(rotated) : rotated;
  return !resultImage_ || resultImage_->width() != result.width || resultImage_->height() != result.height;
}

bool ImageScene::canStartRun() const {
  // On the frame loop, once the last run's fill count has arrived: collecting that
  // run's results (runPipeline) would otherwise wait for it.
  if (!runs_) return !fillCountPending();
  // One at a time, and each once the last one's picture and histogram have reached
  // GL: beginUpdate would otherwise wait for that copy (82 MB for a 4800x3200
  // picture and its levels, over 100 ms on a busy 2-core machine).
  return !runs_->busy() && !(resultImage_ && resultImage_->updatePending()) && !histogramDisplay_->updatePending();
}

void ImageScene::pollBackgroundRun(AppState& state) {
  if (!backgroundRunBusy()) return;
  if (upload_) {
    try {
      if (runs_->poll()) finishUpload(state);
    } catch (const std::exception& e) {
      ImageLabState& lab = state.image;
      const bool stopped = upload_->stopped;
      const std::string file = upload_->path;
      abandonUpload();
      if (stopped) return;
      lab.readings_.message = "cannot open '" + file + "': " + errorText(e) + loadNote_;  // the previous image stays
      lab.readings_.openFailed = true;
      state.report(lab.readings_.message);
      lab.readings_.openMessage = lab.readings_.message;
    }
    return;
  }
  try {
    if (!runs_->poll()) return;
    state.image.readings_.runInFlight = false;
    finishRun(state);
    collectResults(state, false);  // its events and reads are complete: never waits
  } catch (const std::exception& e) {
    state.image.readings_.runInFlight = false;
    abandonRun();
    pipelineFailed(state, e);
  }
}

bool ImageScene::finishing() {
  if (!backgroundRunBusy()) return false;
  try {
    if (!runs_->poll()) return true;
  } catch (const std::exception&) {
    // The scene is going: its run's failure matters to no one now.
  }
  // Done: dropped as a discarded run is (its picture handed back to GL; run again
  // should the scene stay after all).
  if (upload_) {
    abandonUpload();
  } else {
    abandonRun();
    applied_.reset();
  }
  return false;
}

void ImageScene::discardBackgroundRun(bool decodeAgain) noexcept {
  if (!backgroundRunBusy()) return;
  try {
    runs_->wait();
  } catch (const std::exception&) {
    // Its result is dropped anyway.
  }
  if (upload_) {
    // A picture on its way to the device: decoded again and put on the device anew
    // (the scene that comes next asks for loadingPath).
    if (decodeAgain && !upload_->stopped) {
      try {
        loader_.request(upload_->path, limits());
      } catch (const std::exception&) {
        // Left as it is: the previous picture stays.
      }
    }
    abandonUpload();
    return;
  }
  abandonRun();
  applied_.reset();  // run again with what comes next
}

void ImageScene::collectResults(AppState& state, bool wait) {
  if (!running_) return;
  ImageLabState& lab = state.image;
  RunEvents& run = *running_;
  if (!wait && !(run.rotate.complete() && run.transpose.complete() && run.histogram.complete() && run.fill.ready()))
    return;
  const uint64_t fillPixels = run.fill.get();  // at hand unless `wait`
  if (plotAwaitingFill_) {
    plotHistogram(plotAwaitingFill_);
    compute_.queue().flush();
  }
  const auto start = std::chrono::steady_clock::now();
  std::optional<ImageHistogramResult> h = histogrammer_ ? histogrammer_->takeResult(wait) : std::nullopt;
  lab.readings_.rotateMs = run.rotate.elapsedMs();
  lab.readings_.transposeMs = run.transpose.elapsedMs();
  lab.readings_.histogramMs = run.histogram.elapsedMs();
  if (wait) addGpuWaitMs(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  if (h) {
    leaveOutFillPixels(*h, fillPixels, run.background);
    lab.readings_.histogram = std::move(h->histogram);
    lab.readings_.statistics = std::move(h->statistics);
    lab.readings_.histogramLeftOut = fillPixels;
  }
  state.breakdown.kernelMs = lab.readings_.rotateMs + lab.readings_.transposeMs + lab.readings_.histogramMs;
  ++lab.readings_.timedRuns;
  running_.reset();
}

// An image larger than the device's 2D images cannot go through an image2d_t
// variant: rather than refuse the new image, switch the rotation to the buffer
// kernel's default and say so (the panel shows the switch).
void ImageScene::fitRotationToImage(AppState& state) {
  ImageLabState& lab = state.image;
  const ImageRotateVariant* v = findImageRotateVariant(lab.choices.rotateVariant);
  if (!v || !v->image) return;
  if (static_cast<size_t>(originalLayout_.width) <= maxImage2d_[0] &&
      static_cast<size_t>(originalLayout_.height) <= maxImage2d_[1])
    return;  // the usual case, checked every frame: no table lookups
  const RotateConfig& fitted = rotateDefault_;  // a buffer kernel for an image this large
  if (fitted.variant == lab.choices.rotateVariant) return;
  lab.choices.rotateVariant = fitted.variant;
  lab.choices.rotateGroup[0] = fitted.workGroupX;
  lab.choices.rotateGroup[1] = fitted.workGroupY;
  lab.choices.rotateBlock[0] = fitted.pixelsPerItem;
  lab.choices.rotateBlock[1] = fitted.rowsPerItem;
  const std::string note = describeImageLayout(originalLayout_) + " is larger than this device's 2D images (" +
                           std::to_string(maxImage2d_[0]) + "x" + std::to_string(maxImage2d_[1]) +
                           "): rotating with " + plainConfigurationWords(describeRotateConfig(fitted));
  lab.readings_.message += (lab.readings_.message.empty() ? "" : "; ") + note;
  state.report(note);
}

void ImageScene::pipelineFailed(AppState& state, const std::exception& e) {
  ImageLabState& lab = state.image;
  lab.readings_.message = errorText(e);
  state.report(lab.readings_.message);
  if (auto* build = dynamic_cast<const ProgramBuildError*>(&e))
    state.buildFailures.push_back({build->build().label + " " + build->build().options,
                                   compute_.device().displayName(), build->build().error, build->build().log});
  // Put the panel back on what last ran, so the next frame does not retry forever;
  // the next frame runs it again, which also repairs a result that a failure
  // part way through (a texture that could not be resized) left half updated.
  // Choices saved by an earlier run that fail before anything ran (another
  // device, other kernels) give way to the device's defaults, once.
  if (lastGoodChoices_) {
    restorePipelineChoices(*lastGoodChoices_, lab.choices);
  } else if (lab.choicesFromSettings) {
    lab.choices.useDefaultKernels();
    const std::string note = "the image lab's saved kernel choices do not run here; using the device's defaults";
    lab.readings_.message += "\n" + note;
    state.report(note);
  }
  lab.choicesFromSettings = false;
}

void ImageScene::update(AppState& state, double seconds) {
  ImageLabState& lab = state.image;
  slowGlWorkThisFrame_ = false;
  // A background run that finished is handed to GL first: shown below if it is quick.
  pollBackgroundRun(state);
  // What the device finished since the last frame goes on screen and into the panels.
  if (originalImage_) originalImage_->refresh();
  histogramDisplay_->refresh();
  if (resultImage_) {
    resultImage_->refresh();
    state.breakdown.copyMs = resultImage_->timings().copyMs;
  }
  if (!backgroundRunBusy()) {  // else the worker is still writing those events
    try {
      collectResults(state, false);
    } catch (const std::exception& e) {
      running_.reset();
      plotAwaitingFill_ = 0;
      lab.readings_.message = errorText(e);
      state.report(lab.readings_.message);
    }
  }
  openRequested(state, !backgroundRunBusy());
  if (lab.choices.spin) lab.choices.angle = spunAngle(lab.choices.angle, lab.choices.spinDegreesPerSecond, seconds);
  fitRotationToImage(state);
  // No transpose chosen: a sweep's winner for this device (a sweep may have just
  // stored one), else the built-in default.
  lab.readings_.defaultTranspose =
      preferredTransposeConfig(state.runs.tuning, compute_.device(), originalLayout_.channels)
          .value_or(defaultTransposeConfig(originalLayout_.channels));
  // The rotation and the histogram likewise (issue 21: every operation's winner is kept).
  lab.readings_.defaultRotate =
      preferredRotateConfig(state.runs.tuning, compute_.device(), originalLayout_, maxImage2d_)
          .value_or(rotateDefault_);
  lab.readings_.defaultHistogram =
      preferredHistogramConfig(state.runs.tuning, compute_.device(), originalLayout_.channels)
          .value_or(defaults(originalLayout_.channels).histogram);
  // The result's second buffer (kernels write one while GL draws the other), made
  // once the first result is shown, in a frame without other slow GL work, rather
  // than in the frame that starts the next run (74-87 ms for a 5000x3300 picture
  // on llvmpipe, which clears it).
  const bool madeSecondBuffer =
      !slowGlWorkThisFrame_ && resultImage_ && resultImage_->hasPicture() && !resultImage_->bothBuffersMade();
  if (madeSecondBuffer) {
    resultImage_->makeBothBuffers();
    slowGlWorkThisFrame_ = true;
  }
  const Applied wanted = wantedFrom(state);
  if (state.commands.takeAny<RunImagePipeline>()) runAgain_ = true;
  // A change while a background run is in flight waits for it: the newest settings
  // run as soon as it has finished (those in between are never run).
  const bool wantsRun = !applied_ || !(*applied_ == wanted) || runAgain_;
  // Its kernels are built off the frame first; meanwhile the last result stays shown.
  const bool kernelsReady = !wantsRun || kernelsBuilt(state, wanted);
  // Background runs whose result needs a new picture start in a frame without
  // other slow GL work (see makePicture).
  const bool runReady = wantsRun && kernelsReady && canStartRun() &&
                        !(runs_ && slowGlWorkThisFrame_ && (madeSecondBuffer || resultNeedsNewPicture(wanted)));
  if (runReady) {
    runAgain_ = false;
    try {
      runPipeline(state, wanted);
      applied_ = wanted;
      lab.choicesFromSettings = false;
    } catch (const std::exception& e) {
      pipelineFailed(state, e);
      applied_ = wanted;  // do not retry the failing combination every frame
    }
  } else if (!wantsRun && result_ && resultImage_ && resultImage_->drawnLevelMissing() &&
             !resultImage_->updatePending() && canStartRun()) {
    // A still result drawn at a level its last update did not write (zoomed out
    // after a spin): every level, from the pixels the kernels left.
    try {
      showOnImage(result_, resultLayout_, resultImage_);
    } catch (const std::exception& e) {
      lab.readings_.message = errorText(e);
      state.report(lab.readings_.message);
    }
  }
  lab.readings_.runInFlight =
      backgroundRunBusy() || fillCountPending() || (wantsRun && !runReady && (runs_ || !kernelsReady));
  // One picture dropped a frame, in a frame without other slow GL work (tens of ms each).
  if (!slowGlWorkThisFrame_ && !retired_.empty()) retired_.erase(retired_.begin());
  inspect(state);
  // Saving reads the result: not while a background run writes it.
  if (!backgroundRunBusy() && state.commands.takeAny<SaveImageResult>()) {
    save(state);
  }
  if (std::optional<std::string> saved = saver_.poll()) {
    lab.readings_.message = std::move(*saved);
    state.report(lab.readings_.message);
  }
  lab.readings_.savingPath = saver_.busy() ? saver_.busyPath() : std::string();
  lab.readings_.savingSeconds = saver_.busySeconds();
  publish(state);
}

bool ImageScene::kernelsBuilt(AppState& state, const Applied& wanted) {
  // Headless runs (--frames, --record) wait for the builds in the frame instead:
  // nothing is on screen to keep moving, and the frames they count and record are
  // meant to run the kernels.
  if (state.headless) return true;
  ImageLabState& lab = state.image;
  // Said on a line of its own (panel, status bar): the message stays what it was.
  // Runners that run these configurations already need no build (a file broken by
  // hot reload is not compiled again for every run: their programs stay).
  const int channels = originalLayout_.channels;
  auto built = [channels](const auto& runner, const auto& config) {
    return runner && runner->config() == config && runner->isBuilt(channels);
  };
  const std::string building = startKernelBuilds(
      compute_, imagePipelineBuilds(built(rotator_, wanted.rotate) ? nullptr : &wanted.rotate,
                                    wanted.transpose && !built(transposer_, wanted.transposeConfig)
                                        ? &wanted.transposeConfig
                                        : nullptr,
                                    built(histogrammer_, wanted.histogram) ? nullptr : &wanted.histogram, channels,
                                    compute_.device()));
  lab.readings_.building = building.empty() ? std::string() : buildingKernelText(building, compute_.device());
  return building.empty();
}

void ImageScene::inspect(AppState& state) {
  ImageLabState& lab = state.image;
  const ImageLayout& layout = lab.choices.inspectResult ? resultLayout_ : originalLayout_;
  const bool inside = lab.inspectX >= 0 && lab.inspectY >= 0 && lab.inspectX < layout.width &&
                      lab.inspectY < layout.height && (!lab.choices.inspectResult || result_);
  // The result lives on the device: a read of the pixel is enqueued, never waited
  // for, and shown when it arrives (the next frame); meanwhile the last value read
  // stays shown while the cursor is still on that pixel.
  if (inspectRead_ && inspectRead_->done.complete()) {
    if (inspectRead_->x >= 0) {
      std::copy_n(inspectRead_->value, 4, resultPixel_);
      resultPixelAt_ = {inspectRead_->x, inspectRead_->y};
      resultPixelRun_ = inspectRead_->run;
    }
    inspectRead_.reset();
  }
  lab.readings_.inspectValid = false;
  if (!inside) return;
  if (!lab.choices.inspectResult) {
    const size_t offset = (static_cast<size_t>(lab.inspectY) * layout.width + lab.inspectX) * layout.channels;
    std::fill_n(lab.readings_.inspectValue, 4, 0);
    std::copy_n(original_.pixels.data() + offset, layout.channels, lab.readings_.inspectValue);
    lab.readings_.inspectValid = true;
    return;
  }
  const std::pair<int, int> at{lab.inspectX, lab.inspectY};
  if (resultPixelAt_ == at && resultPixelRun_ == lab.readings_.pipelineRuns) {
    std::copy_n(resultPixel_, 4, lab.readings_.inspectValue);
    lab.readings_.inspectValid = true;
    return;
  }
  if (inspectRead_) return;  // one read at a time; the next frame asks again
  if (backgroundRunBusy()) return;  // the worker is writing the result: read it once that run is shown
  auto read = std::make_unique<InspectRead>();
  read->x = at.first;
  read->y = at.second;
  const size_t offset = (static_cast<size_t>(at.second) * layout.width + at.first) * layout.channels;
  clCheck(clEnqueueReadBuffer(compute_.queue().get(), result_, CL_FALSE, offset, layout.channels, read->value, 0,
                              nullptr, read->done.out()),
          "clEnqueueReadBuffer (pixel inspector)");
  compute_.queue().flush();
  read->run = lab.readings_.pipelineRuns;
  inspectRead_ = std::move(read);
}

void ImageScene::save(AppState& state) {
  ImageLabState& lab = state.image;
  if (!result_) return;
  if (saver_.busy()) {
    lab.readings_.message = "still saving " + saver_.busyPath() + "; save again when it is done";
    state.report(lab.readings_.message);
    return;
  }
  // A result the PNG writer cannot take is refused before it is read from the device.
  if (const std::string problem = pngSizeProblem(resultLayout_.width, resultLayout_.height, resultLayout_.channels);
      !problem.empty()) {
    lab.readings_.message = pngWriteError(lab.choices.savePath, problem);
    state.report(lab.readings_.message);
    return;
  }
  HostImage out;
  out.width = resultLayout_.width;
  out.height = resultLayout_.height;
  out.channels = resultLayout_.channels;
  std::string error;
  try {
    out.pixels.resize(resultLayout_.bytes());
    clCheck(clEnqueueReadBuffer(compute_.queue().get(), result_, CL_TRUE, 0, out.pixels.size(), out.pixels.data(), 0,
                                nullptr, nullptr),
            "clEnqueueReadBuffer (save result)");
  } catch (const std::exception& e) {
    error =
        pngWriteError(lab.choices.savePath, std::string("the result could not be read from the device: ") + e.what());
  }
  if (!error.empty()) {
    lab.readings_.message = error;
    state.report(lab.readings_.message);
    return;
  }
  // Encoded and written on the saver's thread; finishSaving reports it.
  saver_.start(std::move(out), lab.choices.savePath);
}

void ImageScene::publish(AppState& state) {
  ImageLabState& lab = state.image;
  renderer_.setImage(Picture::Original, originalImage_.get());
  renderer_.setImage(Picture::Result, resultImage_.get());
  renderer_.setHistogram(histogramDisplay_.get());
  lab.readings_.hasOriginal = originalImage_ != nullptr;
  lab.readings_.hasResult = resultImage_ != nullptr;
  lab.readings_.renderer = &renderer_;
  lab.readings_.resultWidth = resultLayout_.width;
  lab.readings_.resultHeight = resultLayout_.height;
  lab.readings_.resultChannels = resultLayout_.channels;
  // What runs: runners built for this image. Publishing never builds (a kernel
  // that failed to compile is not compiled again every frame).
  const int channels = originalLayout_.channels;
  auto describe = [channels](const auto& runner, auto describeConfig, bool needed) {
    if (!runner && !needed) return std::string("off");  // the transpose, built when switched on
    return runner && (runner->isBuilt(channels) || !needed) ? describeConfig(runner->config())
                                                            : std::string("none (not built; see the message)");
  };
  const bool transposing = applied_ && applied_->transpose;
  lab.readings_.runningRotate = describe(rotator_, describeRotateConfig, true);
  lab.readings_.runningTranspose = describe(transposer_, describeTransposeConfig, transposing);
  lab.readings_.runningHistogram = describe(histogrammer_, describeHistogramConfig, true);
  state.activeKernels.clear();
  // The work of each launch, for the Profiler's roofline: sizes as the pipeline ran them.
  const ImageLayout rotated = transposing ? transposedLayout(resultLayout_) : resultLayout_;
  auto add = [&](const char* role, const std::string& config, auto& runner, auto workOf) {
    if (!runner || !runner->isBuilt(channels)) return;
    const ProgramBuild& build = runner->build(channels);
    state.activeKernels.push_back({role, config, build.label, build.options, build.buildMs, build.fromDisk,
                                   runner->info(channels), role, workOf(runner->config())});
  };
  add("rotate", lab.readings_.runningRotate, rotator_,
      [&](const RotateConfig&) { return rotateWork(originalLayout_, rotated); });
  if (transposing)
    add("transpose", lab.readings_.runningTranspose, transposer_,
        [&](const TransposeConfig& c) { return transposeWork(rotated, c); });
  add("histogram", lab.readings_.runningHistogram, histogrammer_, [&](const HistogramConfig& c) {
    return histogramWork(applied_ && applied_->histogramOfResult ? resultLayout_ : originalLayout_, c);
  });
}

void ImageScene::draw(AppState&, int, int) {
  // The panels draw the textures with ImGui (zoom, pan, side by side, inspector).
}

}  // namespace ks
