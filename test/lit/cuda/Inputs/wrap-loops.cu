// Loops whose int variable moves by an unsigned step (the add may wrap) and
// is compared, sign-extended, with a 64-bit unsigned bound: the grid-stride
// loop `for (int i = tid; i < size_t n; i += blockDim.x * gridDim.x)`
// (passes/InductionLoop.h, NarrowWrapWidth). For wrap-loop-bruteforce.test:
// with a = arg0 and b = arg1, the bound is 2a + 12345 (from 2^28 to 2^33:
// either side of 2^31), the step b; one f32 add per iteration. (A constant
// bound would let the compiler fold the extension away.)
#define BOUND ((unsigned long long)a * 2 + 12345)
#define BODY acc += x[i & 7]
#define STORE out[blockIdx.x * blockDim.x + threadIdx.x] = acc

// A start below the bound.
__global__ void wrap_lt(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  for (int i = (int)(a >> 3); i < BOUND; i += b)
    BODY;
  STORE;
}
// The same with <=.
__global__ void wrap_le(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  for (int i = (int)(a >> 3); i <= BOUND; i += b)
    BODY;
  STORE;
}
// A start that reads negative as int for a >= 2^31 (the loop is not entered).
__global__ void wrap_any_start(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  for (int i = (int)a; i < BOUND; i += b)
    BODY;
  STORE;
}
