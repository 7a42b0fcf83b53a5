#include "app/fps_counter.h"

#include <gtest/gtest.h>

using ks::FpsCounter;

TEST(FpsCounter, TheFirstFrameDoesNotCount) {
  // A short headless run on a GPU: 0.58 s of builds in frame 1, then 199 frames of 1 ms.
  FpsCounter fps;
  double t = 0.577;
  fps.onFrame(t);
  EXPECT_EQ(fps.fps(), 0.0);
  for (int i = 0; i < 199; ++i) fps.onFrame(t += 0.001);
  EXPECT_NEAR(fps.fps(), 1000.0, 1.0) << "the rate of the frames shown, not 1.7 FPS of the first one";
}

TEST(FpsCounter, UpdatesOncePerWindowOnceTheFirstIsFull) {
  FpsCounter fps(0.25);
  double t = 0.0;
  fps.onFrame(t);
  for (int i = 0; i < 16; ++i) fps.onFrame(t += 1.0 / 60.0);  // 0.267 s at 60 Hz: the first window fills
  EXPECT_NEAR(fps.fps(), 60.0, 0.5);
  for (int i = 0; i < 5; ++i) fps.onFrame(t += 1.0 / 30.0);  // slower, but the window is not full yet
  EXPECT_NEAR(fps.fps(), 60.0, 0.5) << "held until the next window is full";
  for (int i = 0; i < 3; ++i) fps.onFrame(t += 1.0 / 30.0);  // 8 frames, 0.267 s
  EXPECT_NEAR(fps.fps(), 30.0, 0.5);
}

TEST(FpsCounter, ZeroElapsedTimeLeavesTheRate) {
  FpsCounter fps;
  fps.onFrame(1.0);
  fps.onFrame(1.0);
  EXPECT_EQ(fps.fps(), 0.0);
  fps.onFrame(1.01);
  EXPECT_NEAR(fps.fps(), 200.0, 1e-9) << "two frames in 10 ms";
}
