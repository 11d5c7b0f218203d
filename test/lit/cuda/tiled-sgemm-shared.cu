// Tiled shared-memory SGEMM with TILE = 32, C = alpha*A*B + beta*C; M, N, K
// multiples of 32; K/TILE tile steps bound by the argument K.
// M=64, N=96, K=160: grid 3x2 blocks of 32x32 = M*N = 6144 threads, 5 steps.
//
// RUN: %hroof-static %s --grid 3,2 --block 32,32 --arg M=64 --arg N=96 --arg K=160 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

#define TILE 32

__global__ void sgemm32(int M, int N, int K, float alpha, float beta,
                        const float *__restrict__ A, const float *__restrict__ B,
                        float *__restrict__ C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < K / TILE; ++t) {
    As[ty][tx] = A[row * K + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = alpha * acc + beta * C[row * N + col];
}

// Per thread: 5 steps x (8 B global load, 8 B shared store, 32 fma = 64 FLOPs,
// 64 shared loads = 256 B) + epilogue: fmul + fma = 3 FLOPs, 4 B global load
// of C, 4 B global store.
//   flops.f32 = 6144 * (5*64 + 3) = 6144*323 = 1984512
//   global load = 6144 * (5*8 + 4) = 270336, global store = 6144*4 = 24576
//   shared load = 6144 * 5*256 = 7864320, shared store = 6144 * 5*8 = 245760
// CHECK-LABEL: kernel sgemm32(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=270336
// CHECK-NEXT: bytes.global.store=24576
// CHECK-NEXT: bytes.shared.load=7864320
// CHECK-NEXT: bytes.shared.store=245760
// CHECK-NEXT: flops.f32=1984512
// CHECK-NEXT: end
