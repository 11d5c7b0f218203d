// An integer --arg value must lie in the range of its parameter's type. The
// IR type (i32) does not say whether the source type was signed; the
// operations the model reads the value with do (a signed compare or sext for
// `int`, an unsigned compare, zext or lshr for `unsigned`). A value out of
// range is a usage error: "hroof: static: ...", exit status 2. A value that
// wrapped (3000000000 for an `int`) would make every total 0.
//
// RUN: %hroof-static %s --kernel signed_int --grid 2 --block 128 --arg n=3000000000 > %t.si 2>&1 || echo "exit $?" >> %t.si
// RUN: FileCheck %s --check-prefix=SIGNED < %t.si
// SIGNED: {{^}}hroof: static: --arg n=3000000000: 3000000000 does not fit parameter n of type i32 (signed, as the model reads it: -2147483648 to 2147483647; or its bits in hexadecimal, 0x0 to 0xffffffff) (see hroof static --help){{$}}
// SIGNED-NEXT: exit 2
//
// Its bits in hexadecimal are taken whatever the reading: 0xb2d05e00 is
// -1294967296 as an int, below every thread's index, so nothing is counted.
// RUN: %hroof-static %s --kernel signed_int --grid 2 --block 128 --arg n=0xb2d05e00 | FileCheck %s --check-prefix=SIGNED-BITS
// SIGNED-BITS: flops (all, tensor included)      0{{$}}
// RUN: not %hroof-static %s --kernel signed_int --grid 2 --block 128 --arg n=0x100000000 2>&1 | FileCheck %s --check-prefix=SIGNED-BITS-WIDE
// SIGNED-BITS-WIDE: --arg n=0x100000000: 0x100000000 does not fit parameter n of type i32
//
// The same value for an `unsigned` is in range. 2 x 128 = 256 threads, all
// below n: 256 x (1 FLOP, 4 B load, 4 B store).
// RUN: %hroof-static %s --kernel unsigned_int --grid 2 --block 128 --arg n=3000000000 | FileCheck %s --check-prefix=UNSIGNED
// UNSIGNED:      flops.f32                         256{{$}}
// UNSIGNED-NEXT: bytes.global.load                 1024{{$}}
// UNSIGNED-NEXT: bytes.global.store                1024{{$}}
// RUN: not %hroof-static %s --kernel unsigned_int --grid 2 --block 128 --arg n=-1 2>&1 | FileCheck %s --check-prefix=UNSIGNED-NEG
// UNSIGNED-NEG: {{^}}hroof: static: --arg n=-1: -1 does not fit parameter n of type i32 (unsigned, as the model reads it: 0 to 4294967295; or its bits in hexadecimal, 0x0 to 0xffffffff) (see hroof static --help){{$}}
//
// short: read through sext from 16 bits. s = -1 compares as 0xffffffff with
// the unsigned threadIdx.x: all 64 threads store (4 B each).
// RUN: not %hroof-static %s --kernel narrow --grid 1 --block 64 --arg s=40000 --arg c=1 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: {{^}}hroof: static: --arg s=40000: 40000 does not fit parameter s of type i16 (signed, as the model reads it: -32768 to 32767; or its bits in hexadecimal, 0x0 to 0xffff) (see hroof static --help){{$}}
// RUN: %hroof-static %s --kernel narrow --grid 1 --block 64 --arg s=-1 --arg c=200 | FileCheck %s --check-prefix=SHORT-OK
// SHORT-OK: bytes.global.store                256{{$}}
// c is only converted to float, which the model does not read: either range
// of an 8-bit integer is accepted (200 above), and the error says both.
// RUN: not %hroof-static %s --kernel narrow --grid 1 --block 64 --arg s=1 --arg c=300 2>&1 | FileCheck %s --check-prefix=CHAR
// CHAR: {{^}}hroof: static: --arg c=300: 300 does not fit parameter c of type i8 (-128 to 127 signed or 0 to 255 unsigned; the model does not say which; or its bits in hexadecimal, 0x0 to 0xff) (see hroof static --help){{$}}
//
// 64-bit: the whole unsigned range (above INT64_MAX too), the signed one.
// 32 threads, all below u and l: 32 x (1 FLOP, 4 B load, 4 B store).
// RUN: %hroof-static %s --kernel wide --grid 1 --block 32 --arg u=18446744073709551615 --arg l=9223372036854775807 | FileCheck %s --check-prefix=WIDE
// WIDE:      flops.f32                         32{{$}}
// WIDE-NEXT: bytes.global.load                 128{{$}}
// RUN: not %hroof-static %s --kernel wide --grid 1 --block 32 --arg u=18446744073709551616 --arg l=1 2>&1 | FileCheck %s --check-prefix=WIDE-U
// WIDE-U: {{^}}hroof: static: --arg u=18446744073709551616: 18446744073709551616 does not fit parameter u of type i64 (unsigned, as the model reads it: 0 to 18446744073709551615; or its bits in hexadecimal, 0x0 to 0xffffffffffffffff) (see hroof static --help){{$}}
// RUN: not %hroof-static %s --kernel wide --grid 1 --block 32 --arg u=1 --arg l=9223372036854775808 2>&1 | FileCheck %s --check-prefix=WIDE-L
// WIDE-L: {{^}}hroof: static: --arg l=9223372036854775808: 9223372036854775808 does not fit parameter l of type i64 (signed, as the model reads it: -9223372036854775808 to 9223372036854775807; or its bits in hexadecimal, 0x0 to 0xffffffffffffffff) (see hroof static --help){{$}}
//
// Read both ways (slt n, and lshr n): either range; 3000000000 is then
// -1294967296 to the signed compare, which no thread passes.
// RUN: %hroof-static %s --kernel both_ways --grid 1 --block 64 --arg n=3000000000 | FileCheck %s --check-prefix=BOTH
// BOTH: flops (all, tensor included)      0{{$}}
// RUN: not %hroof-static %s --kernel both_ways --grid 1 --block 64 --arg n=5000000000 2>&1 | FileCheck %s --check-prefix=BOTH-OUT
// BOTH-OUT: (-2147483648 to 2147483647 signed or 0 to 4294967295 unsigned; the model reads it both ways; or its bits in hexadecimal, 0x0 to 0xffffffff)
//
// Fields of a by-value struct: p+0 is an int, p+4 an unsigned. 64 threads
// below p.n = 64 (and p.m): 64 FLOPs.
// RUN: %hroof-static %s --kernel fields --grid 1 --block 128 --arg p+0=64 --arg p+4=3000000000 | FileCheck %s --check-prefix=FIELDS
// FIELDS: flops.f32                         64{{$}}
// RUN: not %hroof-static %s --kernel fields --grid 1 --block 128 --arg p+0=3000000000 --arg p+4=3 2>&1 | FileCheck %s --check-prefix=FIELD-SIGNED
// FIELD-SIGNED: {{^}}hroof: static: --arg p+0=3000000000: 3000000000 does not fit field p+0 of type i32 (signed, as the model reads it: -2147483648 to 2147483647; or its bits in hexadecimal, 0x0 to 0xffffffff) (see hroof static --help){{$}}

__global__ void signed_int(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2.f * y[i];
}

__global__ void unsigned_int(unsigned n, float *y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2.f * y[i];
}

__global__ void narrow(char c, short s, float *y) {
  if (threadIdx.x < s)
    y[threadIdx.x] = c;
}

__global__ void wide(unsigned long long u, long long l, float *y) {
  unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < u && (long long)i < l)
    y[i] = 2.f * y[i];
}

__global__ void both_ways(int n, float *y) {
  if ((int)threadIdx.x < n && threadIdx.x < (unsigned)n / 2)
    y[threadIdx.x] = 2.f * y[threadIdx.x];
}

struct Fields {
  int n;      // byte 0
  unsigned m; // byte 4
};

__global__ void fields(Fields p, float *y) {
  if ((int)threadIdx.x < p.n && threadIdx.x < p.m)
    y[threadIdx.x] = 2.f * y[threadIdx.x];
}
