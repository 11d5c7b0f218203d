// Shift loops of every form passes/ShiftLoop.h recognizes, each with one f32
// add per iteration, for shift-loop-bruteforce.test: a = arg0, b = arg1.
#define BODY acc += x[s & 7]
#define STORE out[blockIdx.x * blockDim.x + threadIdx.x] = acc

__global__ void rshift_gt(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  for (unsigned s = a; s > b; s >>= 1)
    BODY;
  STORE;
}
__global__ void rshift2_ge(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  for (unsigned s = a; s >= (b | 1); s >>= 2)
    BODY;
  STORE;
}
__global__ void sdiv_ne0(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  for (int s = (int)(a & 0x7fffffff); s != 0; s /= 2)
    BODY;
  STORE;
}
__global__ void lshift_lt(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  for (unsigned s = (a & 0xffff) | 1; s < (b & 0xfffffff); s <<= 1)
    BODY;
  STORE;
}
__global__ void mul4_le(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  for (unsigned s = (a & 0xffff) | 1; s <= (b & 0xfffffff); s *= 4)
    BODY;
  STORE;
}
__global__ void tid_below(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  for (unsigned s = a; s > 0; s >>= 1)
    if (threadIdx.x < s)
      BODY;
  STORE;
}
__global__ void tid_from(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  for (unsigned s = a; s > b; s >>= 1)
    if (threadIdx.x >= s)
      BODY;
  STORE;
}
// A 64-bit unsigned variable halved to 0, from a start known below 2^63
// (HeCBench complex's exponentiation by squaring).
__global__ void rshift64_ne0(unsigned a, unsigned b, const float *x, float *out) {
  float acc = 0.0f;
  for (unsigned long long s = ((unsigned long long)a << 24) | b; s != 0; s >>= 1)
    BODY;
  STORE;
}
