// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Prints the PTX of the runtime's L2 flush kernel (runtime/src/L2FlushPtx.h)
// for the ctest runtime.l2flush-ptxas, which assembles it with ptxas.
#include "L2FlushPtx.h"

#include <cstdio>

int main() {
  std::fputs(hroof::rt::L2FlushPtx, stdout);
  return 0;
}
