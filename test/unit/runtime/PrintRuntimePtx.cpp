// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Prints the PTX of one of the runtime's own kernels for the ctests
// runtime.*-ptxas, which assemble it with ptxas: "l2flush" (L2FlushPtx.h)
// or "counter-sum" (CounterSumPtx.h).
#include "kernels/CounterSumPtx.h"
#include "kernels/L2FlushPtx.h"

#include <cstdio>
#include <cstring>

int main(int argc, char **argv) {
  const char *Which = argc > 1 ? argv[1] : "";
  if (!std::strcmp(Which, "l2flush"))
    std::fputs(hroof::rt::L2FlushPtx, stdout);
  else if (!std::strcmp(Which, "counter-sum"))
    std::fputs(hroof::rt::CounterSumPtx, stdout);
  else {
    std::fprintf(stderr, "usage: %s l2flush|counter-sum\n", argv[0]);
    return 2;
  }
  return 0;
}
