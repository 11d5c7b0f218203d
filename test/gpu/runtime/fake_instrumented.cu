// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// fake_instrumented.cu - a CUDA program that carries, written by hand, what
// the hroof pass adds to an instrumented module (the runtime's interface):
//   __hroof_counters_<mangled>  unsigned long long[NumCounters] per instrumented kernel
//   __hroof_model               the module's static model, NUL-terminated JSON
// Kernels have extern "C" linkage so <mangled> is their plain name. Each
// thread adds its own known counts with atomics; the static model says the
// same, so the runtime must report dynamic == static == hand-derived.
//
//   fake_instrumented [main|fault|nosync|graphfirst|repeat [ROUNDS]]
// main: saxpy launches through cudaLaunchKernel (several sizes, 4 host threads
//       on 4 streams), cudaLaunchKernelEx, cooperative launch, a CUDA graph
//       (captured, launched twice), and an uninstrumented kernel.
// fault: an instrumented kernel that traps; the program reports the error and
//        exits 3 (the runtime must keep the launches before it).
// nosync: launches and returns from main without synchronizing.
// graphfirst: the module's first kernel launch is captured into a graph (in
//             global mode, on a blocking stream); the program must still
//             exit 0 under the runtime.
// repeat: two kernels of one shape each, ROUNDS (16) launches each.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

// Counter indices and the array's size from the one layout (it was once
// written out here and fell behind when the warp-level counters were added).
#include "hroof/CounterLayout.h"
using hroof::NumCounters;
constexpr int FlopsF32 = hroof::flopsIndex(hroof::Precision::F32);
constexpr int BytesGlobalLoad = hroof::bytesIndex(hroof::MemSpace::Global, hroof::MemDir::Load);
constexpr int BytesGlobalStore = hroof::bytesIndex(hroof::MemSpace::Global, hroof::MemDir::Store);

extern "C" {
__device__ unsigned long long __hroof_counters_fake_saxpy[NumCounters];
__device__ unsigned long long __hroof_counters_fake_fault[NumCounters];
}

// One thread i < n: y[i] = a*x[i] + y[i]: 1 fma (2 flops), 8 B loaded, 4 stored.
extern "C" __device__ const char __hroof_model[] = R"({
 "hroof_static_model": 1, "source": "fake_instrumented.cu", "arch": "sm_90",
 "kernels": [
  {"name": "fake_saxpy", "mangled": "fake_saxpy", "exact": true,
   "params": [{"name": "n", "type": "i32"}, {"name": "a", "type": "float"},
              {"name": "x", "type": "ptr"}, {"name": "y", "type": "ptr"}],
   "terms": [{"where": "fake_saxpy:body",
              "counts": {"flops.f32": 2, "bytes.global.load": 8, "bytes.global.store": 4},
              "factors": [["icmp", "slt", 32,
                           ["add", ["mul", ["sreg", "ctaid.x"], ["sreg", "ntid.x"]], ["sreg", "tid.x"]],
                           ["arg", 0]]]}]},
  {"name": "fake_fault", "mangled": "fake_fault", "exact": true,
   "params": [{"name": "p", "type": "ptr"}],
   "terms": [{"where": "fake_fault:entry", "counts": {"flops.f32": 1}, "factors": []}]}
 ]})";

extern "C" __global__ void fake_saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = a * x[i] + y[i];
    atomicAdd(&__hroof_counters_fake_saxpy[FlopsF32], 2ull);
    atomicAdd(&__hroof_counters_fake_saxpy[BytesGlobalLoad], 8ull);
    atomicAdd(&__hroof_counters_fake_saxpy[BytesGlobalStore], 4ull);
  }
}

extern "C" __global__ void fake_fault(int *p) {
  atomicAdd(&__hroof_counters_fake_fault[FlopsF32], 1ull);
  if (threadIdx.x == 0 && blockIdx.x == 1)
    *(volatile int *)(p + (1ll << 40)) = 1; // far outside any allocation
}

// Not instrumented: no counter array.
extern "C" __global__ void plain_scale(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] *= 2.0f;
}

#define CHECK(X)                                                                                   \
  do {                                                                                             \
    cudaError_t E_ = (X);                                                                          \
    if (E_ != cudaSuccess) {                                                                       \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorName(E_), __FILE__, __LINE__);           \
      return 2;                                                                                    \
    }                                                                                              \
  } while (0)

