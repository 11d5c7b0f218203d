// Loops whose trip counts or branches depend on a loop variable, each with
// one f32 add per innermost execution, for iteration-sum-bruteforce.test:
// a = arg0, b = arg1. Launched with 2 blocks. Loops are kept rolled
// (unroll 1): an unrolled loop's remainder is another shape.
#define BODY acc += x[(a + b) & 7]
// A body the compiler cannot run unconditionally (if-convert): its load
// may fault where the condition is false.
#define GUARDED_BODY(v) acc += x[(v) & 7]
#define STORE out[blockIdx.x * blockDim.x + threadIdx.x] = acc

// The inner trip count is the outer loop's variable.
__global__ void triangular(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  int n = (int)(a % 40u);
#pragma unroll 1
  for (int i = 0; i < n; ++i)
#pragma unroll 1
    for (int j = 0; j < i; ++j)
      BODY;
  STORE;
}
// scalarProd's nest: a block-stride loop, and inside a loop starting at its
// variable with a constant stride.
__global__ void nested_stride(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  int n = (int)(a % 300u);
  for (int i = threadIdx.x; i < 64; i += blockDim.x)
    for (int p = i; p < n; p += 64)
      BODY;
  STORE;
}
// A remainder test of the loop variable.
__global__ void remainder_branch(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  int n = (int)(a % 100u), m = (int)(b % 5u) + 1;
#pragma unroll 1
  for (int k = 0; k < n; ++k)
    if (k % m == 0)
      BODY;
  STORE;
}
// A bit test of the loop variable and the thread index.
__global__ void parity_branch(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  int n = (int)(a % 50u);
#pragma unroll 1
  for (int k = 0; k < n; ++k)
    if ((k + threadIdx.x) & 1)
      BODY;
  STORE;
}
// Interleaved reduction: tid % (2s) == 0 on a halving variable.
__global__ void halving_remainder(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  for (unsigned s = 1u << (a % 8u); s > 0; s >>= 1)
    if (threadIdx.x % (2 * s) == 0)
      BODY;
  STORE;
}
// cuda-samples reduction: unsigned grid-stride loop with a second, guarded
// element per iteration.
__global__ void unsigned_grid_stride(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  unsigned n = a % 5000u;
  unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  unsigned grid = blockDim.x * 2 * gridDim.x;
  while (i < n) {
    BODY;
    if (i + blockDim.x < n)
      GUARDED_BODY(i + blockDim.x);
    i += grid;
  }
  STORE;
}
// A downward outer loop and an inner loop from its variable, stride 3.
__global__ void downward_triangular(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  int n = (int)(a % 50u);
#pragma unroll 1
  for (int i = n; i > 0; --i)
#pragma unroll 1
    for (int j = i; j < 50; j += 3)
      BODY;
  STORE;
}
// As the optimizer leaves them (no pragmas): runtime-unrolled loops whose
// remainder runs before or after the unrolled loop, on a start or exit
// value that reaches it through a phi of the two sides of a branch.
__global__ void triangular_unrolled(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  int n = (int)(a % 40u);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j)
      acc += x[(i + j) & 7];
  STORE;
}
// mnist's apply_grad: each thread a slice [n*g/N, n*(g+1)/N) of the array.
__global__ void slice_unrolled(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  int n = (int)(a % 5000u);
  int g = blockIdx.x * blockDim.x + threadIdx.x, N = blockDim.x * gridDim.x;
  for (int i = n * g / N; i < n * (g + 1) / N; ++i)
    acc += x[i & 7];
  STORE;
}
// A tile-edge branch in a loop unrolled at run time (the remainder's branch
// reads the exit value).
__global__ void tile_edge_unrolled(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  int n = (int)(a % 1000u), tiles = (int)(b % 40u);
  for (int t = 0; t < tiles; ++t) {
    int j = t * 32 + (int)threadIdx.x;
    if (j < n)
      acc += x[j & 7];
  }
  STORE;
}
// Two variables of one loop compared with each other: j moves with i, so
// the compare is no interval of a fixed bound (it is summed).
__global__ void two_variables(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  int n = (int)(a % 300u);
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
    int j = n - 1 - i;
    if (i < j)
      GUARDED_BODY(i + j);
  }
  STORE;
}
// An int variable against a 64-bit bound (fp16ScalarProduct, memtest): the
// latch compares sext(i + stride) with n, the increment cannot wrap (nsw:
// an int stride; i += blockDim.x * gridDim.x adds unsigned and may wrap).
__global__ void int_vs_size_t(unsigned long long a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  unsigned long long n = a;
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    BODY;
  STORE;
}
// The same, where the optimizer keeps i only in 64 bits, incremented as
// sext(trunc(i) + stride) (fp16ScalarProduct: its accumulator is asm's).
__global__ void int_vs_size_t_widened(unsigned long long a, unsigned b, const float *x,
                                      float *out) {
  float acc = 0.0f;
  unsigned long long n = a;
  int stride = blockDim.x * gridDim.x;
  for (int i = threadIdx.x + blockDim.x + blockIdx.x; i < n; i += stride)
    asm("add.f32 %0, %1, %0;" : "+f"(acc) : "f"(x[i]));
  STORE;
}
// An int that may start negative, against a 64-bit bound: sext(i) read
// unsigned is 2^63 or more when i < 0, so a negative value ends the loop.
// Entered without a guard (do-while): the trip count itself must say so.
__global__ void int_vs_size_t_negative_do(unsigned long long a, unsigned b, const float *x,
                                          float *out) {
  float acc = 0.0f;
  unsigned long long n = a >> 2; // i + stride stays below 2^31 (no undefined overflow)
  int i = (int)b >> 1, stride = blockDim.x * gridDim.x; // no sign ScalarEvolution can prove
  do {
    BODY;
    i += stride;
  } while (i < n);
  STORE;
}
// The same in a for loop (its entry guard tests the start).
__global__ void int_vs_size_t_negative_for(unsigned long long a, unsigned b, const float *x,
                                           float *out) {
  float acc = 0.0f;
  unsigned long long n = a >> 2;
  int stride = blockDim.x * gridDim.x;
  for (int i = (int)b >> 1; i < n; i += stride)
    BODY;
  STORE;
}
