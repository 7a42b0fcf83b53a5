// Image lab: the result as the RGBA8 texture GL draws (gray becomes g, g, g, 255).
// Writes the interop layer's pixel buffer, so no pixel crosses the host on the
// gl-sharing and external paths.
__kernel void to_rgba(__global const uchar* in, const int channels, __global uchar4* out, const int pixels) {
  const int i = get_global_id(0);
  if (i >= pixels) return;
  if (channels == 4) {
    out[i] = vload4(i, in);
  } else {
    const uchar g = in[i];
    out[i] = (uchar4)(g, g, g, 255);
  }
}
