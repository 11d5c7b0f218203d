// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The kernels of the warp-level lit tests (test/lit/cuda/warp-*.cu), launched
// on the GPU so that Nsight Compute's counters can be set beside the static
// model's predictions for the same binary (test/gpu/warp/run.sh,
// test/gpu/warp/compare.py). For each launch the program prints one line
//   LAUNCH <kernel> grid=X,Y,Z block=X,Y,Z <name>=<value> ...
// with every argument, pointers included, so `hroof static` can evaluate
// exactly that launch, and one line
//   EXPECT <key>=<value> ... (the 8 warp-level counts)
// hand-derived here on the host from the same launch (the lanes' addresses of
// every request, with the pointer values and index arrays of this run, costed
// byte by byte), which an instrumented build's dynamic counts must equal
// (compare.py). Launch order = ncu's profiling order.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <functional>
#include <map>
#include <set>

#define CHECK(X)                                                                                   \
  do {                                                                                             \
    cudaError_t E_ = (X);                                                                          \
    if (E_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s: %s\n", #X, cudaGetErrorString(E_));                                \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

__global__ void copy_f32(const float *__restrict__ in, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}
__global__ void copy_f4(const float4 *__restrict__ in, float4 *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[i];
  out[i] = make_float4(v.x + 1, v.y + 1, v.z + 1, v.w + 1);
}
__global__ void bcast(const float *__restrict__ in, float *__restrict__ out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[0];
}
__global__ void strided(const float *__restrict__ in, float *__restrict__ out, int s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * s];
}
__global__ void transpose(const float *__restrict__ in, float *__restrict__ out, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x * 4 + threadIdx.y;
  out[x * h + y] = in[y * w + x];
}
__global__ void rows2d(const float *__restrict__ in, float *__restrict__ out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * w + x] = in[y * w + x] * 2.0f;
}
__global__ void strides(float *out, int s) {
  __shared__ float sm[128 * 33];
  sm[threadIdx.x * s] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = sm[threadIdx.x] + sm[0];
}
__global__ void colsum(const float *__restrict__ a, float *__restrict__ out, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int r = 0; r < n; ++r)
    s += a[r * n + c];
  out[c] = s;
}
__global__ void window(const float *__restrict__ in, float *__restrict__ out, int k) {
  float s = 0;
  for (int j = 0; j < k; ++j)
    s += in[j + threadIdx.x];
  out[threadIdx.x] = s;
}
__global__ void gridstride(const float *__restrict__ in, float *__restrict__ out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i] + 1.0f;
}
__global__ void gather(const int *__restrict__ idx, const float *__restrict__ in,
                       float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[idx[i]];
}

// Data-dependent gathers: the index array (with duplicates) decides the
// addresses; no static model can know them, the dynamic counts must.
__global__ void gather_dup(const int *__restrict__ idx, const float *__restrict__ in,
                           const float4 *__restrict__ in4, float *__restrict__ out,
                           float4 *__restrict__ out4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = idx[i];
  out[i] = in[j];
  float4 v = in4[j];
  out4[i] = make_float4(v.x * 2, v.y * 2, v.z * 2, v.w * 2);
}
// Shared gathers of 4, 8 and 16 bytes (blockDim.x == 256): bank conflicts set
// by the data.
__global__ void shared_gather(const int *__restrict__ idx, float *__restrict__ out) {
  __shared__ float sf[256];
  __shared__ double sd[256];
  __shared__ float4 s4[256];
  int t = threadIdx.x;
  sf[t] = t;
  sd[t] = t;
  s4[t] = make_float4(t, t + 1, t + 2, t + 3);
  __syncthreads();
  int i = blockIdx.x * blockDim.x + t;
  int j = idx[i];
  float a = sf[j % 256];
  double b = sd[(j * 3) % 256];
  float4 c = s4[(j * 5) % 256];
  out[i] = a + float(b) + c.x + c.y + c.z + c.w;
}

static void line(const char *K, dim3 G, dim3 B, const char *Args) {
  std::printf("LAUNCH %s grid=%u,%u,%u block=%u,%u,%u %s\n", K, G.x, G.y, G.z, B.x, B.y, B.z, Args);
}