static int runMain() {
  const int N = 1 << 20;
  float *X, *Y;
  CHECK(cudaMalloc(&X, N * sizeof(float)));
  CHECK(cudaMalloc(&Y, N * sizeof(float)));
  CHECK(cudaMemset(X, 0, N * sizeof(float)));
  CHECK(cudaMemset(Y, 0, N * sizeof(float)));
  // Sizes: exact multiple, guarded tail, fewer threads than n (n > grid*block).
  int Sizes[][3] = {{N, 4096, 256}, {1000, 4, 256}, {5000, 4, 256}, {12345, 49, 256}};
  for (auto &S : Sizes)
    fake_saxpy<<<S[1], S[2]>>>(S[0], 2.0f, X, Y);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  // 4 host threads, 4 streams, 8 launches each, n differs per launch.
  std::vector<std::thread> Ts;
  std::vector<int> Err(4, 0);
  for (int T = 0; T < 4; ++T)
    Ts.emplace_back([&, T] {
      cudaStream_t S;
      if (cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking) != cudaSuccess) {
        Err[T] = 1;
        return;
      }
      for (int L = 0; L < 8; ++L) {
        int n = 1000 * (T + 1) + 7 * L;
        fake_saxpy<<<(n + 127) / 128, 128, 0, S>>>(n, 1.0f, X, Y);
      }
      Err[T] |= cudaStreamSynchronize(S) != cudaSuccess;
      cudaStreamDestroy(S);
    });
  for (auto &T : Ts)
    T.join();
  for (int E : Err)
    if (E)
      return 2;
  // cudaLaunchKernelEx.
  {
    cudaLaunchConfig_t C = {};
    C.gridDim = dim3(8);
    C.blockDim = dim3(64);
    CHECK(cudaLaunchKernelEx(&C, fake_saxpy, 500, 3.0f, (const float *)X, Y));
  }
  // Cooperative launch.
  {
    int n = 777;
    float a = 1.5f;
    void *Args[] = {&n, &a, &X, &Y};
    CHECK(cudaLaunchCooperativeKernel((void *)fake_saxpy, dim3(4), dim3(256), Args));
  }
  CHECK(cudaDeviceSynchronize());
  // Graph: captured, launched twice (reported, not attributed).
  {
    cudaStream_t S;
    CHECK(cudaStreamCreate(&S));
    cudaGraph_t G;
    cudaGraphExec_t GE;
    CHECK(cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal));
    fake_saxpy<<<2, 128, 0, S>>>(200, 1.0f, X, Y);
    plain_scale<<<2, 128, 0, S>>>(Y, 256);
    CHECK(cudaStreamEndCapture(S, &G));
    CHECK(cudaGraphInstantiate(&GE, G, 0));
    CHECK(cudaGraphLaunch(GE, S));
    CHECK(cudaGraphLaunch(GE, S));
    CHECK(cudaStreamSynchronize(S));
  }
  // Uninstrumented kernel, 3 launches.
  for (int I = 0; I < 3; ++I)
    plain_scale<<<N / 256, 256>>>(Y, N);
  CHECK(cudaDeviceSynchronize());
  std::printf("fake_instrumented: main done\n");
  return 0;
}

/// The module's first kernel launch is inside a global-mode capture on a
/// blocking stream: nothing the runtime does at a module's first launch
/// (it reads __hroof_model) may invalidate the capture.
static int runGraphFirst() {
  float *X, *Y;
  if (cudaMalloc(&X, 4096) != cudaSuccess || cudaMalloc(&Y, 4096) != cudaSuccess)
    return 2;
  cudaStream_t S;
  cudaGraph_t G;
  cudaGraphExec_t GE;
  CHECK(cudaStreamCreate(&S));
  CHECK(cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal));
  fake_saxpy<<<2, 128, 0, S>>>(200, 1.0f, X, Y);
  CHECK(cudaStreamEndCapture(S, &G));
  CHECK(cudaGraphInstantiate(&GE, G, 0));
  CHECK(cudaGraphLaunch(GE, S));
  CHECK(cudaStreamSynchronize(S));
  std::printf("fake_instrumented: graphfirst done\n");
  return 0;
}

static int runFault() {
  int *P;
  float *X, *Y;
  if (cudaMalloc(&P, 1024) != cudaSuccess || cudaMalloc(&X, 4096) != cudaSuccess ||
      cudaMalloc(&Y, 4096) != cudaSuccess)
    return 2;
  fake_saxpy<<<4, 256>>>(1000, 1.0f, X, Y); // completes: must be kept
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 2;
  fake_fault<<<2, 32>>>(P);
  cudaError_t E = cudaDeviceSynchronize();
  std::printf("fake_instrumented: fault run: %s\n", cudaGetErrorName(E));
  return E == cudaSuccess ? 0 : 3;
}

static int runNoSync() {
  float *Y;
  if (cudaMalloc(&Y, (1 << 24) * sizeof(float)) != cudaSuccess)
    return 2;
  float *X;
  if (cudaMalloc(&X, (1 << 24) * sizeof(float)) != cudaSuccess)
    return 2;
  fake_saxpy<<<(1 << 24) / 256, 256>>>(1 << 24, 1.0f, X, Y);
  for (int I = 0; I < 20; ++I)
    plain_scale<<<(1 << 24) / 256, 256>>>(Y, 1 << 24);
  std::printf("fake_instrumented: nosync returns without synchronizing\n");
  return 0; // no cudaDeviceSynchronize
}

/// Two shapes launched ROUNDS times each with the same arguments: what
/// application replay (HROOF_REPLAY=application) gathers its groups from;
/// kernel and application replay must agree on their counters
/// (test/gpu/runtime/app-replay.sh).
static int runRepeat(int Rounds) {
  const int N = 1 << 22;
  float *X, *Y;
  CHECK(cudaMalloc(&X, N * sizeof(float)));
  CHECK(cudaMalloc(&Y, N * sizeof(float)));
  CHECK(cudaMemset(X, 0, N * sizeof(float)));
  CHECK(cudaMemset(Y, 0, N * sizeof(float)));
  for (int R = 0; R < Rounds; ++R) {
    fake_saxpy<<<N / 256, 256>>>(N, 2.0f, X, Y);
    plain_scale<<<N / 256, 256>>>(Y, N);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::printf("fake_instrumented: repeat %d done\n", Rounds);
  return 0;
}

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "main";
  if (!std::strcmp(Mode, "repeat"))
    return runRepeat(argc > 2 ? std::atoi(argv[2]) : 16);
  if (!std::strcmp(Mode, "fault"))
    return runFault();
  if (!std::strcmp(Mode, "nosync"))
    return runNoSync();
  if (!std::strcmp(Mode, "graphfirst"))
    return runGraphFirst();
  return runMain();
}
