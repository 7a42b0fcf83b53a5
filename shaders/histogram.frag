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
in vec2 uv;              // 0..1 across the plot, (0, 0) top left
out vec4 colourOut;

void main() {
  int bin = clamp(int(uv.x * 256.0), 0, 255);
  float count = float(texelFetch(bins, channel * 256 + bin).r);
  float largest = top > 0.0 ? top : float(texelFetch(bins, channels * 256 + channel).r);
  float height = largest <= 0.0 ? 0.0 : logScale ? log(1.0 + count) / log(1.0 + largest) : count / largest;
  colourOut = (1.0 - uv.y) <= height && count > 0.0 ? colour : background;
}
