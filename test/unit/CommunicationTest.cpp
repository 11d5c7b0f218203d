//===- CommunicationTest.cpp - which kernels are communication ------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// hroof/Communication.h on kernel names as the libraries spell them (NCCL
// before and after 2.19, PyTorch's intra-node all-reduce) and on compute
// kernels whose names merely look alike.
//===----------------------------------------------------------------------===//
#include "hroof/Communication.h"

#include <gtest/gtest.h>

using namespace hroof;

TEST(Communication, NcclDeviceKernels) {
  CommunicationKernel K =
      communicationKernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)");
  EXPECT_EQ(K.Library, "NCCL");
  EXPECT_EQ(K.Collective, "AllReduce");
  EXPECT_EQ(communicationLabel(K), "NCCL AllReduce");
  EXPECT_EQ(communicationKernel("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(x)").Collective,
            "ReduceScatter");
  EXPECT_EQ(communicationKernel("ncclDevKernel_AllGather_RING_LL(x)").Collective, "AllGather");
  EXPECT_EQ(communicationKernel("ncclDevKernel_Broadcast_RING_LL(x)").Collective, "Broadcast");
  EXPECT_EQ(communicationKernel("ncclDevKernel_Reduce_Sum_f32_RING_LL(x)").Collective, "Reduce");
  EXPECT_EQ(communicationKernel("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)")
                .Collective,
            "SendRecv");
  // The generic kernel runs whatever it is given: the library, no collective.
  CommunicationKernel G = communicationKernel("ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)");
  EXPECT_EQ(G.Library, "NCCL");
  EXPECT_EQ(G.Collective, "");
  EXPECT_EQ(communicationLabel(G), "NCCL");
}

TEST(Communication, OlderNcclAndOtherLibraries) {
  EXPECT_EQ(communicationKernel("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned "
                                "long, ncclWork*)")
                .Collective,
            "AllReduce");
  EXPECT_EQ(communicationKernel("_Z30ncclKernel_AllGather_RING_LL_SumiP11ncclDevCommmP8ncclWork")
                .Library,
            "NCCL");
  CommunicationKernel T = communicationKernel(
      "void c10d::intra_node_comm::oneShotAllReduceKernel<(unsigned long)8>(float*, unsigned "
      "long, unsigned long, c10d::intra_node_comm::P2pState**, float**, unsigned long)");
  EXPECT_EQ(T.Library, "PyTorch c10d");
  EXPECT_EQ(T.Collective, "AllReduce");
}

TEST(Communication, ComputeKernelsAreNot) {
  for (const char *Name :
       {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float> >(float*)",
        "my_allreduce(float*, int)", "sgemm_128x64_nn", "saxpy(int, float, float const*, float*)",
        "cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x3_nn_align4>(Params)",
        // Communication types as parameters or template arguments only.
        "fused_update(ncclDevComm*, float*)", "pack<nvshmem_team_t>(float*)"})
    EXPECT_FALSE(communicationKernel(Name)) << Name;
}
