// A source file that does not compile: one clear `hroof:` line naming the file
// and the first compiler error, non-zero exit.
//
// RUN: not %hroof-static %s --grid 1 --block 32 2>&1 | FileCheck %s
// RUN: not %hroof-static %s --grid 1 --block 32 2>&1 | wc -l | FileCheck %s --check-prefix=ONE
//
// CHECK: {{^}}hroof: '{{.*}}bad-input-does-not-compile.cu' does not compile: {{.*}}error: use of undeclared identifier 'undefined_thing'
// ONE: {{^ *}}1{{$}}

__global__ void broken(float *x) { x[0] = undefined_thing; }