//===--- Hand-derived warp-level counts --------------------------------------===//
// Independent of the model's code (common/src/WarpModel.cpp): every byte of
// every active lane goes into sets. A warp is 32 consecutive linear thread
// indices; a request costs its distinct bytes, its distinct 32-byte sectors
// (global) and, for shared memory, per group of lanes that fits one 128-byte
// pass (32 lanes of <= 4 bytes, 16 of 8, 8 of 16) the most distinct 4-byte
// words in one bank, summed over the groups. Shared addresses are offsets in
// their variable: a base that is a multiple of the width only renames banks.
enum { WBGL, WBGS, WBSL, WBSS, SECL, SECS, WAVL, WAVS, NKEYS };
static const char *KeyNames[NKEYS] = {"warp_bytes.global.load", "warp_bytes.global.store",
                                      "warp_bytes.shared.load", "warp_bytes.shared.store",
                                      "sectors.global.load",    "sectors.global.store",
                                      "wavefronts.shared.load", "wavefronts.shared.store"};
struct Expect {
  unsigned long long V[NKEYS] = {};
};
enum Space { Global, Shared };
enum Dir { Load, Store };
/// Address of one lane's access, or false when the lane does not make it.
using AddrFn = std::function<bool(dim3 Cta, dim3 Tid, unsigned long long &Addr)>;

static void request(Expect &E, Space S, Dir D, unsigned W, const bool *On,
                    const unsigned long long *A) {
  std::set<unsigned long long> Bytes, Sectors;
  for (int L = 0; L < 32; ++L)
    for (unsigned B = 0; On[L] && B < W; ++B) {
      Bytes.insert(A[L] + B);
      Sectors.insert((A[L] + B) / 32);
    }
  if (S == Global) {
    E.V[D == Load ? WBGL : WBGS] += Bytes.size();
    E.V[D == Load ? SECL : SECS] += Sectors.size();
    return;
  }
  E.V[D == Load ? WBSL : WBSS] += Bytes.size();
  int G = W <= 4 ? 32 : 32 / int(W / 4);
  for (int G0 = 0; G0 < 32; G0 += G) {
    std::map<unsigned long long, std::set<unsigned long long>> Bank;
    for (int L = G0; L < G0 + G; ++L)
      for (unsigned B = 0; On[L] && B < W; ++B)
        Bank[(A[L] + B) / 4 % 32].insert((A[L] + B) / 4);
    size_t Most = 0;
    for (auto &KV : Bank)
      Most = std::max(Most, KV.second.size());
    E.V[D == Load ? WAVL : WAVS] += Most;
  }
}

/// One request per warp of the launch (an instruction every warp runs once).
static void each(Expect &E, dim3 G, dim3 B, Space S, Dir D, unsigned W, const AddrFn &F) {
  unsigned NT = B.x * B.y * B.z;
  for (unsigned Z = 0; Z < G.z; ++Z)
    for (unsigned Y = 0; Y < G.y; ++Y)
      for (unsigned X = 0; X < G.x; ++X)
        for (unsigned W0 = 0; W0 < NT; W0 += 32) {
          bool On[32] = {};
          unsigned long long A[32] = {};
          for (unsigned L = 0; L < 32 && W0 + L < NT; ++L) {
            unsigned T = W0 + L;
            dim3 Tid(T % B.x, T / B.x % B.y, T / (B.x * B.y));
            On[L] = F(dim3(X, Y, Z), Tid, A[L]);
          }
          if (std::count(On, On + 32, true))
            request(E, S, D, W, On, A);
        }
}

static void expect(const Expect &E) {
  std::printf("EXPECT");
  for (int K = 0; K < NKEYS; ++K)
    std::printf(" %s=%llu", KeyNames[K], E.V[K]);
  std::printf("\n");
}

using U = unsigned long long;
/// Linear index along x of a 1-D launch.
static U gx(dim3 C, dim3 T, dim3 B) { return U(C.x) * B.x + T.x; }

// The buffers of the run and their values (the LAUNCH lines print them).
static float *A, *B;
static int *Idx, *Dup;
static int HostIdx[4096], HostDup[4096];
static U PA, PB, PI, PD;
static char Buf[512];
static const dim3 G1(1), G2(2), B128(128);
static U P(const void *X) { return (U)X; }

