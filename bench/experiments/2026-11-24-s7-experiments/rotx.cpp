// Experiment harness (not part of kernelscope): gray bilinear rotation through an
// image2d_t, timed against a 16-byte copy of the same bytes, interleaved.
// usage: rotx FILE.cl KERNEL "-D opts" W H DEG LWSX LWSY PX PY [ROUNDS]
// The kernel signature is rotate_bilinear_image's (kernels/rotate.cl), plus a
// global buffer copy of the source as the last argument (hybrid experiments).
// Global size: ceil(W / PX) x ceil(H / PY) rounded up to the work-group.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#define CK(x)                                                            \
  do {                                                                   \
    cl_int e_ = (x);                                                     \
    if (e_ != CL_SUCCESS) {                                              \
      printf("ERROR %s = %d at line %d\n", #x, (int)e_, __LINE__);       \
      exit(1);                                                           \
    }                                                                    \
  } while (0)

static double eventMs(cl_event e) {
  cl_ulong a, b;
  clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof a, &a, nullptr);
  clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof b, &b, nullptr);
  clReleaseEvent(e);
  return (b - a) * 1e-6;
}

int main(int argc, char** argv) {
  if (argc < 11) {
    fprintf(stderr, "usage: rotx FILE.cl KERNEL opts W H DEG LWSX LWSY PX PY [ROUNDS]\n");
    return 2;
  }
  const std::string file = argv[1], kname = argv[2], opts = argv[3];
  const int W = atoi(argv[4]), H = atoi(argv[5]);
  const double deg = atof(argv[6]);
  const size_t lws[2] = {(size_t)atoi(argv[7]), (size_t)atoi(argv[8])};
  const int PX = atoi(argv[9]), PY = atoi(argv[10]);
  const int rounds = argc > 11 ? atoi(argv[11]) : 40;
  const bool check = !getenv("NOCHECK");

  cl_uint np;
  CK(clGetPlatformIDs(0, nullptr, &np));
  std::vector<cl_platform_id> plats(np);
  CK(clGetPlatformIDs(np, plats.data(), nullptr));
  cl_device_id dev = nullptr;
  for (auto p : plats) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &dev, &nd) == CL_SUCCESS && nd) break;
    dev = nullptr;
  }
  if (!dev) {
    for (auto p : plats)
      if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dev, nullptr) == CL_SUCCESS) break;
  }
  char name[256];
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, nullptr);
  cl_int err;
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  CK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  CK(err);
  std::ifstream f(file);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string src = ss.str();
  const char* s = src.c_str();
  cl_program prog = clCreateProgramWithSource(ctx, 1, &s, nullptr, &err);
  CK(err);
  if (clBuildProgram(prog, 1, &dev, opts.c_str(), nullptr, nullptr) != CL_SUCCESS) {
    size_t n;
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
    std::string log(n, 0);
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    printf("BUILD FAILED: %s\n", log.c_str());
    return 1;
  }
  cl_kernel k = clCreateKernel(prog, kname.c_str(), &err);
  CK(err);
  const char* copySrc =
      "__kernel void copy16(__global const uint4* in, __global uint4* out) { size_t i = get_global_id(0); "
      "out[i] = in[i]; }";
  cl_program cprog = clCreateProgramWithSource(ctx, 1, &copySrc, nullptr, &err);
  CK(err);
  CK(clBuildProgram(cprog, 1, &dev, "", nullptr, nullptr));
  cl_kernel ck = clCreateKernel(cprog, "copy16", &err);
  CK(err);

  const size_t N = (size_t)W * H;
  std::vector<uint8_t> in(N), out(N, 0);
  std::mt19937 rng(11);
  for (auto& v : in) v = rng() & 255;
  cl_image_format fmt = {CL_R, CL_UNORM_INT8};
  cl_mem img = clCreateImage2D(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fmt, W, H, 0, in.data(), &err);
  CK(err);
  const size_t padded = (N + 15) / 16 * 16;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, padded, nullptr, &err);
  CK(err);
  CK(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, N, in.data(), 0, nullptr, nullptr));
  cl_mem dout = clCreateBuffer(ctx, CL_MEM_READ_WRITE, padded, nullptr, &err);
  CK(err);

  const double rad = deg * M_PI / 180.0;
  const int cosQ = (int)std::lround(std::cos(rad) * 65536.0), sinQ = (int)std::lround(std::sin(rad) * 65536.0);
  const cl_uchar bg = 0;
  int a = 0;
  CK(clSetKernelArg(k, a++, sizeof img, &img));
  CK(clSetKernelArg(k, a++, sizeof dout, &dout));
  CK(clSetKernelArg(k, a++, sizeof W, &W));
  CK(clSetKernelArg(k, a++, sizeof H, &H));
  CK(clSetKernelArg(k, a++, sizeof W, &W));
  CK(clSetKernelArg(k, a++, sizeof H, &H));
  CK(clSetKernelArg(k, a++, sizeof cosQ, &cosQ));
  CK(clSetKernelArg(k, a++, sizeof sinQ, &sinQ));
  CK(clSetKernelArg(k, a++, sizeof bg, &bg));
  cl_uint nargs = 0;
  clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, nullptr);
  if (nargs > 9) CK(clSetKernelArg(k, a++, sizeof buf, &buf));
  CK(clSetKernelArg(ck, 0, sizeof buf, &buf));
  CK(clSetKernelArg(ck, 1, sizeof dout, &dout));
  size_t gws[2] = {(size_t)((W + PX - 1) / PX), (size_t)((H + PY - 1) / PY)};
  for (int d = 0; d < 2; ++d) gws[d] = (gws[d] + lws[d] - 1) / lws[d] * lws[d];
  const size_t cgws = padded / 16;

  std::vector<double> tk, tc;
  for (int r = 0; r < rounds + 3; ++r) {
    cl_event e1, e2;
    CK(clEnqueueNDRangeKernel(q, ck, 1, nullptr, &cgws, nullptr, 0, nullptr, &e1));
    CK(clEnqueueNDRangeKernel(q, k, 2, nullptr, gws, lws, 0, nullptr, &e2));
    CK(clFinish(q));
    const double c = eventMs(e1), t = eventMs(e2);
    if (r >= 3) tc.push_back(c), tk.push_back(t);
  }
  std::sort(tk.begin(), tk.end());
  std::sort(tc.begin(), tc.end());
  const double mk = tk[tk.size() / 2], mc = tc[tc.size() / 2];
  std::string verdict = "unchecked";
  if (check) {
    CK(clEnqueueNDRangeKernel(q, k, 2, nullptr, gws, lws, 0, nullptr, nullptr));
    CK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, N, out.data(), 0, nullptr, nullptr));
    // Reference: float bilinear at the exact source point (pixel centres), background 0 outside.
    int maxd = 0;
    size_t over1 = 0;
    const double c = cosQ / 65536.0, sn = sinQ / 65536.0;
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) {
        const double px = x + 0.5 - 0.5 * W, py = y + 0.5 - 0.5 * H;
        const double u = c * px + sn * py + 0.5 * W - 0.5, v = -sn * px + c * py + 0.5 * H - 0.5;
        const double x0 = std::floor(u), y0 = std::floor(v), fx = u - x0, fy = v - y0;
        auto tap = [&](long xx, long yy) -> double {
          return (xx >= 0 && yy >= 0 && xx < W && yy < H) ? in[(size_t)yy * W + xx] : bg;
        };
        const long ix = (long)x0, iy = (long)y0;
        const double top = tap(ix, iy) * (1 - fx) + tap(ix + 1, iy) * fx;
        const double bot = tap(ix, iy + 1) * (1 - fx) + tap(ix + 1, iy + 1) * fx;
        const int ref = (int)std::lround(top * (1 - fy) + bot * fy);
        const int d = std::abs(ref - (int)out[(size_t)y * W + x]);
        maxd = std::max(maxd, d);
        if (d > 1) ++over1;
      }
    char b[96];
    snprintf(b, sizeof b, "maxdiff %d, %zu pixels off by more than 1", maxd, over1);
    verdict = b;
  }
  printf("%-26s %-40s %dx%d %4.0fdeg lws=%zux%zu px=%dx%d  %.4f ms  copy %.4f ms  %.3fx copy  [%s] (%s)\n",
         kname.c_str(), opts.c_str(), W, H, deg, lws[0], lws[1], PX, PY, mk, mc, mc / mk, verdict.c_str(), name);
  return 0;
}
