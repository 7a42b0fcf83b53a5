// Scratch micro-benchmark for kernel experiments (not part of kernelscope).
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>
#define CK(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) { fprintf(stderr, "%s:%d %s = %d\n", __FILE__, __LINE__, #x, e_); exit(1); } } while (0)
static cl_context ctx; static cl_device_id dev; static cl_command_queue q;
static std::string readFile(const char* p) { std::ifstream f(p); std::stringstream s; s << f.rdbuf(); return s.str(); }
static cl_kernel build(const char* file, const char* name, const std::string& opts, const char* dump = nullptr) {
  std::string src = readFile(file); const char* s = src.c_str(); cl_int e;
  cl_program p = clCreateProgramWithSource(ctx, 1, &s, nullptr, &e); CK(e);
  e = clBuildProgram(p, 1, &dev, opts.c_str(), nullptr, nullptr);
  if (e != CL_SUCCESS) { size_t n; clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n); std::string l(n, 0);
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, n, l.data(), nullptr); fprintf(stderr, "build %s %s failed:\n%s\n", name, opts.c_str(), l.c_str()); return nullptr; }
  if (dump) { size_t n; CK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof n, &n, nullptr)); std::string b(n, 0); unsigned char* bp = (unsigned char*)b.data();
    CK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bp, &bp, nullptr)); std::ofstream(dump) << b; }
  cl_kernel k = clCreateKernel(p, name, &e); CK(e);
  size_t wgs = 0; size_t req[3] = {0, 0, 0}; cl_ulong priv = 0;
  clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wgs, &wgs, nullptr);
  clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof req, req, nullptr);
  clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv, &priv, nullptr);
  printf("[%s %s: CL_KERNEL_WORK_GROUP_SIZE %zu, reqd %zux%zux%zu, private %llu]\n", name, opts.c_str(), wgs, req[0], req[1], req[2], (unsigned long long)priv);
  return k;
}
static double median(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
static double timeKernel(cl_kernel k, int dims, const size_t* g, const size_t* l, int iters = -1) {
  if (iters < 0) iters = getenv("ITERS") ? atoi(getenv("ITERS")) : 40;
  std::vector<double> t;
  for (int i = 0; i < iters + 3; ++i) { cl_event ev; cl_int e = clEnqueueNDRangeKernel(q, k, dims, nullptr, g, l, 0, nullptr, &ev);
    if (e != CL_SUCCESS) { fprintf(stderr, "launch failed %d\n", e); return -1; }
    CK(clWaitForEvents(1, &ev)); cl_ulong a, b; clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &a, nullptr);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &b, nullptr); clReleaseEvent(ev); if (i >= 3) t.push_back((b - a) * 1e-6); }
  return median(t);
}
static void fillRandom(std::vector<unsigned char>& h, unsigned long long seed) {
  unsigned long long x = seed; size_t i = 0;
  for (; i + 8 <= h.size(); i += 8) { x += 0x9E3779B97F4A7C15ull; unsigned long long z = x; z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull; z ^= z >> 31; memcpy(&h[i], &z, 8); }
  for (; i < h.size(); ++i) h[i] = (unsigned char)i;
}
static cl_uint cus() { cl_uint n; clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, 4, &n, nullptr); return n; }