/// Coalesced, broadcast, strided and 2-D global accesses.
static void globalLaunches() {
  // copy_f32: in[i] and out[i] where i < n.
  auto CopyF32 = [&](U In, int n, dim3 G, dim3 Bl) {
    Expect E;
    auto F = [&](U Base) {
      return [=](dim3 C, dim3 T, U &Ad) {
        Ad = Base + 4 * gx(C, T, Bl);
        return gx(C, T, Bl) < U(n);
      };
    };
    each(E, G, Bl, Global, Load, 4, F(In));
    each(E, G, Bl, Global, Store, 4, F(PB));
    expect(E);
  };
  std::snprintf(Buf, sizeof Buf, "in=%#llx out=%#llx n=1000000", P(A), P(B));
  line("copy_f32", 2, 128, Buf);
  CopyF32(PA, 1000000, 2, 128);
  copy_f32<<<2, 128>>>(A, B, 1000000);
  std::snprintf(Buf, sizeof Buf, "in=%#llx out=%#llx n=1000000", P(A + 1), P(B));
  line("copy_f32", 2, 128, Buf); // base 4 bytes past a sector boundary
  CopyF32(PA + 4, 1000000, 2, 128);
  copy_f32<<<2, 128>>>(A + 1, B, 1000000);
  std::snprintf(Buf, sizeof Buf, "in=%#llx out=%#llx n=100", P(A), P(B));
  line("copy_f32", 1, 128, Buf);
  CopyF32(PA, 100, 1, 128);
  copy_f32<<<1, 128>>>(A, B, 100);

  std::snprintf(Buf, sizeof Buf, "in=%#llx out=%#llx", P(A), P(B));
  line("copy_f4", 2, 128, Buf);
  {
    Expect E;
    each(E, G2, B128, Global, Load, 16, [&](dim3 C, dim3 T, U &Ad) {
      Ad = PA + 16 * gx(C, T, B128);
      return true;
    });
    each(E, G2, B128, Global, Store, 16, [&](dim3 C, dim3 T, U &Ad) {
      Ad = PB + 16 * gx(C, T, B128);
      return true;
    });
    expect(E);
  }
  copy_f4<<<2, 128>>>((const float4 *)A, (float4 *)B);
  line("bcast", 2, 128, Buf);
  {
    Expect E;
    each(E, G2, B128, Global, Load, 4, [&](dim3, dim3, U &Ad) {
      Ad = PA;
      return true;
    });
    each(E, G2, B128, Global, Store, 4, [&](dim3 C, dim3 T, U &Ad) {
      Ad = PB + 4 * gx(C, T, B128);
      return true;
    });
    expect(E);
  }
  bcast<<<2, 128>>>(A, B);
  for (int S : {2, 32}) {
    std::snprintf(Buf, sizeof Buf, "in=%#llx out=%#llx s=%d", P(A), P(B), S);
    line("strided", 2, 128, Buf);
    Expect E;
    each(E, G2, B128, Global, Load, 4, [&](dim3 C, dim3 T, U &Ad) {
      Ad = PA + 4 * gx(C, T, B128) * S;
      return true;
    });
    each(E, G2, B128, Global, Store, 4, [&](dim3 C, dim3 T, U &Ad) {
      Ad = PB + 4 * gx(C, T, B128);
      return true;
    });
    expect(E);
    strided<<<2, 128>>>(A, B, S);
  }
  std::snprintf(Buf, sizeof Buf, "in=%#llx out=%#llx w=32 h=32", P(A), P(B));
  line("transpose", 2, 128, Buf);
  {
    Expect E;
    const dim3 &Bt = B128; // 1-D: threadIdx.y == 0
    each(E, G2, Bt, Global, Load, 4, [&](dim3 C, dim3 T, U &Ad) {
      Ad = PA + 4 * ((C.x * 4 + T.y) * 32 + T.x);
      return true;
    });
    each(E, G2, Bt, Global, Store, 4, [&](dim3 C, dim3 T, U &Ad) {
      Ad = PB + 4 * (T.x * 32 + C.x * 4 + T.y);
      return true;
    });
    expect(E);
  }
  transpose<<<2, 128>>>(A, B, 32, 32);
  struct {
    dim3 Block;
    int W;
  } Rows[] = {{dim3(8, 16), 64}, {dim3(8, 16), 65}, {dim3(16, 8), 65}};
  for (auto R : Rows) {
    std::snprintf(Buf, sizeof Buf, "in=%#llx out=%#llx w=%d", P(A), P(B), R.W);
    line("rows2d", dim3(1, 1), R.Block, Buf);
    Expect E;
    auto F = [&](U Base) {
      return [=](dim3 C, dim3 T, U &Ad) {
        U X = U(C.x) * R.Block.x + T.x, Y = U(C.y) * R.Block.y + T.y;
        Ad = Base + 4 * (Y * R.W + X);
        return true;
      };
    };
    each(E, dim3(1, 1), R.Block, Global, Load, 4, F(PA));
    each(E, dim3(1, 1), R.Block, Global, Store, 4, F(PB));
    expect(E);
    rows2d<<<dim3(1, 1), R.Block>>>(A, B, R.W);
  }
}

