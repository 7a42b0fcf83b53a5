// A plain copy of a byte buffer: the bandwidth reference the image kernels are
// measured against (bytes read + bytes written). Each work-item moves 16 bytes
// with one 128-bit load and store; the last item copies the tail byte by byte.
// Buffers come from clCreateBuffer, whose base address is aligned far beyond 16.

__kernel void copy_bytes(__global const uchar* restrict in, __global uchar* restrict out, const ulong bytes) {
  const ulong i = get_global_id(0);
  const ulong first = i * 16;
  if (first + 16 <= bytes) {
    ((__global uint4*)out)[i] = ((__global const uint4*)in)[i];
  } else {
    for (ulong k = first; k < bytes; ++k) out[k] = in[k];
  }
}