int main(int argc, char** argv) {
  cl_uint np; CK(clGetPlatformIDs(0, nullptr, &np)); std::vector<cl_platform_id> ps(np); CK(clGetPlatformIDs(np, ps.data(), nullptr));
  bool found = false;
  for (auto p : ps) if (clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &dev, nullptr) == CL_SUCCESS) { found = true; break; }
  if (!found) CK(clGetDeviceIDs(ps[0], CL_DEVICE_TYPE_ALL, 1, &dev, nullptr));
  cl_int e; ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &e); CK(e);
  cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  q = clCreateCommandQueueWithProperties(ctx, dev, qp, &e); CK(e);
  std::string mode = argv[1];
  const int W = argc > 2 && mode != "hist" && mode != "rot" ? atoi(argv[2]) : 8192, H = W;
  if (mode == "copy") {
    size_t bytes = (size_t)W * H * 4; cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &e); CK(e);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &e); CK(e); cl_uchar z = 1; CK(clEnqueueFillBuffer(q, a, &z, 1, 0, bytes, 0, nullptr, nullptr));
    cl_kernel k = build("kernels/copy.cl", "copy_bytes", ""); cl_ulong n = bytes;
    CK(clSetKernelArg(k, 0, sizeof a, &a)); CK(clSetKernelArg(k, 1, sizeof b, &b)); CK(clSetKernelArg(k, 2, 8, &n));
    size_t g = bytes / 16, l = 256; double ms = timeKernel(k, 1, &g, &l);
    printf("copy RGBA %dx%d: %.4f ms %.1f GB/s\n", W, H, ms, 2.0 * bytes / ms / 1e6);
    return 0;
  }
  if (mode == "hist") {  // hist file kernel opts channels data(random|constant) wg groupsPerCU label
    const char* file = argv[2]; const char* kname = argv[3]; std::string opts = argv[4]; int ch = atoi(argv[5]);
    std::string data = argv[6]; size_t wg = atoi(argv[7]); int gpc = atoi(argv[8]); const char* label = argv[9];
    int mask = ch == 4 ? 7 : 1; { auto pos = opts.find("COUNT_MASK="); if (pos != std::string::npos) mask = strtol(opts.c_str() + pos + 11, nullptr, 0); }
    size_t px = (size_t)8192 * 8192, bytes = px * ch; std::vector<unsigned char> h(bytes);
    if (data == "random") fillRandom(h, 42); else std::fill(h.begin(), h.end(), 77);
    cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, h.data(), &e); CK(e);
    const int hb = ch == 4 ? 5 * 256 : 256; size_t groups = (size_t)cus() * gpc;
    cl_mem part = clCreateBuffer(ctx, CL_MEM_READ_WRITE, groups * hb * 4, nullptr, &e); CK(e);
    std::string dumpPath = std::string(getenv("OUT") && getenv("DUMP") ? getenv("OUT") : "/tmp") + "/" + label + ".ptx";
    cl_kernel k = build(file, kname, opts, dumpPath.c_str()); if (!k) return 0; cl_uint n = px;
    CK(clSetKernelArg(k, 0, sizeof in, &in)); CK(clSetKernelArg(k, 1, 4, &n)); CK(clSetKernelArg(k, 2, sizeof part, &part));
    size_t g = groups * wg; double ms = timeKernel(k, 1, &g, &wg);
    std::vector<cl_uint> p(groups * hb); CK(clEnqueueReadBuffer(q, part, CL_TRUE, 0, p.size() * 4, p.data(), 0, nullptr, nullptr));
    std::vector<unsigned long long> ref(hb, 0), got(hb, 0);
    for (size_t i = 0; i < px; ++i) { if (ch == 1) ref[h[i]]++; else for (int c = 0; c < 4; ++c) if (mask & (1 << c)) ref[c * 256 + h[i * 4 + c]]++;
      if (ch == 4 && (mask & 16)) { unsigned r = h[i*4], gg = h[i*4+1], b = h[i*4+2]; ref[4 * 256 + ((77 * r + 150 * gg + 29 * b + 128) >> 8)]++; } }
    for (size_t gi = 0; gi < groups; ++gi) for (int b = 0; b < hb; ++b) got[b] += p[gi * hb + b];
    bool ok = ref == got;
    printf("hist %-40s %s ch=%d wg=%zu groups/CU=%d: %.4f ms %.1f GB/s %s\n", label, data.c_str(), ch, wg, gpc, ms, bytes / ms / 1e6, ok ? "OK" : "WRONG");
    return 0;
  }
  if (mode == "rot") {  // rot file kernel opts channels wgx wgy ppx ppy label [refdump]
    const char* file = argv[2]; const char* kname = argv[3]; std::string opts = argv[4]; int ch = atoi(argv[5]);
    size_t wx = atoi(argv[6]), wy = atoi(argv[7]); int ppx = atoi(argv[8]), ppy = atoi(argv[9]); const char* label = argv[10];
    size_t px = (size_t)W * H, bytes = px * ch; std::vector<unsigned char> h(bytes); fillRandom(h, 7);
    cl_image_format fmt = {ch == 4 ? (cl_channel_order)CL_RGBA : (cl_channel_order)CL_R, CL_UNORM_INT8};
    cl_image_desc d{}; d.image_type = CL_MEM_OBJECT_IMAGE2D; d.image_width = W; d.image_height = H;
    cl_mem img = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fmt, &d, h.data(), &e); CK(e);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &e); CK(e);
    std::string dumpPath = std::string(getenv("OUT") && getenv("DUMP") ? getenv("OUT") : "/tmp") + "/" + label + ".ptx";
    cl_kernel k = build(file, kname, opts, dumpPath.c_str()); if (!k) return 0;
    double a = 30.0 * M_PI / 180.0; cl_int cq = (cl_int)lround(cos(a) * 65536), sq = (cl_int)lround(sin(a) * 65536), w = W, hh = H;
    cl_uint bg = 0; CK(clSetKernelArg(k, 0, sizeof img, &img)); CK(clSetKernelArg(k, 1, sizeof out, &out));
    CK(clSetKernelArg(k, 2, 4, &w)); CK(clSetKernelArg(k, 3, 4, &hh)); CK(clSetKernelArg(k, 4, 4, &w)); CK(clSetKernelArg(k, 5, 4, &hh));
    CK(clSetKernelArg(k, 6, 4, &cq)); CK(clSetKernelArg(k, 7, 4, &sq)); CK(clSetKernelArg(k, 8, ch == 4 ? 4 : 1, &bg));
    size_t gx = (W / ppx + wx - 1) / wx * wx, gy = (H / ppy + wy - 1) / wy * wy; size_t g[2] = {gx, gy}, l[2] = {wx, wy};
    double ms = timeKernel(k, 2, g, l);
    std::vector<unsigned char> o(bytes); CK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, bytes, o.data(), 0, nullptr, nullptr));
    std::string refPath = std::string("/tmp/rotref") + std::to_string(ch);
    if (argc > 11) { std::ofstream(refPath, std::ios::binary).write((char*)o.data(), bytes); printf("(reference written)\n"); }
    std::vector<unsigned char> r(bytes); std::ifstream(refPath, std::ios::binary).read((char*)r.data(), bytes);
    size_t bad = 0, nz = 0; for (size_t i = 0; i < bytes; ++i) { if (std::abs(o[i] - r[i]) > 1) ++bad; if (o[i]) ++nz; }
    printf("rot %-44s ch=%d wg=%zux%zu blk=%dx%d: %.4f ms %.1f GB/s  mismatches>1: %zu (nonzero %zu)\n", label, ch, wx, wy, ppx, ppy, ms, 2.0 * bytes / ms / 1e6, bad, nz);
    return 0;
  }
  return 1;
}
