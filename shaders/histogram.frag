#version 330 core
// One channel of a histogram as bars, straight from the buffer the histogram
// kernels wrote (compute/interop HistogramDisplay): 256 bins per channel, then
// each channel's largest bin, which is the plot's full height unless `top` is set
// (channels overlaid in one plot share the largest of their bins).
uniform usamplerBuffer bins;
uniform int channel;
uniform int channels;    // channels in the buffer (where the largest bins start)
uniform bool logScale;   // log(1 + count), as the statistics panel's option
uniform vec4 colour;     // the bars
uniform vec4 background; // transparent: over the channels drawn before
uniform float top;       // the count at full height; 0: the channel's largest bin
uniform vec2 binsSpan;   // where bin 0 starts and bin 255 ends, across the plot (0..1)
uniform float minBarPixels;  // a bin among empty ones is a bar at least this wide, about its middle
in vec2 uv;              // 0..1 across the plot, (0, 0) top left
out vec4 colourOut;

// The largest count of bins first..last (within 0..255); 0 for none.
uint largestOf(int first, int last) {
  uint most = 0u;
  for (int bin = max(first, 0); bin <= min(last, 255); ++bin) most = max(most, texelFetch(bins, channel * 256 + bin).r);
  return most;
}

void main() {
  // In bins: where this pixel is, and how wide it is. A pixel shows the bin under it
  // (where bins are narrower than pixels, the largest it covers: none is skipped). A
  // pixel over no count shows the largest bin within reach, so that a bin among empty
  // ones is a bar minBarPixels wide: at 1024 wide a bin is 1.4 pixels, and a
  // checkerboard's two bins (0 and 255) or one colour's were lines, at the plot's ends
  // under its edges.
  float binsAcross = 256.0 / max(binsSpan.y - binsSpan.x, 1e-6);
  float at = (uv.x - binsSpan.x) * binsAcross;
  float pixel = abs(dFdx(uv.x)) * binsAcross;
  uint most = pixel <= 1.0 ? (at >= 0.0 && at < 256.0 ? largestOf(int(floor(at)), int(floor(at))) : 0u)
                           : largestOf(int(floor(at - 0.5 * pixel + 1e-4)), int(ceil(at + 0.5 * pixel - 1e-4)) - 1);
  float grow = max(0.0, minBarPixels * pixel - 1.0) * 0.5;
  if (most == 0u && grow > 0.0)
    most = largestOf(int(floor(at - 0.5 * pixel - grow + 1e-4)), int(ceil(at + 0.5 * pixel + grow - 1e-4)) - 1);
  float count = float(most);
  float largest = top > 0.0 ? top : float(texelFetch(bins, channels * 256 + channel).r);
  float height = largest <= 0.0 ? 0.0 : logScale ? log(1.0 + count) / log(1.0 + largest) : count / largest;
  colourOut = (1.0 - uv.y) <= height && count > 0.0 ? colour : background;
}