/// Shared strides, loops and a grid-stride loop.
static void sharedAndLoopLaunches() {
  for (int S : {1, 2, 32, 33}) {
    std::snprintf(Buf, sizeof Buf, "out=%#llx s=%d", P(B), S);
    line("strides", 1, 128, Buf);
    Expect E;
    each(E, G1, B128, Shared, Store, 4, [&](dim3, dim3 T, U &Ad) {
      Ad = 4 * U(T.x) * S;
      return true;
    });
    each(E, G1, B128, Shared, Load, 4, [&](dim3, dim3 T, U &Ad) {
      Ad = 4 * U(T.x);
      return true;
    });
    each(E, G1, B128, Shared, Load, 4, [&](dim3, dim3, U &Ad) {
      Ad = 0;
      return true;
    });
    each(E, G1, B128, Global, Store, 4, [&](dim3, dim3 T, U &Ad) {
      Ad = PB + 4 * U(T.x);
      return true;
    });
    expect(E);
    strides<<<1, 128>>>(B, S);
  }
  std::snprintf(Buf, sizeof Buf, "a=%#llx out=%#llx n=64", P(A), P(B));
  line("colsum", 1, 64, Buf);
  {
    Expect E;
    for (int R = 0; R < 64; ++R)
      each(E, G1, dim3(64), Global, Load, 4, [&](dim3, dim3 T, U &Ad) {
        Ad = PA + 4 * (U(R) * 64 + T.x);
        return true;
      });
    each(E, G1, dim3(64), Global, Store, 4, [&](dim3, dim3 T, U &Ad) {
      Ad = PB + 4 * U(T.x);
      return true;
    });
    expect(E);
  }
  colsum<<<1, 64>>>(A, B, 64);
  std::snprintf(Buf, sizeof Buf, "in=%#llx out=%#llx k=16", P(A), P(B));
  line("window", 1, 64, Buf);
  {
    Expect E;
    for (int J = 0; J < 16; ++J)
      each(E, G1, dim3(64), Global, Load, 4, [&](dim3, dim3 T, U &Ad) {
        Ad = PA + 4 * (U(J) + T.x);
        return true;
      });
    each(E, G1, dim3(64), Global, Store, 4, [&](dim3, dim3 T, U &Ad) {
      Ad = PB + 4 * U(T.x);
      return true;
    });
    expect(E);
  }
  window<<<1, 64>>>(A, B, 16);
  std::snprintf(Buf, sizeof Buf, "in=%#llx out=%#llx n=1000", P(A), P(B));
  line("gridstride", 2, 128, Buf);
  {
    // Lanes leave the loop as their index passes n: iteration It of each warp.
    Expect E;
    for (U It = 0; It < 4; ++It)
      for (int K = 0; K < 2; ++K)
        each(E, G2, B128, Global, K ? Store : Load, 4, [&](dim3 C, dim3 T, U &Ad) {
          U Base = K ? PB : PA;
          U I = gx(C, T, B128) + It * 256;
          Ad = Base + 4 * I;
          return I < 1000;
        });
    expect(E);
  }
  gridstride<<<2, 128>>>(A, B, 1000);
}

