// `if (stats != nullptr)`: a kernel's pointer argument compared with null is
// a launch parameter like an integer argument (passes/ExprBuilder.cpp,
// buildPointer): the runtime has its value; `hroof static` takes it from
// --arg (0 for null) and otherwise assumes an allocation, not null, and
// says so. Exact either way.
//
// RUN: %hroof-static %s --grid 4 --block 64 --arg n=256 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s --check-prefix=SET
// RUN: %hroof-static %s --grid 4 --block 64 --arg n=256 \
// RUN:   | FileCheck %s --check-prefix=ASSUMES
// RUN: %hroof-static %s --grid 4 --block 64 --arg n=256 --arg stats=0 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s --check-prefix=NULL
// RUN: %hroof-static %s --grid 4 --block 64 --arg n=256 --arg stats=0x7f0000000000 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s --check-prefix=SET
// RUN: %hroof-static %s --grid 4 --block 64 --arg n=256 --arg stats=0x7f0000000000 \
// RUN:   | FileCheck %s --check-prefix=GIVEN

__global__ void optional_stats(const float *__restrict__ x, float *__restrict__ y,
                               float *__restrict__ stats, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = v * 2.0f;
    if (stats != nullptr && threadIdx.x == 0)
      stats[blockIdx.x] = v + 1.0f;
  }
}

// 256 threads, n = 256: each loads x[i] and stores y[i] (1024 B each way),
// one FMUL; with stats set, thread 0 of each of the 4 blocks adds one FADD
// and stores 4 B more.
// SET-LABEL: kernel optional_stats(
// SET-NEXT: exact=true
// SET-NEXT: bytes.global.load=1024
// SET-NEXT: bytes.global.store=1040
// SET-NEXT: flops.f32=260
// SET-NEXT: end
// ASSUMES: assumes: pointer stats is not null (an allocation); give its value (0 for null) to use another
// NULL-LABEL: kernel optional_stats(
// NULL-NEXT: exact=true
// NULL-NEXT: bytes.global.load=1024
// NULL-NEXT: bytes.global.store=1024
// NULL-NEXT: flops.f32=256
// NULL-NEXT: end
// GIVEN-NOT: assumes: pointer stats
