// A texture fetch (tex2D: inline asm "tex.2d.v4.f32.f32" in clang's CUDA
// headers) is a TEX instruction: it is in neither the SASS byte counters nor
// the LSU sectors that bytes.* and sectors.* equal, and computes no FLOP
// (measured on an H200: test/gpu/counters/tex-bytes.sh, docs/validation/).
// So a kernel that reads a texture stays exact; its bytes are its plain
// loads and stores. 4 blocks x 256 threads = 1024 threads.
//
// RUN: %hroof-static %s --kernel tex_copy --grid 4 --block 256 | FileCheck %s
// RUN: %hroof-static %s --kernel tex_scale --grid 4 --block 256 | FileCheck %s --check-prefix=SCALE

// A thread converts x to float (other.f32 1), adds 0.5f (flops.f32 1),
// fetches once and stores 16 bytes: 1024 x 16 = 16384 bytes stored, nothing
// loaded through bytes.*, and the fetch adds no FLOP.
__global__ void tex_copy(float4 *out, cudaTextureObject_t t) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  out[x] = tex2D<float4>(t, x + 0.5f, 0.5f);
}
// CHECK-LABEL: kernel tex_copy
// CHECK-SAME: [exact]
// CHECK-NOT: unknown:
// CHECK: total:
// CHECK-NEXT: flops.f32 1024
// CHECK-NEXT: other.f32 1024
// CHECK-NEXT: bytes.global.store 16384

// The fetched value scaled by a loaded factor: 1024 x (the coordinate's
// conversion and add as above, 1 fmul, 4 B loaded, 4 B stored).
__global__ void tex_scale(float *out, const float *s, cudaTextureObject_t t) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  out[x] = s[x] * tex2D<float>(t, x + 0.5f, 0.5f);
}
// SCALE-LABEL: kernel tex_scale
// SCALE-SAME: [exact]
// SCALE: total:
// SCALE-NEXT: flops.f32 2048
// SCALE-NEXT: other.f32 1024
// SCALE-NEXT: bytes.global.load 4096
// SCALE-NEXT: bytes.global.store 4096