/// Gathers through index arrays.
static void gatherLaunches() {
  std::snprintf(Buf, sizeof Buf, "idx=%#llx in=%#llx out=%#llx", P(Idx), P(A), P(B));
  line("gather", 1, 64, Buf);
  {
    Expect E;
    const dim3 B64(64);
    each(E, G1, B64, Global, Load, 4, [&](dim3, dim3 T, U &Ad) {
      Ad = PI + 4 * U(T.x);
      return true;
    });
    each(E, G1, B64, Global, Load, 4, [&](dim3, dim3 T, U &Ad) {
      Ad = PA + 4 * U(HostIdx[T.x]);
      return true;
    });
    each(E, G1, B64, Global, Store, 4, [&](dim3, dim3 T, U &Ad) {
      Ad = PB + 4 * U(T.x);
      return true;
    });
    expect(E);
  }
  gather<<<1, 64>>>(Idx, A, B);
  // Data-dependent gathers with duplicate indices (HostDup).
  const dim3 G4(4), B256(256);
  std::snprintf(Buf, sizeof Buf, "idx=%#llx in=%#llx in4=%#llx out=%#llx out4=%#llx", PD, PA, PA,
                PB, PB + 4 * 4096);
  line("gather_dup", 4, 256, Buf);
  {
    Expect E;
    auto J = [&](dim3 C, dim3 T) { return U(HostDup[gx(C, T, B256)]); };
    each(E, G4, B256, Global, Load, 4, [&](dim3 C, dim3 T, U &Ad) {
      Ad = PD + 4 * gx(C, T, B256);
      return true;
    });
    each(E, G4, B256, Global, Load, 4, [&](dim3 C, dim3 T, U &Ad) {
      Ad = PA + 4 * J(C, T);
      return true;
    });
    each(E, G4, B256, Global, Store, 4, [&](dim3 C, dim3 T, U &Ad) {
      Ad = PB + 4 * gx(C, T, B256);
      return true;
    });
    each(E, G4, B256, Global, Load, 16, [&](dim3 C, dim3 T, U &Ad) {
      Ad = PA + 16 * J(C, T);
      return true;
    });
    each(E, G4, B256, Global, Store, 16, [&](dim3 C, dim3 T, U &Ad) {
      Ad = PB + 4 * 4096 + 16 * gx(C, T, B256);
      return true;
    });
    expect(E);
  }
  gather_dup<<<4, 256>>>(Dup, A, (const float4 *)A, B, (float4 *)(B + 4096));
  std::snprintf(Buf, sizeof Buf, "idx=%#llx out=%#llx", PD, PB);
  line("shared_gather", 4, 256, Buf);
  {
    Expect E;
    auto J = [&](dim3 C, dim3 T) { return U(HostDup[gx(C, T, B256)]); };
    each(E, G4, B256, Shared, Store, 4, [&](dim3, dim3 T, U &Ad) {
      Ad = 4 * U(T.x);
      return true;
    });
    each(E, G4, B256, Shared, Store, 8, [&](dim3, dim3 T, U &Ad) {
      Ad = 8 * U(T.x);
      return true;
    });
    each(E, G4, B256, Shared, Store, 16, [&](dim3, dim3 T, U &Ad) {
      Ad = 16 * U(T.x);
      return true;
    });
    each(E, G4, B256, Global, Load, 4, [&](dim3 C, dim3 T, U &Ad) {
      Ad = PD + 4 * gx(C, T, B256);
      return true;
    });
    each(E, G4, B256, Shared, Load, 4, [&](dim3 C, dim3 T, U &Ad) {
      Ad = 4 * (J(C, T) % 256);
      return true;
    });
    each(E, G4, B256, Shared, Load, 8, [&](dim3 C, dim3 T, U &Ad) {
      Ad = 8 * (J(C, T) * 3 % 256);
      return true;
    });
    each(E, G4, B256, Shared, Load, 16, [&](dim3 C, dim3 T, U &Ad) {
      Ad = 16 * (J(C, T) * 5 % 256);
      return true;
    });
    each(E, G4, B256, Global, Store, 4, [&](dim3 C, dim3 T, U &Ad) {
      Ad = PB + 4 * gx(C, T, B256);
      return true;
    });
    expect(E);
  }
  shared_gather<<<4, 256>>>(Dup, B);
}

int main() {
  const size_t N = 1 << 22; // floats per buffer: large enough for every launch
  CHECK(cudaMalloc(&A, N * sizeof(float)));
  CHECK(cudaMalloc(&B, N * sizeof(float)));
  CHECK(cudaMalloc(&Idx, 4096 * sizeof(int)));
  CHECK(cudaMalloc(&Dup, 4096 * sizeof(int)));
  CHECK(cudaMemset(A, 0, N * sizeof(float)));
  for (int I = 0; I < 4096; ++I) {
    HostIdx[I] = (I * 37) % 4096;
    // Duplicates: lane pairs share an index, every 7th is moved by 5.
    HostDup[I] = ((I / 2) * 37 + (I % 7 == 0 ? 5 : 0)) % 4096;
  }
  CHECK(cudaMemcpy(Idx, HostIdx, sizeof HostIdx, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(Dup, HostDup, sizeof HostDup, cudaMemcpyHostToDevice));
  PA = P(A), PB = P(B), PI = P(Idx), PD = P(Dup);
  globalLaunches();
  sharedAndLoopLaunches();
  gatherLaunches();
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaGetLastError());
  std::printf("done\n");
  return 0;
}
