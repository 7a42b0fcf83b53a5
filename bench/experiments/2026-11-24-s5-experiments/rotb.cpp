// Tiny harness for scratch/rot_alu.cl (experimental ALU bilinear rotation, gray8).
// build: g++ -O2 -std=c++17 -o scratch/rotb scratch/rotb.cpp -lOpenCL
// usage: rotb KERNEL.cl "-D options" W H ANGLE_DEG [BACKGROUND]
// env:   ITERS (timed runs, default 40), SKIPREF=1 (no CPU reference),
//        PATTERN=rand|const|grad (default rand), LABEL (first field of the output line)
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

static void die(const char* what, cl_int e)
{
    printf("ERROR %s (%d)\n", what, (int)e);
    exit(1);
}
#define CK(x)                                   \
    do {                                        \
        cl_int e_ = (x);                        \
        if (e_ != CL_SUCCESS) die(#x, e_);      \
    } while (0)

// value of -DNAME=v in the options string, else dflt (defaults match rot_alu.cl)
static int opt(const std::string& o, const char* name, int dflt)
{
    std::string key = std::string("-D") + name + "=";
    size_t p = o.find(key);
    if (p == std::string::npos) return dflt;
    return atoi(o.c_str() + p + key.size());
}

// CPU reference, exactly the project's geometry (see brief / kernel header).
static void reference(const uint8_t* in, uint8_t* out, int inW, int inH, int outW, int outH,
                      int cosQ, int sinQ, uint8_t bg)
{
    auto tap = [&](long long x, long long y) -> long long {
        return (x >= 0 && x < inW && y >= 0 && y < inH) ? in[y * (long long)inW + x] : bg;
    };
    for (int y = 0; y < outH; ++y)
        for (int x = 0; x < outW; ++x) {
            long long px = 2LL * x + 1 - outW, py = 2LL * y + 1 - outH;
            long long qx = (long long)cosQ * px + (long long)sinQ * py + ((long long)inW << 16);
            long long qy = -(long long)sinQ * px + (long long)cosQ * py + ((long long)inH << 16);
            qx -= 65536;
            qy -= 65536;
            long long x0 = qx >> 17, y0 = qy >> 17;  // arithmetic shift = floor
            long long fx = (qx >> 5) & 4095, fy = (qy >> 5) & 4095;
            long long top = tap(x0, y0) * (4096 - fx) + tap(x0 + 1, y0) * fx;
            long long bot = tap(x0, y0 + 1) * (4096 - fx) + tap(x0 + 1, y0 + 1) * fx;
            out[(size_t)y * outW + x] = (uint8_t)((top * (4096 - fy) + bot * fy + (1LL << 23)) >> 24);
        }
}

int main(int argc, char** argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: %s kernel.cl \"-D opts\" W H angle_deg [bg]\n", argv[0]);
        return 2;
    }
    const char* kfile = argv[1];
    std::string opts = argv[2];
    const int W = atoi(argv[3]), H = atoi(argv[4]);
    const double deg = atof(argv[5]);
    const int bgv = argc > 6 ? atoi(argv[6]) : 0;
    const int iters = getenv("ITERS") ? std::max(1, atoi(getenv("ITERS"))) : 40;
    const bool skipref = getenv("SKIPREF") && atoi(getenv("SKIPREF")) != 0;
    const std::string pattern = getenv("PATTERN") ? getenv("PATTERN") : "rand";
    const std::string label = getenv("LABEL") ? getenv("LABEL") : "alu";

    const int TW = opt(opts, "TW", 64), TH = opt(opts, "TH", 32);
    const int PX = opt(opts, "PX", 8), PY = opt(opts, "PY", 2);
    const size_t lws[2] = {(size_t)(TW / PX), (size_t)(TH / PY)};
    const size_t gws[2] = {(size_t)((W + TW - 1) / TW) * lws[0], (size_t)((H + TH - 1) / TH) * lws[1]};

    // ---- device: first GPU, else anything ----
    cl_uint np = 0;
    CK(clGetPlatformIDs(0, nullptr, &np));
    std::vector<cl_platform_id> plats(np);
    CK(clGetPlatformIDs(np, plats.data(), nullptr));
    cl_device_id dev = nullptr;
    for (auto p : plats) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &dev, &nd) == CL_SUCCESS && nd) break;
        dev = nullptr;
    }
    if (!dev)
        for (auto p : plats) {
            cl_uint nd = 0;
            if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dev, &nd) == CL_SUCCESS && nd) break;
            dev = nullptr;
        }
    if (!dev) die("no OpenCL device", -1);
    char dname[256] = {0};
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof dname, dname, nullptr);

    cl_int err;
    cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
    CK(err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    CK(err);

    std::ifstream f(kfile);
    if (!f) die("cannot open kernel file", -1);
    std::stringstream ss;
    ss << f.rdbuf();
    std::string src = ss.str();
    const char* s = src.c_str();
    cl_program prog = clCreateProgramWithSource(ctx, 1, &s, nullptr, &err);
    CK(err);
    if (clBuildProgram(prog, 1, &dev, opts.c_str(), nullptr, nullptr) != CL_SUCCESS) {
        size_t n = 0;
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
        std::string log(n, 0);
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n, &log[0], nullptr);
        printf("%s %s %dx%d BUILD FAILED\n%s\n", label.c_str(), opts.c_str(), W, H, log.c_str());
        return 1;
    }
    cl_kernel k = clCreateKernel(prog, "rotate_gray_quads", &err);
    CK(err);

    // ---- data ----
    const size_t N = (size_t)W * H;
    std::vector<uint8_t> in(N), out(N, 0xCD), ref(N);
    uint32_t st = 0x12345678u;
    for (size_t i = 0; i < N; ++i) {
        if (pattern == "const")
            in[i] = 77;
        else if (pattern == "grad")
            in[i] = (uint8_t)(((i % W) * 3 + (i / W) * 5) & 255);
        else {
            st ^= st << 13; st ^= st >> 17; st ^= st << 5;  // xorshift32
            in[i] = (uint8_t)(st >> 24);
        }
    }
    const double a = deg * M_PI / 180.0;
    const int cosQ = (int)lround(cos(a) * 65536), sinQ = (int)lround(sin(a) * 65536);
    const cl_uchar bg = (cl_uchar)bgv;

    cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N, in.data(), &err);
    CK(err);
    cl_mem dout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR, N, out.data(), &err);
    CK(err);
    CK(clSetKernelArg(k, 0, sizeof din, &din));
    CK(clSetKernelArg(k, 1, sizeof dout, &dout));
    CK(clSetKernelArg(k, 2, sizeof(int), &W));
    CK(clSetKernelArg(k, 3, sizeof(int), &H));
    CK(clSetKernelArg(k, 4, sizeof(int), &W));
    CK(clSetKernelArg(k, 5, sizeof(int), &H));
    CK(clSetKernelArg(k, 6, sizeof(int), &cosQ));
    CK(clSetKernelArg(k, 7, sizeof(int), &sinQ));
    CK(clSetKernelArg(k, 8, sizeof(cl_uchar), &bg));

    std::vector<double> t;
    for (int i = 0; i < 3 + iters; ++i) {
        cl_event ev;
        CK(clEnqueueNDRangeKernel(q, k, 2, nullptr, gws, lws, 0, nullptr, &ev));
        CK(clWaitForEvents(1, &ev));
        cl_ulong t0, t1;
        CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, nullptr));
        CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, nullptr));
        clReleaseEvent(ev);
        if (i >= 3) t.push_back((t1 - t0) * 1e-6);
    }
    std::sort(t.begin(), t.end());
    const double ms = t[t.size() / 2];
    CK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, N, out.data(), 0, nullptr, nullptr));

    char verdict[96];
    if (skipref) {
        snprintf(verdict, sizeof verdict, "max diff - (ref skipped)");
    } else {
        reference(in.data(), ref.data(), W, H, W, H, cosQ, sinQ, bg);
        int md = 0;
        size_t nbad = 0;
        for (size_t i = 0; i < N; ++i) {
            int d = abs((int)out[i] - (int)ref[i]);
            md = std::max(md, d);
            nbad += d > 1;
        }
        snprintf(verdict, sizeof verdict, "max diff %d %s%s", md, md <= 1 ? "OK" : "WRONG",
                 nbad ? (" bad=" + std::to_string(nbad)).c_str() : "");
    }
    printf("%s [%s] %dx%d %.3gdeg %s lws=%zux%zu  %.4f ms  %.1f GB/s  %s  (%s)\n", label.c_str(), opts.c_str(),
           W, H, deg, pattern.c_str(), lws[0], lws[1], ms, 2.0 * N / ms / 1e6, verdict, dname);
    return 0;
}
