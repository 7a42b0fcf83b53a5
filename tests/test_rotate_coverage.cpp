// The histogram of a rotated picture counts only the pixels that come from the
// picture (issue 22): the fill the rotation leaves (corners, the forward mapping's
// holes) is taken out exactly, for every rotate variant and every histogram
// variant, against the CPU reference that tests each output pixel on its own.
#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <sstream>

#include "compute/compute_context.h"
#include "compute/image_histogram.h"
#include "compute/image_reference.h"
#include "compute/image_rotate.h"
#include "compute/kernel_op.h"
#include "compute/rotate_coverage.h"
#include "compute/rotate_coverage_reference.h"
#include "test_devices.h"

namespace ks {
namespace {

struct Size {
  int width, height;
};
// One pixel, one row, one column, odd, non-square both ways.
const std::vector<Size> kSizes = {{1, 1}, {37, 1}, {1, 29}, {17, 13}, {64, 24}, {45, 71}};

std::vector<RotateParams> angleCases() {
  std::vector<RotateParams> cases;
  for (double degrees : {0.0, 90.0, 45.0, 30.5, 180.0, -123.4}) {
    RotateParams crop;
    crop.degrees = degrees;
    crop.background = {10, 200, 30, 255};
    cases.push_back(crop);
  }
  RotateParams expanded;
  expanded.degrees = 30.5;
  expanded.canvas = RotateCanvas::Expand;
  expanded.transparent = true;
  cases.push_back(expanded);
  RotateParams quarter = expanded;
  quarter.degrees = 90.0;
  quarter.transparent = false;
  quarter.background = {255, 0, 128, 77};
  cases.push_back(quarter);
  return cases;
}

std::string describe(const Size& s, int channels, const RotateParams& p) {
  std::ostringstream o;
  o << s.width << "x" << s.height << (channels == 1 ? " gray " : " RGBA ") << p.degrees << " deg "
    << (p.canvas == RotateCanvas::Crop ? "crop" : "expand") << (p.transparent ? " transparent" : "");
  return o.str();
}

uint64_t zeros(const std::vector<uint8_t>& covered) {
  return static_cast<uint64_t>(std::count(covered.begin(), covered.end(), uint8_t{0}));
}

TEST(RotateCoverage, TheRowSpansCountWhatThePixelByPixelReferenceCounts) {
  for (RotateSampling sampling : {RotateSampling::Forward, RotateSampling::Nearest, RotateSampling::Bilinear})
    for (const Size& s : kSizes)
      for (RotateParams p : angleCases())
        for (double degrees : {p.degrees, p.degrees + 0.001, -p.degrees - 7.25}) {
          p.degrees = degrees;
          const ImageLayout in{s.width, s.height, 4};
          EXPECT_EQ(rotateFillPixelCount(in, p, sampling), zeros(rotateCoverageReference(in, p, sampling)))
              << describe(s, 4, p) << " sampling " << static_cast<int>(sampling);
        }
}

// The count solves each row's four bounds exactly (no search): angles all round the
// circle on a picture wider than any row search would sample densely.
TEST(RotateCoverage, TheClosedFormRowSpansMatchTheReferenceAllRoundTheCircle) {
  const ImageLayout in{641, 379, 4};
  for (RotateSampling sampling : {RotateSampling::Nearest, RotateSampling::Bilinear})
    for (double degrees = -361.0; degrees <= 361.0; degrees += 11.37)
      for (RotateCanvas canvas : {RotateCanvas::Crop, RotateCanvas::Expand}) {
        RotateParams p;
        p.degrees = degrees;
        p.canvas = canvas;
        EXPECT_EQ(rotateFillPixelCount(in, p, sampling), zeros(rotateCoverageReference(in, p, sampling)))
            << degrees << " degrees, canvas " << static_cast<int>(canvas) << ", sampling " << static_cast<int>(sampling);
      }
}

TEST(RotateCoverage, AQuarterTurnOfASquareAndNoTurnLeaveNothingOut) {
  RotateParams p;
  for (RotateSampling sampling : {RotateSampling::Forward, RotateSampling::Nearest, RotateSampling::Bilinear}) {
    p.degrees = 0.0;
    EXPECT_EQ(rotateFillPixelCount({33, 20, 1}, p, sampling), 0u);
    p.degrees = 90.0;
    EXPECT_EQ(rotateFillPixelCount({21, 21, 1}, p, sampling), 0u);
  }
  // 45 degrees: the four corners of the square are outside the picture.
  p.degrees = 45.0;
  EXPECT_GT(rotateFillPixelCount({100, 100, 1}, p, RotateSampling::Nearest), 1000u);
}

TEST(RotateCoverage, LeftOutPixelsAreSaidInPlainWords) {
  EXPECT_EQ(describeLeftOutPixels(0), "");
  EXPECT_EQ(describeLeftOutPixels(1), "1 pixel outside the rotated picture is not counted");
  EXPECT_EQ(describeLeftOutPixels(12345), "12 345 pixels outside the rotated picture are not counted");
  EXPECT_EQ(describeLeftOutPixels(1234567), "1 234 567 pixels outside the rotated picture are not counted");
}

TEST(RotateCoverage, MoreFillThanTheHistogramHoldsIsAnErrorNotAWrap) {
  ImageHistogramResult r;
  r.histogram.imageChannels = 1;
  r.histogram.bins.assign(kHistogramBins, 0);
  r.histogram.bins[7] = 3;
  r.histogram.bins[9] = 5;
  EXPECT_THROW(leaveOutFillPixels(r, 4, {7, 0, 0, 0}), std::runtime_error);
  leaveOutFillPixels(r, 3, {7, 0, 0, 0});
  EXPECT_EQ(r.histogram.bins[7], 0u);
  ASSERT_EQ(r.statistics.channels.size(), 1u);
  EXPECT_EQ(r.statistics.channels[0].count, 5u);
  EXPECT_EQ(r.statistics.channels[0].min, 9);
  EXPECT_EQ(r.statistics.channels[0].median, 9);
}

using RotatedHistogram = test::SharedComputeTest;

std::vector<HistogramConfig> histogramCases(int channels) {
  HistogramConfig sub;
  sub.variant = "subhist_uchar";
  sub.workGroup = channels == 1 ? 128 : 32;
  sub.pixelsPerItem = 255;
  HistogramConfig atomic;
  atomic.variant = "local_atomic";
  atomic.workGroup = 64;
  atomic.copies = 4;
  atomic.groupsPerComputeUnit = 2;
  HistogramConfig flushed;
  flushed.variant = "subhist_flush";
  flushed.workGroup = channels == 1 ? 128 : 32;
  flushed.groupsPerComputeUnit = 2;
  HistogramConfig fused = atomic;
  fused.variant = "local_atomic_fused";
  fused.workGroup = 256;
  fused.copies = channels == 1 ? 32 : 2;
  std::vector<HistogramConfig> out = {sub, flushed, atomic, fused};
  for (const auto& v : imageHistogramVariants())  // a new variant must be added here
    EXPECT_TRUE(std::any_of(out.begin(), out.end(), [&](const HistogramConfig& c) { return c.variant == v.name; }))
        << v.name;
  return out;
}

// Every rotate variant with every histogram variant (taken in turn over the cases):
// the device's bins with the fill left out equal the reference's count of the
// covered pixels of the device's own result, and its statistics those of the bins.
TEST_F(RotatedHistogram, EveryVariantCountsOnlyThePixelsFromThePicture) {
  size_t turn = 0, ran = 0;
  for (int channels : imageChannelCounts()) {
    std::vector<std::unique_ptr<ImageHistogrammer>> histogrammers;
    for (const HistogramConfig& c : histogramCases(channels)) {
      if (std::string p = imageHistogramConfigProblem(c, compute_->device(), channels); !p.empty()) {
        std::cout << "not run on this device: " << describeHistogramConfig(c) << ": " << p << "\n";
        continue;
      }
      histogrammers.push_back(std::make_unique<ImageHistogrammer>(*compute_, c));
    }
    ASSERT_FALSE(histogrammers.empty());
    for (const auto& v : imageRotateVariants()) {
      RotateConfig rc;
      rc.variant = v.name;
      rc.workGroupX = 16;
      rc.workGroupY = 8;
      rc.pixelsPerItem = v.pixelsPerItem.back();
      if (std::string p = imageRotateConfigProblem(rc, compute_->device(), channels); !p.empty()) {
        std::cout << "not run on this device: " << describeRotateConfig(rc) << ": " << p << "\n";
        continue;
      }
      ImageRotator rotator(*compute_, rc);
      Queue& queue = compute_->queue();
      for (const Size& s : kSizes) {
        const HostImage in = randomHostImage({s.width, s.height, channels}, 21);
        Buffer src(compute_->context(), CL_MEM_READ_WRITE, in.data.size());
        queue.writeBuffer(src, 0, in.data.size(), in.data.data());
        rotator.sourceChanged();
        for (const RotateParams& p : angleCases()) {
          const std::string where = describeRotateConfig(rc) + ", " + describe(s, channels, p);
          const ImageLayout outLayout = rotatedLayout(in.layout, p);
          Buffer dst(compute_->context(), CL_MEM_READ_WRITE, outLayout.bytes());
          rotator.run(queue, src.get(), in.layout, dst.get(), outLayout, p);
          HostImage out(outLayout);
          queue.readBuffer(dst, 0, out.data.size(), out.data.data());
          if (v.exact) {
            ASSERT_TRUE(out == rotateReference(in, p, v.sampling)) << where;
          }
          ImageHistogrammer& h = *histogrammers[turn++ % histogrammers.size()];
          ImageHistogramResult got = h.compute(queue, dst.get(), outLayout);
          const uint64_t fill = rotateFillPixelCount(in.layout, p, v.sampling);
          leaveOutFillPixels(got, fill, rotateBackgroundPixel(p, channels));
          const std::vector<uint8_t> covered = rotateCoverageReference(in.layout, p, v.sampling);
          ASSERT_EQ(fill, zeros(covered)) << where;
          const ImageHistogram want = coveredHistogramReference(out, covered);
          ASSERT_TRUE(got.histogram == want) << where << ", " << describeHistogramConfig(h.config());
          // The statistics are those of the covered pixels alone.
          const HostImage coveredPixels = [&] {
            HostImage only({static_cast<int>(outLayout.pixels() - fill), 1, channels});
            size_t at = 0;
            for (size_t i = 0; i < covered.size(); ++i)
              if (covered[i]) {
                std::copy_n(out.data.data() + i * channels, channels, only.data.data() + at);
                at += static_cast<size_t>(channels);
              }
            return only;
          }();
          if (coveredPixels.layout.width == 0) continue;  // nothing of the picture in view
          const ImageStatistics wantStats = statisticsReference(coveredPixels);
          ASSERT_EQ(got.statistics.channels.size(), wantStats.channels.size()) << where;
          for (size_t c = 0; c < wantStats.channels.size(); ++c) {
            const ChannelStatistics &g = got.statistics.channels[c], &r = wantStats.channels[c];
            EXPECT_EQ(g.count, r.count) << where << " channel " << c;
            EXPECT_EQ(g.sum, r.sum) << where << " channel " << c;
            EXPECT_EQ(g.min, r.min) << where << " channel " << c;
            EXPECT_EQ(g.max, r.max) << where << " channel " << c;
            EXPECT_EQ(g.percentiles, r.percentiles) << where << " channel " << c;
            EXPECT_NEAR(g.stddev, r.stddev, 1e-6) << where << " channel " << c;
          }
          ++ran;
        }
      }
    }
  }
  EXPECT_GT(ran, 0u);
}

}  // namespace
}  // namespace ks
